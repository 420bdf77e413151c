import type { GraphStore } from '@knowing/graph';
import { allKeywords, buildFtsQuery, decomposeCompounds, extractPathTerms, primaryKeywords } from '@knowing/keywords';
import type { KeywordSet } from '@knowing/keywords';
import { DEFAULT_ENGINE_OPTIONS } from '../options.js';
import type { Channel, ChannelHit } from '../channel.js';
import { HitList } from './common.js';

/** Settings of the BM25 channel; the engine builds it from `seeds.bm25Limit` and `seeds.bm25Keywords`. */
export interface Bm25ChannelOptions {
  /** Hits fetched. @default 30 */
  readonly limit: number;
  /**
   * Which keywords the query is built from: `primary` (back-ticked and compound keywords when
   * there are any, else all) or `all`. @default 'all'
   */
  readonly keywords: 'primary' | 'all';
}

/**
 * BM25 over the full-text index. Compounds are phrases on the name column, other words are
 * OR'ed; path terms add `path:term*` prefixes, adjacent keyword pairs add phrases, and the
 * context's related (thesaurus) terms widen a thin result. When a compound-only query finds
 * nothing, the compounds are decomposed into their parts (`ModelAdmin.get_inlines` →
 * `name:admin OR name:inlines …`). The query it ran is reported (the trace's `ftsQuery`). Test
 * code is returned: seeding puts it last unless the task is about tests.
 *
 * @example
 * ```ts
 * // The engine builds it from `options.seeds`; a registered one named `bm25` replaces it.
 * const engine = createEngine({ store, channels: [createBm25Channel({ limit: 60 })] });
 * ```
 */
export function createBm25Channel(options: Partial<Bm25ChannelOptions> = {}): Channel {
  const settings: Bm25ChannelOptions = {
    limit: options.limit ?? DEFAULT_ENGINE_OPTIONS.seeds.bm25Limit,
    keywords: options.keywords ?? DEFAULT_ENGINE_OPTIONS.seeds.bm25Keywords,
  };
  const fingerprint = `bm25@1${JSON.stringify(settings)}`;
  return {
    name: 'bm25',
    fingerprint: () => fingerprint,
    async run({ store, task, keywords, relatedTerms, reportQuery }) {
      const { query, hits } = await bm25Search(store, keywords, extractPathTerms(task), relatedTerms ?? [], settings);
      reportQuery?.(query);
      return hits;
    },
  };
}

async function bm25Search(
  store: GraphStore,
  keywords: KeywordSet,
  pathTerms: readonly string[],
  relatedTerms: readonly string[],
  { limit, keywords: keywordSource }: Bm25ChannelOptions,
): Promise<{ query: string; hits: ChannelHit[] }> {
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
