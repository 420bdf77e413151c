/** A frozen, de-duplicated copy of a word list, in first-seen order. */
export function frozenWords(...lists: readonly (readonly string[])[]): readonly string[] {
  return Object.freeze([...new Set(lists.flat())]);
}

/**
 * Determiners: invisible to phrase matching on both sides, so the phrase "add hook" matches
 * "add a hook" and "add the new-style hook" does not need its own phrase for every article.
 */
export const DETERMINERS: readonly string[] = frozenWords([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'each', 'every', 'some', 'any', 'all',
  'my', 'our', 'your', 'its', 'their',
]);

/**
 * Method and function names so common that, as bare targets, they resolve to hundreds of
 * unrelated symbols in any non-trivial repository. An undotted target with one of these
 * names (compared ignoring case) is skipped; qualify it instead (`Router.get`). The list
 * holds CRUD and I/O verbs, lifecycle verbs, generic "do it" verbs and container accessors.
 */
export const GENERIC_TARGET_NAMES: readonly string[] = frozenWords([
  // the original's list
  'get', 'set', 'do', 'new', 'run', 'put', 'post', 'call', 'add', 'pop',
  // lifecycle
  'init', 'main', 'start', 'stop', 'close', 'open', 'setup', 'teardown', 'reset', 'clear',
  // I/O and CRUD
  'read', 'write', 'update', 'delete', 'create', 'remove', 'insert', 'load', 'save', 'send',
  'fetch', 'find', 'list', 'patch', 'head', 'push', 'flush',
  // generic "do it" verbs
  'handle', 'process', 'execute', 'exec', 'invoke', 'apply', 'build', 'parse', 'render',
  'check', 'test', 'make', 'perform', 'dispatch', 'emit', 'next', 'wrap',
  // accessors and conversions
  'value', 'values', 'data', 'name', 'type', 'key', 'keys', 'item', 'items', 'size', 'length',
  'count', 'index', 'string', 'tostring', 'equals', 'hash', 'hashcode', 'clone', 'copy',
  'default',
]);

/**
 * Words of caller/callee names that say nothing about what a symbol means (graph aliases):
 * generic verbs, role nouns every code base has, plumbing words and test scaffolding.
 */
export const GRAPH_ALIAS_GENERIC_WORDS: readonly string[] = frozenWords([
  'handle', 'handler', 'handlers', 'new', 'get', 'set', 'init', 'run', 'make', 'create',
  'update', 'delete', 'remove', 'add', 'call', 'process', 'execute', 'apply', 'build', 'main',
  'func', 'function', 'method', 'impl', 'default', 'base', 'util', 'utils', 'helper', 'helpers',
  'internal', 'common', 'value', 'values', 'data', 'string', 'str', 'int', 'bool', 'list',
  'map', 'dict', 'item', 'items', 'result', 'results', 'error', 'errors', 'err', 'args',
  'arg', 'kwargs', 'opts', 'options', 'self', 'this', 'that', 'test', 'tests', 'mock', 'fake',
  'stub', 'setup', 'teardown', 'wrapper', 'inner', 'outer', 'temp', 'tmp', 'obj', 'object',
  'type', 'types', 'from', 'with', 'into', 'for', 'and', 'the', 'must', 'should', 'try',
]);

/** Role suffixes `autoConcepts` strips from class and function names. */
export const AUTO_CONCEPT_SUFFIXES: readonly string[] = frozenWords([
  'Handler', 'Middleware', 'Tool', 'Command', 'Controller', 'Service', 'Provider', 'Plugin',
  'Listener', 'Hook', 'Processor', 'Resolver', 'Manager', 'Factory', 'Adapter', 'Strategy',
  'Visitor', 'Builder', 'Validator', 'Serializer', 'Interceptor', 'Filter', 'Worker', 'Job',
]);

/** Role prefixes `autoConcepts` strips from function names. */
export const AUTO_CONCEPT_PREFIXES: readonly string[] = frozenWords(['handle', 'on', 'process', 'do']);
