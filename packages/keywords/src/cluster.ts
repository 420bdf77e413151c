import { createHash } from 'node:crypto';
import { DEFAULT_KEYWORD_CLUSTER_OPTIONS, withDefaults } from './options.js';
import { allKeywords, primaryKeywords } from './extract.js';
import type { KeywordClusterOptions, KeywordSet } from './types.js';

/** Code point order, which is also the byte order of the UTF-8 encodings. */
function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const ca = ia.next();
    const cb = ib.next();
    if (ca.done || cb.done) return ca.done === cb.done ? 0 : ca.done ? -1 : 1;
    const d = ca.value.codePointAt(0)! - cb.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

/**
 * Id of the keyword cluster a task belongs to, for scoping feedback: hex SHA-256 of
 * `"cluster\0"` followed by the sorted (UTF-8 byte order), de-duplicated primary keywords
 * joined by `"\0"`. When there are no primary keywords, all keywords are hashed instead
 * (see {@link KeywordClusterOptions.whenNoPrimary}).
 *
 * @example
 * ```ts
 * keywordClusterId(extractKeywordSet('fix `before_request` ordering'));
 * // sha256('cluster\0before_request') as hex
 * ```
 */
export function keywordClusterId(set: KeywordSet, options?: KeywordClusterOptions): string {
  const o = withDefaults(DEFAULT_KEYWORD_CLUSTER_OPTIONS, options);
  let keywords = primaryKeywords(set);
  if (keywords.length === 0 && o.whenNoPrimary === 'all') keywords = allKeywords(set);
  const sorted = [...new Set(keywords)].sort(compareCodePoints);
  return createHash('sha256').update(`cluster\0${sorted.join('\0')}`, 'utf8').digest('hex');
}
