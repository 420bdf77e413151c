/**
 * The history benchmark's API: mine tasks from a repository's git history, read them back,
 * check out their commits. The library is `@knowing/history`; what is the benchmark's own is
 * where its mirrors live.
 */
export {
  mineRepository,
  DEFAULT_MINE_OPTIONS,
  readHistoryTasks,
  readHistoryManifest,
  writeHistoryTasks,
  writeHistoryManifestEntry,
  openCheckout,
  resolveMirror,
} from '@knowing/history';
export {
  commitGroundTruth,
  isExcludedPath,
  orderCommits,
  SHORT_HASH_LENGTH,
  cleanMessage,
  countWords,
  skipReason,
  stripReferences,
  stripSubjectPrefix,
  DEFAULT_MESSAGE_RULES,
  parseUnifiedDiff,
  changedFunctions,
  isStructuralLine,
  FUNCTION_KINDS,
} from '@knowing/history/mining';
export type {
  MineOptions,
  MineResult,
  MinedTask,
  HistoryRepo,
  HistorySplit,
  HistoryTask,
  ReadHistoryOptions,
  Checkout,
  CheckoutOptions,
} from '@knowing/history';
export type {
  CleanedMessage,
  CommitFacts,
  MessageRules,
  DiffLine,
  FileDiff,
  Hunk,
  ChangedFunction,
  FileSides,
} from '@knowing/history/mining';

/** Where fetched mirrors live on the benchmark machine (`github:owner/name` → `<dir>/owner+name/repo`). */
export const DEFAULT_MIRRORS_DIR = '/work/.mirror';
