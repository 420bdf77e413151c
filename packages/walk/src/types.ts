import type { Adjacency, GraphReader, NodeId, NoteStore } from '@knowing/graph';

/**
 * How an adjacency's edges become walk weights. See `weightedTransitions`.
 */
export interface TransitionOptions {
  /** Per edge type walk weights that win over the registry (`edgeWeight`), zeros included. */
  readonly edgeWeights?: Readonly<Record<string, number>>;
  /**
   * Multiplier for `lsp_resolved` edges, so enrichment does not inflate the centrality of
   * framework wiring symbols.
   * @default 0.3
   */
  readonly lspWeight?: number;
  /**
   * Multiply each weight by the edge's confidence. Off in the original: it let generic
   * infrastructure soak up mass.
   * @default false
   */
  readonly useConfidence?: boolean;
  /** Edge types that never carry mass (ablations). */
  readonly excludeEdgeTypes?: readonly string[];
  /**
   * Let mass flow only along an edge's direction. The original walk is undirected: an edge
   * a→b carries mass a→b and b→a.
   * @default false
   */
  readonly directed?: boolean;
  /**
   * Let the walk pass through external placeholders. Shared external types connect functions
   * that would otherwise be unreachable from each other.
   * @default true
   */
  readonly traverseExternal?: boolean;
}

/**
 * The walkable structure of an adjacency: per-edge weights and, per node, the weighted
 * neighbours mass can move to (in and out neighbours when undirected). Edges of weight 0 are
 * left out of the neighbour lists.
 */
export interface WalkTransitions {
  readonly nodeCount: number;
  readonly directed: boolean;
  /** Walk weight of each out-edge, aligned with `Adjacency.outTargets`. */
  readonly edgeWeights: Float64Array;
  /** Neighbours of node i are `neighbors[offsets[i] .. offsets[i+1]-1]`. Length nodeCount + 1. */
  readonly offsets: Int32Array;
  readonly neighbors: Int32Array;
  /** Weight of each neighbour entry. */
  readonly weights: Float64Array;
  /** Sum of `weights` per node. */
  readonly totalWeight: Float64Array;
}

/** A walk seed by node index or node id. `weight` defaults to 1; duplicates add up. */
export type WalkSeed =
  | { readonly index: number; readonly weight?: number }
  | { readonly id: NodeId; readonly weight?: number };

/** Options of `randomWalkWithRestart`. */
export interface WalkOptions {
  /**
   * Probability of jumping back to the seeds at each step.
   * @default 0.2
   */
  readonly alpha?: number;
  /** @default 20 */
  readonly maxIterations?: number;
  /**
   * Stop when the L1 change between consecutive distributions falls below this.
   * @default 0.001
   */
  readonly tolerance?: number;
  /** Size of the set watched for the early stop. @default 10 */
  readonly topK?: number;
  /**
   * Stop when the top-K set is unchanged for this many consecutive iterations; 0 disables.
   * Never applies when the walk covers no more than `topK` nodes.
   * @default 2
   */
  readonly topKStableIterations?: number;
  /**
   * Nodes holding less mass than this do not propagate it (the mass is dropped). 0 disables.
   * @default 1e-4
   */
  readonly minPropagationMass?: number;
  /**
   * Walk only over nodes within this many hops of a seed (over walkable edges). `Infinity`
   * disables the restriction; hop distances are computed either way.
   * @default 4
   */
  readonly maxHops?: number;
  /** Only nodes whose entry is non-zero take part (seeds always do). Length nodeCount. */
  readonly allowed?: Uint8Array;
  /**
   * Where the walk's loops run: compiled WebAssembly, or TypeScript (what runs anyway where
   * WebAssembly is unavailable). The scores are the same bit for bit; in a short-lived process
   * the WebAssembly loops are several times faster, as V8 interprets cold TypeScript.
   * @default 'webassembly'
   */
  readonly kernel?: 'webassembly' | 'typescript';
  /**
   * Divide the score of nodes whose in-degree exceeds this by √(inDegree / threshold).
   * 0 disables.
   * @default 0
   */
  readonly hubDampeningThreshold?: number;
  /** Precomputed transitions; defaults to `weightedTransitions(adjacency, weighting)` (memoised). */
  readonly transitions?: WalkTransitions;
  /**
   * How to weigh the edges when `transitions` is not given. The WebAssembly kernel weighs them
   * itself, in the walk's own memory, when neither `useConfidence` nor `traverseExternal: false`
   * is asked for: a short-lived process then neither reads nor builds the transitions (megabytes
   * on a large graph). The weights are the same either way.
   * @default the defaults of `weightedTransitions`
   */
  readonly weighting?: TransitionOptions;
}

/** Why a walk stopped. */
export type WalkStopReason = 'converged' | 'top-k-stable' | 'max-iterations' | 'no-seeds';

/** What `randomWalkWithRestart` returns. */
export interface WalkResult {
  /** Score per node index, divided by the maximum (so the best node has 1); 0 when not reached. */
  readonly scores: Float64Array;
  /** Hops from the nearest seed over walkable edges; -1 when unreachable or outside the walk. */
  readonly hops: Int32Array;
  readonly iterations: number;
  readonly stopReason: WalkStopReason;
  /** Last L1 change between consecutive distributions. */
  readonly residual: number;
  /** Number of nodes the walk ran over. */
  readonly activeCount: number;
  /** Seed ids that are not in the adjacency (ignored). */
  readonly unknownSeeds: readonly NodeId[];
}

/** Options of `walkCandidates`. */
export interface CandidateOptions {
  /** Drop nodes scoring below this. @default 0.02 */
  readonly minScore?: number;
  /** Keep external placeholders. @default false */
  readonly includeExternal?: boolean;
  /** At most this many, best first. @default Infinity */
  readonly limit?: number;
}

/** A node the walk reached, as `walkCandidates` lists it. */
export interface WalkCandidate {
  readonly index: number;
  readonly id: NodeId;
  readonly score: number;
  readonly hops: number;
}

/** Options of `hits`. */
export interface HitsOptions {
  /** Use at most this many candidates. @default 200 */
  readonly limit?: number;
  /** @default 10 */
  readonly iterations?: number;
  /**
   * Scores per node index used to pick the best `limit` candidates; without them the
   * candidates are taken in the order given.
   */
  readonly scores?: ArrayLike<number>;
}

/** Hub and authority per candidate, aligned with `indices`. */
export interface HitsResult {
  /** Node indices of the candidates that were used. */
  readonly indices: Int32Array;
  readonly hub: Float64Array;
  readonly authority: Float64Array;
}

/** Options of `detectCommunities`. */
export interface CommunityOptions {
  /** Louvain resolution; higher gives more, smaller communities. @default 1 */
  readonly resolution?: number;
  /** Seed of the pseudo-random generator, so results are reproducible. @default 42 */
  readonly seed?: number;
  /** Transitions giving the edge weights; defaults to `weightedTransitions(adjacency)`. */
  readonly transitions?: WalkTransitions;
}

/** Community of each node. */
export interface Communities {
  /** Community per node index, numbered from 0 in order of first appearance; -1 when skipped. */
  readonly communities: Int32Array;
  readonly count: number;
  /** Fingerprint of the adjacency's node ids, to detect a mismatched adjacency. */
  readonly fingerprint: string;
}

/** Options of `deserializeCommunities`. */
export interface DeserializeCommunitiesOptions {
  /** When given, the communities must have been computed for this adjacency's node ids. */
  readonly adjacency?: Adjacency;
}

/** Options of `communityRestriction`. */
export interface RestrictionOptions {
  /** Also allow nodes without a community (external placeholders). @default false */
  readonly includeUnassigned?: boolean;
}

/** Inputs of `walkCacheKey`. */
export interface WalkCacheKeyInput {
  readonly seeds: readonly NodeId[];
  /** Weight per seed, aligned with `seeds`; 1 each when omitted. */
  readonly weights?: readonly number[];
  readonly alpha: number;
  /** Merkle roots of the packages the seeds live in; their order does not matter. */
  readonly packageRoots: readonly string[];
  /** Anything else the walk depended on (options, restriction), as a stable string. */
  readonly variant?: string;
}

/** Options of `createWalkCache`. */
export interface WalkCacheOptions {
  /** Entries kept before the least recently used goes. @default 128 */
  readonly capacity?: number;
}

/** A small in-memory least-recently-used cache. */
export interface WalkCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  has(key: string): boolean;
  delete(key: string): boolean;
  clear(): void;
  readonly size: number;
  readonly capacity: number;
}

/** Where `loadAdjacency` found the adjacency. */
export type AdjacencySource = 'memory' | 'note' | 'store';

/** Options of `loadAdjacency`. */
export interface LoadAdjacencyOptions {
  /** Where the serialized adjacency is kept between processes. */
  readonly notes?: NoteStore;
  /**
   * Snapshot the adjacency must match. When omitted, read from the reader's
   * `currentSnapshot()` if it has one; with no snapshot at all nothing is cached.
   */
  readonly snapshotId?: string | null;
  /** Note key. @default 'adjacency' */
  readonly noteKey?: string;
}

/** What `loadAdjacency` returns. */
export interface LoadedAdjacency {
  readonly adjacency: Adjacency;
  readonly source: AdjacencySource;
  readonly snapshotId: string | null;
  /** Set when the note could not be written; the adjacency is still valid. */
  readonly persistError?: unknown;
}

/** A reader that may also know its current snapshot (every `GraphStore` does). */
export type AdjacencyReader = Pick<GraphReader, 'allNodes' | 'allEdges' | 'graphOutline'> & {
  currentSnapshot?: () => Promise<{ readonly id: string } | null>;
};
