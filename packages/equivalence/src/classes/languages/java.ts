import { concept } from '../concept.js';
import { languagePlugin } from './define.js';

/** Java idioms: servlets and filters, `main`, streams, executors, exceptions, builders, JUnit. */
export const JAVA_PLUGIN = languagePlugin('java', 'java', [
  concept('JAVA_ENTRY_POINT', ['entry point', 'main method', 'application class', 'static main'], [
    'Application.main', 'Main.main', 'App.main', 'Application', 'Launcher', 'Bootstrap',
  ]),
  concept('JAVA_SERVLET', ['servlet', 'http servlet', 'do get', 'do post', 'request dispatcher', 'servlet context'], [
    'HttpServlet', 'Servlet', 'doGet', 'doPost', 'HttpServletRequest', 'HttpServletResponse', 'ServletContext', 'RequestDispatcher',
  ]),
  concept('JAVA_FILTER', ['servlet filter', 'filter chain', 'request filter', 'once per request'], [
    'Filter', 'doFilter', 'FilterChain', 'OncePerRequestFilter', 'FilterConfig', 'doFilterInternal',
  ]),
  concept('JAVA_COMPARISON', ['comparable', 'comparator', 'sort order', 'compare to', 'natural ordering'], [
    'Comparable', 'Comparator', 'compareTo', 'compare', 'comparing',
  ]),
  concept('JAVA_STREAMS', ['stream api', 'collectors', 'lambda', 'map filter reduce', 'optional value'], [
    'Stream', 'Collectors', 'collect', 'stream', 'Optional', 'forEach', 'flatMap',
  ]),
  concept('JAVA_CONCURRENCY', ['executor service', 'thread pool', 'completable future', 'synchronized', 'concurrent map', 'runnable'], [
    'ExecutorService', 'Executors', 'CompletableFuture', 'ThreadPoolExecutor', 'ConcurrentHashMap', 'Runnable', 'Callable', 'Future',
  ]),
  concept('JAVA_EXCEPTIONS', ['checked exception', 'custom exception', 'throws clause', 'exception hierarchy', 'runtime exception'], [
    'Exception', 'RuntimeException', 'IllegalArgumentException', 'IllegalStateException', 'Throwable', 'IOException',
  ]),
  concept('JAVA_BUILDER', ['builder pattern', 'fluent builder', 'immutable object', 'builder class'], [
    'Builder', 'builder', 'toBuilder', 'newBuilder',
  ]),
  concept('JAVA_IO', ['input stream', 'output stream', 'file reader', 'nio path', 'buffered reader'], [
    'InputStream', 'OutputStream', 'BufferedReader', 'Files', 'Paths', 'Reader', 'Writer',
  ]),
  concept('JAVA_LOGGING', ['slf4j', 'log4j', 'logger', 'logging'], [
    'Logger', 'LoggerFactory', 'getLogger', 'LogManager',
  ]),
  concept('JAVA_TESTING', ['junit', 'mockito', 'test case', 'assertion', 'beforeeach'], [
    'BeforeEach', 'AfterEach', 'assertEquals', 'assertThat', 'Mockito', 'verify', 'assertThrows',
  ]),
  concept('JAVA_ANNOTATIONS', ['annotation', 'custom annotation', 'annotation processor', 'reflection'], [
    'Annotation', 'Retention', 'AnnotationProcessor', 'getAnnotation', 'AbstractProcessor', 'isAnnotationPresent',
  ]),
]);
