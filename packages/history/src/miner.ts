/**
 * Mine tasks from a repository's history: commits whose message says in words what
 * changed and whose diff changes a handful of existing non-test functions. The message is the
 * task; the functions, named by our indexer on the parent commit, are the ground truth.
 */
import {
  BUILTIN_LANGUAGES,
  classifyContent,
  createLanguageRegistry,
  DEFAULT_DISCOVER_OPTIONS,
  DEFAULT_SKIP_DIRECTORIES,
} from '@knowing/indexer';
import { extractFile } from '@knowing/indexer/language';
import type { FileExtraction, LanguageModule } from '@knowing/indexer/language';
import { parseUnifiedDiff } from './diff.js';
import { readBlob, readLog, gitText, revParse } from './git.js';
import type { LogEntry } from './git.js';
import { changedFunctions } from './ground-truth.js';
import type { ChangedFunction } from './ground-truth.js';
import { cleanMessage, DEFAULT_MESSAGE_RULES, skipReason } from './message.js';

/** Options of {@link mineRepository}. */
export interface MineOptions {
  /** The repository's git directory: a bare mirror or a `.git` directory. */
  readonly gitDir: string;
  /** Short repository name used in task ids and paths (`flask`). */
  readonly repo: string;
  /** The repository's main language (`python`, `go`, …), recorded in each task. @default '' */
  readonly language?: string;
  /** At most this many tasks, newest first. @default 40 */
  readonly cap?: number;
  /** Only the newest this-many commits are candidates: older history may not index as today's does. @default 3000 */
  readonly window?: number;
  /** The revision whose history is mined. @default 'HEAD' */
  readonly ref?: string;
  /** Fewest words of description. @default 8 */
  readonly minWords?: number;
  /** Fewest and most changed non-test functions. @default 1 and 6 */
  readonly minFunctions?: number;
  readonly maxFunctions?: number;
  /** Commits touching more files than this are skipped (large refactors, vendored updates). @default 40 */
  readonly maxFiles?: number;
  /** Called after each commit examined, with the running count of tasks. */
  readonly onCommit?: (commit: LogEntry, verdict: string, tasks: number) => void;
  /** Stops the mining between commits; the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** Defaults of {@link MineOptions}. */
export const DEFAULT_MINE_OPTIONS = Object.freeze({ language: '', cap: 40, window: 3000, ref: 'HEAD', minWords: DEFAULT_MESSAGE_RULES.minWords, minFunctions: 1, maxFunctions: 6, maxFiles: 40 });

/** One mined task. */
export interface MinedTask {
  /** `<repo>/<short hash>`. */
  readonly id: string;
  readonly repo: string;
  readonly language: string;
  readonly commit: string;
  readonly parent: string;
  /** Committer date, ISO 8601. */
  readonly date: string;
  readonly description: string;
  /** Qualified names on the parent commit, as the graph spells them. */
  readonly groundTruth: readonly string[];
}

/** What {@link mineRepository} found. */
export interface MineResult {
  readonly tasks: readonly MinedTask[];
  /** The full hash `ref` pointed at. */
  readonly head: string;
  /** Commits looked at before the cap was reached or the window ran out. */
  readonly examined: number;
  /** Commits skipped, by reason. */
  readonly skipped: Readonly<Record<string, number>>;
}

/** Short hashes in task ids and file names. */
export const SHORT_HASH_LENGTH = 10;

/** Directory names whose code is not the product: documentation, examples, benchmarks, test data, repository scripts. */
const NON_PRODUCT_DIRECTORY = /^(?:docs?|docs_src|documentation|examples?|samples?|demos?|benchmarks?|benches|bench|fixtures?|testdata|test-data|tests?|testing|spec|specs|__tests__|__mocks__|e2e|playground|scripts?)$/i;

/** Whether a repo path is outside the product code the ground truth is drawn from (docs, examples, benchmarks, tests, scripts, dot-directories such as `.github`, directories the indexer skips). */
export function isExcludedPath(path: string): boolean {
  const directories = path.split('/').slice(0, -1);
  const skipped = new Set(DEFAULT_SKIP_DIRECTORIES);
  return directories.some((directory) => NON_PRODUCT_DIRECTORY.test(directory) || skipped.has(directory) || directory.startsWith('.'));
}

/** Commits sorted newest first; equal dates by hash, so the order never depends on git's. */
export function orderCommits(entries: readonly LogEntry[]): LogEntry[] {
  return [...entries].sort((a, b) => b.time - a.time || (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
}

async function extractBytes(module: LanguageModule, path: string, bytes: Buffer): Promise<FileExtraction | undefined> {
  const result = await extractFile({ path, absolutePath: path, language: module.id, timeoutMs: 10_000 }, BUILTIN_LANGUAGES, () => bytes);
  return result.warning ? undefined : result.extraction;
}

/** Whether the indexer would index these bytes (not generated, minified, binary or oversized). */
function indexable(bytes: Buffer): boolean {
  return bytes.length <= DEFAULT_DISCOVER_OPTIONS.maxFileBytes && classifyContent(bytes) === undefined;
}

/**
 * The non-test functions a commit changed, by our indexer on its parent. Exposed for tools that
 * want the ground truth of one commit.
 *
 * @example
 * ```ts
 * const changed = await commitGroundTruth('/src/flask/.git', parentHash, commitHash);
 * changed.map((f) => f.qualifiedName); // ['src/flask/app.py.Flask.run']
 * ```
 */
export async function commitGroundTruth(gitDir: string, parent: string, commit: string): Promise<ChangedFunction[]> {
  const registry = createLanguageRegistry();
  const pathspecs = [...new Set(registry.modules.flatMap((module) => module.extensions))].map((extension) => `*${extension}`);
  const diffText = gitText(gitDir, ['diff', '-U0', '-M', '--no-color', '--no-ext-diff', '--no-textconv', parent, commit, '--', ...pathspecs]);
  const changed: ChangedFunction[] = [];
  for (const file of parseUnifiedDiff(diffText)) {
    if (file.binary || file.oldPath === null) continue;
    const module = registry.forPath(file.oldPath);
    if (!module || module.isTestFile(file.oldPath) || isExcludedPath(file.oldPath)) continue;
    if (file.newPath !== null && file.newPath !== file.oldPath && (module.isTestFile(file.newPath) || isExcludedPath(file.newPath))) continue;
    const oldBytes = readBlob(gitDir, parent, file.oldPath);
    if (!oldBytes || !indexable(oldBytes)) continue;
    const old = await extractBytes(module, file.oldPath, oldBytes);
    if (!old) continue;
    let newExtraction: FileExtraction | undefined;
    let newText: string | undefined;
    const adds = file.hunks.some((hunk) => hunk.added.length > 0);
    if (adds && file.newPath !== null) {
      const newModule = registry.forPath(file.newPath);
      const newBytes = readBlob(gitDir, commit, file.newPath);
      if (newModule && newBytes) {
        newExtraction = await extractBytes(newModule, file.newPath, newBytes);
        newText = newBytes.toString('utf8');
      }
    }
    for (const fn of changedFunctions({ diff: file, old, new: newExtraction, ...(newText !== undefined ? { newText } : {}) })) {
      if (!fn.isTest) changed.push(fn);
    }
  }
  return changed;
}

/**
 * Mine up to `cap` tasks from the newest `window` commits of a repository, newest first.
 * Deterministic: the same history gives the same tasks.
 *
 * @example
 * ```ts
 * const { tasks } = await mineRepository({ gitDir: '/src/flask/.git', repo: 'flask', language: 'python' });
 * tasks[0]; // { id: 'flask/1a2b3c4d5e', description: '…', groundTruth: ['src/flask/app.py.Flask.run'], … }
 * ```
 */
export async function mineRepository(options: MineOptions): Promise<MineResult> {
  const settings = { ...DEFAULT_MINE_OPTIONS, ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) } as Required<MineOptions>;
  const head = revParse(settings.gitDir, settings.ref);
  const commits = orderCommits(readLog(settings.gitDir, head, settings.window));
  const tasks: MinedTask[] = [];
  const skipped: Record<string, number> = {};
  let examined = 0;
  const skip = (commit: LogEntry, reason: string): void => {
    const key = reason.replace(/ \(\d+ words\)$/, '');
    skipped[key] = (skipped[key] ?? 0) + 1;
    settings.onCommit?.(commit, reason, tasks.length);
  };
  for (const commit of commits) {
    if (tasks.length >= settings.cap) break;
    options.signal?.throwIfAborted();
    examined++;
    const reason = skipReason(commit, { minWords: settings.minWords });
    if (reason) {
      skip(commit, reason);
      continue;
    }
    const parent = commit.parents[0]!;
    const files = gitText(settings.gitDir, ['diff', '--name-only', '-M', '--no-color', parent, commit.hash]).split('\n').filter(Boolean);
    if (files.length > settings.maxFiles) {
      skip(commit, 'too many files');
      continue;
    }
    const changed = await commitGroundTruth(settings.gitDir, parent, commit.hash);
    const names = [...new Set(changed.map((fn) => fn.qualifiedName))];
    if (names.length < settings.minFunctions) {
      skip(commit, 'no existing non-test function changed');
      continue;
    }
    if (names.length > settings.maxFunctions) {
      skip(commit, 'too many functions changed');
      continue;
    }
    const short = commit.hash.slice(0, SHORT_HASH_LENGTH);
    tasks.push({
      id: `${settings.repo}/${short}`,
      repo: settings.repo,
      language: settings.language,
      commit: commit.hash,
      parent,
      date: new Date(commit.time * 1000).toISOString(),
      description: cleanMessage(commit.message).description,
      groundTruth: names,
    });
    settings.onCommit?.(commit, 'task', tasks.length);
  }
  return { tasks, head, examined, skipped };
}
