import { DEFAULT_THESAURUS_OPTIONS, checkInteger, withDefaults } from './options.js';
import { phraseWords } from './text.js';
import type { ThesaurusCluster, ThesaurusOptions } from './types.js';

interface CompiledCluster {
  readonly head: string;
  readonly terms: readonly { readonly term: string; readonly key: string }[];
}

const compiled = new WeakMap<readonly ThesaurusCluster[], readonly CompiledCluster[]>();

function compile(thesaurus: readonly ThesaurusCluster[]): readonly CompiledCluster[] {
  let out = compiled.get(thesaurus);
  if (!out) {
    out = thesaurus.map((c) => ({
      head: phraseWords(c.concept).join(' '),
      terms: c.terms.map((term) => ({ term, key: phraseWords(term).join(' ') })),
    }));
    compiled.set(thesaurus, out);
  }
  return out;
}

/**
 * Related code vocabulary for BM25 widening: for each keyword (in order) the terms of the
 * clusters it heads, then of the clusters it belongs to, skipping terms already present;
 * at most `maxTerms`. Keywords and terms compare after plural/inflection folding, so
 * "consumers" finds the `consumer` cluster. Multi-word keywords are not expanded.
 *
 * @example
 * ```ts
 * expandWithThesaurus(['consumer', 'offset'], { maxTerms: 4 });
 * // ['subscriber', 'listener', 'handler', 'processor']
 * ```
 */
export function expandWithThesaurus(keywords: readonly string[], options?: ThesaurusOptions): string[] {
  const o = withDefaults(DEFAULT_THESAURUS_OPTIONS, options);
  checkInteger('maxTerms', o.maxTerms, 0);
  const present = new Set<string>();
  const singles: string[] = [];
  for (const keyword of keywords) {
    const words = phraseWords(keyword);
    for (const w of words) present.add(w);
    if (words.length === 1 && words[0] !== undefined) singles.push(words[0]);
  }
  const clusters = compile(o.thesaurus);
  const out: string[] = [];
  const add = (terms: CompiledCluster['terms']): boolean => {
    for (const { term, key } of terms) {
      if (out.length >= o.maxTerms) return false;
      if (key === '' || present.has(key)) continue;
      present.add(key);
      out.push(term);
    }
    return out.length < o.maxTerms;
  };
  for (const word of [...new Set(singles)]) {
    const headed = clusters.filter((c) => c.head === word);
    const member = clusters.filter((c) => c.head !== word && c.terms.some((t) => t.key === word));
    for (const c of [...headed, ...member]) if (!add(c.terms)) return out;
  }
  return out;
}
