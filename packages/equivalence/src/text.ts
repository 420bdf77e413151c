import { splitIdentifier } from '@knowing/keywords';
import { DETERMINERS } from './data/words.js';

const NON_WORD = /[^\p{L}\p{M}\p{N}]+/u;
const HAS_DIGIT = /\p{N}/u;
const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);
/** Doubled consonants that stay doubled when a suffix goes (`install`, `access`, `buzz`). */
const KEEP_DOUBLED = new Set(['l', 's', 'z']);
/** Words the suffix rules would merge with an unrelated word (`settings` → `set`). */
const FOLD_EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ['setting', 'setting'],
  ['settings', 'setting'],
  ['embed', 'embed'],
]);

const DEFAULT_IGNORED: ReadonlySet<string> = new Set(DETERMINERS);

function undouble(stem: string): string {
  const last = stem[stem.length - 1];
  const doubled = last !== undefined && last === stem[stem.length - 2] && !VOWELS.has(last) && !KEEP_DOUBLED.has(last);
  // `logging` → `log`, but `adding` stays `add`: never below three letters.
  return doubled && stem.length > 3 ? stem.slice(0, -1) : stem;
}

/**
 * Fold a lower-case word so that its plural and its verb inflections compare equal to the
 * base form: `validators`/`validator`, `caching`/`cached`/`cache`, `retries`/`retry`,
 * `logging`/`log`, `naming`/`name`. Only used to compare two folded words, never shown.
 * Words of three characters or fewer and words with digits are left alone, and no suffix
 * rule leaves fewer than three letters.
 */
export function foldWord(word: string): string {
  const exception = FOLD_EXCEPTIONS.get(word);
  if (exception !== undefined) return exception;
  if (word.length <= 3 || HAS_DIGIT.test(word)) return word;
  let w = word;
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length - 3 >= 3) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && !w.endsWith('eed') && w.length - 2 >= 3) w = undouble(w.slice(0, -2));
  if (w.endsWith('e') && w.length - 1 >= 3) w = w.slice(0, -1);
  if (w.endsWith('y') && w.length >= 4) w = `${w.slice(0, -1)}i`;
  return w;
}

function fold(words: readonly string[], ignored: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const raw of words) {
    const word = raw.toLowerCase();
    if (word === '' || ignored.has(word)) continue;
    out.push(foldWord(word));
  }
  return out;
}

/** The ignored-word set for an option value, reusing the default set when possible. */
export function ignoredSet(words: readonly string[] | undefined): ReadonlySet<string> {
  return words === undefined || words === DETERMINERS ? DEFAULT_IGNORED : new Set(words.map((w) => w.toLowerCase()));
}

/** Folded words of a phrase: lower-cased, split on anything but letters and digits. */
export function phraseWords(phrase: string, ignored: ReadonlySet<string> = DEFAULT_IGNORED): string[] {
  return fold(phrase.toLowerCase().split(NON_WORD), ignored);
}

/**
 * The word streams of a task: the text split on non-word characters, and, when different,
 * the text with identifiers also split at CamelCase boundaries (`RateLimiter` → rate
 * limiter). A phrase matches when it occurs in either stream, so `WebSocket` matches the
 * phrase "websocket" and `before_request` matches "before request".
 */
export function taskWordStreams(task: string, ignored: ReadonlySet<string> = DEFAULT_IGNORED): string[][] {
  const plain = fold(task.split(NON_WORD), ignored);
  const camel = fold(splitIdentifier(task), ignored);
  const same = plain.length === camel.length && plain.every((w, i) => w === camel[i]);
  return same ? [plain] : [plain, camel];
}

/**
 * The comparison key the matcher uses for a phrase: lower case, words split on anything but
 * letters and digits (so hyphens and underscores are spaces), determiners dropped, plurals
 * and verb inflections folded (a key, not prose: a final `e` goes and a final `y` becomes
 * `i`). Two phrases with the same key are the same phrase to the matcher.
 *
 * @example
 * ```ts
 * normalizePhrase('Rate-Limiting the requests') === normalizePhrase('rate limit request'); // true
 * normalizePhrase('custom validators'); // 'custom validator'
 * ```
 */
export function normalizePhrase(phrase: string): string {
  return phraseWords(phrase).join(' ');
}
