import { DEFAULT_PATH_TERM_OPTIONS, withDefaults } from './options.js';
import { splitIdentifier } from './split.js';
import { cleanText, isNumeric, lengthOf, stripUrls, tokenize, wordSet } from './text.js';
import type { PathTermOptions } from './types.js';

const PLAIN = /^[\p{L}\p{N}_]+$/u;
const SEGMENT_SEPARATORS = /[.-]/;

/**
 * One plural ending removed where English is regular enough to be sure: `-ches`, `-shes`,
 * `-xes`, `-sses` lose `es`; other `-s` (not `-ss`, `-us`, `-is`, `-ies`) lose `s`.
 */
function singular(word: string, minLength: number): string {
  let stem = word;
  if (/(?:ch|sh|x|ss)es$/.test(word)) stem = word.slice(0, -2);
  else if (word.endsWith('s') && !/(?:ss|us|is|ies)$/.test(word)) stem = word.slice(0, -1);
  return lengthOf(stem) >= minLength ? stem : word;
}

/**
 * Words of a task that may name a package or directory: lower-case, at least four
 * characters, not generic, not numeric, plus the `_`/CamelCase parts of identifiers; the
 * longest few are kept (longest first, ties in order of appearance).
 *
 * @example
 * ```ts
 * extractPathTerms('fix the migration operation ordering in the autodetector');
 * // ['autodetector', 'migration', 'operation', 'ordering']
 * ```
 */
export function extractPathTerms(text: string, options?: PathTermOptions): string[] {
  const o = withDefaults(DEFAULT_PATH_TERM_OPTIONS, options);
  const stop = wordSet(o.stopWords);
  const seen = new Set<string>();
  const terms: string[] = [];
  const consider = (candidate: string): void => {
    let word = candidate.toLowerCase();
    if (!PLAIN.test(word) || isNumeric(word) || stop.has(word)) return;
    if (o.singularize) word = singular(word, o.minLength);
    const length = lengthOf(word);
    if (length < o.minLength || length > o.maxLength || stop.has(word) || seen.has(word)) return;
    seen.add(word);
    terms.push(word);
  };
  for (const token of tokenize(stripUrls(cleanText(text)))) {
    // Dotted module paths and hyphenated names are separate path segments.
    for (const segment of token.text.split(SEGMENT_SEPARATORS)) {
      if (segment === '' || !PLAIN.test(segment)) continue;
      consider(segment);
      const parts = splitIdentifier(segment);
      if (parts.length > 1) for (const part of parts) consider(part);
    }
  }
  return terms
    .map((term, index) => ({ term, index, length: lengthOf(term) }))
    .sort((a, b) => b.length - a.length || a.index - b.index)
    .slice(0, Math.max(0, o.maxTerms))
    .map((e) => e.term);
}
