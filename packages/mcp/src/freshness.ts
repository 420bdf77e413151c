import type { GraphStore } from '@knowing/graph';
import { checkFreshness } from '@knowing/indexer/fresh';
import { createLanguageRegistry, indexRepository } from '@knowing/indexer';
import type { IndexProgress, IndexSummary } from '@knowing/indexer';
import type { McpIndexOptions } from './types.js';

/** What made an index run happen. */
export type RunKind = 'initial' | 'incremental' | 'full';

/** Files whose indexed state differs from the working tree. */
export interface StaleReport {
  /** Files on disk the index covers (after ignore rules and language filters). */
  readonly discovered: number;
  /** Indexed with different content. */
  readonly changed: readonly string[];
  /** On disk, not indexed. */
  readonly added: readonly string[];
  /** Indexed, gone from disk (or now ignored). */
  readonly deleted: readonly string[];
  /** Files whose times moved but not their content: not stale, but read by every check until an index run records the times. */
  readonly touched?: number;
  /** How long the check took. */
  readonly checkMs: number;
}

export const staleCount = (report: StaleReport): number => report.changed.length + report.added.length + report.deleted.length;

/** An index run that finished while the caller waited. */
export interface FinishedRun {
  readonly kind: RunKind;
  readonly summary: IndexSummary;
  /** Stale files that triggered it (0 for initial and full runs). */
  readonly stale: number;
}

/** Where the index stands when a tool is about to answer. */
export type Freshness =
  | { readonly ready: true; readonly run: FinishedRun | null }
  | {
      readonly ready: false;
      /** Whether an earlier index exists to answer from. */
      readonly indexed: boolean;
      readonly kind: RunKind;
      readonly progress: IndexProgress | null;
    };

/**
 * Where index runs happen: in the server's thread ({@link inThreadRunner}) or in a worker
 * thread of their own (`workerIndexRunner`, index-thread.ts).
 */
export interface IndexRunner {
  /** Whether runs go to a worker thread (false once a worker could not start). */
  readonly inWorker: boolean;
  run(full: boolean, onProgress: (event: IndexProgress) => void): Promise<IndexSummary>;
  /** Release what runs need; a runner that can abandons the run in progress first. */
  close(): Promise<void>;
}

/** Runs in the server's thread, over the store the server answers from; `close()` leaves a run in progress to finish. */
export function inThreadRunner(root: string, store: GraphStore, indexOptions: McpIndexOptions): IndexRunner {
  return {
    inWorker: false,
    run: (full, onProgress) => indexRepository({ ...indexOptions, root, store, full, onProgress }),
    close: () => Promise.resolve(),
  };
}

export interface WaitOptions {
  /** Answer after this long even if the run goes on. */
  readonly waitMs: number;
  /** Called with the run's progress while the caller waits. */
  readonly onProgress?: (event: IndexProgress) => void;
}

/**
 * Keeps the index in step with the working tree, one index run at a time: indexes on first
 * use, and before an answer re-indexes when files changed. The check is the CLI's
 * (`checkFreshness` of @knowing/indexer), cheap when nothing changed: files whose size and
 * times match what the index recorded are not read, unchanged directories not listed again.
 */
export class IndexKeeper {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(event: IndexProgress) => void>();
  private readonly startWaiters = new Set<() => void>();
  private runningKind: RunKind | null = null;
  private lastProgress: IndexProgress | null = null;
  private hasIndex = false;

  constructor(
    private readonly root: string,
    private readonly store: GraphStore,
    private readonly indexOptions: McpIndexOptions,
    private readonly log: (message: string) => void,
    private readonly runner: IndexRunner = inThreadRunner(root, store, indexOptions),
  ) {
    // Unknown language names throw here, when the server is created, not on the first call.
    createLanguageRegistry(indexOptions.languages ? { languages: indexOptions.languages } : {});
  }

  /** The run in progress, if any. */
  get running(): { readonly kind: RunKind; readonly progress: IndexProgress | null } | null {
    return this.runningKind ? { kind: this.runningKind, progress: this.lastProgress } : null;
  }

  /** Whether the store holds an index of the repository. */
  async indexed(): Promise<boolean> {
    if (this.hasIndex) return true;
    this.hasIndex = (await this.store.repo()) !== null && (await this.store.currentSnapshot()) !== null;
    return this.hasIndex;
  }

  /** Compare the working tree with the index (no writes). */
  async stale(): Promise<StaleReport> {
    const { discovered, changed, added, deleted, touched, checkMs } = await checkFreshness({
      root: this.root,
      store: this.store,
      ...(this.indexOptions.languages ? { languages: this.indexOptions.languages } : {}),
      ...(this.indexOptions.maxFileBytes !== undefined ? { maxFileBytes: this.indexOptions.maxFileBytes } : {}),
      ...(this.indexOptions.skipDirectories ? { skipDirectories: this.indexOptions.skipDirectories } : {}),
    });
    return { discovered, changed, added, deleted, touched: touched.length, checkMs };
  }

  /**
   * Make the index current before an answer: index everything if there is no index, else
   * (with `refresh`) re-index when files changed. Waits at most `waitMs` for a run.
   */
  ensureFresh(refresh: boolean, wait: WaitOptions): Promise<Freshness> {
    return this.waitFor(
      this.exclusive(async (): Promise<FinishedRun | null> => {
        if (!(await this.indexed())) return { kind: 'initial', summary: await this.run('initial'), stale: 0 };
        if (!refresh) return null;
        const report = await this.stale();
        const count = staleCount(report);
        if (count === 0) {
          // Only times moved (a checkout of the same content): an index run records them, so
          // that later checks need not read those files again. Nothing changes in the answer.
          if ((report.touched ?? 0) > 0) await this.run('incremental');
          return null;
        }
        return { kind: 'incremental', summary: await this.run('incremental'), stale: count };
      }),
      wait,
    );
  }

  /** Run the indexer now (after any run in progress). */
  reindex(full: boolean, wait: WaitOptions): Promise<Freshness> {
    return this.waitFor(
      this.exclusive(async (): Promise<FinishedRun> => {
        const kind: RunKind = full ? 'full' : (await this.indexed()) ? 'incremental' : 'initial';
        return { kind, summary: await this.run(kind), stale: 0 };
      }),
      wait,
    );
  }

  /** Resolves once no run is queued or in progress. */
  async idle(): Promise<void> {
    let tail: Promise<unknown>;
    do {
      tail = this.tail;
      await tail;
    } while (tail !== this.tail);
  }

  /**
   * Stop running the indexer. In a worker, the run in progress is abandoned — the store keeps
   * the graph it had, or gets the new one when the write had begun (the batch is one
   * transaction) — and the runs queued behind it fail; in this thread, they all finish as
   * before. Resolves once no run is left.
   */
  async close(): Promise<void> {
    await this.runner.close();
    await this.idle();
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }

  private async run(kind: RunKind): Promise<IndexSummary> {
    this.runningKind = kind;
    this.lastProgress = null;
    for (const wake of this.startWaiters) wake();
    this.log(`knowing: ${kind} index of ${this.root} started`);
    try {
      const summary = await this.runner.run(kind === 'full', (event) => {
        this.lastProgress = event;
        for (const listener of this.listeners) listener(event);
      });
      this.hasIndex = true;
      const where = this.runner.inWorker ? ', in a worker thread' : '';
      this.log(`knowing: ${kind} index done in ${summary.timings.totalMs} ms (${summary.files.parsed} parsed, ${summary.files.unchanged} unchanged${where})`);
      return summary;
    } catch (error) {
      this.log(`knowing: ${kind} index failed: ${(error as Error).message}`);
      throw error;
    } finally {
      this.runningKind = null;
    }
  }

  private async waitFor(job: Promise<FinishedRun | null>, wait: WaitOptions): Promise<Freshness> {
    // A caller that stops waiting must not leave the job's failure unhandled.
    job.catch(() => undefined);
    const listener = wait.onProgress;
    if (listener) this.listeners.add(listener);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), Math.max(0, wait.waitMs));
      timer.unref();
    });
    try {
      const outcome = await Promise.race([job, timeout]);
      if (outcome !== 'timeout') return { ready: true, run: outcome };
      if (!this.running) {
        // Only the check was slow (hashing a large tree the first time): let it finish, unless
        // it turns into an index run.
        let wake: () => void = () => {};
        const started = new Promise<'started'>((resolve) => {
          wake = () => resolve('started');
          this.startWaiters.add(wake);
        });
        const settled = await Promise.race([job, started]).finally(() => this.startWaiters.delete(wake));
        if (settled !== 'started') return { ready: true, run: settled };
      }
      const running = this.running;
      if (!running) return { ready: true, run: await job };
      return { ready: false, indexed: await this.indexed(), kind: running.kind, progress: running.progress };
    } finally {
      clearTimeout(timer);
      if (listener) this.listeners.delete(listener);
    }
  }
}
