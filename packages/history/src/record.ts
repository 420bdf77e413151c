/**
 * Training data from history tasks: for each task, the repository as it was before the change
 * (its parent commit, checked out in a worktree of its own), indexed, and asked the task; the
 * candidates the ranker was given become one group, each labelled by whether the ground truth
 * names it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createEngine } from '@knowing/engine';
import type { CreateEngineOptions } from '@knowing/engine';
import { indexRepository } from '@knowing/indexer';
import type { IndexOptions } from '@knowing/indexer';
import { createDefaultRanker } from '@knowing/rank';
import type { RankContext, RankInput, Ranker } from '@knowing/rank';
import { createSqliteStore } from '@knowing/store-sqlite';
import { relativeFileChurn, relativeFileHistory } from '@knowing/keywords';
import type { FileHistory } from '@knowing/keywords';
import { openCheckout } from './checkout.js';
import type { Checkout } from './checkout.js';
import { normalizeSymbol, symbolsMatch } from './matching.js';

/** What recording needs of a task: a {@link MinedTask} or a `HistoryTask` fits. */
export interface TrainingTask {
  readonly id: string;
  readonly description: string;
  /** The commit the task is asked against: the state before the change. */
  readonly parent: string;
  /** Qualified names of the functions the change touched, as the graph spells them on `parent`. */
  readonly groundTruth: readonly string[];
}

/**
 * One task's candidates as the ranker saw them, in the recording ranker's order (so the hard
 * negatives come first), with the rank context: features can be computed again from these
 * when their definitions change. Node text fields (signature, doc) are dropped.
 */
export interface RecordedGroup {
  readonly repo: string;
  /** The task's id. */
  readonly task: string;
  readonly groundTruth: readonly string[];
  readonly context: RankContext;
  readonly inputs: readonly RankInput[];
  /** Per input: whether it matches the ground truth by the benchmark's rules ({@link symbolsMatch}). */
  readonly labels: readonly boolean[];
}

/** Progress of {@link recordTrainingGroups}, once per task. */
export interface RecordProgress {
  readonly task: TrainingTask;
  /** Tasks done, this one included. */
  readonly done: number;
  readonly total: number;
  /** Candidates recorded for it, and how many of them are right answers. */
  readonly candidates: number;
  readonly positives: number;
  /** Why the task was skipped: its parent commit could not be checked out (a snapshot without large files, a pruned object). */
  readonly skipped?: string;
}

/** Options of {@link recordTrainingGroups}. */
export interface RecordOptions {
  /** The repository's git directory (a `.git` directory or a bare mirror). Only read; a worktree is registered in it while recording. */
  readonly gitDir: string;
  /** The tasks, recorded in this order (oldest first keeps each re-index small). */
  readonly tasks: readonly TrainingTask[];
  /** Repository name for the groups and the index. @default 'repo' */
  readonly repo?: string;
  /**
   * Where the worktree lives. Given, it is kept (and reused by the next run); otherwise a
   * temporary one is created and removed at the end, on failure and on abort too.
   */
  readonly worktree?: string;
  /** The index database. Given, it is kept; otherwise a temporary one is removed at the end. */
  readonly dbPath?: string;
  /** Engine settings: channels, options, classes. The store and the ranker are the recorder's own. */
  readonly engine?: Omit<CreateEngineOptions, 'store' | 'ranker'>;
  /** The ranker whose input is recorded and whose order the groups keep. @default createDefaultRanker() */
  readonly ranker?: Ranker;
  /** Indexer settings (languages, workers, …). */
  readonly index?: Omit<IndexOptions, 'root' | 'store' | 'repoId' | 'signal' | 'onProgress'>;
  /** Stops between and inside tasks; the promise then rejects with the signal's reason, after cleaning up. */
  readonly signal?: AbortSignal;
  readonly onTask?: (progress: RecordProgress) => void;
}

/**
 * A recorded group as the engine would have recorded it with `history` stored in the index
 * (`undefined`: an index without one): each candidate's `fileHistory` and `fileChurn` computed
 * as the engine computes them. For groups recorded before the engine read file histories, and for training a
 * model on groups both with and without one.
 *
 * @example
 * ```ts
 * const commits = await readCommitLog({ gitDir, rev: task.parent }, 5000);
 * const withHistory = withFileHistory(group, commits ? buildFileHistory(commits) : undefined);
 * ```
 */
export function withFileHistory(group: RecordedGroup, history: FileHistory | undefined): RecordedGroup {
  const files = group.inputs.map((input) => input.node.file);
  const byFile = history ? relativeFileHistory(history, group.context.task, files) : new Map<string, number>();
  const churn = history ? relativeFileChurn(history, files) : new Map<string, number>();
  const inputs = group.inputs.map(({ fileHistory: _dropped, fileChurn: _churn, ...input }) => ({
    ...input,
    ...(byFile.has(input.node.file) ? { fileHistory: byFile.get(input.node.file)! } : {}),
    ...(churn.has(input.node.file) ? { fileChurn: churn.get(input.node.file)! } : {}),
  }));
  return { ...group, context: { ...group.context, fileHistory: history !== undefined }, inputs };
}

/** What training needs of an input: its node without the text fields, and the evidence. */
function slim(input: RankInput): RankInput {
  return { ...input, node: { ...input.node, signature: '', doc: '' } };
}

/**
 * Per candidate name, whether it matches one of the ground-truth names by the benchmark's
 * matching rules.
 *
 * @example
 * ```ts
 * labelCandidates(['app.py.Flask.run', 'app.py.Flask.route'], ['src/app.py.Flask.run']); // [true, false]
 * ```
 */
export function labelCandidates(names: readonly string[], groundTruth: readonly string[]): boolean[] {
  const truth = groundTruth.map(normalizeSymbol);
  return names.map((name) => {
    const normalized = normalizeSymbol(name);
    return truth.some((g) => symbolsMatch(normalized, g));
  });
}

/**
 * Record one training group per task: check out the task's parent commit in a worktree (the
 * repository's own working tree, branch and HEAD are never touched), index it incrementally,
 * run `createEngine({ store, ranker: recorder }).forTask(description, { fresh: true })` with a
 * recorder around the formula ranker, and keep what the ranker was given, labelled against the
 * ground truth. Tasks the engine returns nothing for are left out.
 *
 * @example
 * ```ts
 * const { tasks } = await mineRepository({ gitDir: '/src/shop/.git', repo: 'shop' });
 * const groups = await recordTrainingGroups({ gitDir: '/src/shop/.git', tasks, repo: 'shop' });
 * const model = trainLearnedModel(groups.map(trainingGroupOf));
 * ```
 */
export async function recordTrainingGroups(options: RecordOptions): Promise<RecordedGroup[]> {
  const repo = options.repo ?? 'repo';
  const signal = options.signal;
  signal?.throwIfAborted();
  const scratch = options.worktree === undefined || options.dbPath === undefined ? mkdtempSync(join(tmpdir(), 'knowing-train-')) : undefined;
  const base = options.ranker ?? createDefaultRanker();
  const groups: RecordedGroup[] = [];
  let tree: Checkout | undefined;
  let store: Awaited<ReturnType<typeof createSqliteStore>> | undefined;
  try {
    tree = openCheckout({ mirror: resolve(options.gitDir), dir: options.worktree ?? join(scratch!, 'tree') });
    store = await createSqliteStore({ path: options.dbPath ?? join(scratch!, 'graph.db') });
    let done = 0;
    for (const task of options.tasks) {
      signal?.throwIfAborted();
      try {
        tree.checkout(task.parent);
      } catch (error) {
        // One commit that cannot be checked out does not cost the other tasks.
        done++;
        const reason = ((error as { stderr?: string }).stderr ?? (error as Error).message).split('\n')[0]!.trim();
        options.onTask?.({ task, done, total: options.tasks.length, candidates: 0, positives: 0, skipped: reason });
        continue;
      }
      await indexRepository({ ...options.index, root: tree.root, store, repoId: repo, ...(signal ? { signal } : {}) });
      signal?.throwIfAborted();
      let seen: { inputs: readonly RankInput[]; context: RankContext } | undefined;
      const recorder: Ranker = {
        name: `recorder(${base.name})`,
        // Recorded groups train models that may read any input.
        reads: { lexicalFields: true, fileHistory: true },
        rank(inputs, context) {
          seen = { inputs, context };
          return base.rank(inputs, context);
        },
      };
      const result = await createEngine({ ...options.engine, store, ranker: recorder }).forTask(task.description, { fresh: true });
      done++;
      if (!seen) {
        options.onTask?.({ task, done, total: options.tasks.length, candidates: 0, positives: 0 });
        continue;
      }
      const byId = new Map(seen.inputs.map((input) => [input.node.id, input]));
      const inputs = result.ranked.map((s) => byId.get(s.node.id)).filter((i): i is RankInput => i !== undefined).map(slim);
      const { task: text, keywords, aboutTests, fileHistory } = seen.context;
      const labels = labelCandidates(inputs.map((input) => input.node.qualifiedName), task.groundTruth);
      groups.push({
        repo,
        task: task.id,
        groundTruth: [...task.groundTruth],
        context: { task: text, ...(keywords ? { keywords } : {}), ...(aboutTests !== undefined ? { aboutTests } : {}), ...(fileHistory !== undefined ? { fileHistory } : {}) },
        inputs,
        labels,
      });
      options.onTask?.({ task, done, total: options.tasks.length, candidates: inputs.length, positives: labels.filter(Boolean).length });
    }
  } finally {
    await store?.close().catch(() => {});
    if (options.worktree === undefined) tree?.remove();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  return groups;
}
