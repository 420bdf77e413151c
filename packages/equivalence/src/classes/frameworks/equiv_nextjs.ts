import { builtinPlugin } from '../../validate.js';
import { concept } from '../concept.js';

/** Next.js, in the vocabulary of its documentation: the pages and app routers, data fetching, middleware. */
export default builtinPlugin({
  framework: 'nextjs',
  language: ['typescript', 'javascript'],
  source: 'framework',
  classes: [
    concept('NEXT_PAGES_ROUTER', ['pages router', 'get server side props', 'get static props', 'get static paths', 'page component'], [
      'getServerSideProps', 'getStaticProps', 'getStaticPaths', 'NextPage', 'GetServerSideProps', 'GetStaticProps',
    ]),
    concept('NEXT_APP_ROUTER', ['app router', 'server component', 'route segment', 'generate static params', 'generate metadata', 'loading ui'], [
      'generateStaticParams', 'generateMetadata', 'RootLayout', 'notFound', 'LayoutRouter', 'AppRouter',
    ]),
    concept('NEXT_ROUTE_HANDLERS', ['route handler', 'api route', 'next request', 'next response', 'api handler'], [
      'NextRequest', 'NextResponse', 'NextApiRequest', 'NextApiResponse', 'apiResolver', 'NextApiHandler',
    ]),
    concept('NEXT_MIDDLEWARE', ['next middleware', 'edge middleware', 'middleware matcher', 'rewrite request'], [
      'NextMiddleware', 'matcher', 'NextResponse.rewrite', 'NextResponse.next', 'adapter',
    ]),
    concept('NEXT_DATA_CACHE', ['server action', 'revalidate path', 'revalidate tag', 'incremental static regeneration', 'fetch cache'], [
      'revalidatePath', 'revalidateTag', 'unstable_cache', 'IncrementalCache', 'revalidate',
    ]),
    concept('NEXT_NAVIGATION', ['use router', 'next link', 'use pathname', 'search params', 'client navigation', 'prefetch route'], [
      'useRouter', 'usePathname', 'useSearchParams', 'Link', 'prefetch', 'navigate',
    ]),
    concept('NEXT_CONFIG', ['next config', 'custom webpack config', 'rewrites and redirects', 'image domains', 'experimental flag'], [
      'NextConfig', 'loadConfig', 'rewrites', 'redirects', 'getNextConfig', 'normalizeConfig',
    ]),
    concept('NEXT_IMAGE_FONT', ['next image', 'image optimization', 'image loader', 'next font'], [
      'ImageProps', 'imageLoader', 'defaultLoader', 'getImgProps', 'ImageConfig', 'imageOptimizer',
    ]),
    concept('NEXT_CUSTOM_DOCUMENT', ['custom document', 'custom app', 'app component', 'document head', 'get initial props'], [
      'Document', 'AppProps', 'DocumentContext', 'getInitialProps', 'NextScript',
    ]),
  ],
});
