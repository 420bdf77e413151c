import type { GraphNode, GraphStore, NameMatch } from '@knowing/graph';
import { allKeywords, primaryKeywords } from '@knowing/keywords';
import type { KeywordSet } from '@knowing/keywords';
import type { TieredOptions } from '../options.js';
import { DEFAULT_ENGINE_OPTIONS } from '../options.js';
import type { Channel, ChannelHit } from '../channel.js';
import { HitList, byLikelyIntent, matchesQualifier, splitQualified } from './common.js';
import { ftsPhrase } from './fts.js';

const LOOKUP_LIMIT = 200;

async function lookup(store: GraphStore, keyword: string, match: NameMatch): Promise<GraphNode[]> {
  const { qualifier, terminal } = splitQualified(keyword);
  if (terminal.length < 2) return [];
  const nodes = await store.findNodesByName(terminal, { match, limit: LOOKUP_LIMIT });
  return nodes.filter((node) => matchesQualifier(node, qualifier)).sort(byLikelyIntent);
}

/**
 * Tiered name matching. Primary keywords (back-ticked, compounds) go through exact then prefix
 * matching; components only when the primary ones found too little (so `before_request` is not
 * drowned by `before` and `request`); then substring and path-segment tiers over every
 * keyword while results stay thin. Test code is returned, after the code it shares a tier
 * with: seeding puts it last unless the task is about tests.
 *
 * @example
 * ```ts
 * // The engine builds it from `options.tiered`; a registered one named `tiered` replaces it.
 * const engine = createEngine({ store, channels: [createTieredChannel({ prefixCap: 50 })] });
 * ```
 */
export function createTieredChannel(options: Partial<TieredOptions> = {}): Channel {
  const settings: TieredOptions = { ...DEFAULT_ENGINE_OPTIONS.tiered, ...options };
  const fingerprint = `tiered@1${JSON.stringify(settings)}`;
  return {
    name: 'tiered',
    fingerprint: () => fingerprint,
    run: ({ store, keywords }) => tieredHits(store, keywords, settings),
  };
}

async function tieredHits(store: GraphStore, keywords: KeywordSet, options: TieredOptions): Promise<ChannelHit[]> {
  const list = new HitList();
  const primary = primaryKeywords(keywords);
  const components = keywords.components.filter((c) => !/[A-Z]/.test(c.slice(1)) && !c.includes('_'));

  const exactThenPrefix = async (terms: readonly string[]): Promise<void> => {
    for (const term of terms) list.add(await lookup(store, term, 'exact_ci'), 'exact');
    if (list.size >= options.prefixBelow) return;
    for (const term of terms) {
      if (splitQualified(term).terminal.length < 3) continue;
      if (!list.add(await lookup(store, term, 'prefix'), 'prefix', options.prefixCap)) break;
    }
  };

  await exactThenPrefix(primary);
  if (list.size < options.componentFallbackBelow) await exactThenPrefix(components);

  const all = allKeywords(keywords);
  if (list.size < options.substringBelow) {
    for (const term of all) {
      if (term.length < options.substringMinLength || term.includes('.')) continue;
      if (!list.add(await lookup(store, term, 'substring'), 'substring', options.substringCap)) break;
    }
  }
  if (list.size < options.pathBelow) {
    for (const term of all) {
      if (term.length < options.pathMinLength || /[^A-Za-z0-9_-]/.test(term)) continue;
      const hits = await store.search(`path:${ftsPhrase(term.toLowerCase())}`, { limit: 20 });
      if (!list.add(hits.map((h) => h.node), 'path', options.pathCap)) break;
    }
  }
  return list.hits;
}
