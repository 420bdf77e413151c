import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/**
 * Static-site generators (Jekyll, Hugo, Eleventy and kin), in the vocabulary their
 * documentation shares: the site, pages and posts, layouts and templates, converters, front
 * matter, collections, permalinks, generators and plugins.
 */
export default builtinPlugin({
  framework: 'static-site',
  language: ['ruby', 'go', 'javascript', 'typescript', 'python'],
  source: 'framework',
  classes: [
    concept('SSG_SITE', ['site generation', 'build site', 'site build', 'generate site', 'site configuration', 'site object'], [
      'Site', 'Site.process', 'Site.render', 'Site.write', 'Site.read', 'Site.generate', 'SiteBuilder',
    ]),
    concept('SSG_PAGES', ['page object', 'static page', 'page rendering', 'page url', 'page data'], [
      'Page', 'Page.render', 'PageWithoutAFile', 'Convertible', 'Document',
    ]),
    concept('SSG_POSTS', ['blog post', 'post date', 'post excerpt', 'draft post', 'related posts'], [
      'Post.content', 'Excerpt', 'Draft', 'PostReader', 'related_posts', 'RelatedPosts',
    ]),
    concept('SSG_LAYOUTS', ['page layout', 'layout file', 'default layout', 'nested layout'], [
      'Layout', 'render_layout', 'place_in_layout', 'LayoutReader',
    ]),
    concept('SSG_TEMPLATES', ['liquid template', 'liquid tag', 'liquid filter', 'include tag', 'shortcode', 'template engine'], [
      'Liquid', 'Filters', 'IncludeTag', 'LiquidRenderer', 'Shortcode', 'render_liquid', 'Template',
    ]),
    concept('SSG_CONVERTERS', ['markdown converter', 'markdown rendering', 'kramdown', 'convert markdown', 'syntax highlighting', 'converter plugin'], [
      'Converter', 'Markdown', 'Kramdown', 'convert', 'Converters', 'Highlight', 'MarkdownRenderer',
    ]),
    concept('SSG_FRONT_MATTER', ['front matter', 'yaml front matter', 'page metadata', 'front matter defaults'], [
      'FrontMatter', 'Frontmatter', 'FrontmatterDefaults', 'front_matter', 'read_yaml',
    ]),
    concept('SSG_COLLECTIONS', ['site collection', 'custom collection', 'collection documents', 'collection config'], [
      'Collection', 'collections', 'Document', 'docs',
    ]),
    concept('SSG_PERMALINKS', ['permalink', 'pretty urls', 'url template', 'permalink style', 'slug'], [
      'permalink', 'URLTemplate', 'Slugify', 'slugify', 'url_placeholders', 'Permalink',
    ]),
    concept('SSG_GENERATORS_PLUGINS', ['site generator', 'generator plugin', 'custom generator', 'plugin hooks', 'plugin manager'], [
      'Generator', 'PluginManager', 'Hooks', 'generate', 'Hooks.register', 'Hooks.trigger',
    ]),
    concept('SSG_STATIC_ASSETS', ['static file', 'asset pipeline', 'sass conversion', 'copy static files'], [
      'StaticFile', 'Assets', 'SassConverter', 'Scss', 'Sass',
    ]),
    concept('SSG_SERVE_WATCH', ['local server', 'watch mode', 'incremental build', 'live reload', 'regenerate site'], [
      'Watcher', 'Regenerator', 'LiveReload', 'ServeCommand', 'incremental',
    ]),
    concept('SSG_DATA_FILES', ['data files', 'site data', 'data reader', 'yaml data'], [
      'DataReader', 'site_data', 'read_data_file',
    ]),
  ],
});
