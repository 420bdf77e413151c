/**
 * The one word-folding function of knowing: task words, symbol names and vocabulary phrases
 * are compared after folding, so `validators`/`validator`, `caching`/`cached`/`cache`,
 * `retries`/`retry`, `logging`/`log` and `naming`/`name` meet. Keys, not words: `cache`
 * folds to `cach`. (The lexical index stems with Porter2 instead: it ranks by term statistics
 * over whole bodies, where an aggressive, standard stemmer pays; here two names must mean the
 * same thing.)
 */

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

function undouble(stem: string): string {
  const last = stem[stem.length - 1];
  const doubled = last !== undefined && last === stem[stem.length - 2] && !VOWELS.has(last) && !KEEP_DOUBLED.has(last);
  // `logging` → `log`, but `adding` stays `add`: never below three letters.
  return doubled && stem.length > 3 ? stem.slice(0, -1) : stem;
}

/**
 * Fold a lower-case word so that its plural and its verb inflections compare equal to the
 * base form. Words of three characters or fewer and words with digits are left alone, and no
 * suffix rule leaves fewer than three letters.
 *
 * @example
 * ```ts
 * foldWord('validators') === foldWord('validator'); // true
 * foldWord('caching') === foldWord('cache');        // true ('cach')
 * foldWord('settings');                              // 'setting', not 'set'
 * ```
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

/** Suffixes that make a noun of a verb, removed after folding while four letters remain. */
const DERIVATIONS = ['ation', 'er'];
const MIN_STEM = 4;

/**
 * A word's term: {@link foldWord} (plurals and verb inflections), then one agent-noun or
 * action-noun suffix, so the verb, its doer and its action meet (`serialize`/`serializer`/
 * `serialization`, `handle`/`handler`). Stems are keys, not words.
 *
 * @example
 * ```ts
 * stemTerm('handlers');      // 'handl'
 * stemTerm('handler');       // 'handl'
 * stemTerm('serialization'); // 'serializ'
 * stemTerm('dependencies') === stemTerm('dependency'); // true
 * stemTerm('user');          // 'user'
 * ```
 */
export function stemTerm(word: string): string {
  const folded = foldWord(word.toLowerCase());
  for (const suffix of DERIVATIONS) {
    // `logger` meets `logging` (`log`), as the inflections do.
    if (folded.length - suffix.length >= MIN_STEM && folded.endsWith(suffix)) return undouble(folded.slice(0, -suffix.length));
  }
  return folded;
}
