import { frozenList } from './freeze.js';

/**
 * Action verbs. As the first word of a task they start the verb pattern (the next
 * meaningful word becomes a priority term); anywhere, they keep a word out of bigrams
 * ("find callers" is an instruction, not an identifier). The first 21 are the original's;
 * the rest are common task openers ("Rename X", "Use Y instead of Z", "Ensure X …").
 * Not all of them are stop words: `build`, `find` or `resolve` can be symbol names.
 *
 * @example
 * ```ts
 * extractKeywordSet('find callers').components; // ['callers', 'Callers', 'find'] — no FindCallers
 * ```
 */
export const ACTION_VERBS: readonly string[] = frozenList([
  'add', 'implement', 'create', 'build', 'fix', 'refactor', 'update', 'change', 'remove',
  'delete', 'move', 'find', 'detect', 'compute', 'generate', 'resolve', 'wire', 'connect',
  'extend', 'introduce', 'integrate',
  'rename', 'replace', 'modify', 'improve', 'optimize', 'make', 'use', 'support', 'allow',
  'ensure', 'prevent', 'debug', 'investigate', 'explain',
]);
