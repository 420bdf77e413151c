import type { GraphNode, GraphStore, NodeId } from '@knowing/graph';
import { ErrorCode, KnowingError } from '@knowing/graph';
import { allKeywords, extractKeywordSet, keywordClusterId, taskTerms } from '@knowing/keywords';
import type { KeywordSet } from '@knowing/keywords';
import { DEFAULT_TEST_TASK_WORDS, isTestTask } from '@knowing/rank/formula';
import type { ChannelHit, ChannelName, Seed } from './types.js';
import type { GraphState } from './graph-state.js';
import type { PipelineContext, Seeding } from './pipeline.js';
import { timer } from './pipeline.js';
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

/**
 * The channels' hits of a query, keyed by channel name. The built-in names come first in a
 * fixed order (the order fusion breaks ties in, as the original fused them), with no hits until
 * their channel runs; other channels follow in the order they ran.
 */
function channelHits(): Record<ChannelName, readonly ChannelHit[]> {
  return { tiered: [], bm25: [], equiv: [], path: [], vector: [], lexical: [] };
}

/** The path channel's hits are also supplemental seeds of the walk: it runs even at fusion weight 0. */
const RUNS_AT_ZERO_WEIGHT: ReadonlySet<ChannelName> = new Set(['path']);

/**
 * Task text → seeds: keywords, the retrieval channels in order, the vocabulary stage, fusion,
 * implementors, seed selection.
 */
export async function seedTask(ctx: PipelineContext, state: GraphState, task: string): Promise<Seeding> {
  const { store, options } = ctx;
  const timings: Record<string, number> = {};
  let lap = timer();
  const keywords = extractKeywordSet(task);
  const cluster = keywordClusterId(keywords);
  const aboutTests = aboutTestsOf(ctx, task, allKeywords(keywords));
  timings.keywords = lap();

  lap = timer();
  const relatedTerms = ctx.equivalence.relatedTerms(keywords);
  const relatedMs = lap();
  const channels = channelHits();
  const queries = new Map<ChannelName, string>();
  for (const channel of ctx.channels) {
    if ((options.channels[channel.name] ?? 1) <= 0 && !RUNS_AT_ZERO_WEIGHT.has(channel.name)) continue;
    lap = timer();
    const reportQuery = (query: string): void => {
      queries.set(channel.name, query);
    };
    channels[channel.name] = await channel.run({ store, task, keywords, aboutTests, relatedTerms, reportQuery });
    timings[channel.name] = lap();
  }
  lap = timer();
  // Graph aliases come from the tiered hits; the vocabulary's hits are capped against the name channels'.
  const tiered = channels['tiered'] ?? [];
  const equivalence = await ctx.equivalence.run({ store, task, keywords, tiered, keywordCluster: cluster, state });
  channels['equiv'] = equivalence.capped(tiered.length + (channels['bm25'] ?? []).length);
  timings.equivalenceMatch = relatedMs + lap();

  lap = timer();
  const path = channels['path'] ?? [];
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
    ftsQuery: queries.get('bm25') ?? '',
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
  const channels = channelHits();
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
