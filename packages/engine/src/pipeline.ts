import type { Adjacency, GraphEdge, GraphNode, GraphStore, LexicalField, NodeId, RankedSymbol } from '@knowing/graph';
import { PROVENANCES, packageOf, symbolPath } from '@knowing/graph';
import { allKeywords, taskTerms, termCounter, decodeFileHistory, FILE_HISTORY_COMMIT_NOTE, FILE_HISTORY_NOTE, relativeFileChurn, relativeFileHistory } from '@knowing/keywords';
import { lexicalQueryTerms } from '@knowing/keywords/lexical';
import type { FileHistory, KeywordSet } from '@knowing/keywords';
import type { CheckedRanker, RankContext, RankInput, SessionTracker } from '@knowing/rank';
import { textMatches } from './text-match.js';
import { communityRestriction, hits as computeHits, randomWalkWithRestart, walkCacheKey, walkCandidates } from '@knowing/walk';
import type { WalkCache } from '@knowing/walk';
import type { EngineOptions } from './options.js';
import type { ChannelHit, ChannelName, FusedCandidate, PipelineTrace, QueryKind, Seed } from './types.js';
import type { GraphState } from './graph-state.js';
import type { EquivalenceStage } from './equivalence-stage.js';
import { namespaceWrappers, seedsLast } from './seeds.js';
import type { Channel } from './channel.js';
import { diversifyRanking, moveLast } from './diversity.js';

/*
 * One pipeline, three seedings. A query is a seeding stage followed by the stages every query
 * shares:
 *
 *   seeding (task: keywords, channels, fusion | files: their symbols and direct callers |
 *            PR: the changed symbols)
 *   → walk → HITS → rank inputs (walk, HITS, term and text match, lexical evidence, channel
 *     ranks, feedback, session) → rank → (the engine) pack
 *
 * with a trace and timings of each. A seeding only decides where the walk starts and what
 * evidence it found on the way; how that evidence becomes a ranking is the same for all three.
 */

/** Everything one pipeline run reads. */
export interface PipelineContext {
  readonly store: GraphStore;
  readonly options: EngineOptions;
  /** Task answers use the engine's ranker; file and PR answers the formula (the model was trained on tasks). */
  readonly ranker: CheckedRanker;
  readonly equivalence: EquivalenceStage;
  /** The retrieval channels every task runs, in order: the built-in ones, then registered ones. */
  readonly channels: readonly Channel[];
  readonly now: number;
  readonly session: SessionTracker | undefined;
  /** Reuses walks across queries; left out when every stage must be recomputed (explain). */
  readonly walkCache?: WalkCache<CachedWalk>;
  /**
   * When each file's current content was first indexed (ms since the epoch), by path: the
   * ranker's `lastModified`. Left out, no symbol has a modification time.
   */
  readonly fileTimes?: () => Promise<ReadonlyMap<string, number>>;
}

/** What a seeding stage hands to the shared stages. */
export interface Seeding {
  readonly kind: QueryKind;
  /** The text the ranker is told the query is: the task, or the files named. */
  readonly query: string;
  readonly keywords: KeywordSet;
  /** Feedback is read for this keyword cluster; null reads every cluster's. */
  readonly keywordCluster: string | null;
  readonly aboutTests: boolean;
  /** Terms of the query that symbol paths (term match) and texts (text match) are scored on. */
  readonly terms: ReadonlySet<string>;
  readonly ftsQuery: string;
  readonly channels: Readonly<Record<ChannelName, readonly ChannelHit[]>>;
  readonly fused: readonly FusedCandidate[];
  readonly seeds: readonly Seed[];
  /** Symbols to put at the front whatever their score (framework injections). */
  readonly forced: readonly GraphNode[];
  readonly matchedClasses: PipelineTrace['matchedClasses'];
  readonly classesByNode: ReadonlyMap<NodeId, readonly string[]>;
  /**
   * How this kind of query walks: a task within its seeds' community, cut at `walk.minScore`;
   * files and PRs over the whole graph (a PR cut at `prCutoff`, files not at all).
   */
  readonly walk: { readonly communityRestriction: boolean; readonly minScore: number };
  /**
   * The nodes to rank when the seeding fixes them (a file query: the files' symbols and their
   * direct callers). Otherwise what the walk reaches, the seeds, forced symbols and lexical hits.
   */
  readonly candidates?: readonly NodeId[];
  /** Time spent per seeding step, in milliseconds. */
  readonly timings: Readonly<Record<string, number>>;
}

/** The ranked result of a query with everything that led to it. */
export interface PipelineRun {
  readonly ranked: RankedSymbol[];
  /** What the ranker was given, for its explanations. */
  readonly inputs: readonly RankInput[];
  readonly rankContext: RankContext;
  readonly walked: WalkOutcome;
  readonly trace: PipelineTrace;
  readonly seeding: Seeding;
}

export const timer = (): (() => number) => {
  // process.uptime, not performance.now: the first use of the global `performance` loads
  // Node's perf_hooks, which a cold query would otherwise load for its timings alone.
  const start = process.uptime();
  return () => Math.round((process.uptime() - start) * 100_000) / 100;
};

/** The stages after seeding, shared by every kind of query: walk, HITS, rank inputs, rank. */
export async function runStages(ctx: PipelineContext, state: GraphState, seeding: Seeding): Promise<PipelineRun> {
  const { options } = ctx;
  const timings: Record<string, number> = { ...seeding.timings };

  let lap = timer();
  const walkOptions =
    seeding.walk.communityRestriction === options.walk.communityRestriction
      ? options
      : { ...options, walk: { ...options.walk, communityRestriction: seeding.walk.communityRestriction } };
  const walked = walkFromSeeds(state, seeding.seeds, walkOptions, seeding.walk.minScore, ctx.walkCache);
  timings.walk = lap();

  lap = timer();
  const hubs = hitsStage(ctx, state, walked);
  timings.hits = lap();

  lap = timer();
  const { inputs, fileHistoryKept } = await buildRankInputs(ctx, state, seeding, walked, hubs);
  timings.inputs = lap();

  lap = timer();
  const rankContext: RankContext = {
    task: seeding.query,
    keywords: allKeywords(seeding.keywords),
    now: ctx.now,
    aboutTests: seeding.aboutTests,
    mode: hubs.used ? 'hits' : 'base',
    options: options.ranking,
    ...(fileHistoryKept !== undefined ? { fileHistory: fileHistoryKept } : {}),
  };
  const rankedByRanker = await ctx.ranker.rank(inputs, rankContext);
  // A task's words also name members of many types; files and PRs are answered around their own
  // symbols, tests included (they ask what a change touches).
  const ranked =
    seeding.kind === 'task'
      ? diversifyRanking(
          options.diversity.testsLast !== false && !seeding.aboutTests ? moveLast(rankedByRanker, (symbol) => seedsLast(symbol.node)) : rankedByRanker,
          options.diversity,
          spelledOutBy(seeding.terms),
        )
      : rankedByRanker;
  timings.rank = lap();

  const trace: PipelineTrace = {
    kind: seeding.kind,
    keywords: seeding.keywords,
    ftsQuery: seeding.ftsQuery,
    channels: seeding.channels,
    fused: seeding.fused,
    seeds: seeding.seeds,
    forced: seeding.forced,
    matchedClasses: seeding.matchedClasses,
    walk: walked.byId,
    hits: hubs.byId,
    ranked,
    timings,
  };
  return { ranked, inputs, rankContext, walked, trace, seeding };
}

/**
 * Whether the task spells out a symbol's own name: it has terms, and the task holds every one
 * (`remove_note` in "remove a note from the notebook", not `isRedeemable` in "reject expired
 * codes"). Asked only about members that follow their listed type, so few names are read.
 */
function spelledOutBy(terms: ReadonlySet<string>): (symbol: RankedSymbol) => boolean {
  if (terms.size === 0) return () => false;
  return (symbol) => {
    const own = taskTerms(symbol.node.name);
    return own.length > 0 && own.every((term) => terms.has(term));
  };
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

/** The tier (exact, prefix, …) of each node's best hit in the tiered name channel. */
function tiersOf(hits: readonly ChannelHit[]): Map<NodeId, string> {
  const tiers = new Map<NodeId, string>();
  for (const hit of hits) if (!tiers.has(hit.node.id)) tiers.set(hit.node.id, hit.detail);
  return tiers;
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
      weighting: state.weighting,
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

/** HITS over what the walk reached: hub and authority scores, when there are enough candidates. */
interface Hubs {
  readonly used: boolean;
  readonly byId: Map<NodeId, { hub: number; authority: number }>;
}

function hitsStage(ctx: PipelineContext, state: GraphState, walked: WalkOutcome): Hubs {
  const { adjacency } = state;
  const byId = new Map<NodeId, { hub: number; authority: number }>();
  if (!ctx.options.hits.enabled || walked.candidates.length <= 5) return { used: false, byId };
  const result = computeHits(
    adjacency,
    walked.candidates.map((c) => c.index),
    { limit: ctx.options.hits.limit, iterations: ctx.options.hits.iterations, scores: walked.scores },
  );
  for (let i = 0; i < result.indices.length; i++) {
    byId.set(adjacency.ids[result.indices[i]!]!, { hub: result.hub[i]!, authority: result.authority[i]! });
  }
  return { used: result.indices.length > 0, byId };
}

/** The nodes to rank: fixed by the seeding, or what the walk reached plus the seeds, forced symbols and lexical hits. */
function candidateIds(seeding: Seeding, walked: WalkOutcome, lexical: ReadonlyMap<NodeId, unknown>): NodeId[] {
  if (seeding.candidates) return [...new Set(seeding.candidates)];
  const ids = walked.candidates.map((c) => c.id);
  for (const seed of seeding.seeds) if (!walked.byId.has(seed.node.id) && !seed.node.external) ids.push(seed.node.id);
  for (const node of seeding.forced) if (!ids.includes(node.id)) ids.push(node.id);
  const known = new Set(ids);
  for (const id of lexical.keys()) if (!known.has(id)) ids.push(id);
  return ids;
}

/**
 * Each candidate's BM25 per lexical field (the field alone weighs 1, the others 0), for a task:
 * which part of a symbol's text the task's words are in — its name, its doc comment, its body,
 * its members' code — tells a ranker more than their weighted sum does. Every candidate is
 * scored, not only the lexical channel's hits, so evidence does not end at that channel's limit.
 */
async function lexicalFieldScores(store: GraphStore, seeding: Seeding, ids: readonly NodeId[]): Promise<Map<NodeId, Readonly<Record<LexicalField, number>>>> {
  const byId = new Map<NodeId, Readonly<Record<LexicalField, number>>>();
  const terms = seeding.kind === 'task' ? lexicalQueryTerms(seeding.query) : [];
  if (terms.length === 0 || ids.length === 0) return byId;
  const hits = await store.lexicalSearch(terms, { ids, perField: true, includeTests: true, limit: ids.length });
  for (const hit of hits) if (hit.fields) byId.set(hit.node.id, hit.fields);
  return byId;
}

/** A store's decoded file history, kept while the commit it was read at stays the stored one. */
const decodedHistories = new WeakMap<GraphStore, { readonly commit: string; readonly history: FileHistory | undefined }>();

/** The file history the indexer stored (see `commitHistory` in `@knowing/indexer`), or undefined. */
async function storedFileHistory(store: GraphStore): Promise<FileHistory | undefined> {
  // The commit note is a few bytes; the history itself is read and decoded only when it changed.
  const commitNote = await store.getNote(FILE_HISTORY_COMMIT_NOTE);
  if (!commitNote) return undefined;
  const commit = new TextDecoder().decode(commitNote.value);
  const cached = decodedHistories.get(store);
  if (cached?.commit === commit) return cached.history;
  const note = await store.getNote(FILE_HISTORY_NOTE);
  const history = note ? decodeFileHistory(note.value) : undefined;
  decodedHistories.set(store, { commit, history });
  return history;
}

async function buildRankInputs(
  ctx: PipelineContext,
  state: GraphState,
  seeding: Seeding,
  walked: WalkOutcome,
  hubs: Hubs,
): Promise<{ inputs: RankInput[]; fileHistoryKept: boolean | undefined }> {
  const { adjacency } = state;
  const { terms, classesByNode } = seeding;
  const lexical = lexicalEvidence(seeding.channels['lexical'] ?? []);
  const ranks = channelRanks(seeding.channels);
  const seedById = new Map(seeding.seeds.map((s) => [s.node.id, s]));
  const forcedIds = new Set(seeding.forced.map((n) => n.id));
  const ids = candidateIds(seeding, walked, lexical);
  const nodes = await ctx.store.getNodes(ids);
  const fields = ctx.ranker.reads?.lexicalFields ? await lexicalFieldScores(ctx.store, seeding, ids) : new Map<NodeId, Readonly<Record<LexicalField, number>>>();
  const history = ctx.ranker.reads?.fileHistory ? await storedFileHistory(ctx.store) : undefined;

  const feedback = await ctx.store.feedbackFor(ids, seeding.keywordCluster === null ? {} : { keywordCluster: seeding.keywordCluster });
  const sessionBoosts = ctx.session ? ctx.session.boosts(ids, ctx.now) : new Map<NodeId, number>();

  const fileTimes = ctx.fileTimes && ctx.ranker.reads?.fileTimes !== false ? await ctx.fileTimes() : undefined;
  const tiers = tiersOf(seeding.channels['tiered'] ?? []);

  const wrappers = await namespaceWrappers(ctx.store, nodes, state.namespaces);
  const text = textMatches(terms, nodes.filter((n) => !n.external && n.kind !== 'file'));
  const countMatches = termCounter(terms);
  const inputs: RankInput[] = [];
  for (const node of nodes) {
    // Files and namespace wrappers are walked through, but an agent reads symbols: they have no code of their own.
    if (node.external || node.kind === 'file' || wrappers.has(node.id)) continue;
    const index = adjacency.indexOf(node.id);
    const walk = walked.byId.get(node.id);
    const seed = seedById.get(node.id);
    const incoming = index >= 0 ? bestIncoming(adjacency, index) : undefined;
    const hit = hubs.byId.get(node.id);
    const tally = feedback.get(node.id);
    const boost = sessionBoosts.get(node.id);
    const classes = classesByNode.get(node.id);
    const termMatches = terms.size > 0 ? countMatches(symbolPath(node.qualifiedName, node.file)) : 0;
    const tier = seed ? tiers.get(node.id) : undefined;
    const modified = fileTimes?.get(node.file);
    inputs.push({
      node,
      rwr: walk?.score ?? 0,
      distance: seed ? 0 : Math.max(1, walk?.hops ?? 1),
      isSeed: seed !== undefined,
      ...(seed ? { seedWeight: seed.weight, channels: seed.channels } : {}),
      ...(tier !== undefined ? { tier } : {}),
      ...(index >= 0 ? { inDegree: adjacency.inOffsets[index + 1]! - adjacency.inOffsets[index]! } : {}),
      ...(modified !== undefined ? { lastModified: modified } : {}),
      ...(hit ? { hub: hit.hub, authority: hit.authority } : {}),
      ...(incoming ? { confidence: incoming.confidence, provenance: incoming.provenance } : {}),
      ...(tally ? { feedback: tally } : {}),
      ...(boost ? { sessionBoost: boost } : {}),
      ...(classes ? { equivalenceClasses: classes } : {}),
      ...(termMatches > 0 ? { termMatches } : {}),
      ...(text.has(node.id) ? { textMatch: text.get(node.id)! } : {}),
      ...(lexical.has(node.id) ? { lexical: lexical.get(node.id)!.value } : {}),
      ...(fields.has(node.id) ? { lexicalFields: fields.get(node.id)! } : {}),
      ...(ranks.has(node.id) ? { channelRanks: ranks.get(node.id)! } : {}),
      ...(forcedIds.has(node.id) ? { forced: true } : {}),
    });
  }
  if (!history || seeding.kind !== 'task') return { inputs, fileHistoryKept: ctx.ranker.reads?.fileHistory ? history !== undefined : undefined };
  // Relative to the best file among the ranked candidates, as `relativeFileHistory` is for a recorded group.
  const files = inputs.map((input) => input.node.file);
  const byFile = relativeFileHistory(history, seeding.query, files);
  const churn = relativeFileChurn(history, files);
  const withHistory = inputs.map((input) => ({
    ...input,
    ...(byFile.has(input.node.file) ? { fileHistory: byFile.get(input.node.file)! } : {}),
    ...(churn.has(input.node.file) ? { fileChurn: churn.get(input.node.file)! } : {}),
  }));
  return { inputs: withHistory, fileHistoryKept: true };
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
