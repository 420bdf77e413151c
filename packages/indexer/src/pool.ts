/**
 * A small worker_threads pool: each worker holds up to `tasksPerWorker` tasks and works through
 * them in order (the next task waits in the worker, not for a round trip to this thread), a
 * watchdog per worker (a worker stuck in native code is terminated and replaced), results in
 * completion order.
 */
import { Worker } from 'node:worker_threads';

/** Options of {@link createWorkerPool}. */
export interface WorkerPoolOptions {
  /**
   * Script each worker runs. It posts `{ ready: true }` once loaded, then answers each
   * `{ id, task }` with `{ id, result }` or `{ id, error }`, one task at a time in the order
   * received (a stuck or crashing worker is then busy with its oldest unanswered task).
   */
  readonly script: URL;
  readonly size: number;
  /**
   * A task not answered within this time of becoming its worker's oldest unanswered task is
   * abandoned and its worker replaced; the tasks queued behind it go to the next worker.
   */
  readonly taskTimeoutMs: number;
  /** Tasks a worker holds at once: one being worked on, the rest waiting in the worker. Default 2. */
  readonly tasksPerWorker?: number;
}

/** Thrown (as a rejection) for a task whose worker did not answer in time. */
export class TaskTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`worker did not answer within ${timeoutMs} ms`);
    this.name = 'TaskTimeoutError';
  }
}

/**
 * Rejects every task when workers die before any of them loaded: the script cannot
 * load here (for instance TypeScript sources without a loader), so respawning is futile.
 */
export class WorkerStartupError extends Error {
  constructor(cause: unknown) {
    super(`worker could not start: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'WorkerStartupError';
  }
}

export interface WorkerPool<Task, Result> {
  run(task: Task): Promise<Result>;
  close(): Promise<void>;
}

interface Job<Task, Result> {
  readonly id: number;
  readonly task: Task;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: Error) => void;
}

interface Slot<Task, Result> {
  worker: Worker;
  /** The worker's modules loaded (it said so). */
  ready: boolean;
  /** Tasks posted to the worker and not answered yet, oldest (the one it works on) first. */
  jobs: Job<Task, Result>[];
  /** Watchdog of the oldest job. */
  timer: NodeJS.Timeout | undefined;
}

/** Start `size` workers running `script`; they expect `{ id, task }` and answer `{ id, result | error }`. */
export function createWorkerPool<Task, Result>(options: WorkerPoolOptions): WorkerPool<Task, Result> {
  const queue: Job<Task, Result>[] = [];
  const slots: Slot<Task, Result>[] = [];
  const perWorker = Math.max(1, options.tasksPerWorker ?? 2);
  let nextId = 0;
  let closed = false;
  let everReady = false;
  let broken: WorkerStartupError | undefined;

  function spawn(slot?: Slot<Task, Result>): Slot<Task, Result> {
    const worker = new Worker(options.script);
    const target: Slot<Task, Result> = slot ?? { worker, ready: false, jobs: [], timer: undefined };
    target.worker = worker;
    target.ready = false;
    worker.on('message', (message: { id: number; result?: Result; error?: string; ready?: boolean }) => {
      if (target.worker !== worker) return;
      if (message.ready) {
        target.ready = true;
        everReady = true;
        dispatch();
        return;
      }
      const index = target.jobs.findIndex((job) => job.id === message.id);
      if (index < 0) return;
      const [job] = target.jobs.splice(index, 1);
      // The next task starts now: its watchdog starts now too.
      if (index === 0) watch(target);
      if (message.error !== undefined) job!.reject(new Error(message.error));
      else job!.resolve(message.result as Result);
      dispatch();
    });
    const died = (error: Error): void => {
      if (target.worker !== worker) return;
      const [crashed, ...waiting] = release(target);
      if (!target.ready && !everReady && !closed) {
        broken = new WorkerStartupError(error);
        closed = true;
        crashed?.reject(broken);
        for (const job of waiting) job.reject(broken);
        for (const queued of queue.splice(0)) queued.reject(broken);
        for (const slot of slots) for (const job of release(slot)) job.reject(broken);
        void Promise.all(slots.map((slot) => slot.worker.terminate()));
        return;
      }
      if (!closed) spawn(target);
      // Only the task the worker was on fails; the ones waiting behind it run elsewhere.
      requeue(waiting, error);
      crashed?.reject(error);
      dispatch();
    };
    worker.on('error', died);
    worker.on('exit', (code) => {
      if (!closed && (target.jobs.length > 0 || !target.ready)) died(new Error(`worker exited with code ${code}`));
    });
    // Idle workers must not keep the process alive; workers with work queued must, even
    // before they are ready (else a script awaiting only the pool exits mid-run).
    if (queue.length === 0) worker.unref();
    return target;
  }

  /** Take a slot's unanswered jobs (oldest first) and stop its watchdog. */
  function release(slot: Slot<Task, Result>): Job<Task, Result>[] {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    return slot.jobs.splice(0);
  }

  /** Put jobs a lost worker held back at the head of the queue; a closed pool fails them instead. */
  function requeue(jobs: Job<Task, Result>[], reason: Error): void {
    if (closed) for (const job of jobs) job.reject(reason);
    else queue.unshift(...jobs);
  }

  /** (Re)start the watchdog of the slot's oldest job. */
  function watch(slot: Slot<Task, Result>): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    const job = slot.jobs[0];
    if (!job) return;
    slot.timer = setTimeout(() => {
      if (slot.jobs[0] !== job) return;
      const [stuck, ...waiting] = release(slot);
      const worker = slot.worker;
      if (!closed) spawn(slot);
      void worker.terminate();
      const timeout = new TaskTimeoutError(options.taskTimeoutMs);
      requeue(waiting, timeout);
      stuck!.reject(timeout);
      dispatch();
    }, options.taskTimeoutMs);
  }

  function dispatch(): void {
    // After close() every worker stays ref'd until it has exited: a worker that says it is ready
    // while being terminated must not be unref'd, or the process could end with close() pending.
    if (closed) return;
    // Only a worker that said it is ready gets a task: a death before that is a start-up failure,
    // a death after it is the task's crash (the two events can otherwise arrive in either order).
    // Workers are filled level by level, so that every worker has a task before any has two.
    for (let depth = 1; depth <= perWorker; depth++) {
      for (const slot of slots) {
        if (!slot.ready || slot.jobs.length >= depth || queue.length === 0 || closed) continue;
        const job = queue.shift()!;
        slot.jobs.push(job);
        if (slot.jobs.length === 1) watch(slot);
        slot.worker.postMessage({ id: job.id, task: job.task });
      }
    }
    for (const slot of slots) {
      if (slot.jobs.length > 0 || (queue.length > 0 && !closed)) slot.worker.ref();
      else slot.worker.unref();
    }
  }
  for (let i = 0; i < Math.max(1, options.size); i++) slots.push(spawn());

  return {
    run(task) {
      if (broken) return Promise.reject(broken);
      if (closed) return Promise.reject(new Error('worker pool is closed'));
      return new Promise<Result>((resolve, reject) => {
        queue.push({ id: nextId++, task, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('worker pool closed'));
      // Idle workers are unref'd: awaiting their exit would then leave nothing keeping the event
      // loop alive, and a script awaiting only `close()` could end mid-await (exit code 13).
      for (const slot of slots) slot.worker.ref();
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}
