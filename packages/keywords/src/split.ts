import { IDENTIFIER_ATOMS } from './data/lexicon.js';

const UPPER = /^[\p{Lu}\p{Lt}]$/u;
const LOWER = /^\p{Ll}$/u;
const DIGIT = /^\p{Nd}$/u;
const SEPARATORS = /[^\p{L}\p{M}\p{N}]+/u;

const isUpper = (c: string | undefined): boolean => c !== undefined && UPPER.test(c);
const isLower = (c: string | undefined): boolean => c !== undefined && LOWER.test(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && DIGIT.test(c);

const ATOMS: readonly (readonly string[])[] = IDENTIFIER_ATOMS.map((a) => Array.from(a));

/** The atom starting at `i`, if it ends where a new word may start. */
function atomAt(chars: readonly string[], i: number): number {
  for (const atom of ATOMS) {
    if (i + atom.length > chars.length) continue;
    let ok = true;
    for (let k = 0; k < atom.length && ok; k++) ok = chars[i + k] === atom[k];
    if (ok && !isLower(chars[i + atom.length])) return atom.length;
  }
  return 0;
}

/** `UUIDs`, `APIsFor`: an upper-case run ending in a plural `s` is still one word. */
function isPluralAcronym(chars: readonly string[], i: number): boolean {
  return chars[i + 1] === 's' && !isLower(chars[i + 2]);
}

/** A segment of ASCII letters and digits only: most identifiers, split by {@link splitCamelAscii}. */
const ASCII_ALPHANUMERIC = /^[A-Za-z0-9]+$/;

const isUpperCode = (c: number): boolean => c >= 65 && c <= 90;
const isLowerCode = (c: number): boolean => c >= 97 && c <= 122;
const isDigitCode = (c: number): boolean => c >= 48 && c <= 57;

/** The atoms by their first character's code, in list order (the first that fits wins). */
const ATOMS_BY_FIRST = new Map<number, string[]>();
for (const atom of IDENTIFIER_ATOMS) {
  const first = atom.charCodeAt(0);
  ATOMS_BY_FIRST.set(first, [...(ATOMS_BY_FIRST.get(first) ?? []), atom]);
}

/**
 * {@link splitCamelGeneral} for a segment of ASCII letters and digits, on character codes: the
 * general path tests each character against Unicode classes and every atom at every word start,
 * which made splitting the identifiers of a few hundred symbols cost milliseconds per query.
 * The two agree on every such segment (a test compares them).
 */
function splitCamelAscii(s: string, out: string[]): void {
  const n = s.length;
  const at = (i: number): number => (i >= 0 && i < n ? s.charCodeAt(i) : -1);
  let start = 0;
  let i = 0;
  while (i < n) {
    const prev = at(i - 1);
    const cur = at(i);
    if (i === 0 || isLowerCode(prev) || isDigitCode(prev)) {
      let atom = 0;
      for (const candidate of ATOMS_BY_FIRST.get(cur) ?? []) {
        if (s.startsWith(candidate, i) && !isLowerCode(at(i + candidate.length))) {
          atom = candidate.length;
          break;
        }
      }
      if (atom > 0) {
        if (i > start) out.push(s.slice(start, i));
        let j = i + atom;
        while (isDigitCode(at(j))) j++;
        out.push(s.slice(i, j));
        start = j;
        i = j;
        continue;
      }
    }
    if (i > start && isUpperCode(cur)) {
      const next = at(i + 1);
      // A plural acronym (`UUIDs`) stays one word: an `s` not followed by lower case.
      const boundary = isLowerCode(prev) || isDigitCode(prev) || (isUpperCode(prev) && isLowerCode(next) && !(next === 115 && !isLowerCode(at(i + 2))));
      if (boundary) {
        out.push(s.slice(start, i));
        start = i;
      }
    }
    i++;
  }
  if (start < n) out.push(s.slice(start));
}

function splitCamel(segment: string, out: string[]): void {
  if (ASCII_ALPHANUMERIC.test(segment)) splitCamelAscii(segment, out);
  else splitCamelGeneral(segment, out);
}

/** The split of any segment, on Unicode character classes. Exported for the test that compares the paths. */
export function splitCamelGeneral(segment: string, out: string[]): void {
  const chars = Array.from(segment);
  let start = 0;
  let i = 0;
  while (i < chars.length) {
    const prev = chars[i - 1];
    const cur = chars[i];
    if (i === 0 || isLower(prev) || isDigit(prev)) {
      const atom = atomAt(chars, i);
      if (atom > 0) {
        if (i > start) out.push(chars.slice(start, i).join(''));
        let j = i + atom;
        while (isDigit(chars[j])) j++;
        out.push(chars.slice(i, j).join(''));
        start = j;
        i = j;
        continue;
      }
    }
    if (i > start) {
      const boundary =
        (isUpper(cur) && (isLower(prev) || isDigit(prev))) ||
        (isUpper(cur) && isUpper(prev) && isLower(chars[i + 1]) && !isPluralAcronym(chars, i));
      if (boundary) {
        out.push(chars.slice(start, i).join(''));
        start = i;
      }
    }
    i++;
  }
  if (start < chars.length) out.push(chars.slice(start).join(''));
}

/**
 * Split an identifier into its words: on `_`, `.`, `-`, `/` and other non-alphanumerics,
 * at lower→Upper and digit→Upper changes, and before the last capital of an upper-case run
 * that is followed by lower case (unless that is a plural `s`: `UUIDs`). Digits stay with
 * the word before them. A few mixed-case
 * words (`SQLite`, `OAuth`, `GraphQL`, …) are kept whole. Case is preserved; nothing is
 * filtered.
 *
 * @example
 * ```ts
 * splitIdentifier('HTTPServer');      // ['HTTP', 'Server']
 * splitIdentifier('SQLiteStore');     // ['SQLite', 'Store']
 * splitIdentifier('SearchBM25Nodes'); // ['Search', 'BM25', 'Nodes']
 * splitIdentifier('before_request');  // ['before', 'request']
 * ```
 */
export function splitIdentifier(word: string): string[] {
  const out: string[] = [];
  for (const segment of word.split(SEPARATORS)) {
    if (segment !== '') splitCamel(segment, out);
  }
  return out;
}

/**
 * An identifier made of several words: it contains `_` or `.`, or splits into more than
 * one CamelCase part. Capitalised words (`Snapshot`) and acronyms (`MCP`) are not.
 *
 * @example
 * ```ts
 * isCompoundIdentifier('before_request'); // true
 * isCompoundIdentifier('SQLiteStore');    // true
 * isCompoundIdentifier('Snapshot');       // false
 * ```
 */
export function isCompoundIdentifier(word: string): boolean {
  return word.includes('_') || word.includes('.') || splitIdentifier(word).length > 1;
}
