import { defineEquivalenceClasses } from '../../define.js';

/**
 * Static-site generators (Jekyll, Hugo, Eleventy and kin), in the vocabulary their
 * documentation shares: the site, pages and posts, layouts and templates, converters, front
 * matter, collections, permalinks, generators and plugins.
 */
export default defineEquivalenceClasses({
  framework: 'static-site',
  language: ['ruby', 'go', 'javascript', 'typescript', 'python'],
  source: 'framework',
  classes: [
    {
      concept: 'SSG_SITE',
      phrases: ['site generation', 'build site', 'site build', 'generate site', 'site configuration', 'site object'],
      targets: ['Site', 'Site.process', 'Site.render', 'Site.write', 'Site.read', 'Site.generate', 'SiteBuilder'],
    },
    {
      concept: 'SSG_PAGES',
      phrases: ['page object', 'static page', 'page rendering', 'page url', 'page data'],
      targets: ['Page', 'Page.render', 'PageWithoutAFile', 'Convertible', 'Document'],
    },
    {
      concept: 'SSG_POSTS',
      phrases: ['blog post', 'post date', 'post excerpt', 'draft post', 'related posts'],
      targets: ['Post.content', 'Excerpt', 'Draft', 'PostReader', 'related_posts', 'RelatedPosts'],
    },
    {
      concept: 'SSG_LAYOUTS',
      phrases: ['page layout', 'layout file', 'default layout', 'nested layout'],
      targets: ['Layout', 'render_layout', 'place_in_layout', 'LayoutReader'],
    },
    {
      concept: 'SSG_TEMPLATES',
      phrases: ['liquid template', 'liquid tag', 'liquid filter', 'include tag', 'shortcode', 'template engine'],
      targets: ['Liquid', 'Filters', 'IncludeTag', 'LiquidRenderer', 'Shortcode', 'render_liquid', 'Template'],
    },
    {
      concept: 'SSG_CONVERTERS',
      phrases: ['markdown converter', 'markdown rendering', 'kramdown', 'convert markdown', 'syntax highlighting', 'converter plugin'],
      targets: ['Converter', 'Markdown', 'Kramdown', 'convert', 'Converters', 'Highlight', 'MarkdownRenderer'],
    },
    {
      concept: 'SSG_FRONT_MATTER',
      phrases: ['front matter', 'yaml front matter', 'page metadata', 'front matter defaults'],
      targets: ['FrontMatter', 'Frontmatter', 'FrontmatterDefaults', 'front_matter', 'read_yaml'],
    },
    {
      concept: 'SSG_COLLECTIONS',
      phrases: ['site collection', 'custom collection', 'collection documents', 'collection config'],
      targets: ['Collection', 'collections', 'Document', 'docs'],
    },
    {
      concept: 'SSG_PERMALINKS',
      phrases: ['permalink', 'pretty urls', 'url template', 'permalink style', 'slug'],
      targets: ['permalink', 'URLTemplate', 'Slugify', 'slugify', 'url_placeholders', 'Permalink'],
    },
    {
      concept: 'SSG_GENERATORS_PLUGINS',
      phrases: ['site generator', 'generator plugin', 'custom generator', 'plugin hooks', 'plugin manager'],
      targets: ['Generator', 'PluginManager', 'Hooks', 'generate', 'Hooks.register', 'Hooks.trigger'],
    },
    {
      concept: 'SSG_STATIC_ASSETS',
      phrases: ['static file', 'asset pipeline', 'sass conversion', 'copy static files'],
      targets: ['StaticFile', 'Assets', 'SassConverter', 'Scss', 'Sass'],
    },
    {
      concept: 'SSG_SERVE_WATCH',
      phrases: ['local server', 'watch mode', 'incremental build', 'live reload', 'regenerate site'],
      targets: ['Watcher', 'Regenerator', 'LiveReload', 'ServeCommand', 'incremental'],
    },
    {
      concept: 'SSG_DATA_FILES',
      phrases: ['data files', 'site data', 'data reader', 'yaml data'],
      targets: ['DataReader', 'site_data', 'read_data_file'],
    },
  ],
});
