import type { GraphStore } from '@knowing/graph';
import { allKeywords, buildFtsQuery, decomposeCompounds, primaryKeywords } from '@knowing/keywords';
import type { KeywordSet } from '@knowing/keywords';
import type { ChannelHit } from '../types.js';
import { HitList } from './common.js';

/** What the BM25 channel ran and found. */
export interface Bm25Result {
  readonly query: string;
  readonly hits: ChannelHit[];
}

/**
 * BM25 over the full-text index. Compounds are phrases on the name column, other words are
 * OR'ed; path terms add `path:term*` prefixes, adjacent keyword pairs add phrases, and related
 * thesaurus terms widen recall. When a compound-only query finds nothing, the compounds are
 * decomposed into their parts (`ModelAdmin.get_inlines` → `name:admin OR name:inlines …`).
 */
export async function bm25Channel(
  store: GraphStore,
  keywords: KeywordSet,
  pathTerms: readonly string[],
  relatedTerms: readonly string[],
  limit: number,
  keywordSource: 'primary' | 'all' = 'primary',
): Promise<Bm25Result> {
  const primary = primaryKeywords(keywords);
  const all = allKeywords(keywords);
  const base = primary.length > 0 && keywordSource === 'primary' ? primary : all;
  const extras = { pathTerms, phraseTerms: all };
  let query = buildFtsQuery(base, extras);
  if (!query) return { query, hits: [] };
  let hits = await store.search(query, { limit });
  // Related thesaurus terms only widen a thin result: added to a good query they outvote it.
  if (hits.length < limit / 2 && relatedTerms.length > 0) {
    const widened = buildFtsQuery(base, { ...extras, relatedTerms });
    const more = await store.search(widened, { limit });
    if (more.length > hits.length) {
      query = widened;
      hits = more;
    }
  }
  if (hits.length === 0 && primary.length > 0) {
    const decomposed = decomposeCompounds(primary);
    const fallback = [decomposed, buildFtsQuery(keywords.components, { ...extras, relatedTerms })].filter((q) => q.length > 0).join(' OR ');
    if (fallback) {
      query = fallback;
      hits = await store.search(query, { limit });
    }
  }
  const list = new HitList();
  list.add(
    hits.map((h) => h.node),
    'bm25',
  );
  return { query, hits: list.hits };
}
