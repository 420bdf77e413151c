/**
 * `@knowing/history/mining`: the steps `mineRepository` is made of, for scripts that mine or
 * audit tasks their own way — commit messages (`cleanMessage`, `skipReason` and the rules behind
 * them), unified diffs (`parseUnifiedDiff`), the changed functions of a commit
 * (`commitGroundTruth`, `changedFunctions`), which paths and commits count (`isExcludedPath`,
 * `orderCommits`) and the length of the short hashes tasks are named by.
 *
 * @example
 * import { cleanMessage, commitGroundTruth } from '@knowing/history/mining';
 * const { subject, description } = cleanMessage(message);
 * const truth = await commitGroundTruth(gitDir, parent, commit);
 */
export { commitGroundTruth, isExcludedPath, orderCommits, SHORT_HASH_LENGTH } from './miner.js';
export { cleanMessage, countWords, skipReason, stripReferences, stripSubjectPrefix, DEFAULT_MESSAGE_RULES } from './message.js';
export type { CleanedMessage, CommitFacts, MessageRules } from './message.js';
export { parseUnifiedDiff } from './diff.js';
export type { DiffLine, FileDiff, Hunk } from './diff.js';
export type { LogEntry } from './git.js';
export { changedFunctions, isStructuralLine, FUNCTION_KINDS } from './ground-truth.js';
export type { ChangedFunction, FileSides } from './ground-truth.js';
