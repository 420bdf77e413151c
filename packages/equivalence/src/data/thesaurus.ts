import type { ThesaurusCluster } from '../types.js';

function cluster(concept: string, ...related: string[]): ThesaurusCluster {
  return Object.freeze({ concept, terms: Object.freeze([concept, ...related]) });
}

/**
 * Clusters of code vocabulary that name the same role in different code bases: the head
 * word first, then words a symbol doing that job is often called instead. Used to widen
 * BM25 (a task saying "consumer" also searches `Subscriber`, `Listener`, …), never to pick
 * symbols directly. Single lower-case words only, so every term is a valid FTS token.
 */
export const CONCEPT_THESAURUS: readonly ThesaurusCluster[] = Object.freeze([
  // messaging and events
  cluster('consumer', 'subscriber', 'listener', 'handler', 'processor', 'receiver', 'reader'),
  cluster('producer', 'publisher', 'emitter', 'sender', 'writer', 'dispatcher'),
  cluster('message', 'event', 'record', 'envelope', 'payload', 'notification'),
  cluster('queue', 'buffer', 'channel', 'backlog', 'mailbox', 'topic'),
  cluster('topic', 'channel', 'stream', 'subject', 'exchange'),
  cluster('event', 'signal', 'hook', 'notification', 'callback', 'trigger'),
  cluster('broker', 'bus', 'hub', 'relay', 'mediator'),
  cluster('offset', 'position', 'cursor', 'checkpoint', 'watermark'),
  cluster('partition', 'shard', 'segment', 'bucket', 'slice'),
  // concurrency
  cluster('worker', 'executor', 'runner', 'pool', 'thread', 'goroutine'),
  cluster('lock', 'mutex', 'semaphore', 'latch', 'guard', 'monitor'),
  cluster('async', 'future', 'promise', 'deferred', 'task', 'coroutine'),
  cluster('scheduler', 'cron', 'timer', 'ticker', 'planner', 'dispatcher'),
  cluster('job', 'task', 'work', 'unit', 'operation'),
  cluster('cancel', 'abort', 'interrupt', 'stop', 'shutdown', 'terminate'),
  cluster('timeout', 'deadline', 'expiry', 'ttl', 'duration'),
  cluster('retry', 'backoff', 'attempt', 'retrier', 'resilience'),
  cluster('throttle', 'limiter', 'ratelimit', 'quota', 'bucket', 'debounce'),
  // serialization and parsing
  cluster('serializer', 'encoder', 'marshaler', 'marshaller', 'writer', 'formatter', 'dumper'),
  cluster('deserializer', 'decoder', 'unmarshaler', 'unmarshaller', 'loader', 'reader'),
  cluster('parser', 'decoder', 'unmarshaler', 'lexer', 'tokenizer', 'reader', 'scanner'),
  cluster('formatter', 'printer', 'renderer', 'stringer', 'presenter', 'pretty'),
  cluster('schema', 'model', 'definition', 'spec', 'descriptor', 'shape'),
  cluster('json', 'serialize', 'marshal', 'encode', 'dump'),
  cluster('template', 'layout', 'view', 'partial', 'skeleton'),
  cluster('lexeme', 'token', 'symbol', 'atom'),
  cluster('ast', 'node', 'tree', 'syntax', 'expression'),
  // validation and errors
  cluster('validator', 'checker', 'verifier', 'constraint', 'rule', 'sanitizer'),
  cluster('validation', 'verification', 'check', 'assertion', 'constraint'),
  cluster('error', 'exception', 'failure', 'fault', 'panic', 'problem'),
  cluster('recover', 'rescue', 'catch', 'fallback', 'handler'),
  cluster('warning', 'diagnostic', 'lint', 'notice', 'problem'),
  // design patterns
  cluster('factory', 'builder', 'constructor', 'creator', 'provider', 'maker'),
  cluster('adapter', 'wrapper', 'bridge', 'shim', 'facade', 'proxy'),
  cluster('strategy', 'policy', 'algorithm', 'mode'),
  cluster('observer', 'listener', 'watcher', 'subscriber', 'hook'),
  cluster('visitor', 'walker', 'traverser', 'transformer', 'pass'),
  cluster('registry', 'catalog', 'directory', 'repository', 'table', 'index'),
  cluster('plugin', 'extension', 'addon', 'module', 'integration'),
  cluster('decorator', 'annotation', 'attribute', 'wrapper', 'mixin'),
  cluster('singleton', 'instance', 'global', 'shared', 'default'),
  cluster('iterator', 'cursor', 'enumerator', 'generator', 'stream'),
  cluster('command', 'action', 'operation', 'verb', 'instruction'),
  cluster('state', 'status', 'phase', 'stage', 'mode'),
  // networking and web
  cluster('middleware', 'handler', 'interceptor', 'filter', 'pipeline', 'chain', 'layer'),
  cluster('router', 'dispatcher', 'mux', 'routes', 'endpoint', 'route'),
  cluster('endpoint', 'route', 'handler', 'controller', 'action', 'resource'),
  cluster('controller', 'handler', 'view', 'resource', 'endpoint'),
  cluster('request', 'req', 'call', 'query', 'input'),
  cluster('response', 'resp', 'reply', 'result', 'output'),
  cluster('client', 'connector', 'session', 'stub', 'agent'),
  cluster('server', 'listener', 'host', 'daemon', 'service'),
  cluster('connection', 'conn', 'socket', 'session', 'link', 'channel'),
  cluster('proxy', 'gateway', 'forwarder', 'tunnel', 'relay'),
  cluster('redirect', 'location', 'forward', 'rewrite'),
  cluster('header', 'headers', 'metadata', 'field'),
  cluster('cookie', 'session', 'jar', 'token'),
  cluster('upload', 'multipart', 'attachment', 'file', 'blob'),
  cluster('download', 'fetch', 'retrieve', 'transfer'),
  cluster('websocket', 'socket', 'realtime', 'push', 'stream'),
  // security
  cluster('auth', 'authentication', 'login', 'credentials', 'identity', 'principal'),
  cluster('authorization', 'permission', 'access', 'policy', 'role', 'acl', 'grant'),
  cluster('token', 'jwt', 'bearer', 'credential', 'secret', 'key'),
  cluster('password', 'passphrase', 'secret', 'credential', 'hash'),
  cluster('encrypt', 'cipher', 'crypto', 'seal', 'encode'),
  cluster('signature', 'sign', 'hmac', 'digest', 'verify'),
  cluster('certificate', 'cert', 'tls', 'ssl', 'x509'),
  // storage and data
  cluster('cache', 'memo', 'memoize', 'store', 'lru', 'buffer'),
  cluster('database', 'db', 'store', 'storage', 'repository', 'persistence'),
  cluster('repository', 'store', 'dao', 'gateway', 'manager'),
  cluster('query', 'filter', 'criteria', 'search', 'lookup', 'finder'),
  cluster('migration', 'migrate', 'schema', 'upgrade', 'evolution'),
  cluster('transaction', 'tx', 'unit', 'commit', 'rollback', 'atomic'),
  cluster('index', 'lookup', 'catalog', 'inverted', 'search'),
  cluster('record', 'row', 'entry', 'entity', 'item', 'document'),
  cluster('collection', 'list', 'set', 'array', 'sequence', 'batch'),
  cluster('snapshot', 'checkpoint', 'backup', 'dump', 'image'),
  cluster('file', 'path', 'document', 'blob', 'asset'),
  cluster('stream', 'pipe', 'flow', 'reader', 'writer', 'channel'),
  // configuration and lifecycle
  cluster('config', 'configuration', 'settings', 'options', 'preferences', 'params'),
  cluster('option', 'flag', 'setting', 'parameter', 'argument'),
  cluster('environment', 'env', 'variables', 'context', 'profile'),
  cluster('startup', 'bootstrap', 'boot', 'init', 'setup', 'launch'),
  cluster('shutdown', 'close', 'stop', 'teardown', 'dispose', 'cleanup'),
  cluster('lifecycle', 'hook', 'phase', 'callback', 'stage'),
  cluster('context', 'ctx', 'scope', 'environment', 'state'),
  cluster('dependency', 'injection', 'container', 'provider', 'inject', 'wire'),
  cluster('cli', 'command', 'flag', 'argument', 'subcommand', 'console'),
  // observability
  cluster('logger', 'log', 'logging', 'tracer', 'journal', 'audit'),
  cluster('metrics', 'counter', 'gauge', 'histogram', 'stats', 'telemetry'),
  cluster('trace', 'span', 'tracer', 'telemetry', 'instrumentation'),
  cluster('health', 'probe', 'liveness', 'readiness', 'heartbeat', 'ping'),
  // testing
  cluster('test', 'spec', 'suite', 'case', 'fixture', 'assertion'),
  cluster('mock', 'stub', 'fake', 'double', 'spy', 'dummy'),
  cluster('fixture', 'factory', 'seed', 'sample', 'setup'),
  // misc domain-neutral
  cluster('diff', 'delta', 'patch', 'change', 'compare'),
  cluster('merge', 'combine', 'join', 'union', 'reconcile'),
  cluster('render', 'draw', 'paint', 'display', 'view'),
  cluster('notify', 'alert', 'notification', 'message', 'email'),
  cluster('user', 'account', 'member', 'principal', 'profile', 'identity'),
  cluster('permission', 'role', 'scope', 'privilege', 'capability'),
]);
