/**
 * The history benchmark's API: mine tasks from a repository's git history, read them back,
 * check out their commits. The library is `@knowing/history`; what is the benchmark's own is
 * where its mirrors live.
 */
export {
  mineRepository,
  commitGroundTruth,
  isExcludedPath,
  orderCommits,
  DEFAULT_MINE_OPTIONS,
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
  readHistoryTasks,
  readHistoryManifest,
  writeHistoryTasks,
  writeHistoryManifestEntry,
  openCheckout,
  resolveMirror,
} from '@knowing/history';
export type {
  MineOptions,
  MineResult,
  MinedTask,
  CleanedMessage,
  CommitFacts,
  MessageRules,
  DiffLine,
  FileDiff,
  Hunk,
  ChangedFunction,
  FileSides,
  HistoryRepo,
  HistorySplit,
  HistoryTask,
  ReadHistoryOptions,
  Checkout,
  CheckoutOptions,
} from '@knowing/history';

/** Where fetched mirrors live on the benchmark machine (`github:owner/name` → `<dir>/owner+name/repo`). */
export const DEFAULT_MIRRORS_DIR = '/work/.mirror';
