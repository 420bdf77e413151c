import type { FeedbackRecord, FeedbackStore, FeedbackTally, GraphNode, LexicalField, NodeId, Provenance, RankedSymbol, VocabStore } from '@knowing/graph';

// ---------------------------------------------------------------------------------------------
// The Ranker contract
// ---------------------------------------------------------------------------------------------

/** Retrieval channel that proposed a seed. Known names are listed; others are allowed. */
export type SeedChannel = 'tiered' | 'bm25' | 'equiv' | 'path' | 'vector' | 'vocab' | 'interface' | (string & {});

/** How a tiered-channel seed matched the task keywords. */
export type SeedTier = 'exact' | 'prefix' | 'substring' | 'path' | (string & {});

/**
 * Scoring mode of the default formula: `hits` when hub/authority scores were computed for the
 * candidates (the task entry point), `base` otherwise.
 */
export type RankMode = 'hits' | 'base';

/**
 * One candidate symbol with the evidence the pipeline gathered for it. The fields the default
 * formula cannot do without are required; everything else is optional and has a documented
 * neutral fallback.
 */
export interface RankInput {
  /** The candidate symbol. */
  readonly node: GraphNode;
  /** Random-walk relevance, normalised to 0..1 (1 = the best-connected node to the seeds). */
  readonly rwr: number;
  /** Hops from the nearest seed: 0 for seeds, 1 for direct neighbours, 2+ further out. */
  readonly distance: number;
  /** Whether a retrieval channel picked this symbol as a walk seed (a direct match to the task). */
  readonly isSeed: boolean;
  /** Restart weight of the seed, 0..1 (`1/(1+0.1·rank)` in the pipeline). Seeds without it count as 1. */
  readonly seedWeight?: number;
  /** Channels that proposed the seed, strongest first. */
  readonly channels?: readonly SeedChannel[];
  /** How the tiered channel matched it. */
  readonly tier?: SeedTier;
  /** HITS hub score (L2-normalised), when HITS ran over the candidates. */
  readonly hub?: number;
  /** HITS authority score (L2-normalised), when HITS ran over the candidates. */
  readonly authority?: number;
  /**
   * Number of callers (blast radius). When absent, the default ranker uses the walk proxy
   * `rwr·100 + seedWeight·50` (seeds) or `rwr·100` (others).
   */
  readonly callerCount?: number;
  /** Incoming edge count over all edge types; used only by the optional hub damping. */
  readonly inDegree?: number;
  /** Highest confidence (0..1) among the edges that reach this symbol. */
  readonly confidence?: number;
  /** Provenance of the strongest edge that reached this symbol. */
  readonly provenance?: Provenance;
  /** Last commit/modification time of the symbol's code, ms since the epoch. */
  readonly lastModified?: number;
  /** Explicit/implicit feedback tally for this symbol (in the task's keyword cluster). */
  readonly feedback?: FeedbackTally;
  /** Raw session boost, 0..2 (see `createSessionTracker`). */
  readonly sessionBoost?: number;
  /** Equivalence classes (concept names) that matched this symbol. */
  readonly equivalenceClasses?: readonly string[];
  /**
   * How many distinct task terms the symbol's own path names (its enclosing types and its name,
   * stemmed; see `countTermMatches` in `@knowing/keywords`). Absent = 0.
   */
  readonly termMatches?: number;
  /**
   * Full-text similarity of the symbol (name, path, doc comment, signature) to the task's
   * terms, 0..1 relative to the best-matching candidate. Absent = 0.
   */
  readonly textMatch?: number;
  /**
   * BM25F score of the symbol's whole text, body included, against the task (the lexical
   * channel), 0..1 relative to the channel's best hit. Absent = not among the channel's hits.
   */
  readonly lexical?: number;
  /**
   * BM25 of each lexical field alone against the task's terms (`name`, `path`, `signature`,
   * `doc`, `body`, `members`; raw scores, not relative), for a task's candidates. A field the
   * task's words miss, or a query without a task, is absent.
   */
  readonly lexicalFields?: Readonly<Partial<Record<LexicalField, number>>>;
  /**
   * BM25 of the task against the history of the symbol's file (the messages of the commits
   * that changed it; `fileHistoryScores` in `@knowing/keywords`), 0..1 relative to the best
   * file among the candidates. Absent = the file's history holds none of the task's words, or
   * the index keeps no history (see `RankContext.fileHistory`).
   */
  readonly fileHistory?: number;
  /**
   * How much history the symbol's file has, whatever the task (`relativeFileChurn` in
   * `@knowing/keywords`), 0..1 relative to the most changed file among the candidates. Absent =
   * no commit touched the file, or the index keeps no history.
   */
  readonly fileChurn?: number;
  /** 0-based rank of the symbol among the hits of each retrieval channel that returned it, by channel name. */
  readonly channelRanks?: Readonly<Record<string, number>>;
  /** Framework forced injection: the symbol goes to the front of the ranking. */
  readonly forced?: boolean;
}

/** The task a ranking is for, and per-call settings. */
export interface RankContext {
  /** The task text ('' when ranking for files or a PR). */
  readonly task: string;
  /** Keywords extracted from the task. */
  readonly keywords?: readonly string[];
  /**
   * Whether the task is about tests (lifts the test-file penalty). Detected from `task` and
   * `keywords` when absent.
   */
  readonly aboutTests?: boolean;
  /** Clock reading for commit recency, ms since the epoch. @default Date.now() at the call */
  readonly now?: number;
  /** Scoring mode. @default 'hits' when any input carries hub/authority, else 'base' */
  readonly mode?: RankMode;
  /** Per-call overrides of the ranker's options (for sweeps and experiments). */
  readonly options?: RankingOverrides;
  /**
   * Whether the index keeps a file history (`RankInput.fileHistory`), asked for by a ranker
   * that reads it: without one, no candidate has the input, which does not mean its file's
   * history missed the task. Absent = unknown (treated as kept).
   */
  readonly fileHistory?: boolean;
}

/** A per-component breakdown of one symbol's score. */
export interface RankExplanation {
  readonly symbol: NodeId;
  /** Final score, equal to the score `rank()` gives the symbol. */
  readonly score: number;
  /** 1-based position in the ranking. */
  readonly rank: number;
  /** Named score contributions; for the default ranker they sum to `score`. */
  readonly components: Readonly<Record<string, number>>;
  /** Number of ranked symbols. */
  readonly total?: number;
  readonly mode?: RankMode;
  /** Raw, unweighted signals behind the components (caller proxy, HITS scores, …). */
  readonly factors?: Readonly<Record<string, number>>;
  /** Human-readable remarks (seed channels, penalty lifted, forced injection, …). */
  readonly notes?: readonly string[];
}

/**
 * Orders candidate symbols for a task. `rank` is required; `explain` is optional and the
 * engine falls back to the `components` of `rank`'s output without it.
 *
 * The engine passes each node at most once per call. A ranker may drop candidates, but must
 * return each symbol at most once, only symbols from `inputs`, with finite scores, sorted by
 * score descending (ties in a deterministic order), must not mutate its inputs, and `explain`
 * returns `undefined` for a symbol it did not rank (`@knowing/rank/testing` checks all of this;
 * `wrapRanker` enforces the first ones at run time).
 */
export interface Ranker {
  /** Names the ranker in errors and explanations. */
  readonly name: string;
  /**
   * Inputs that cost the engine work of their own, gathered only for a ranker that reads them:
   * `lexicalFields` (`RankInput.lexicalFields`, one more lexical search per task) and
   * `fileHistory` (`RankInput.fileHistory`, the stored file history read and scored). Absent = none.
   * `fileTimes: false` says the ranker never reads `RankInput.lastModified`, so the engine does
   * not read every file's record to fill it in (it does by default).
   */
  readonly reads?: { readonly lexicalFields?: boolean; readonly fileHistory?: boolean; readonly fileTimes?: boolean };
  rank(inputs: readonly RankInput[], context: RankContext): RankedSymbol[] | Promise<RankedSymbol[]>;
  explain?(
    symbol: NodeId,
    inputs: readonly RankInput[],
    context: RankContext,
  ): RankExplanation | undefined | Promise<RankExplanation | undefined>;
}

/** The default ranker: a {@link Ranker} whose `explain` is always present. */
export interface DefaultRanker extends Ranker {
  /** The resolved options the ranker was created with. */
  readonly options: RankingOptions;
  rank(inputs: readonly RankInput[], context: RankContext): RankedSymbol[];
  explain(symbol: NodeId, inputs: readonly RankInput[], context: RankContext): RankExplanation | undefined;
}

/** A ranker behind the boundary check: async, validated, errors naming the plugin. */
export interface CheckedRanker extends Ranker {
  /** The ranker that was wrapped. */
  readonly inner: Ranker;
  rank(inputs: readonly RankInput[], context: RankContext): Promise<RankedSymbol[]>;
  explain?(symbol: NodeId, inputs: readonly RankInput[], context: RankContext): Promise<RankExplanation | undefined>;
}

// ---------------------------------------------------------------------------------------------
// Ranking options (the default ranker)
// ---------------------------------------------------------------------------------------------

/** Weights of the linear part of the formula, for one mode. */
export interface RankingWeights {
  /** Weight of the raw RWR relevance (the seeds fold RWR into the blast-radius proxy instead). */
  readonly relevance: number;
  /** Weight of the caller count normalised by the set's maximum. */
  readonly blastRadius: number;
  /** Weight of edge confidence. */
  readonly confidence: number;
  /** Weight of the distance factor `1/(1+hops)`. */
  readonly distance: number;
}

/** HITS adjustments (HITS mode only). */
export interface HitsAdjustmentOptions {
  /** A seed whose authority exceeds this gains `authority·seedAuthorityWeight`. @default 0.05 */
  readonly seedAuthorityThreshold: number;
  /** @default 0.25 */
  readonly seedAuthorityWeight: number;
  /** A non-seed whose authority exceeds this loses `authority·nonSeedAuthorityWeight`. @default 0.2 */
  readonly nonSeedAuthorityThreshold: number;
  /** @default 0.15 */
  readonly nonSeedAuthorityWeight: number;
  /** A seed whose hub score exceeds this gains `hub·seedHubWeight`. @default 0.1 */
  readonly seedHubThreshold: number;
  /** @default 0.1 */
  readonly seedHubWeight: number;
}

/** How a feedback tally turns into a score adjustment. */
export interface FeedbackScoringOptions {
  /** Added at usefulness 1 (scaled linearly from 0.5). @default 0.25 */
  readonly positiveWeight: number;
  /** Subtracted at usefulness 0 (scaled linearly from 0.5). @default 0.05 */
  readonly negativeWeight: number;
  /**
   * Pull the usefulness ratio toward 0.5 for few observations: `sqrt` by `1−1/(1+√n)`, `linear`
   * by `1−1/(1+n)`, `none` uses the raw ratio. @default 'none'
   */
  readonly confidence: 'none' | 'sqrt' | 'linear';
}

/** How the session boost enters the score. */
export interface SessionScoringOptions {
  /** Weight of the normalised boost. @default 0.2 */
  readonly weight: number;
  /** The raw boost is divided by this (and capped at 1). @default 2 */
  readonly maxBoost: number;
}

/** One age bucket of the additive commit-recency bonus. */
export interface CommitRecencyBucket {
  readonly maxAgeMs: number;
  readonly bonus: number;
}

/** Confidence of the edge that reached a symbol. */
export interface ConfidenceOptions {
  /** Lower bound of the confidence value (seeds reached by no edge get it). @default 0.5 */
  readonly floor: number;
  /** Fallback when an input has a provenance but no confidence. */
  readonly byProvenance: Readonly<Record<Provenance, number>>;
}

/** The walk-based caller proxy used when `callerCount` is absent. */
export interface BlastRadiusOptions {
  /** @default 100 */
  readonly rwrScale: number;
  /** @default 50 */
  readonly seedWeightScale: number;
}

/** Every tunable of the default ranker. */
export interface RankingOptions {
  /** Weights without HITS. @default relevance 0, blast 0.40, confidence 0.25, distance 0.15 */
  readonly weights: RankingWeights;
  /** Weights with HITS. @default relevance 0, blast 0.35, confidence 0.20, distance 0.15 */
  readonly hitsWeights: RankingWeights;
  readonly hits: HitsAdjustmentOptions;
  readonly feedback: FeedbackScoringOptions;
  readonly session: SessionScoringOptions;
  /** Additive bonus by `lastModified` age. @default ≤1 day +0.05, ≤7 days +0.03, ≤30 days +0.01 */
  readonly commitRecency: readonly CommitRecencyBucket[];
  readonly confidence: ConfidenceOptions;
  readonly blastRadius: BlastRadiusOptions;
  /** Score non-seeds as one hop away whatever their real distance (the original's behaviour). @default true */
  readonly binaryDistance: boolean;
  /** Divide the score by `√(inDegree/threshold)` above the threshold; 0 turns it off. @default 0 */
  readonly hubDampingThreshold: number;
  /** Score multiplier for test symbols unless the task is about tests. @default 0.15 */
  readonly testPenalty: number;
  /**
   * Score multiplier for auxiliary code — benchmarks and examples (`isAuxiliaryCode`), which is
   * not test code — unless the task is about tests. Not applied on top of the test penalty. 1
   * turns it off. @default 0.15 (as for test code)
   */
  readonly auxiliaryPenalty: number;
  /**
   * Score multiplier per node kind; kinds not listed keep 1. Off by default: on the retrieval
   * benchmark, demoting fields and variables (0.6/0.8) lowered P@10 from 0.319 to 0.300. @default {}
   */
  readonly kindWeights: Readonly<Record<string, number>>;
  /** Words that make a task "about tests" (whole words, case-insensitive). */
  readonly testTaskWords: readonly string[];
  /**
   * Decides whether a symbol is test code. @default `node.isTest`, the language module's flag,
   * which the engine's seeds and channels read too: override it only for a ranker used on its own.
   */
  readonly isTestSymbol: (node: GraphNode) => boolean;
  /** Forced symbols score this much above the current top. @default 0.1 */
  readonly forcedMargin: number;
  readonly termMatch: TermMatchOptions;
  /** Weight of `RankInput.textMatch`. @default 1 */
  readonly textMatchWeight: number;
  /** Weight of `RankInput.lexical`. @default 1 */
  readonly lexicalWeight: number;
}

/**
 * The lexical signal: a bonus per task term the symbol's path names. A symbol named after two
 * or three of the task's words (`SerializerChain` for "the serializer chain") is the likeliest
 * target among the candidates the walk ranks alike.
 */
export interface TermMatchOptions {
  /** Score added per matched term. @default 0.3 */
  readonly weight: number;
  /** Matches counted at most. @default 4 */
  readonly cap: number;
}

/** Partial options: any top-level key, and any key of a nested group. */
export type RankingOverrides = {
  readonly [K in keyof RankingOptions]?: RankingOptions[K] extends readonly unknown[] | ((...args: never[]) => unknown)
    ? RankingOptions[K]
    : RankingOptions[K] extends object
      ? Partial<RankingOptions[K]>
      : RankingOptions[K];
};

/** Per-call state of the default formula, shared by every candidate (see `prepareScoring`). */
export interface ScoringContext {
  readonly options: RankingOptions;
  readonly mode: RankMode;
  /** Weights of `mode`. */
  readonly weights: RankingWeights;
  readonly now: number;
  readonly aboutTests: boolean;
  /** Largest caller proxy among the candidates: the blast-radius denominator. */
  readonly maxCallerProxy: number;
}

/** One candidate scored by the default formula, before deduplication and forced injection. */
export interface ScoredInput {
  readonly input: RankInput;
  readonly score: number;
  /** Weighted contributions by component name; they sum to `score`. */
  readonly components: Readonly<Record<string, number>>;
  /** Raw signals behind the components, for explanations. */
  readonly factors: Readonly<Record<string, number>>;
}

// ---------------------------------------------------------------------------------------------
// Session tracking
// ---------------------------------------------------------------------------------------------

/** Options of {@link SessionTracker}. */
export interface SessionTrackerOptions {
  /** Half-life of one access's boost, ms. @default 180000 (3 minutes) */
  readonly halfLifeMs: number;
  /** Cap of the summed boost. @default 2 */
  readonly maxBoost: number;
  /** Boosts below this count as 0. @default 0.01 */
  readonly minBoost: number;
  /** Access timestamps kept per symbol (oldest dropped). @default 20 */
  readonly maxStampsPerSymbol: number;
  /** Clock used only when a call omits its time argument. @default Date.now */
  readonly clock: () => number;
}

/** Remembers which symbols a session was shown, and boosts them with exponential decay. */
export interface SessionTracker {
  /** Record that these symbols were returned at `at` (duplicates in one call count once). */
  record(ids: Iterable<NodeId>, at?: number): void;
  /** Boost of one symbol at time `at`, 0..maxBoost. */
  boost(id: NodeId, at?: number): number;
  /** Non-zero boosts of these symbols at time `at`. */
  boosts(ids: Iterable<NodeId>, at?: number): Map<NodeId, number>;
  /** Number of symbols tracked. */
  size(): number;
  /** Forget symbols whose boost at `at` is below `minBoost` whatever their history. */
  prune(at?: number): void;
  /** Forget everything. */
  reset(): void;
}

// ---------------------------------------------------------------------------------------------
// Implicit feedback
// ---------------------------------------------------------------------------------------------

/** Options of {@link ImplicitFeedback}. */
export interface ImplicitFeedbackOptions {
  /** A returned symbol can be attributed this long after it was returned, ms. @default 600000 (10 minutes) */
  readonly windowMs: number;
  /** Identifiers shorter than this are ignored when scanning agent text. @default 3 */
  readonly minIdentifierLength: number;
  /** Which task keywords may become vocabulary associations. @default ≥3 chars and not purely numeric */
  readonly isVocabWorthy: (keyword: string) => boolean;
  /** Clock used only when a call omits its time argument. @default Date.now */
  readonly clock: () => number;
}

/** Dependencies and options of `createImplicitFeedback`. */
export interface ImplicitFeedbackDeps {
  /** Where feedback records go. */
  readonly feedback: FeedbackStore;
  /** Where keyword → symbol associations go; without it no vocabulary is learned. */
  readonly vocab?: VocabStore;
  readonly options?: Partial<ImplicitFeedbackOptions>;
}

/** What `registerReturned` needs of a returned symbol (a `RankedSymbol` fits). */
export interface ReturnedSymbol {
  readonly node: Pick<GraphNode, 'id' | 'name'> & Partial<Pick<GraphNode, 'qualifiedName'>>;
}

/** The task a batch of returned symbols answered. */
export interface ReturnedMeta {
  /** Task keywords; the vocab-worthy ones are associated with symbols the agent uses. */
  readonly keywords?: readonly string[];
  /** Keyword cluster of the task, stored with feedback and vocabulary. */
  readonly keywordCluster?: string | null;
  /** Merkle roots of the symbols' neighbourhoods, stored to expire stale feedback. */
  readonly neighborhoodRoots?: ReadonlyMap<NodeId, string>;
  /** When the symbols were returned, ms. @default the clock */
  readonly at?: number;
}

/** One vocabulary association written by `flush`. */
export interface VocabEntry {
  readonly keyword: string;
  readonly symbol: NodeId;
  readonly symbolName: string;
  readonly cluster: string | null;
  readonly packageRoot: string | null;
}

/** What one `flush` recorded. */
export interface FlushResult {
  /** Returned symbols the agent used. */
  readonly positive: readonly FeedbackRecord[];
  /** Returned symbols the agent never used. */
  readonly negative: readonly FeedbackRecord[];
  readonly vocab: readonly VocabEntry[];
}

/** A returned symbol awaiting attribution. */
export interface PendingSymbol {
  readonly id: NodeId;
  readonly name: string;
  readonly returnedAt: number;
  readonly used: boolean;
}

/**
 * Watches what an agent does with the symbols it was given: used ones become positive feedback
 * (and keyword → symbol vocabulary), ignored ones negative feedback.
 */
export interface ImplicitFeedback {
  /** Start tracking symbols just returned to `session`. */
  registerReturned(session: string, symbols: readonly ReturnedSymbol[], meta?: ReturnedMeta): void;
  /** Scan agent text (edits, reads, messages); returns the ids newly attributed as used. */
  detectUsed(session: string, text: string, at?: number): NodeId[];
  /** Write feedback (and vocabulary) for everything pending in `session`, then forget it. */
  flush(session: string, at?: number): Promise<FlushResult>;
  /** What `session` has pending, in registration order. */
  pending(session: string): PendingSymbol[];
  /** Drop pending state without recording anything (one session, or all). */
  reset(session?: string): void;
}
