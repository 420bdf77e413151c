import { frozenList } from './freeze.js';
import { ACTION_VERBS } from './verbs.js';
import { STOP_WORDS } from './stop-words.js';

/**
 * Generic words that name no package or directory worth seeding from: prose, role nouns
 * every code base has (`request`, `service`, `model`, `view`, `handler`), and words like
 * `base` or `error` that match half the paths of any repository.
 */
const GENERIC_PATH_WORDS: readonly string[] = [
  'about', 'above', 'action', 'actual', 'actually', 'after', 'allows', 'another', 'around',
  'available', 'base', 'based', 'before', 'behavior', 'behaviour', 'below', 'better', 'call',
  'called', 'calls', 'case', 'cases', 'cause', 'causes', 'check', 'class', 'classes', 'code',
  'common', 'complete', 'core', 'correct', 'correctly', 'current', 'custom', 'data', 'default',
  'define', 'defined', 'different', 'does', 'element', 'else', 'enable', 'entire', 'error',
  'errors', 'every', 'example', 'existing', 'expected', 'feature', 'field', 'fields', 'file',
  'files', 'final', 'first', 'following', 'full', 'function', 'functions', 'generic', 'given',
  'handle', 'handler', 'handlers', 'handles', 'handling', 'helper', 'helpers', 'however',
  'implementation', 'include', 'including', 'incorrect', 'instance', 'internal', 'issue',
  'item', 'items', 'kind', 'last', 'like', 'line', 'lines', 'list', 'logic', 'main', 'manager',
  'managers', 'method', 'methods', 'misc', 'model', 'models', 'module', 'name', 'names', 'need',
  'needs', 'next', 'object', 'objects', 'part', 'possible', 'properly', 'property', 'really',
  'request', 'requests', 'result', 'results', 'returns', 'service', 'services', 'shared',
  'show', 'source', 'state', 'support', 'system', 'take', 'test', 'tests', 'under', 'used',
  'user', 'users', 'uses', 'using', 'util', 'utils', 'value', 'values', 'view', 'views', 'want',
  'well', 'work', 'works', 'wrong',
];

/**
 * Words never used as path terms: the generic list above plus every stop word and action
 * verb of four or more letters (shorter words are below the path-term minimum anyway).
 *
 * @example
 * ```ts
 * extractPathTerms(task, { stopWords: [...PATH_STOP_WORDS, 'plugin'] });
 * ```
 */
export const PATH_STOP_WORDS: readonly string[] = frozenList(
  GENERIC_PATH_WORDS,
  STOP_WORDS.filter((w) => w.length >= 4),
  ACTION_VERBS.filter((w) => w.length >= 4),
);
