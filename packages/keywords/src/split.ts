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

function splitCamel(segment: string, out: string[]): void {
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
