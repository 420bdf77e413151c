/**
 * `@knowing/keywords/data`: the word lists behind keyword extraction, frozen, for inspection
 * and for building custom lists — every list option of the root functions replaces its
 * default, so spread the list to extend it.
 *
 * @example
 * import { extractKeywordSet } from '@knowing/keywords';
 * import { STOP_WORDS } from '@knowing/keywords/data';
 * extractKeywordSet(task, { stopWords: [...STOP_WORDS, 'widget'] });
 */
export {
  STOP_WORDS,
  ENGLISH_STOP_WORDS,
  PROGRAMMING_STOP_WORDS,
  ACTION_STOP_WORDS,
  FILLER_WORDS,
} from './data/stop-words.js';
export { ACTION_VERBS } from './data/verbs.js';
export { ABBREVIATIONS } from './data/abbreviations.js';
export { PATH_STOP_WORDS } from './data/path-stop-words.js';
export { PROSE_ABBREVIATIONS, FILE_EXTENSIONS, IDENTIFIER_ATOMS } from './data/lexicon.js';
