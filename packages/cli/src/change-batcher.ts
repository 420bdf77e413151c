/**
 * Collects file events into batches for `knowing watch`: a batch is handed over once the events
 * have been quiet for `debounceMs` (or, under a steady stream of events, `maxWaitMs` after its
 * first event), never while the previous batch is still being handled and never while `busy()`
 * says the tree is mid-change (git holding its index lock during a checkout or rebase). A
 * branch switch that rewrites hundreds of files thus becomes one batch.
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
  let running: Promise<void> | undefined;
  let closed = false;

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
    running = options.handle(paths).finally(() => {
      running = undefined;
      // Events that arrived meanwhile form the next batch, after their own quiet time.
      if (pending.size > 0) {
        firstEventAt = now();
        schedule(options.debounceMs);
      }
    });
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
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending = new Set();
      await running?.catch(() => {});
    },
  };
}
