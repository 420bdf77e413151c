import type { GraphNode, GraphStore } from '@knowing/graph';
import { isTypeLike } from '@knowing/graph';
import { extractPathTerms, primaryKeywords } from '@knowing/keywords';
import type { PathChannelOptions } from '../options.js';
import { DEFAULT_ENGINE_OPTIONS } from '../options.js';
import type { Channel, ChannelHit } from '../channel.js';
import { HitList } from './common.js';
import { ftsPhrase } from './fts.js';

const SCAN_PER_TERM = 100;

/** What decides the path channel's hits: its options without the seeding's `supplementalWeight`. */
type PathSettings = Omit<PathChannelOptions, 'supplementalWeight'>;

/**
 * Path-context seeding: types living under directories or files named like the task's terms
 * (`migration` → `db/migrations/operations/base.py.Operation`). Types with members come first,
 * and among them those with a member named like a task keyword, because the walk reaches the
 * members through `contains` edges. Test code is never returned. Besides being fused, the hits
 * are supplemental seeds of the walk (at `path.supplementalWeight`), so the engine runs this
 * channel even when its fusion weight is 0.
 *
 * @example
 * ```ts
 * // The engine builds it from `options.path`; a registered one named `path` replaces it.
 * const hits = await createPathChannel({ cap: 10 }).run({ store, task: 'the routing table', keywords, aboutTests: false });
 * ```
 */
export function createPathChannel(options: Partial<PathChannelOptions> = {}): Channel {
  const { richPerTerm, leanUntil, otherUntil, cap } = { ...DEFAULT_ENGINE_OPTIONS.path, ...options };
  const settings: PathSettings = { richPerTerm, leanUntil, otherUntil, cap };
  const fingerprint = `path@1${JSON.stringify(settings)}`;
  return {
    name: 'path',
    fingerprint: () => fingerprint,
    run: ({ store, task, keywords }) => pathHits(store, extractPathTerms(task), primaryKeywords(keywords), settings),
  };
}

async function pathHits(store: GraphStore, pathTerms: readonly string[], primary: readonly string[], options: PathSettings): Promise<ChannelHit[]> {
  const list = new HitList();
  const keywordSet = new Set(primary.map((k) => k.toLowerCase()));
  for (const term of pathTerms) {
    const found = await store.search(`path:${ftsPhrase(term.toLowerCase())}*`, { limit: SCAN_PER_TERM });
    const keyed: GraphNode[] = [];
    const rich: GraphNode[] = [];
    const lean: GraphNode[] = [];
    const others: GraphNode[] = [];
    for (const { node } of found) {
      if (node.isTest || !pathHasTerm(node.file, term)) continue;
      if (!isTypeLike(node.kind)) {
        others.push(node);
        continue;
      }
      const members = await store.edgesFrom(node.id, { types: ['contains'], limit: 200 });
      if (members.length === 0) {
        lean.push(node);
        continue;
      }
      if (keywordSet.size > 0) {
        const memberNodes = await store.getNodes(members.map((e) => e.target));
        if (memberNodes.some((m) => keywordSet.has(m.name.toLowerCase()))) {
          keyed.push(node);
          continue;
        }
      }
      rich.push(node);
    }
    const before = list.size;
    list.add(keyed, 'type-member', options.cap);
    list.add(rich.slice(0, options.richPerTerm), 'rich-type', options.cap);
    const leanRoom = Math.max(0, options.leanUntil - (list.size - before));
    list.add(lean.slice(0, leanRoom), 'type', options.cap);
    const otherRoom = Math.max(0, options.otherUntil - (list.size - before));
    list.add(others.slice(0, otherRoom), 'in-path', options.cap);
    if (list.size >= options.cap) break;
  }
  return list.hits;
}

/** The term appears in the directory or file-stem part of the path at a word boundary (prefix match allows plurals). */
function pathHasTerm(file: string, term: string): boolean {
  const lower = file.toLowerCase();
  const needle = term.toLowerCase();
  let at = lower.indexOf(needle);
  while (at >= 0) {
    const before = at === 0 ? '/' : lower[at - 1]!;
    if ('/._-'.includes(before)) return true;
    at = lower.indexOf(needle, at + 1);
  }
  return false;
}
