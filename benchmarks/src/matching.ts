/**
 * Ground-truth matching and metrics of the retrieval benchmark (../shared/bench/MATCHING.md).
 * One copy, in `@knowing/history`: training labels its candidates by the same rules.
 */
export { normalizeSymbol, symbolsMatch, matches, scoreTask } from '@knowing/history';
export type { TaskMetrics } from '@knowing/history';
