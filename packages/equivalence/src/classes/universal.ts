import { builtinPlugin } from '../validate.js';
import type { EquivalenceClassInput, EquivalencePlugin } from '../types.js';
import { concept } from './concept.js';

/**
 * Software concepts every kind of project has, with the phrases tasks use for them and the
 * symbol names that typically implement them in several ecosystems. Weight 0.8, no
 * language: they compete in the equivalence channel and are never forced.
 */
const CLASSES: EquivalenceClassInput[] = [
  // entry and lifecycle
  concept('ENTRY_POINT', ['entry point', 'main function', 'program start', 'bootstrap app'], [
    'cli_main', 'entrypoint', 'EntryPoint', 'bootstrap', 'Bootstrap', 'Program',
  ]),
  concept('APP_STARTUP', ['startup', 'application start', 'boot sequence', 'initialization order', 'on start'], [
    'Startup', 'startup', 'OnStart', 'onStartup', 'on_startup', 'initialize', 'Initialize', 'boot', 'Boot',
  ]),
  concept('GRACEFUL_SHUTDOWN', ['graceful shutdown', 'shut down', 'drain connections', 'termination signal', 'clean exit'], [
    'Shutdown', 'shutdown', 'GracefulShutdown', 'graceful_shutdown', 'onShutdown', 'on_shutdown', 'Drain', 'drain', 'stopServer',
  ]),
  concept('LIFECYCLE_HOOKS', ['lifecycle hook', 'before hook', 'after hook', 'callback hook', 'hook registration'], [
    'Hook', 'Hooks', 'addHook', 'registerHook', 'register_hook', 'runHooks', 'run_hooks', 'beforeEach', 'afterEach',
  ]),
  concept('SIGNALS', ['signal handler', 'os signal', 'sigterm', 'sigint', 'interrupt signal'], [
    'signal_handler', 'SignalHandler', 'handleSignal', 'NotifyContext', 'setupSignalHandler', 'trap_signals',
  ]),
  // configuration
  concept('CONFIGURATION', ['configuration', 'config file', 'settings', 'app config', 'load configuration'], [
    'Config', 'Configuration', 'Settings', 'load_config', 'loadConfig', 'LoadConfig', 'ConfigLoader', 'parse_config',
  ]),
  concept('CONFIG_FROM_ENV', ['environment variable', 'env var', 'read from env', 'dotenv', 'config from environment'], [
    'getenv', 'Getenv', 'LookupEnv', 'environ', 'from_env', 'fromEnv', 'FromEnv', 'loadEnv', 'load_dotenv', 'EnvConfig',
  ]),
  concept('FEATURE_FLAGS', ['feature flag', 'feature toggle', 'toggle feature', 'flag rollout', 'experiment flag'], [
    'FeatureFlag', 'FeatureFlags', 'isEnabled', 'is_enabled', 'IsEnabled', 'FeatureGate', 'Toggle', 'isFeatureEnabled',
  ]),
  concept('CLI', ['command line', 'cli', 'cli flag', 'cli argument', 'subcommand', 'command-line option', 'parse args'], [
    'ParseFlags', 'parse_args', 'parseArgs', 'ArgumentParser', 'Command', 'Subcommand', 'Flags', 'CommandLine', 'CliApp',
  ]),
  // errors and resilience
  concept('ERROR_HANDLING', ['error handling', 'handle errors', 'error handler', 'exception handling', 'error propagation'], [
    'HandleError', 'handleError', 'handle_error', 'ErrorHandler', 'error_handler', 'errorHandler', 'handle_exception', 'onError',
  ]),
  concept('CUSTOM_ERRORS', ['custom error', 'error type', 'exception class', 'wrap error', 'error code'], [
    'Error', 'Exception', 'NewError', 'Wrapf', 'Errorf', 'ErrorCode', 'BaseException', 'AppError',
  ]),
  concept('RETRIES', ['retry', 'retry logic', 'exponential backoff', 'retry policy', 'transient failure'], [
    'Retry', 'retry', 'RetryPolicy', 'Backoff', 'backoff', 'ExponentialBackoff', 'with_retry', 'withRetry', 'retryable',
  ]),
  concept('RATE_LIMITING', ['rate limit', 'throttling', 'too many requests', 'request quota', 'token bucket'], [
    'RateLimiter', 'rate_limit', 'rateLimit', 'Limiter', 'Throttle', 'throttle', 'TokenBucket', 'ratelimit', 'Allow',
  ]),
  concept('CIRCUIT_BREAKER', ['circuit breaker', 'trip breaker', 'fail fast', 'half open'], [
    'CircuitBreaker', 'circuit_breaker', 'Breaker', 'breaker', 'HalfOpen',
  ]),
  concept('TIMEOUTS', ['timeout', 'deadline', 'request timeout', 'time limit', 'timed out'], [
    'Timeout', 'timeout', 'WithTimeout', 'WithDeadline', 'set_timeout', 'setTimeout', 'Deadline', 'TimeoutError',
  ]),
  // observability
  concept('LOGGING', ['logging', 'logger', 'log message', 'log level', 'structured log'], [
    'Logger', 'logger', 'getLogger', 'get_logger', 'NewLogger', 'LogLevel', 'setLevel', 'log_message', 'Logf',
  ]),
  concept('METRICS', ['metrics', 'counter metric', 'histogram', 'prometheus', 'instrumentation', 'gauge'], [
    'Metrics', 'metrics', 'Counter', 'Histogram', 'Gauge', 'MetricsRegistry', 'record_metric', 'recordMetric', 'Collector',
  ]),
  concept('TRACING', ['tracing', 'distributed trace', 'span', 'opentelemetry', 'trace context'], [
    'Tracer', 'StartSpan', 'start_span', 'startSpan', 'Span', 'TraceContext', 'trace_id', 'traceId', 'Propagator',
  ]),
  concept('HEALTH_CHECK', ['health check', 'liveness probe', 'readiness probe', 'healthz', 'status endpoint'], [
    'HealthCheck', 'health_check', 'healthCheck', 'Healthz', 'healthz', 'Readiness', 'Liveness', 'HealthHandler',
  ]),
  // persistence
  concept('DATABASE', ['database', 'db connection', 'sql query', 'connection pool', 'database driver'], [
    'Database', 'Connect', 'connect', 'ConnectionPool', 'get_connection', 'getConnection', 'Query',
  ]),
  concept('MIGRATIONS', ['migration', 'schema migration', 'migrate database', 'database upgrade', 'rollback migration'], [
    'Migration', 'Migrate', 'migrate', 'Migrator', 'MigrationRunner', 'run_migrations', 'runMigrations', 'upgrade', 'downgrade',
  ]),
  concept('TRANSACTIONS', ['transaction', 'commit transaction', 'rollback', 'atomic operation', 'unit of work'], [
    'Transaction', 'BeginTx', 'begin_transaction', 'beginTransaction', 'Commit', 'commit', 'Rollback', 'rollback', 'atomic',
  ]),
  concept('ORM_QUERIES', ['orm query', 'query builder', 'filter records', 'model query', 'join tables', 'eager load'], [
    'QuerySet', 'QueryBuilder', 'Query', 'filter', 'where', 'Where', 'select_related', 'Preload', 'include', 'Criteria',
  ]),
  concept('SCHEMA', ['schema definition', 'data model', 'table schema', 'field definition', 'model field'], [
    'Schema', 'schema', 'Model', 'Field', 'Column', 'Table', 'define_schema', 'defineSchema',
  ]),
  concept('REPOSITORY_PATTERN', ['repository layer', 'data access', 'dao', 'persistence layer', 'storage layer'], [
    'Repository', 'Repo', 'Store', 'Storage', 'DataStore', 'Persistence',
  ]),
  concept('CACHING', ['caching', 'cache invalidation', 'cache hit', 'memoize', 'cache eviction', 'lru'], [
    'Cache', 'cache', 'LRUCache', 'lru_cache', 'memoize', 'Memoize', 'invalidate', 'Invalidate', 'evict', 'Evict',
  ]),
  concept('SEARCH', ['search', 'full text search', 'search index', 'search query', 'ranking results'], [
    'Search', 'search', 'Searcher', 'SearchIndex', 'Indexer', 'full_text_search', 'fullTextSearch', 'rank_results',
  ]),
  concept('PAGINATION', ['pagination', 'paginate', 'page size', 'next page', 'cursor pagination', 'offset limit'], [
    'Paginator', 'paginate', 'Paginate', 'Page', 'PageInfo', 'next_page', 'nextPage', 'Cursor', 'PageToken',
  ]),
  // web
  concept('HTTP_SERVER', ['http server', 'web server', 'listen on port', 'serve requests', 'server listener'], [
    'Server', 'ListenAndServe', 'serve', 'Serve', 'HttpServer', 'HTTPServer', 'createServer', 'run_server', 'listen',
  ]),
  concept('HTTP_CLIENT', ['http client', 'api client', 'outgoing request', 'rest client', 'send request'], [
    'Client', 'HttpClient', 'HTTPClient', 'NewClient', 'Session', 'request', 'Request', 'send_request', 'sendRequest', 'Transport',
  ]),
  concept('ROUTING', ['route', 'url pattern', 'route handler', 'path parameter', 'url dispatch'], [
    'Router', 'router', 'Route', 'route', 'add_route', 'addRoute', 'HandleFunc', 'url_for', 'dispatch_request',
  ]),
  concept('MIDDLEWARE', ['middleware', 'request pipeline', 'interceptor', 'request filter', 'middleware chain'], [
    'Middleware', 'middleware', 'use_middleware', 'Interceptor', 'Chain', 'Pipeline', 'wrap_app',
  ]),
  concept('REQUEST_RESPONSE', ['request object', 'response object', 'status code', 'response body', 'request headers'], [
    'Request', 'Response', 'ResponseWriter', 'status_code', 'StatusCode', 'Headers', 'Header', 'Body', 'make_response',
  ]),
  concept('REDIRECTS', ['redirect', 'follow redirects', 'redirect url', 'location header', 'http redirect'], [
    'Redirect', 'redirect', 'should_redirect', 'rebuild_auth', 'resolve_redirects', 'RedirectHandler', 'followRedirects',
  ]),
  concept('CORS', ['cors', 'cross origin', 'allowed origins', 'preflight request', 'access control allow'], [
    'CORS', 'Cors', 'cors', 'CorsMiddleware', 'CORSMiddleware', 'AllowedOrigins', 'allow_origins', 'preflight',
  ]),
  concept('COOKIES', ['cookie', 'set cookie', 'cookie jar', 'secure cookie', 'samesite'], [
    'Cookie', 'SetCookie', 'set_cookie', 'setCookie', 'CookieJar', 'cookies', 'Cookies', 'parse_cookie',
  ]),
  concept('SESSIONS', ['session', 'session store', 'user session', 'session expiry', 'session id'], [
    'Session', 'SessionStore', 'session_store', 'SessionManager', 'get_session', 'getSession', 'SessionMiddleware',
  ]),
  concept('WEBSOCKETS', ['websocket', 'socket connection', 'realtime updates', 'ws connection', 'bidirectional channel'], [
    'WebSocket', 'Websocket', 'websocket', 'Upgrader', 'Socket', 'on_message', 'onMessage', 'ReadMessage', 'WriteMessage',
  ]),
  concept('STREAMING', ['streaming', 'stream response', 'chunked transfer', 'server sent events', 'stream data'], [
    'Stream', 'stream', 'StreamingResponse', 'Pipe', 'pipe', 'Reader', 'Writer', 'iter_content', 'EventSource',
  ]),
  concept('STATIC_FILES', ['static files', 'static assets', 'serve files', 'asset pipeline', 'public directory'], [
    'StaticFiles', 'static_files', 'serveStatic', 'FileServer', 'send_file', 'sendFile', 'send_from_directory', 'Assets',
  ]),
  concept('FILE_UPLOADS', ['file upload', 'multipart form', 'upload file', 'attachment', 'form data'], [
    'Upload', 'upload', 'UploadFile', 'FileUpload', 'MultipartForm', 'multipart', 'FormFile', 'save_upload', 'Attachment',
  ]),
  concept('PROXIES', ['proxy', 'reverse proxy', 'proxy server', 'forward request', 'upstream'], [
    'Proxy', 'proxy', 'ReverseProxy', 'NewSingleHostReverseProxy', 'ProxyHandler', 'Upstream', 'forward', 'Forward',
  ]),
  concept('TLS', ['tls', 'ssl certificate', 'https', 'certificate verification', 'mutual tls'], [
    'TLSConfig', 'tls_config', 'Certificate', 'LoadX509KeyPair', 'SSLContext', 'ssl_context', 'verify_cert', 'CertPool',
  ]),
  concept('TEMPLATES', ['template rendering', 'html template', 'template engine', 'render template', 'view template'], [
    'Template', 'render_template', 'renderTemplate', 'TemplateEngine', 'ExecuteTemplate', 'Environment', 'compile_template',
  ]),
  concept('API_VERSIONING', ['api version', 'versioning', 'version header', 'deprecated endpoint', 'backwards compatible'], [
    'Version', 'ApiVersion', 'APIVersion', 'api_version', 'Versioning', 'VersionedRoute', 'deprecated',
  ]),
  // security
  concept('AUTHENTICATION', ['authentication', 'auth', 'login', 'sign in', 'verify credentials', 'authenticate user'], [
    'authenticate', 'Authenticate', 'Authenticator', 'login', 'Login', 'AuthMiddleware', 'verify_password', 'checkCredentials', 'AuthBackend',
  ]),
  concept('AUTHORIZATION', ['authorization', 'access control', 'role based access', 'forbidden', 'authorize request'], [
    'authorize', 'Authorize', 'Authorizer', 'Policy', 'has_permission', 'hasPermission', 'Guard', 'AccessControl',
  ]),
  concept('PERMISSIONS', ['permission', 'user roles', 'privileges', 'grant access', 'role assignment'], [
    'Permission', 'Permissions', 'Role', 'Roles', 'check_permission', 'checkPermission', 'Grant', 'PermissionDenied',
  ]),
  concept('TOKENS_JWT', ['jwt', 'json web token', 'access token', 'bearer token', 'token verification', 'refresh token'], [
    'Token', 'verify_token', 'verifyToken', 'decode_token', 'Claims', 'TokenValidator', 'RefreshToken', 'sign_token',
  ]),
  concept('OAUTH', ['oauth', 'oauth2', 'authorization code', 'client credentials', 'openid connect', 'identity provider'], [
    'OAuth', 'OAuth2', 'OAuthClient', 'authorize_url', 'AuthorizationCode', 'exchange_code', 'TokenSource', 'OIDC', 'oauth2',
  ]),
  concept('PASSWORDS', ['password hashing', 'hash password', 'password reset', 'bcrypt', 'check password'], [
    'hash_password', 'hashPassword', 'check_password', 'checkPassword', 'PasswordHasher', 'bcrypt', 'make_password', 'reset_password',
  ]),
  concept('ENCRYPTION', ['encryption', 'encrypt data', 'decrypt', 'cipher', 'symmetric key', 'aes'], [
    'Encrypt', 'encrypt', 'Decrypt', 'decrypt', 'Cipher', 'Encrypter', 'encrypt_data', 'NewGCM', 'Fernet',
  ]),
  concept('HASHING', ['hashing', 'checksum', 'digest', 'sha256', 'content hash'], [
    'Hasher', 'sha256', 'Sum256', 'hexdigest', 'Digest', 'Checksum', 'checksum', 'hash_file', 'hashFile',
  ]),
  concept('SIGNATURES', ['signature', 'hmac', 'sign payload', 'verify signature', 'signed url'], [
    'Sign', 'sign', 'Verify', 'verify', 'HMAC', 'hmac', 'Signer', 'verify_signature', 'verifySignature', 'Signature',
  ]),
  concept('INPUT_VALIDATION', ['validation', 'validator', 'validate input', 'input validation', 'invalid input', 'validation error'], [
    'Validate', 'validate', 'Validator', 'ValidationError', 'is_valid', 'isValid', 'IsValid', 'validate_input', 'Validation',
  ]),
  concept('SANITIZATION', ['sanitize', 'escape html', 'xss', 'injection attack', 'escape output'], [
    'sanitize', 'Sanitize', 'Sanitizer', 'escape', 'Escape', 'escape_html', 'escapeHtml', 'html_escape', 'EscapeString',
  ]),
  // data formats
  concept('SERIALIZATION', ['serialization', 'serialize', 'deserialize', 'marshal', 'unmarshal', 'encode decode'], [
    'Serializer', 'serialize', 'Serialize', 'deserialize', 'Deserialize', 'Marshal', 'Unmarshal', 'Encoder', 'Decoder',
  ]),
  concept('JSON', ['json', 'json encoding', 'json response', 'parse json', 'json schema'], [
    'JSONEncoder', 'JSONDecoder', 'to_json', 'toJSON', 'from_json', 'fromJSON', 'MarshalJSON', 'UnmarshalJSON', 'jsonify', 'JsonSerializer',
  ]),
  concept('PARSING', ['parsing', 'parser', 'tokenizer', 'lexer', 'syntax tree', 'grammar'], [
    'Parser', 'parser', 'Lexer', 'Tokenizer', 'tokenize', 'Tokenize', 'Scanner', 'parse_expression', 'parseExpression',
  ]),
  concept('FORMATTING', ['formatting', 'pretty print', 'format output', 'printer', 'string representation'], [
    'Formatter', 'formatter', 'format_value', 'formatValue', 'Printer', 'pretty_print', 'prettyPrint', 'Stringer',
  ]),
  concept('COMPRESSION', ['compression', 'gzip', 'compress', 'decompress', 'zlib', 'archive'], [
    'Compress', 'compress', 'Decompress', 'decompress', 'GzipWriter', 'GzipMiddleware', 'gzip', 'Compressor', 'Archive',
  ]),
  concept('DATE_TIME', ['date parsing', 'timezone', 'timestamp', 'date format', 'time zone conversion'], [
    'parse_date', 'parseDate', 'ParseTime', 'Timezone', 'TimeZone', 'timezone', 'Timestamp', 'timestamp', 'strftime', 'DateTime',
  ]),
  concept('I18N', ['internationalization', 'i18n', 'translation', 'localization', 'locale', 'translate string'], [
    'translate', 'Translate', 'gettext', 'Translator', 'Locale', 'locale', 'i18n', 'I18n', 'localize', 'Localizer',
  ]),
  // files and I/O
  concept('FILE_IO', ['file io', 'read file', 'write file', 'file system', 'directory walk', 'file path'], [
    'ReadFile', 'read_file', 'readFile', 'WriteFile', 'write_file', 'writeFile', 'FileSystem', 'Walk', 'walk', 'Path',
  ]),
  concept('TEMP_FILES', ['temporary file', 'temp directory', 'scratch directory', 'tempfile'], [
    'TempDir', 'tempdir', 'TempFile', 'tempfile', 'mkdtemp', 'NamedTemporaryFile', 'CreateTemp', 'MkdirTemp',
  ]),
  concept('FILE_WATCHING', ['file watcher', 'watch files', 'file change', 'hot reload', 'live reload'], [
    'Watcher', 'watcher', 'watch', 'Watch', 'FileWatcher', 'on_change', 'onChange', 'reload', 'Reload', 'Reloader',
  ]),
  // concurrency and async
  concept('CONCURRENCY', ['concurrency', 'thread safe', 'race condition', 'parallel', 'mutex', 'goroutine'], [
    'Mutex', 'RWMutex', 'Lock', 'lock', 'WaitGroup', 'ThreadPool', 'Semaphore', 'synchronized', 'atomic', 'spawn',
  ]),
  concept('ASYNC_TASKS', ['async', 'background task', 'asynchronous job', 'await', 'future', 'promise'], [
    'Future', 'Promise', 'async_task', 'asyncTask', 'run_in_background', 'spawn_task', 'Task', 'Executor', 'submit', 'Submit',
  ]),
  concept('QUEUES', ['message queue', 'job queue', 'work queue', 'enqueue', 'dequeue', 'task queue'], [
    'Queue', 'queue', 'Enqueue', 'enqueue', 'Dequeue', 'dequeue', 'WorkQueue', 'JobQueue', 'TaskQueue', 'Worker',
  ]),
  concept('SCHEDULING', ['scheduling', 'cron job', 'scheduled task', 'periodic task', 'recurring job', 'run periodically'], [
    'Scheduler', 'scheduler', 'schedule', 'Schedule', 'Cron', 'CronJob', 'cron', 'Ticker', 'periodic_task', 'every',
  ]),
  concept('EVENTS_PUBSUB', ['event bus', 'publish subscribe', 'pub sub', 'event listener', 'emit event', 'subscribe to events'], [
    'EventBus', 'EventEmitter', 'Emitter', 'publish', 'Publish', 'subscribe', 'Subscribe', 'Subscriber', 'Publisher', 'on_event',
  ]),
  concept('NOTIFICATIONS_EMAIL', ['email', 'send email', 'smtp', 'mail message', 'email notification'], [
    'send_mail', 'sendMail', 'SendMail', 'Mailer', 'EmailMessage', 'smtp', 'SMTP', 'MailMessage', 'send_email', 'sendEmail',
  ]),
  // architecture
  concept('DEPENDENCY_INJECTION', ['dependency injection', 'inject dependency', 'di container', 'service provider', 'service locator'], [
    'Container', 'Injector', 'inject', 'Inject', 'Provider', 'provide', 'Provide', 'ServiceProvider', 'register_service', 'resolve',
  ]),
  concept('PLUGINS', ['plugin', 'extension point', 'plugin system', 'load plugin', 'addon'], [
    'Plugin', 'plugin', 'PluginManager', 'register_plugin', 'registerPlugin', 'load_plugins', 'loadPlugins', 'Extension', 'PluginRegistry',
  ]),
  concept('REGISTRY', ['registry', 'register handler', 'lookup table', 'name registry'], [
    'Registry', 'registry', 'Register', 'register', 'Registrar', 'lookup', 'Lookup',
  ]),
  concept('STATE_MACHINE', ['state machine', 'state transition', 'workflow state', 'finite state'], [
    'StateMachine', 'state_machine', 'Transition', 'transition', 'State', 'next_state', 'nextState',
  ]),
  // quality
  concept('TESTING', ['unit test', 'test case', 'test suite', 'integration test', 'test helper'], [
    'TestCase', 'testing', 'describe', 'assert', 'Assert', 'assertEqual', 'expect', 'TestSuite', 'setUpClass', 'beforeAll',
  ]),
  concept('MOCKING', ['mock', 'stub', 'test double', 'fake implementation', 'spy on'], [
    'Mock', 'mock', 'MagicMock', 'mock_patch', 'Stub', 'stub', 'Fake', 'spyOn', 'jest_mock', 'NewMock',
  ]),
  concept('FIXTURES', ['test fixture', 'fixture data', 'seed data', 'factory fixture'], [
    'fixture', 'Fixture', 'fixtures', 'Fixtures', 'Factory', 'seed_data', 'load_fixture', 'loadFixture',
  ]),
  concept('BENCHMARKS', ['benchmark', 'performance test', 'profiling', 'measure latency'], [
    'Benchmark', 'benchmark', 'bench', 'Profiler', 'profile', 'measure', 'Timer', 'Stopwatch',
  ]),
  concept('VERSIONING_RELEASE', ['semantic version', 'release version', 'version string', 'changelog', 'version bump'], [
    'Version', 'version', 'SemVer', 'semver', 'parse_version', 'parseVersion', 'VERSION', '__version__',
  ]),
  concept('DIFFING', ['diff', 'compare versions', 'patch file', 'change set', 'delta'], [
    'Diff', 'diff', 'Differ', 'unified_diff', 'PatchSet', 'ApplyPatch', 'Delta', 'Changeset', 'compare',
  ]),
];

/** The universal vocabulary as a plugin (source `universal`, weight 0.8, every language). */
export const UNIVERSAL_PLUGIN: EquivalencePlugin = builtinPlugin(
  { framework: 'universal', name: 'universal', source: 'universal', classes: CLASSES },
  'built-in plugin "universal"',
);
