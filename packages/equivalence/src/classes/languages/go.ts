import { concept } from '../concept.js';
import { languagePlugin } from './define.js';

/** Go idioms: `net/http` handlers, `context`, error values, goroutines, cobra commands. */
export const GO_PLUGIN = languagePlugin('go', 'go', [
  concept('GO_HTTP_HANDLER', ['http handler', 'handler func', 'serve http', 'handle requests', 'serve mux'], [
    'ServeHTTP', 'Handler', 'HandlerFunc', 'HandleFunc', 'ServeMux', 'NewServeMux', 'ResponseWriter',
  ]),
  concept('GO_MIDDLEWARE', ['middleware', 'wrap handler', 'handler chain', 'http middleware'], [
    'Middleware', 'MiddlewareFunc', 'Chain', 'WrapHandler', 'Handler', 'ServeHTTP',
  ]),
  concept('GO_CONTEXT', ['context cancellation', 'cancel context', 'request context', 'context deadline', 'propagate context', 'context value'], [
    'Context', 'WithCancel', 'WithTimeout', 'WithDeadline', 'WithValue', 'CancelFunc', 'Done',
  ]),
  concept('GO_ERRORS', ['error wrapping', 'sentinel error', 'wrap error', 'unwrap error', 'error value', 'errors is'], [
    'Errorf', 'Unwrap', 'ErrNotFound', 'NewError', 'Wrapf', 'WithStack', 'Cause', 'Join',
  ]),
  concept('GO_CONCURRENCY', ['goroutine', 'wait group', 'worker pool', 'errgroup', 'fan out', 'channel select', 'sync once'], [
    'WaitGroup', 'Mutex', 'RWMutex', 'Once', 'Group', 'WithContext', 'NewWorkerPool', 'Pool',
  ]),
  concept('GO_CLI', ['cobra command', 'root command', 'cli flags', 'subcommand', 'flag parsing', 'flag set'], [
    'NewRootCmd', 'NewRootCommand', 'RootCmd', 'AddCommand', 'PersistentFlags', 'FlagSet', 'Flags', 'RunE', 'Command',
  ]),
  concept('GO_JSON', ['json tag', 'json marshal', 'encode json', 'decode json', 'custom json'], [
    'MarshalJSON', 'UnmarshalJSON', 'NewEncoder', 'NewDecoder', 'Marshal', 'Unmarshal',
  ]),
  concept('GO_SERVER_LIFECYCLE', ['listen and serve', 'server shutdown', 'graceful shutdown', 'http server'], [
    'ListenAndServe', 'ListenAndServeTLS', 'Shutdown', 'Server', 'NewServer', 'RegisterOnShutdown',
  ]),
  concept('GO_IO', ['io reader', 'io writer', 'readall', 'copy stream', 'read closer'], [
    'Reader', 'Writer', 'ReadAll', 'ReadCloser', 'WriteCloser', 'WriteTo', 'ReadFrom', 'CopyN',
  ]),
  concept('GO_TESTING', ['table driven test', 'test helper', 'golden file', 'http test', 'test recorder'], [
    'TestMain', 'Helper', 'Fatalf', 'NewRecorder', 'NewServer', 'Cleanup', 'TempDir',
  ]),
]);
