/** Set views of word lists. Frozen lists (the defaults) are converted once. */
const setCache = new WeakMap<readonly string[], ReadonlySet<string>>();

export function wordSet(list: readonly string[]): ReadonlySet<string> {
  const cached = setCache.get(list);
  if (cached) return cached;
  const set = new Set(list.map((w) => w.toLowerCase()));
  if (Object.isFrozen(list)) setCache.set(list, set);
  return set;
}

const mapCache = new WeakMap<Readonly<Record<string, string>>, ReadonlyMap<string, string>>();

/** A Map view of a record, so keys like `constructor` never hit the prototype. */
export function wordMap(record: Readonly<Record<string, string>>): ReadonlyMap<string, string> {
  const cached = mapCache.get(record);
  if (cached) return cached;
  const map = new Map<string, string>();
  for (const [k, v] of Object.entries(record)) map.set(k.toLowerCase(), v);
  if (Object.isFrozen(record)) mapCache.set(record, map);
  return map;
}

/** Length in code points, so astral characters count once. */
export function lengthOf(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** First code point upper-cased. */
export function capitalize(s: string): string {
  const first = s.codePointAt(0);
  if (first === undefined) return s;
  const head = String.fromCodePoint(first);
  return head.toUpperCase() + s.slice(head.length);
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const WORD_CHAR = /^[\p{L}\p{N}_]$/u;

/** Trim everything but letters, digits and `_` from both ends (a loop: linear on any input). */
export function trimToWord(s: string): string {
  const chars = Array.from(s);
  let start = 0;
  let stop = chars.length;
  while (start < stop && !WORD_CHAR.test(chars[start]!)) start++;
  while (stop > start && !WORD_CHAR.test(chars[stop - 1]!)) stop--;
  return chars.slice(start, stop).join('');
}
const LETTER = /\p{L}/u;

export function hasLetterOrDigit(s: string): boolean {
  return LETTER_OR_DIGIT.test(s);
}

/** True when a token has no letters: numbers, versions, issue numbers. */
export function isNumeric(s: string): boolean {
  return !LETTER.test(s);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** Replace control characters (but tab and line breaks) and unpaired surrogates by spaces. */
export function cleanText(s: string): string {
  return s.replace(LONE_SURROGATE, ' ').replace(CONTROL, ' ');
}

// The scheme length is bounded so that long dotted words cannot make the scan quadratic.
const URL_PATTERN = /\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s`'"<>)\]]*/gi;

/** Remove URLs, leaving a separator that breaks word adjacency. */
export function stripUrls(text: string): string {
  return text.replace(URL_PATTERN, ' | ');
}

/** A word of the task text, in order. */
export interface Token {
  /** The word, trimmed of edge punctuation and a possessive `'s`; '' for a contraction. */
  readonly text: string;
  /** Something other than plain spacing (punctuation, a blank line) precedes it. */
  readonly breakBefore: boolean;
}

const WORD_RUN = /[\p{L}\p{M}\p{N}_.'\u2019-]+/gu;
const EDGE_CHARS = new Set(['.', "'", '\u2019', '-']);
const POSSESSIVE = /['\u2019]s$/iu;
const APOSTROPHE = /['\u2019]/u;
const HARD_SEPARATOR = /[^\s]|\n[^\S\n]*\n/u;

/**
 * Split text into words. Word characters are letters, marks, digits, `_`, `.`, `-` and
 * apostrophes; everything else separates. Possessives end a noun phrase, so the next word
 * is marked as not adjacent; contractions ("don't") are kept as empty placeholders.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let prevEnd = -1;
  let prevPossessive = false;
  for (const match of text.matchAll(WORD_RUN)) {
    const raw = match[0];
    // Loops, not anchored regexes: `[.-]+$` is quadratic on long runs of dashes.
    let lead = 0;
    while (lead < raw.length && EDGE_CHARS.has(raw[lead]!)) lead++;
    let stop = raw.length;
    while (stop > lead && EDGE_CHARS.has(raw[stop - 1]!)) stop--;
    let word = raw.slice(lead, stop);
    if (word === '') continue;
    const start = match.index + lead;
    const end = start + word.length;
    let possessive = false;
    if (POSSESSIVE.test(word) && word.length > 2) {
      word = word.slice(0, -2);
      possessive = true;
    }
    const breakBefore = prevEnd < 0 || prevPossessive || HARD_SEPARATOR.test(text.slice(prevEnd, start));
    tokens.push({ text: APOSTROPHE.test(word) ? '' : word, breakBefore });
    prevEnd = end;
    prevPossessive = possessive;
  }
  return tokens;
}
