import type { GraphNode, GraphStore, NodeId } from '@knowing/graph';
import { ErrorCode, KnowingError } from '@knowing/graph';
import { allKeywords, extractKeywordSet, extractPathTerms, keywordClusterId, primaryKeywords, taskTerms } from '@knowing/keywords';
import type { KeywordSet } from '@knowing/keywords';
import { DEFAULT_TEST_TASK_WORDS, isTestTask } from '@knowing/rank';
import type { ChannelHit, ChannelName, Seed, VectorChannel } from './types.js';
import type { GraphState } from './graph-state.js';
import type { PipelineContext, Seeding } from './pipeline.js';
import { timer } from './pipeline.js';
import { tieredChannel } from './channels/tiered.js';
import { bm25Channel } from './channels/bm25.js';
import { pathChannel } from './channels/path.js';
import { HitList } from './channels/common.js';
import { boostTermMatches, fuseChannels } from './fusion.js';
import { addImplementors, namespaceWrappers, noiseReason, seedsLast, selectSeeds } from './seeds.js';

/*
 * The seeding stages: the only part of the pipeline in which `forTask`, `forFiles` and `forPR`
 * differ (see pipeline.ts for the stages they share).
 */

const NO_KEYWORDS: KeywordSet = Object.freeze({ exact: [], compounds: [], components: [], priority: [] });

/** Whether a query is about tests; the words come from the ranking options, so seeds, channels and ranking agree. */
function aboutTestsOf(ctx: PipelineContext, query: string, keywords: readonly string[]): boolean {
  return isTestTask(query, keywords, ctx.options.ranking.testTaskWords ?? DEFAULT_TEST_TASK_WORDS);
}

/** Task text → seeds: keywords, the retrieval channels, fusion, implementors, seed selection. */
export async function seedTask(ctx: PipelineContext, state: GraphState, task: string): Promise<Seeding> {
  const { store, options } = ctx;
  const timings: Record<string, number> = {};
  let lap = timer();
  const keywords = extractKeywordSet(task);
  const pathTerms = extractPathTerms(task);
  const cluster = keywordClusterId(keywords);
  timings.keywords = lap();

  lap = timer();
  const tiered = options.channels.tiered > 0 ? await tieredChannel(store, keywords, options.tiered) : [];
  timings.tiered = lap();
  lap = timer();
  const equivalence = await ctx.equivalence.run({ store, task, keywords, tiered, keywordCluster: cluster, state });
  timings.equivalenceMatch = lap();
  lap = timer();
  const bm25 =
    options.channels.bm25 > 0
      ? await bm25Channel(store, keywords, pathTerms, equivalence.relatedTerms, options.seeds.bm25Limit, options.seeds.bm25Keywords)
      : { query: '', hits: [] as ChannelHit[] };
  timings.bm25 = lap();
  lap = timer();
  const equivHits = equivalence.capped(tiered.length + bm25.hits.length);
  const path = await pathChannel(store, pathTerms, primaryKeywords(keywords), options.path);
  timings.path = lap();
  lap = timer();
  const vector = ctx.vector && options.channels.vector > 0 ? await vectorChannel(store, ctx.vector, task) : [];
  timings.vector = lap();

  const channels: Record<ChannelName, readonly ChannelHit[]> = { tiered, bm25: bm25.hits, equiv: equivHits, path, vector, lexical: [] };
  const aboutTests = aboutTestsOf(ctx, task, allKeywords(keywords));
  for (const channel of ctx.channels) {
    if ((options.channels[channel.name] ?? 1) <= 0) continue;
    lap = timer();
    channels[channel.name] = await channel.run({ store, task, keywords, aboutTests });
    timings[channel.name] = lap();
  }
  lap = timer();
  const terms = new Set(taskTerms(task));
  let fused = boostTermMatches(
    fuseChannels(channels, options.channels, options.seeds.rrfK, Number.POSITIVE_INFINITY),
    terms,
    options.seeds.termMatchBonus,
    options.seeds.maxCandidates,
  );
  if (options.seeds.interfaceSeeding) fused = await addImplementors(store, fused, options.seeds.implementorsPerInterface);
  const wrappers = await namespaceWrappers(store, [...fused.map((c) => c.node), ...path.map((h) => h.node)], state.namespaces);
  if (wrappers.size > 0) fused = fused.filter((c) => !wrappers.has(c.node.id));
  const pathSeeds = wrappers.size > 0 ? path.filter((h) => !wrappers.has(h.node.id)) : path;
  const seeds = selectSeeds(fused, pathSeeds, state.adjacency.nodeCount, options.seeds, options.path.supplementalWeight, aboutTests);
  const forced = options.equivalence.forcedInjection
    ? equivalence.forced.filter((n) => noiseReason(n) === null && (aboutTests || !seedsLast(n))).slice(0, options.equivalence.maxForced)
    : [];
  timings.seeds = lap();

  return {
    kind: 'task',
    query: task,
    keywords,
    keywordCluster: cluster,
    aboutTests,
    terms,
    ftsQuery: bm25.query,
    channels,
    fused,
    seeds,
    forced,
    matchedClasses: equivalence.matched,
    classesByNode: equivalence.classesByNode,
    walk: { communityRestriction: options.walk.communityRestriction, minScore: options.walk.minScore },
    timings,
  };
}

async function vectorChannel(store: GraphStore, vector: VectorChannel, task: string): Promise<ChannelHit[]> {
  const ids = await vector.search(task, { limit: 20 });
  const list = new HitList();
  list.add(await store.getNodes(ids), 'vector');
  return list.hits;
}

/** Repo-relative paths as the index spells them, each once, in the order given. */
export function normalizeFiles(files: readonly string[]): string[] {
  const paths = Array.isArray(files) ? files.filter((f) => typeof f === 'string' && f.trim() !== '') : [];
  if (paths.length === 0) {
    throw new KnowingError(ErrorCode.InvalidArgument, 'no files given', { source: 'engine', hint: 'pass repo-relative paths of changed files' });
  }
  return [...new Set(paths.map((file) => file.replace(/\\/g, '/').replace(/^\.\//, '')))];
}

/** The symbols (not the file nodes) of the given files: one store query per file. */
export async function filesSymbols(store: GraphStore, files: readonly string[]): Promise<GraphNode[]> {
  const nodes: GraphNode[] = [];
  for (const file of files) nodes.push(...(await store.nodesInFile(file)).filter((n) => n.kind !== 'file'));
  return nodes;
}

/** The direct callers of `ids`, read from the in-memory adjacency (no store query per symbol). */
function directCallers(state: GraphState, ids: readonly NodeId[]): NodeId[] {
  const { adjacency } = state;
  const calls = adjacency.typeNames.indexOf('calls');
  const callers: NodeId[] = [];
  if (calls < 0) return callers;
  for (const id of ids) {
    const index = adjacency.indexOf(id);
    if (index < 0) continue;
    for (let e = adjacency.inOffsets[index]!; e < adjacency.inOffsets[index + 1]!; e++) {
      if (adjacency.outTypes[adjacency.inEdges[e]!] === calls) callers.push(adjacency.ids[adjacency.inSources[e]!]!);
    }
  }
  return callers;
}

/** Seeds of a file or PR query: every symbol of the files, at full weight. */
async function fileSeeds(ctx: PipelineContext, files: readonly string[], timings: Record<string, number>): Promise<{ symbols: GraphNode[]; seeds: Seed[] }> {
  const lap = timer();
  const symbols = await filesSymbols(ctx.store, files);
  timings.files = lap();
  return { symbols, seeds: symbols.map((node) => ({ node, weight: 1, origin: 'file', channels: [] })) };
}

/** What a file or PR seeding shares besides its seeds: no keywords, channels or classes; terms of the paths. */
function fileSeeding(ctx: PipelineContext, kind: 'files' | 'pr', files: readonly string[]) {
  const query = files.join(' ');
  const channels: Record<ChannelName, readonly ChannelHit[]> = { tiered: [], bm25: [], equiv: [], path: [], vector: [], lexical: [] };
  return {
    kind,
    query,
    keywords: NO_KEYWORDS,
    keywordCluster: null,
    aboutTests: aboutTestsOf(ctx, query, []),
    terms: new Set(taskTerms(query)),
    ftsQuery: '',
    channels,
    fused: [],
    forced: [],
    matchedClasses: [],
    classesByNode: new Map<NodeId, readonly string[]>(),
  } as const;
}

/**
 * Files → seeds: the files' symbols. The answer ranks exactly those symbols and their direct
 * callers, so the walk that scores them is neither restricted to a community nor cut off: a
 * caller in another part of the graph is still one of them.
 */
export async function seedFiles(ctx: PipelineContext, state: GraphState, files: readonly string[]): Promise<Seeding> {
  const timings: Record<string, number> = {};
  const { symbols, seeds } = await fileSeeds(ctx, files, timings);
  const lap = timer();
  const ids = symbols.map((s) => s.id);
  const candidates = [...ids, ...directCallers(state, ids)];
  timings.callers = lap();
  return {
    ...fileSeeding(ctx, 'files', files),
    seeds,
    walk: { communityRestriction: false, minScore: 0 },
    candidates,
    timings,
  };
}

/**
 * Changed files → seeds: the changed symbols. The walk then spreads over the whole graph (no
 * community restriction) and keeps what reaches `prCutoff`: the impact neighbourhood.
 */
export async function seedPR(ctx: PipelineContext, _state: GraphState, files: readonly string[]): Promise<Seeding> {
  const timings: Record<string, number> = {};
  const { seeds } = await fileSeeds(ctx, files, timings);
  return {
    ...fileSeeding(ctx, 'pr', files),
    seeds,
    walk: { communityRestriction: false, minScore: ctx.options.prCutoff },
    timings,
  };
}
