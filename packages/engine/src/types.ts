import type { ContextPack, GraphNode, GraphStore, NodeId, RankedSymbol } from '@knowing/graph';
import type { KeywordSet } from '@knowing/keywords';
import type { LearnedModel, Ranker } from '@knowing/rank';
import type { ClassRegistry, EquivalencePlugin } from '@knowing/equivalence';
import type { Tokenizer } from '@knowing/pack';
import type { EngineOptions, EngineOptionsInput } from './options.js';

/**
 * Channel names as they appear in traces and explanations: the built-in ones, and those of
 * channels registered with `createEngine({ channels })`.
 */
export type ChannelName = 'tiered' | 'bm25' | 'equiv' | 'path' | 'vector' | 'lexical' | (string & {});

export type { ChannelHit } from './channel.js';
import type { Channel, ChannelHit } from './channel.js';

/** A fused candidate before the walk. */
export interface FusedCandidate {
  readonly node: GraphNode;
  readonly score: number;
  readonly channels: readonly ChannelName[];
  /** Best (first) detail per channel. */
  readonly details: Readonly<Partial<Record<ChannelName, string>>>;
  /** Set when the candidate was added as an implementor of an interface candidate. */
  readonly implementsCandidate?: string;
}

/** A seed of the walk. */
export interface Seed {
  readonly node: GraphNode;
  readonly weight: number;
  /**
   * How it became a seed: a fused candidate, an implementor of one, or a supplemental path hit
   * (task queries); a symbol of a file the query named (file and PR queries).
   */
  readonly origin: 'fused' | 'interface' | 'path' | 'file';
  readonly channels: readonly ChannelName[];
}

/**
 * A user-supplied semantic search, run as the `vector` channel (`createVectorChannel`; weight 0
 * by default).
 */
export interface VectorChannel {
  search(task: string, options: { readonly limit: number }): Promise<readonly NodeId[]>;
}

/** Options of `createEngine`. */
export interface CreateEngineOptions {
  readonly store: GraphStore;
  /**
   * The model of the learned ranker for task answers, instead of the shipped
   * `DEFAULT_LEARNED_MODEL` (a repository's own, from `knowing train`). Checked at creation.
   */
  readonly learnedModel?: LearnedModel;
  /** Replaces the default ranker. Its output is validated at the boundary. */
  readonly ranker?: Ranker;
  /** Equivalence classes to use instead of the built-in ones (plugins can also be registered later). */
  readonly classes?: readonly EquivalencePlugin[];
  /** Counts tokens for budgets; the chars/4 heuristic otherwise. */
  readonly tokenizer?: Tokenizer;
  /**
   * Tokens one symbol costs in an output format, so a budget counts the format's real cost
   * (`costFunctionFor(format)` of `@knowing/wire`). Without it a canonical line is estimated.
   */
  readonly symbolCost?: (format: string) => ((symbol: RankedSymbol) => number) | undefined;
  readonly vector?: VectorChannel;
  /**
   * Retrieval channels added to the built-in ones (tiered, bm25, path, vector, lexical,
   * traces), fused at `options.channels[name]` (a channel without a weight there is fused at 1).
   * One named like a built-in replaces it: `createLexicalChannel({ … })` with other settings
   * replaces the default lexical channel. `equiv` is reserved for the vocabulary stage. Check a
   * channel with `testChannel` from `@knowing/engine/testing`.
   */
  readonly channels?: readonly Channel[];
  readonly options?: EngineOptionsInput;
  /** Clock for sessions and feedback; defaults to `Date.now`. */
  readonly now?: () => number;
}

/** Per-call options shared by the entry points. */
export interface QueryOptions {
  /** Token budget; the engine's default otherwise. */
  readonly budget?: number;
  /** Output format the budget is measured in. */
  readonly format?: string;
  /** Session id for session boosts and implicit feedback. */
  readonly session?: string;
  /** Bypass caches. */
  readonly fresh?: boolean;
  /** Record a trace of every pipeline stage (the answer is then computed afresh, not cached). */
  readonly trace?: boolean;
}

/**
 * The kind of query, which decides only how the pipeline is seeded: a task's text, the files an
 * agent works in (`forFiles`), or the files a change touches (`forPR`).
 */
export type QueryKind = 'task' | 'files' | 'pr';

/**
 * What each pipeline stage decided; returned with `trace: true` and used by `explainSymbol`.
 * File and PR queries have no keywords, channels, fused candidates or classes: their seeds are
 * the files' symbols.
 */
export interface PipelineTrace {
  readonly kind: QueryKind;
  readonly keywords: KeywordSet;
  /** The full-text query the bm25 channel ran, as it reported it (`ChannelContext.reportQuery`); empty if none. */
  readonly ftsQuery: string;
  readonly channels: Readonly<Record<ChannelName, readonly ChannelHit[]>>;
  readonly fused: readonly FusedCandidate[];
  readonly seeds: readonly Seed[];
  readonly forced: readonly GraphNode[];
  readonly matchedClasses: readonly { readonly concept: string; readonly phrases: readonly string[]; readonly strong: boolean }[];
  /** Walk score and hops per node id that the walk reached (above zero). */
  readonly walk: ReadonlyMap<NodeId, { readonly score: number; readonly hops: number }>;
  readonly hits: ReadonlyMap<NodeId, { readonly hub: number; readonly authority: number }>;
  readonly ranked: readonly RankedSymbol[];
  /** Milliseconds per stage: the seeding's steps, then `walk`, `hits`, `inputs`, `rank`, `pack`. */
  readonly timings: Readonly<Record<string, number>>;
}

/** The answer to a query. */
export interface ContextResult {
  readonly pack: ContextPack;
  /** The full ranking before packing (best first). */
  readonly ranked: readonly RankedSymbol[];
  /** Whether the pack came from a cache. */
  readonly cached: boolean;
  readonly snapshotId: string | null;
  readonly trace?: PipelineTrace;
}

/**
 * How far a symbol got: not in the graph at all; in the graph but neither a seed nor reached
 * by the walk; reached but below the walk cutoff; ranked but cut by the budget; packed.
 */
export type ExplainStage = 'not_in_graph' | 'not_reached' | 'below_cutoff' | 'ranked' | 'packed';

/** The full story of one symbol for one task. */
export interface SymbolExplanation {
  readonly task: string;
  readonly query: string;
  /** Nodes the query named (there may be several with the same name). */
  readonly matches: readonly GraphNode[];
  /** The best-placed match, or null when nothing in the graph matches. */
  readonly symbol: GraphNode | null;
  /**
   * When nothing matches: the symbols with the closest names, best first (by edit distance of
   * the name and of the qualified name, then names containing the query), at most 8. Empty
   * when the query matched.
   */
  readonly suggestions: readonly GraphNode[];
  readonly stage: ExplainStage;
  /** 1-based rank in the full ranking, null when not ranked. */
  readonly rank: number | null;
  readonly score: number | null;
  readonly components: Readonly<Record<string, number>>;
  /** The ranker's finer breakdown, when it explains itself (the learned ranker: each feature's share of the logit). */
  readonly factors?: Readonly<Record<string, number>>;
  readonly seed: { readonly weight: number; readonly origin: Seed['origin']; readonly channels: readonly ChannelName[] } | null;
  /** Per-channel detail (tier, class concept, …) of every channel that found it. */
  readonly channelDetails: Readonly<Partial<Record<ChannelName, string>>>;
  /** Normalised walk score and hops (also when below the cutoff), null when not reached. */
  readonly walk: { readonly score: number; readonly hops: number } | null;
  readonly hits: { readonly hub: number; readonly authority: number } | null;
  readonly forced: boolean;
  readonly matchedClasses: readonly string[];
  readonly keywords: KeywordSet;
  readonly inPack: boolean;
}

/**
 * The runner that selects a test: `pytest` by node id, `go` by `go test -run`, `cargo` by
 * `cargo test` filter, `file` for runners given whole test files (JS/TS, Java, C#, Ruby).
 */
export type TestRunner = 'pytest' | 'go' | 'cargo' | 'file';

/** A test that reaches a changed symbol. */
export interface TestHit {
  /** The test as its runner collects it (a test function or method; the test file for `file` runners in JS/TS and Ruby). */
  readonly test: GraphNode;
  readonly runner: TestRunner;
  /** What the runner selects it by: `tests/test_app.py::TestViews::test_index`, `TestReserve`, `stock::tests::reserve`, a file path. */
  readonly id: string;
  /** Changed symbols it reaches, with the call depth. */
  readonly reaches: readonly { readonly symbol: GraphNode; readonly depth: number }[];
}

export interface TestScopeResult {
  readonly files: readonly string[];
  readonly changedSymbols: number;
  readonly tests: readonly TestHit[];
  /** Test files containing those tests, sorted. */
  readonly testFiles: readonly string[];
}

/** The engine facade. */
export interface Engine {
  readonly options: EngineOptions;
  /** Equivalence-class plugins in use; register more at runtime. */
  readonly classes: ClassRegistry;
  /** The symbols an agent should read for a task. */
  forTask(task: string, options?: QueryOptions): Promise<ContextResult>;
  /**
   * Symbols of the given files plus their direct callers, ranked like a task's answer (walk,
   * HITS, term and text match of the paths' words, feedback) by the formula ranker.
   */
  forFiles(files: readonly string[], options?: QueryOptions): Promise<ContextResult>;
  /**
   * The impact neighbourhood of changed files: a walk from every changed symbol over the whole
   * graph, ranked like a task's answer by the formula ranker, packed within `pack.prBudget`.
   */
  forPR(files: readonly string[], options?: QueryOptions): Promise<ContextResult>;
  /** Why a symbol is (or is not) in the answer to a task. */
  explainSymbol(task: string, symbol: string, options?: QueryOptions): Promise<SymbolExplanation>;
  /** Tests that reach symbols of the given files backwards over calls. */
  testScope(files: readonly string[], options?: { readonly depth?: number }): Promise<TestScopeResult>;
  /** Agent text (a reply, a tool call) seen in a session: symbols it names count as used. */
  observe(session: string, text: string): void;
  /** Explicit feedback on symbols. */
  recordFeedback(entries: readonly { readonly symbol: NodeId; readonly useful: boolean; readonly session?: string }[]): Promise<void>;
  /** Build (or load) the adjacency and communities now, so the first query is fast. */
  warm(): Promise<{ readonly nodes: number; readonly edges: number; readonly communities: number }>;
  /** Drop in-memory caches (the store's notes are kept). */
  clearCaches(): void;
}
