import type { GraphEdge, NodeId, RankedSymbol } from '@knowing/graph';

/** Counts tokens in text. Plug in any tokenizer; see `createExactTokenizer` for cl100k_base. */
export interface Tokenizer {
  count(text: string): number;
  /**
   * What the counts mean, written in answers' headers (`cl100k_base`, `chars/4`) so a reader
   * knows which tokens the budget was spent in. Optional for custom tokenizers.
   */
  readonly name?: string;
  /**
   * True when the count of a text is the sum of the counts of its lines wherever a line break
   * stands alone between two non-empty lines (BPE tokenizers that pre-split at line breaks, as
   * cl100k does). Lets a caller recount only the lines that changed. @default false
   */
  readonly linesAdd?: boolean;
  /**
   * The counts of several texts, each equal to `count` of that text. Optional: a tokenizer
   * that counts elsewhere (in a worker) answers many short texts in one round trip instead of
   * one each; callers fall back to `count`.
   */
  countEach?(texts: readonly string[]): number[];
}

/** An output format name. The built-in ones have entries in `FORMAT_COST_SCALE`; others cost 1×. */
export type PackFormat = 'xml' | 'markdown' | 'json' | 'gcf' | 'gcb' | (string & {});

/** How a symbol's token cost is estimated. */
export interface CostOptions {
  /**
   * Output format the budget is spent in.
   * @default 'xml'
   */
  readonly format?: PackFormat;
  /** Token counter. @default the 4-characters-per-token heuristic */
  readonly tokenizer?: Tokenizer;
  /**
   * Renders a symbol exactly as the output format will. When given, its text is counted and no
   * format scale applies; otherwise the canonical line (qualified name, kind, signature) is
   * counted and scaled by the format's entry in `formatScale`.
   */
  readonly render?: (symbol: RankedSymbol) => string;
  /**
   * The exact cost of a symbol in tokens, when the caller already knows it (a formatter's
   * `symbolCost`). Wins over `render` and the estimate; no format scale applies.
   */
  readonly cost?: (symbol: RankedSymbol) => number;
  /** Per-format overrides of `FORMAT_COST_SCALE`. */
  readonly formatScale?: Readonly<Record<string, number>>;
}

/** Options of `createHeuristicTokenizer`. */
export interface HeuristicTokenizerOptions {
  /** Characters per token; code averages about four. @default 4 */
  readonly charsPerToken?: number;
}

/** How the proximity exponent adapts to the phantom ratio: clamp(base + slope · ratio, min, max). */
export interface ProximityOptions {
  /** @default 0.3 */
  readonly base?: number;
  /** @default 0.2 */
  readonly slope?: number;
  /** @default 0.3 */
  readonly min?: number;
  /** @default 0.7 */
  readonly max?: number;
}

/** The packing strategies. */
export type PackStrategy = 'density' | 'file-grouped' | 'top-k';

/** Options shared by the packing strategies. */
export interface StrategyOptions extends CostOptions {
  /**
   * Token budget the selected symbols must fit in.
   * @default 50000
   */
  readonly budget?: number;
}

/** Options of `packDensity`. */
export interface DensityOptions extends StrategyOptions {
  /** Proximity exponent applied to `rwr`; overrides the adaptive value. */
  readonly exponent?: number;
  /**
   * Phantoms (external placeholders) per non-phantom among the candidates, when the caller
   * knows it better than the candidate list does (the walk filters phantoms out).
   */
  readonly phantomRatio?: number;
  /** How the exponent adapts to the phantom ratio. */
  readonly proximity?: ProximityOptions;
  /**
   * Share of the budget filled in score order before density fills the rest: the best-ranked
   * symbols are taken while the tokens taken are below `rankedShare × budget` (each one that
   * fits the budget), so the ranking's first answers are never traded for many small
   * neighbours close to the seeds. 0 is the pure density knapsack. @default 0.5
   */
  readonly rankedShare?: number;
}

/** Options of `packTopK`. */
export interface TopKOptions extends StrategyOptions {
  /** At most this many symbols. @default Infinity */
  readonly limit?: number;
}

/** Options of `packFileGrouped`. */
export interface FileGroupedOptions extends DensityOptions {}

/** Options of `packSymbols`. */
export interface PackOptions extends DensityOptions {
  /** @default 'density' */
  readonly strategy?: PackStrategy;
  /** For `top-k`: at most this many symbols. @default Infinity */
  readonly limit?: number;
  /** The task, for the pack root. @default '' */
  readonly task?: string;
  /** Candidate edges; those among the selected symbols go into the pack. */
  readonly edges?: readonly GraphEdge[];
}

/** What a strategy selected. */
export interface PackSelection {
  /** Selected symbols, best score first. */
  readonly symbols: readonly RankedSymbol[];
  /** Estimated tokens of the selected symbols. */
  readonly tokensUsed: number;
  readonly tokenBudget: number;
}

/** What changed between two packs. */
export interface PackComparison {
  /** In the second pack only. */
  readonly added: readonly RankedSymbol[];
  /** In the first pack only. */
  readonly removed: readonly RankedSymbol[];
  /** In both (as in the second pack). */
  readonly kept: readonly RankedSymbol[];
  /** |kept| / |union|: 1 for the same symbol set (and for two empty packs), 0 for disjoint ones. */
  readonly overlap: number;
  /** The same symbol set. */
  readonly identical: boolean;
}

/** Options of `diffPacks`. */
export interface DiffOptions extends CostOptions {
  /**
   * Send a delta only when its estimated cost is below this fraction of the full pack's.
   * @default 0.6
   */
  readonly threshold?: number;
}

/** The change from one pack to the next, to send instead of the full next pack. */
export interface PackDelta {
  readonly baseRoot: string;
  readonly newRoot: string;
  readonly removedSymbols: readonly RankedSymbol[];
  readonly addedSymbols: readonly RankedSymbol[];
  readonly removedEdges: readonly GraphEdge[];
  readonly addedEdges: readonly GraphEdge[];
  /** Estimated tokens of the delta. */
  readonly tokens: number;
  /** Estimated tokens of the full next pack, on the same scale. */
  readonly fullTokens: number;
  /** 1 − tokens / fullTokens. */
  readonly savings: number;
}

/** Node ids, or the symbols carrying them, as `edgesAmong` accepts them. */
export type NodeIdSet = Iterable<NodeId> | Iterable<RankedSymbol>;
