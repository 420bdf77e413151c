import { ABBREVIATIONS } from './data/abbreviations.js';
import { FILLER_WORDS, STOP_WORDS } from './data/stop-words.js';
import { ACTION_VERBS } from './data/verbs.js';
import { DEFAULT_NORMALIZE_OPTIONS, DEFAULT_VOCAB_OPTIONS, withDefaults } from './options.js';
import { cleanText, isNumeric, lengthOf, trimToWord, wordMap, wordSet } from './text.js';
import type { NormalizeOptions, VocabOptions } from './types.js';

const WHITESPACE = /\s/u;
const NUMBER_LIKE = /^[\p{N}._\-+x]+$/u;

function trimPunctuation(word: string): string {
  return trimToWord(cleanText(word));
}

/**
 * Canonical form of a keyword list for storage and comparison: lower-cased, edge
 * punctuation trimmed, stop words and one-character tokens dropped, each kept once in
 * first-seen order.
 *
 * @example
 * ```ts
 * normalizeKeywords(['Router', '"router"', 'the', 'x', 'before_request']);
 * // ['router', 'before_request']
 * ```
 */
export function normalizeKeywords(keywords: readonly string[], options?: NormalizeOptions): string[] {
  const o = withDefaults(DEFAULT_NORMALIZE_OPTIONS, options);
  const stop = wordSet(o.stopWords);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of keywords) {
    const word = trimPunctuation(raw).toLowerCase();
    if (lengthOf(word) < o.minLength || stop.has(word) || seen.has(word)) continue;
    seen.add(word);
    out.push(word);
  }
  return out;
}

/**
 * Whether a keyword is specific enough to learn a keyword → symbol association from: at
 * least three characters, contains a letter, is not a number, stop word, filler word,
 * action verb, abbreviation of a generic word (`ctx`, `cfg`) or generic word (`request`,
 * `handler`), and is a single token.
 *
 * @example
 * ```ts
 * isVocabWorthy('autodetector'); // true
 * isVocabWorthy('ctx');          // false
 * isVocabWorthy('implement');    // false
 * ```
 */
export function isVocabWorthy(keyword: string, options?: VocabOptions): boolean {
  const o = withDefaults(DEFAULT_VOCAB_OPTIONS, options);
  const word = trimPunctuation(keyword).toLowerCase();
  const length = lengthOf(word);
  if (length < o.minLength || length > o.maxLength) return false;
  if (WHITESPACE.test(word) || isNumeric(word) || NUMBER_LIKE.test(word)) return false;
  if (wordSet(STOP_WORDS).has(word) || wordSet(FILLER_WORDS).has(word) || wordSet(ACTION_VERBS).has(word)) return false;
  if (wordMap(ABBREVIATIONS).has(word)) return false;
  return !wordSet(o.genericWords).has(word);
}
