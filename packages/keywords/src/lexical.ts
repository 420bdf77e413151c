/**
 * The one normalisation of the lexical index: what a symbol's text and a task's text become
 * before they meet. Both sides must go through `lexicalTerms`, or "rendered" in a task and
 * `render` in a body land on different stems.
 *
 * Words are ASCII alphanumeric runs; each is split at `_` and at camelCase boundaries
 * (`parseHTTPHeader` → parse, http, header; `before_request` → before, request), lower-cased,
 * stripped of English stop words and one-letter tokens, and stemmed with Porter2 (Snowball
 * English). Bodies are large (a full index tokenizes every line of the repository), so the
 * scan works on character codes and stems are memoised.
 */
import { stem as porter2 } from 'porter2';

/**
 * Function words of English prose and task phrasing that say nothing about code. Kept short:
 * words such as `set`, `new` or `return` are stop words here only when they carry no meaning
 * in code either (`get`, `set`, `use` do not narrow anything: nearly every body has them).
 */
export const LEXICAL_STOP_WORDS: readonly string[] = Object.freeze(
  `a an the and or of to in on for with by at from as is are was were be been being it its this that these those
which what where when who whom how why do does did done not no can could should would will shall may might must have has had
i you we they he she them us our your their there here then than so if else but into onto over under about after before
any all each every some such only also just very more most other same own like using use used via get gets set`.split(/\s+/),
);

const STOP: ReadonlySet<string> = new Set(LEXICAL_STOP_WORDS);

const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) CLASS[c] = c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : c >= 48 && c <= 57 ? DIGIT : OTHER;

const classOf = (code: number): number => (code < 128 ? CLASS[code]! : OTHER);

/** Bounded memo of word → stem (the vocabulary of a repository is small; bodies repeat it). */
const STEMS = new Map<string, string | null>();
const STEM_MEMO_LIMIT = 200_000;

/** The stem of a lower-case word, or null when the word is dropped (stop word, one letter). */
function termOf(lower: string): string | null {
  const known = STEMS.get(lower);
  if (known !== undefined) return known;
  const term = lower.length < 2 || STOP.has(lower) ? null : porter2(lower);
  if (STEMS.size >= STEM_MEMO_LIMIT) STEMS.clear();
  STEMS.set(lower, term);
  return term;
}

/**
 * Call `emit` with each part of the text: runs of letters split where a lower-case letter or
 * digit is followed by an upper-case one, and before the last capital of a capital run that
 * continues in lower case (`HTTPServer` → HTTP, Server); digit runs are parts of their own.
 */
function forEachPart(text: string, emit: (part: string) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let cls = classOf(text.charCodeAt(i));
    if (cls === OTHER) {
      i++;
      continue;
    }
    const start = i;
    if (cls === DIGIT) {
      while (i < n && classOf(text.charCodeAt(i)) === DIGIT) i++;
      emit(text.slice(start, i));
      continue;
    }
    if (cls === UPPER) {
      i++;
      let run = 1;
      while (i < n && classOf(text.charCodeAt(i)) === UPPER) {
        i++;
        run++;
      }
      if (run > 1 && i < n && classOf(text.charCodeAt(i)) === LOWER) {
        // `HTTPServer`: the capitals but the last form one part; the last starts the next word.
        emit(text.slice(start, i - 1));
        i--;
        const wordStart = i;
        i++;
        while (i < n && classOf(text.charCodeAt(i)) === LOWER) i++;
        emit(text.slice(wordStart, i));
        continue;
      }
      if (run > 1) {
        emit(text.slice(start, i));
        continue;
      }
      cls = i < n ? classOf(text.charCodeAt(i)) : OTHER;
      if (cls !== LOWER) {
        emit(text.slice(start, i));
        continue;
      }
    }
    while (i < n && classOf(text.charCodeAt(i)) === LOWER) i++;
    emit(text.slice(start, i));
  }
}

/**
 * The terms of a text for the lexical index, in order, with repeats (term frequency counts).
 *
 * @example
 * ```ts
 * lexicalTerms('def before_request(self, f): # Registers a hook');
 * // ['def', 'request', 'self', 'regist', 'hook'] (`before` is a stop word)
 * lexicalTerms('parseHTTPHeader rendered renders'); // ['pars', 'http', 'header', 'render', 'render']
 * ```
 */
export function lexicalTerms(text: string): string[] {
  const out: string[] = [];
  forEachPart(text, (part) => {
    const term = termOf(part.toLowerCase());
    if (term !== null) out.push(term);
  });
  return out;
}

/** Bounded memo of ASCII alphanumeric run → its terms joined by spaces (code repeats its identifiers). */
const WORD_TERMS = new Map<string, string>();
const WORD_MEMO_LIMIT = 100_000;

/**
 * `lexicalTerms(text).join(' ')`, for the many lines of a full index. A part never spans a
 * character outside [A-Za-z0-9], so each such run's terms are looked up whole in a memo instead
 * of being split and stemmed again every time the identifier appears.
 *
 * @example
 * ```ts
 * lexicalTermText('if err := parseHTTPHeader(r); err != nil {'); // 'err pars http header err nil'
 * ```
 */
export function lexicalTermText(text: string): string {
  let out = '';
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (classOf(text.charCodeAt(i)) === OTHER) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && classOf(text.charCodeAt(i)) !== OTHER) i++;
    const word = text.slice(start, i);
    let terms = WORD_TERMS.get(word);
    if (terms === undefined) {
      terms = lexicalTerms(word).join(' ');
      if (WORD_TERMS.size >= WORD_MEMO_LIMIT) WORD_TERMS.clear();
      WORD_TERMS.set(word, terms);
    }
    if (terms !== '') out = out === '' ? terms : `${out} ${terms}`;
  }
  return out;
}

/**
 * The distinct terms of a query text, in first-seen order: a task names a word once or five
 * times, and BM25 over the symbols should not count it twice.
 *
 * @example
 * ```ts
 * lexicalQueryTerms('Rendering fails when the renderer renders twice'); // ['render', 'fail', 'twice']
 * ```
 */
export function lexicalQueryTerms(text: string): string[] {
  return [...new Set(lexicalTerms(text))];
}
