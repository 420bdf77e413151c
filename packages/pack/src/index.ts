export type {
  Tokenizer,
  PackFormat,
  CostOptions,
  HeuristicTokenizerOptions,
  ProximityOptions,
  PackStrategy,
  StrategyOptions,
  DensityOptions,
  TopKOptions,
  FileGroupedOptions,
  PackOptions,
  PackSelection,
  PackComparison,
  DiffOptions,
  PackDelta,
  NodeIdSet,
} from './types.js';
export {
  FORMAT_COST_SCALE,
  DEFAULT_COST_OPTIONS,
  DEFAULT_HEURISTIC_OPTIONS,
  createHeuristicTokenizer,
  createExactTokenizer,
  startExactTokenizer,
  preloadExactTokenizer,
  canonicalLine,
  formatScale,
  estimateTokens,
} from './tokens.js';
export {
  DEFAULT_PACK_OPTIONS,
  DEFAULT_PROXIMITY,
  phantomRatio,
  proximityExponent,
  packDensity,
  packTopK,
  packFileGrouped,
} from './strategies.js';
export { DEFAULT_PACK_SYMBOLS_OPTIONS, PACK_STRATEGIES, edgesAmong, packSymbols } from './pack.js';
export { normalizeTask, packRoot } from './root.js';
export { DEFAULT_DIFF_OPTIONS, comparePacks, diffPacks } from './diff.js';
