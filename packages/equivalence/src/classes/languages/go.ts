import { languagePlugin } from './define.js';

/** Go idioms: `net/http` handlers, `context`, error values, goroutines, cobra commands. */
export const GO_PLUGIN = languagePlugin('go', 'go', [
  {
    concept: 'GO_HTTP_HANDLER',
    phrases: ['http handler', 'handler func', 'serve http', 'handle requests', 'serve mux'],
    targets: ['ServeHTTP', 'Handler', 'HandlerFunc', 'HandleFunc', 'ServeMux', 'NewServeMux', 'ResponseWriter'],
  },
  {
    concept: 'GO_MIDDLEWARE',
    phrases: ['middleware', 'wrap handler', 'handler chain', 'http middleware'],
    targets: ['Middleware', 'MiddlewareFunc', 'Chain', 'WrapHandler', 'Handler', 'ServeHTTP'],
  },
  {
    concept: 'GO_CONTEXT',
    phrases: ['context cancellation', 'cancel context', 'request context', 'context deadline', 'propagate context', 'context value'],
    targets: ['Context', 'WithCancel', 'WithTimeout', 'WithDeadline', 'WithValue', 'CancelFunc', 'Done'],
  },
  {
    concept: 'GO_ERRORS',
    phrases: ['error wrapping', 'sentinel error', 'wrap error', 'unwrap error', 'error value', 'errors is'],
    targets: ['Errorf', 'Unwrap', 'ErrNotFound', 'NewError', 'Wrapf', 'WithStack', 'Cause', 'Join'],
  },
  {
    concept: 'GO_CONCURRENCY',
    phrases: ['goroutine', 'wait group', 'worker pool', 'errgroup', 'fan out', 'channel select', 'sync once'],
    targets: ['WaitGroup', 'Mutex', 'RWMutex', 'Once', 'Group', 'WithContext', 'NewWorkerPool', 'Pool'],
  },
  {
    concept: 'GO_CLI',
    phrases: ['cobra command', 'root command', 'cli flags', 'subcommand', 'flag parsing', 'flag set'],
    targets: ['NewRootCmd', 'NewRootCommand', 'RootCmd', 'AddCommand', 'PersistentFlags', 'FlagSet', 'Flags', 'RunE', 'Command'],
  },
  {
    concept: 'GO_JSON',
    phrases: ['json tag', 'json marshal', 'encode json', 'decode json', 'custom json'],
    targets: ['MarshalJSON', 'UnmarshalJSON', 'NewEncoder', 'NewDecoder', 'Marshal', 'Unmarshal'],
  },
  {
    concept: 'GO_SERVER_LIFECYCLE',
    phrases: ['listen and serve', 'server shutdown', 'graceful shutdown', 'http server'],
    targets: ['ListenAndServe', 'ListenAndServeTLS', 'Shutdown', 'Server', 'NewServer', 'RegisterOnShutdown'],
  },
  {
    concept: 'GO_IO',
    phrases: ['io reader', 'io writer', 'readall', 'copy stream', 'read closer'],
    targets: ['Reader', 'Writer', 'ReadAll', 'ReadCloser', 'WriteCloser', 'WriteTo', 'ReadFrom', 'CopyN'],
  },
  {
    concept: 'GO_TESTING',
    phrases: ['table driven test', 'test helper', 'golden file', 'http test', 'test recorder'],
    targets: ['TestMain', 'Helper', 'Fatalf', 'NewRecorder', 'NewServer', 'Cleanup', 'TempDir'],
  },
]);
