import { languagePlugin } from './define.js';

/** Java idioms: servlets and filters, `main`, streams, executors, exceptions, builders, JUnit. */
export const JAVA_PLUGIN = languagePlugin('java', 'java', [
  {
    concept: 'JAVA_ENTRY_POINT',
    phrases: ['entry point', 'main method', 'application class', 'static main'],
    targets: ['Application.main', 'Main.main', 'App.main', 'Application', 'Launcher', 'Bootstrap'],
  },
  {
    concept: 'JAVA_SERVLET',
    phrases: ['servlet', 'http servlet', 'do get', 'do post', 'request dispatcher', 'servlet context'],
    targets: ['HttpServlet', 'Servlet', 'doGet', 'doPost', 'HttpServletRequest', 'HttpServletResponse', 'ServletContext', 'RequestDispatcher'],
  },
  {
    concept: 'JAVA_FILTER',
    phrases: ['servlet filter', 'filter chain', 'request filter', 'once per request'],
    targets: ['Filter', 'doFilter', 'FilterChain', 'OncePerRequestFilter', 'FilterConfig', 'doFilterInternal'],
  },
  {
    concept: 'JAVA_COMPARISON',
    phrases: ['comparable', 'comparator', 'sort order', 'compare to', 'natural ordering'],
    targets: ['Comparable', 'Comparator', 'compareTo', 'compare', 'comparing'],
  },
  {
    concept: 'JAVA_STREAMS',
    phrases: ['stream api', 'collectors', 'lambda', 'map filter reduce', 'optional value'],
    targets: ['Stream', 'Collectors', 'collect', 'stream', 'Optional', 'forEach', 'flatMap'],
  },
  {
    concept: 'JAVA_CONCURRENCY',
    phrases: ['executor service', 'thread pool', 'completable future', 'synchronized', 'concurrent map', 'runnable'],
    targets: ['ExecutorService', 'Executors', 'CompletableFuture', 'ThreadPoolExecutor', 'ConcurrentHashMap', 'Runnable', 'Callable', 'Future'],
  },
  {
    concept: 'JAVA_EXCEPTIONS',
    phrases: ['checked exception', 'custom exception', 'throws clause', 'exception hierarchy', 'runtime exception'],
    targets: ['Exception', 'RuntimeException', 'IllegalArgumentException', 'IllegalStateException', 'Throwable', 'IOException'],
  },
  {
    concept: 'JAVA_BUILDER',
    phrases: ['builder pattern', 'fluent builder', 'immutable object', 'builder class'],
    targets: ['Builder', 'builder', 'toBuilder', 'newBuilder'],
  },
  {
    concept: 'JAVA_IO',
    phrases: ['input stream', 'output stream', 'file reader', 'nio path', 'buffered reader'],
    targets: ['InputStream', 'OutputStream', 'BufferedReader', 'Files', 'Paths', 'Reader', 'Writer'],
  },
  {
    concept: 'JAVA_LOGGING',
    phrases: ['slf4j', 'log4j', 'logger', 'logging'],
    targets: ['Logger', 'LoggerFactory', 'getLogger', 'LogManager'],
  },
  {
    concept: 'JAVA_TESTING',
    phrases: ['junit', 'mockito', 'test case', 'assertion', 'beforeeach'],
    targets: ['BeforeEach', 'AfterEach', 'assertEquals', 'assertThat', 'Mockito', 'verify', 'assertThrows'],
  },
  {
    concept: 'JAVA_ANNOTATIONS',
    phrases: ['annotation', 'custom annotation', 'annotation processor', 'reflection'],
    targets: ['Annotation', 'Retention', 'AnnotationProcessor', 'getAnnotation', 'AbstractProcessor', 'isAnnotationPresent'],
  },
]);
