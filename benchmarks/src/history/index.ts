/** The history benchmark's API: mine tasks from a repository's git history, read them back, check out their commits. */
export { mineRepository, commitGroundTruth, isExcludedPath, orderCommits, DEFAULT_MINE_OPTIONS, SHORT_HASH_LENGTH } from './miner.js';
export type { MineOptions, MineResult, MinedTask } from './miner.js';
export { cleanMessage, countWords, skipReason, stripReferences, stripSubjectPrefix, DEFAULT_MESSAGE_RULES } from './message.js';
export type { CleanedMessage, CommitFacts, MessageRules } from './message.js';
export { parseUnifiedDiff } from './diff.js';
export type { DiffLine, FileDiff, Hunk } from './diff.js';
export { changedFunctions, isStructuralLine, FUNCTION_KINDS } from './ground-truth.js';
export type { ChangedFunction, FileSides } from './ground-truth.js';
export { readHistoryTasks, readHistoryManifest, writeHistoryTasks, writeHistoryManifestEntry } from './tasks.js';
export type { HistoryRepo, HistorySplit, HistoryTask, ReadHistoryOptions } from './tasks.js';
export { openCheckout, resolveMirror, DEFAULT_MIRRORS_DIR } from './checkout.js';
export type { Checkout, CheckoutOptions } from './checkout.js';
