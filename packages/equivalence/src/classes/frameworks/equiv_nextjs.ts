import { defineEquivalenceClasses } from '../../define.js';

/** Next.js, in the vocabulary of its documentation: the pages and app routers, data fetching, middleware. */
export default defineEquivalenceClasses({
  framework: 'nextjs',
  language: ['typescript', 'javascript'],
  source: 'framework',
  classes: [
    {
      concept: 'NEXT_PAGES_ROUTER',
      phrases: ['pages router', 'get server side props', 'get static props', 'get static paths', 'page component'],
      targets: ['getServerSideProps', 'getStaticProps', 'getStaticPaths', 'NextPage', 'GetServerSideProps', 'GetStaticProps'],
    },
    {
      concept: 'NEXT_APP_ROUTER',
      phrases: ['app router', 'server component', 'route segment', 'generate static params', 'generate metadata', 'loading ui'],
      targets: ['generateStaticParams', 'generateMetadata', 'RootLayout', 'notFound', 'LayoutRouter', 'AppRouter'],
    },
    {
      concept: 'NEXT_ROUTE_HANDLERS',
      phrases: ['route handler', 'api route', 'next request', 'next response', 'api handler'],
      targets: ['NextRequest', 'NextResponse', 'NextApiRequest', 'NextApiResponse', 'apiResolver', 'NextApiHandler'],
    },
    {
      concept: 'NEXT_MIDDLEWARE',
      phrases: ['next middleware', 'edge middleware', 'middleware matcher', 'rewrite request'],
      targets: ['NextMiddleware', 'matcher', 'NextResponse.rewrite', 'NextResponse.next', 'adapter'],
    },
    {
      concept: 'NEXT_DATA_CACHE',
      phrases: ['server action', 'revalidate path', 'revalidate tag', 'incremental static regeneration', 'fetch cache'],
      targets: ['revalidatePath', 'revalidateTag', 'unstable_cache', 'IncrementalCache', 'revalidate'],
    },
    {
      concept: 'NEXT_NAVIGATION',
      phrases: ['use router', 'next link', 'use pathname', 'search params', 'client navigation', 'prefetch route'],
      targets: ['useRouter', 'usePathname', 'useSearchParams', 'Link', 'prefetch', 'navigate'],
    },
    {
      concept: 'NEXT_CONFIG',
      phrases: ['next config', 'custom webpack config', 'rewrites and redirects', 'image domains', 'experimental flag'],
      targets: ['NextConfig', 'loadConfig', 'rewrites', 'redirects', 'getNextConfig', 'normalizeConfig'],
    },
    {
      concept: 'NEXT_IMAGE_FONT',
      phrases: ['next image', 'image optimization', 'image loader', 'next font'],
      targets: ['ImageProps', 'imageLoader', 'defaultLoader', 'getImgProps', 'ImageConfig', 'imageOptimizer'],
    },
    {
      concept: 'NEXT_CUSTOM_DOCUMENT',
      phrases: ['custom document', 'custom app', 'app component', 'document head', 'get initial props'],
      targets: ['Document', 'AppProps', 'DocumentContext', 'getInitialProps', 'NextScript'],
    },
  ],
});
