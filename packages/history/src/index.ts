/** @knowing/history: tasks from a repository's git history, and training data for the learned ranker from them. */
export { mineRepository, DEFAULT_MINE_OPTIONS } from './miner.js';
export type { MineOptions, MineResult, MinedTask } from './miner.js';
export { readHistoryTasks, readHistoryManifest, writeHistoryTasks, writeHistoryManifestEntry } from './tasks.js';
export type { HistoryRepo, HistorySplit, HistoryTask, ReadHistoryOptions } from './tasks.js';
export { openCheckout, resolveMirror } from './checkout.js';
export type { Checkout, CheckoutOptions } from './checkout.js';
export { normalizeSymbol, symbolsMatch, matches, scoreTask } from './matching.js';
export type { TaskMetrics } from './matching.js';
export { recordTrainingGroups, labelCandidates, withFileHistory } from './record.js';
export type { RecordOptions, RecordProgress, RecordedGroup, TrainingTask } from './record.js';
export { trainingGroupOf, recordedOrder, orderWithModel, rankingFigures } from './evaluate.js';
export type { RankingFigures } from './evaluate.js';
