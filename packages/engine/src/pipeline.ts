import type { Adjacency, GraphEdge, GraphNode, GraphStore, NodeId, RankedSymbol } from '@knowing/graph';
import { PROVENANCES, packageOf, symbolPath } from '@knowing/graph';
import { countTermMatches, extractKeywordSet, extractPathTerms, keywordClusterId, primaryKeywords, allKeywords, taskTerms } from '@knowing/keywords';
import type { KeywordSet } from '@knowing/keywords';
import { DEFAULT_TEST_TASK_WORDS, isTestTask } from '@knowing/rank';
import type { CheckedRanker, RankContext, RankInput, SessionTracker } from '@knowing/rank';
import { textMatches } from './text-match.js';
import { communityRestriction, hits as computeHits, randomWalkWithRestart, walkCacheKey, walkCandidates } from '@knowing/walk';
import type { WalkCache } from '@knowing/walk';
import type { EngineOptions } from './options.js';
import type { ChannelHit, ChannelName, PipelineTrace, Seed, VectorChannel } from './types.js';
import type { GraphState } from './graph-state.js';
import type { EquivalenceStage } from './equivalence-stage.js';
import { tieredChannel } from './channels/tiered.js';
import { bm25Channel } from './channels/bm25.js';
import { pathChannel } from './channels/path.js';
import { boostTermMatches, fuseChannels } from './fusion.js';
import { addImplementors, isTestNode, namespaceWrappers, noiseReason, selectSeeds } from './seeds.js';
import { HitList } from './channels/common.js';
import type { Channel } from './channel.js';

/** Everything one pipeline run reads. */
export interface PipelineContext {
  readonly store: GraphStore;
  readonly options: EngineOptions;
  readonly ranker: CheckedRanker;
  readonly equivalence: EquivalenceStage;
  readonly vector: VectorChannel | undefined;
  /** Channels run for every task besides the built-in name channels (the lexical one first). */
  readonly channels: readonly Channel[];
  readonly now: number;
  readonly session: SessionTracker | undefined;
  /** Reuses walks across queries; left out when every stage must be recomputed (explain). */
  readonly walkCache?: WalkCache<CachedWalk>;
}

/** The ranked result of a task with everything that led to it. */
export interface TaskRun {
  readonly ranked: RankedSymbol[];
  /** What the ranker was given, for its explanations. */
  readonly inputs: readonly RankInput[];
  readonly rankContext: RankContext;
  readonly walked: WalkOutcome;
  readonly trace: PipelineTrace;
  readonly keywordCluster: string;
}

const timer = (): (() => number) => {
  const start = performance.now();
  return () => Math.round((performance.now() - start) * 100) / 100;
};

/** Task text → ranked symbols: keywords, channels, fusion, seeds, walk, HITS, ranking. */
export async function runTask(ctx: PipelineContext, state: GraphState, task: string): Promise<TaskRun> {
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
  // The words come from the ranking options, so `ranking.testTaskWords` decides seeds, channels and ranking alike.
  const aboutTests = isTestTask(task, allKeywords(keywords), options.ranking.testTaskWords ?? DEFAULT_TEST_TASK_WORDS);
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
  timings.seeds = lap();

  lap = timer();
  const walked = walkFromSeeds(state, seeds, options, options.walk.minScore, ctx.walkCache);
  timings.walk = lap();

  lap = timer();
  const forced = options.equivalence.forcedInjection
    ? equivalence.forced
        .filter((n) => noiseReason(n) === null && (aboutTests || !isTestNode(n)))
        .slice(0, options.equivalence.maxForced)
    : [];
  const inputs = await buildRankInputs(ctx, state, walked, seeds, forced, cluster, equivalence.classesByNode, terms, lexicalEvidence(channels['lexical'] ?? []), channelRanks(channels));
  timings.inputs = lap();

  lap = timer();
  const rankContext: RankContext = {
    task,
    keywords: allKeywords(keywords),
    now: ctx.now,
    aboutTests,
    mode: inputs.hitsUsed ? 'hits' : 'base',
    options: options.ranking,
  };
  const ranked = await ctx.ranker.rank(inputs.inputs, rankContext);
  timings.rank = lap();

  const trace: PipelineTrace = {
    keywords,
    ftsQuery: bm25.query,
    channels,
    fused,
    seeds,
    forced,
    matchedClasses: equivalence.matched,
    walk: walked.byId,
    hits: inputs.hitsById,
    ranked,
    timings,
  };
  return { ranked, inputs: inputs.inputs, rankContext, walked, trace, keywordCluster: cluster };
}

async function vectorChannel(store: GraphStore, vector: VectorChannel, task: string): Promise<ChannelHit[]> {
  const ids = await vector.search(task, { limit: 20 });
  const list = new HitList();
  list.add(await store.getNodes(ids), 'vector');
  return list.hits;
}

/**
 * The lexical channel's hits as ranking evidence: each hit's score relative to the best one.
 * Every hit becomes a candidate, reached by the walk or not: lexical evidence is not replaced
 * by graph evidence, only weighed with it.
 */
function lexicalEvidence(hits: readonly ChannelHit[]): Map<NodeId, { node: GraphNode; value: number }> {
  const evidence = new Map<NodeId, { node: GraphNode; value: number }>();
  const best = hits[0]?.score ?? 0;
  if (best <= 0) return evidence;
  for (const hit of hits) if (hit.score !== undefined && hit.score > 0) evidence.set(hit.node.id, { node: hit.node, value: hit.score / best });
  return evidence;
}

/** Each symbol's 0-based rank in every channel that returned it. */
function channelRanks(channels: Readonly<Record<string, readonly ChannelHit[]>>): Map<NodeId, Record<string, number>> {
  const ranks = new Map<NodeId, Record<string, number>>();
  for (const [name, hits] of Object.entries(channels)) {
    hits.forEach((hit, rank) => {
      let entry = ranks.get(hit.node.id);
      if (!entry) ranks.set(hit.node.id, (entry = {}));
      if (!(name in entry)) entry[name] = rank;
    });
  }
  return ranks;
}

/** Walk result keyed for lookups, plus the raw arrays. */
export interface WalkOutcome {
  readonly scores: Float64Array;
  readonly hops: Int32Array;
  readonly byId: Map<NodeId, { score: number; hops: number }>;
  readonly candidates: readonly { index: number; id: NodeId; score: number; hops: number }[];
}

/** A walk result remembered across queries, with the adjacency it was computed on. */
export interface CachedWalk {
  readonly adjacency: Adjacency;
  readonly outcome: WalkOutcome;
}

/**
 * Run the walk from weighted seeds, restricted to the seeds' community when they share one.
 * With a cache, a walk from the same weighted seeds is reused while the Merkle roots of the
 * seeds' packages are unchanged (the key ignores the rest of the graph, as a cache keyed on the
 * whole snapshot would miss after every edit); a result computed on an older adjacency is
 * re-indexed by node id and keeps only the candidates.
 */
export function walkFromSeeds(
  state: GraphState,
  seeds: readonly { readonly node: GraphNode; readonly weight: number }[],
  options: EngineOptions,
  minScore = options.walk.minScore,
  cache?: WalkCache<CachedWalk>,
): WalkOutcome {
  if (!cache) return computeWalk(state, seeds, options, minScore);
  const roots = [...new Set(seeds.map((s) => packageOf(s.node.file)))].map((p) => `${p}\0${state.packageRoots.get(p) ?? ''}`);
  const key = walkCacheKey({
    seeds: seeds.map((s) => s.node.id),
    weights: seeds.map((s) => s.weight),
    alpha: options.walk.alpha,
    packageRoots: roots,
    variant: JSON.stringify([options.walk, minScore]),
  });
  const hit = cache.get(key);
  if (hit) return hit.adjacency === state.adjacency ? hit.outcome : reindex(hit.outcome, state.adjacency);
  const outcome = computeWalk(state, seeds, options, minScore);
  cache.set(key, { adjacency: state.adjacency, outcome });
  return outcome;
}

function reindex(outcome: WalkOutcome, adjacency: Adjacency): WalkOutcome {
  const scores = new Float64Array(adjacency.nodeCount);
  const hops = new Int32Array(adjacency.nodeCount).fill(-1);
  const candidates: { index: number; id: NodeId; score: number; hops: number }[] = [];
  for (const c of outcome.candidates) {
    const index = adjacency.indexOf(c.id);
    if (index < 0) continue;
    scores[index] = c.score;
    hops[index] = c.hops;
    candidates.push({ ...c, index });
  }
  return { scores, hops, byId: new Map(candidates.map((c) => [c.id, { score: c.score, hops: c.hops }])), candidates };
}

function computeWalk(
  state: GraphState,
  seeds: readonly { readonly node: GraphNode; readonly weight: number }[],
  options: EngineOptions,
  minScore: number,
): WalkOutcome {
  const { adjacency } = state;
  const seedIndices = seeds.map((s) => adjacency.indexOf(s.node.id)).filter((i) => i >= 0);
  const allowed =
    options.walk.communityRestriction && state.communities && seedIndices.length > 1
      ? communityRestriction(state.communities, seedIndices)
      : undefined;
  const result = randomWalkWithRestart(
    adjacency,
    seeds.map((s) => ({ id: s.node.id, weight: s.weight })),
    {
      alpha: options.walk.alpha,
      maxIterations: options.walk.maxIterations,
      tolerance: options.walk.tolerance,
      maxHops: options.walk.maxHops,
      hubDampeningThreshold: options.walk.hubDampeningThreshold,
      transitions: state.transitions,
      ...(allowed ? { allowed } : {}),
    },
  );
  const candidates = walkCandidates(adjacency, result, { minScore, includeExternal: false, limit: options.walk.maxCandidates });
  const byId = new Map<NodeId, { score: number; hops: number }>();
  for (const c of candidates) byId.set(c.id, { score: c.score, hops: c.hops });
  return { scores: result.scores, hops: result.hops, byId, candidates };
}

/** Strongest incoming edge of a node: its confidence and provenance. */
export function bestIncoming(adjacency: Adjacency, index: number): { confidence: number; provenance: (typeof PROVENANCES)[number] } | undefined {
  let best = -1;
  let confidence = -1;
  for (let e = adjacency.inOffsets[index]!; e < adjacency.inOffsets[index + 1]!; e++) {
    const edge = adjacency.inEdges[e]!;
    const c = adjacency.outConfidence[edge]!;
    if (c > confidence) {
      confidence = c;
      best = edge;
    }
  }
  return best < 0 ? undefined : { confidence, provenance: PROVENANCES[adjacency.outProvenance[best]!] ?? 'ast_inferred' };
}

interface BuiltInputs {
  readonly inputs: RankInput[];
  readonly hitsUsed: boolean;
  readonly hitsById: Map<NodeId, { hub: number; authority: number }>;
}

async function buildRankInputs(
  ctx: PipelineContext,
  state: GraphState,
  walked: WalkOutcome,
  seeds: readonly Seed[],
  forced: readonly GraphNode[],
  cluster: string,
  classesByNode: ReadonlyMap<NodeId, readonly string[]>,
  terms: ReadonlySet<string>,
  lexical: ReadonlyMap<NodeId, { readonly node: GraphNode; readonly value: number }>,
  ranks: ReadonlyMap<NodeId, Readonly<Record<string, number>>>,
): Promise<BuiltInputs> {
  const { adjacency } = state;
  const seedById = new Map(seeds.map((s) => [s.node.id, s]));
  const ids = walked.candidates.map((c) => c.id);
  for (const seed of seeds) if (!walked.byId.has(seed.node.id) && !seed.node.external) ids.push(seed.node.id);
  const forcedIds = new Set(forced.map((n) => n.id));
  for (const node of forced) if (!ids.includes(node.id)) ids.push(node.id);
  const known = new Set(ids);
  for (const id of lexical.keys()) if (!known.has(id)) ids.push(id);
  const nodes = await ctx.store.getNodes(ids);

  const hitsById = new Map<NodeId, { hub: number; authority: number }>();
  let hitsUsed = false;
  if (ctx.options.hits.enabled && walked.candidates.length > 5) {
    const result = computeHits(
      adjacency,
      walked.candidates.map((c) => c.index),
      { limit: ctx.options.hits.limit, iterations: ctx.options.hits.iterations, scores: walked.scores },
    );
    for (let i = 0; i < result.indices.length; i++) {
      hitsById.set(adjacency.ids[result.indices[i]!]!, { hub: result.hub[i]!, authority: result.authority[i]! });
    }
    hitsUsed = result.indices.length > 0;
  }
  const feedback = await ctx.store.feedbackFor(ids, { keywordCluster: cluster });
  const sessionBoosts = ctx.session ? ctx.session.boosts(ids, ctx.now) : new Map<NodeId, number>();

  const wrappers = await namespaceWrappers(ctx.store, nodes, state.namespaces);
  const text = textMatches(terms, nodes.filter((n) => !n.external && n.kind !== 'file'));
  const inputs: RankInput[] = [];
  for (const node of nodes) {
    // Files and namespace wrappers are walked through, but an agent reads symbols: they have no code of their own.
    if (node.external || node.kind === 'file' || wrappers.has(node.id)) continue;
    const index = adjacency.indexOf(node.id);
    const walk = walked.byId.get(node.id);
    const seed = seedById.get(node.id);
    const incoming = index >= 0 ? bestIncoming(adjacency, index) : undefined;
    const hit = hitsById.get(node.id);
    const tally = feedback.get(node.id);
    const boost = sessionBoosts.get(node.id);
    const classes = classesByNode.get(node.id);
    const termMatches = terms.size > 0 ? countTermMatches(terms, symbolPath(node.qualifiedName, node.file)) : 0;
    inputs.push({
      node,
      rwr: walk?.score ?? 0,
      distance: seed ? 0 : Math.max(1, walk?.hops ?? 1),
      isSeed: seed !== undefined,
      ...(seed ? { seedWeight: seed.weight, channels: seed.channels } : {}),
      ...(hit ? { hub: hit.hub, authority: hit.authority } : {}),
      ...(incoming ? { confidence: incoming.confidence, provenance: incoming.provenance } : {}),
      ...(tally ? { feedback: tally } : {}),
      ...(boost ? { sessionBoost: boost } : {}),
      ...(classes ? { equivalenceClasses: classes } : {}),
      ...(termMatches > 0 ? { termMatches } : {}),
      ...(text.has(node.id) ? { textMatch: text.get(node.id)! } : {}),
      ...(lexical.has(node.id) ? { lexical: lexical.get(node.id)!.value } : {}),
      ...(ranks.has(node.id) ? { channelRanks: ranks.get(node.id)! } : {}),
      ...(forcedIds.has(node.id) ? { forced: true } : {}),
    });
  }
  return { inputs, hitsUsed, hitsById };
}

/** Edges of the adjacency whose both endpoints are among `ids`. */
export function edgesAmongIds(adjacency: Adjacency, ids: readonly NodeId[]): GraphEdge[] {
  const selected = new Set<number>();
  for (const id of ids) {
    const index = adjacency.indexOf(id);
    if (index >= 0) selected.add(index);
  }
  const edges: GraphEdge[] = [];
  for (const source of selected) {
    for (let e = adjacency.outOffsets[source]!; e < adjacency.outOffsets[source + 1]!; e++) {
      const target = adjacency.outTargets[e]!;
      if (!selected.has(target) || target === source) continue;
      edges.push({
        source: adjacency.ids[source]!,
        target: adjacency.ids[target]!,
        type: adjacency.typeNames[adjacency.outTypes[e]!]!,
        confidence: adjacency.outConfidence[e]!,
        provenance: PROVENANCES[adjacency.outProvenance[e]!] ?? 'ast_inferred',
      });
    }
  }
  return edges;
}

export type { KeywordSet };
