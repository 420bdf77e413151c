import { frozenList } from './freeze.js';

/**
 * English function words. The first 39 are the original system's list; the rest are further
 * pronouns, auxiliaries, conjunctions and adverbs that never name a symbol on their own and
 * only add noise to full-text queries and bigrams. Words that do appear in identifiers
 * (`before`, `after`, `next`, `last`, `first`, `once`, `now`) are deliberately absent.
 *
 * @example
 * ```ts
 * ENGLISH_STOP_WORDS.includes('which'); // true
 * ```
 */
export const ENGLISH_STOP_WORDS: readonly string[] = frozenList([
  'the', 'a', 'an', 'in', 'to', 'for', 'is', 'of', 'and', 'or', 'on', 'at', 'by', 'it', 'be',
  'as', 'do', 'no', 'if', 'so', 'up', 'my', 'we', 'all', 'this', 'that', 'with', 'from', 'what',
  'how', 'can', 'will', 'should', 'would', 'about', 'into', 'when', 'where', 'which',
  // further function words
  'am', 'are', 'was', 'were', 'been', 'being', 'have', 'had', 'having', 'does', 'did', 'doing',
  'done', 'not', 'but', 'nor', 'than', 'then', 'there', 'here', 'these', 'those', 'they', 'them',
  'their', 'theirs', 'its', 'our', 'ours', 'you', 'your', 'yours', 'he', 'she', 'his', 'her',
  'him', 'me', 'us', 'i', 'who', 'whom', 'whose', 'why', 'could', 'must', 'may', 'might',
  'shall', 'also', 'just', 'only', 'very', 'too', 'such', 'both', 'either', 'neither', 'any',
  'other', 'own', 'out', 'off', 'over', 'via', 'per', 'please', 'whether', 'while', 'because',
  'since', 'until', 'unless', 'though', 'although', 'instead', 'without', 'within', 'onto',
  'upon', 'across', 'against', 'between', 'through', 'during', 'again', 'still', 'even', 'yet',
  'already', 'ever', 'never', 'always', 'often', 'more', 'most', 'less', 'much', 'many', 'few',
  'lot', 'lots', 'thing', 'things', 'something', 'anything', 'everything', 'nothing', 'see',
  // prose abbreviations once their dots are trimmed
  'etc', 'eg', 'ie', 'vs', 'cf', 'aka', 'approx',
]);

/**
 * Programming filler: words that occur in almost every code base or task and so select
 * nothing. The first 22 are the original's list; the rest are literals, bug-tracker words
 * and inflections.
 *
 * @example
 * ```ts
 * PROGRAMMING_STOP_WORDS.includes('func'); // true
 * ```
 */
export const PROGRAMMING_STOP_WORDS: readonly string[] = frozenList([
  'new', 'get', 'set', 'add', 'make', 'init', 'has', 'err', 'func', 'type', 'var', 'const',
  'return', 'import', 'package', 'struct', 'interface', 'string', 'int', 'bool', 'error', 'nil',
  // literals and tracker words
  'null', 'true', 'false', 'void', 'self', 'bug', 'bugs', 'todo', 'fixme',
  // inflections of the filler verbs above and of `use`
  'gets', 'got', 'getting', 'adds', 'added', 'adding', 'makes', 'made', 'making', 'returns',
  'returned', 'returning', 'use', 'uses', 'used', 'using',
]);

/**
 * Pure action words: they say what to do, never what to look at. The first 13 are the
 * original's list; the inflections stop "Fixes crash in …" from keeping `fixes`.
 *
 * @example
 * ```ts
 * ACTION_STOP_WORDS.includes('refactor'); // true
 * ```
 */
export const ACTION_STOP_WORDS: readonly string[] = frozenList([
  'refactor', 'fix', 'update', 'change', 'modify', 'implement', 'create', 'delete', 'remove',
  'move', 'improve', 'optimize', 'review',
  'fixes', 'fixed', 'fixing', 'refactoring', 'refactored', 'implementing', 'implemented',
  'improving', 'improved', 'optimizing', 'optimized', 'modifying', 'modified',
]);

/**
 * Words skipped when looking for the object of a leading action verb ("add a new X"). They
 * are stop words too. The first ten are the original's; the generic adjectives were added
 * because tasks so often read "add a custom X" or "register a simple Y".
 *
 * @example
 * ```ts
 * extractKeywordSet('add a custom validator').priority; // ['validator', 'Validator']
 * ```
 */
export const FILLER_WORDS: readonly string[] = frozenList([
  'a', 'an', 'the', 'new', 'existing', 'all', 'some', 'each', 'that', 'which',
  'custom', 'basic', 'simple', 'proper', 'different', 'additional', 'multiple', 'several',
  'various', 'specific', 'certain', 'another', 'same', 'better',
]);

/**
 * Every stop word: English, programming filler, pure action words and filler words.
 *
 * @example
 * ```ts
 * extractKeywordSet(task, { stopWords: [...STOP_WORDS, 'widget'] });
 * ```
 */
export const STOP_WORDS: readonly string[] = frozenList(
  ENGLISH_STOP_WORDS,
  PROGRAMMING_STOP_WORDS,
  ACTION_STOP_WORDS,
  FILLER_WORDS,
);
