/**
 * Collects file events into batches for `knowing watch`: a batch is handed over once the events
 * have been quiet for `debounceMs` (or, under a steady stream of events, `maxWaitMs` after its
 * first event), never while the previous batch is still being handled and never while `busy()`
 * says the tree is mid-change (git holding its index lock during a checkout or rebase). A
 * branch switch that rewrites hundreds of files thus becomes one batch.
 *
 * It is also where a watcher's index runs take turns: an answer that checks the index first
 * (`knowing context` through the watcher) runs that check through {@link ChangeBatcher.exclusive},
 * so that it never indexes the same edit beside a batch, two runs writing one file at once.
 */

export interface ChangeBatcherOptions {
  /** Quiet time after the last event before a batch is handed over. */
  readonly debounceMs: number;
  /** Longest a batch waits under a steady stream of events. */
  readonly maxWaitMs: number;
  /** True while a batch must not start yet; checked again every `debounceMs`. */
  readonly busy?: () => boolean;
  /** Longest `busy()` may hold a batch back (a stale git lock must not stop the watcher). */
  readonly maxBusyMs?: number;
  /** Handles one batch: the changed paths, sorted. Its failures are the caller's to report. */
  readonly handle: (paths: readonly string[]) => Promise<void>;
  readonly now?: () => number;
}

export interface ChangeBatcher {
  /** Record a changed path (repo-relative). */
  add(path: string): void;
  /**
   * Hand over the paths collected so far at once (without their quiet time, unless `busy()`),
   * wait for the batch in hand, then run `work` while no batch starts; batches due meanwhile
   * follow it. Resolves or rejects as `work` does.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** Stop scheduling and wait for the batch in hand, if any. Pending paths are dropped. */
  close(): Promise<void>;
}

export function createChangeBatcher(options: ChangeBatcherOptions): ChangeBatcher {
  const now = options.now ?? Date.now;
  const maxBusyMs = options.maxBusyMs ?? 30_000;
  let pending = new Set<string>();
  let firstEventAt = 0;
  let busySince: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The batch or exclusive work in hand: at most one at a time. */
  let running: Promise<void> | undefined;
  let closed = false;

  /** Make `work` the one in hand; when it ends, what arrived meanwhile waits its own quiet time. */
  const occupy = (work: Promise<unknown>): void => {
    running = work.then(
      () => afterTurn(),
      () => afterTurn(),
    );
  };
  const afterTurn = (): void => {
    running = undefined;
    // Events that arrived meanwhile form the next batch, after their own quiet time.
    if (pending.size > 0) {
      firstEventAt = now();
      schedule(options.debounceMs);
    }
  };

  const schedule = (delay: number): void => {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(flush, Math.max(0, delay));
  };

  function flush(): void {
    timer = undefined;
    if (closed || pending.size === 0 || running) return;
    if (options.busy?.()) {
      busySince ??= now();
      if (now() - busySince < maxBusyMs) {
        schedule(options.debounceMs);
        return;
      }
    }
    busySince = undefined;
    const paths = [...pending].sort();
    pending = new Set();
    occupy(options.handle(paths));
  }

  return {
    add(path) {
      if (closed) return;
      if (pending.size === 0) firstEventAt = now();
      pending.add(path);
      if (running) return; // scheduled when the batch in hand is done
      const waited = now() - firstEventAt;
      schedule(Math.min(options.debounceMs, options.maxWaitMs - waited));
    },
    async exclusive(work) {
      await running;
      if (pending.size > 0 && !closed) {
        if (timer !== undefined) clearTimeout(timer);
        flush();
      }
      // Whatever took the turn meanwhile (a batch just handed over, another exclusive caller) goes first.
      while (running) await running;
      const result = work();
      occupy(result);
      return result;
    },
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending = new Set();
      await running?.catch(() => {});
    },
  };
}
