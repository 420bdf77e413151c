/**
 * A small worker_threads pool: one task per worker at a time, a watchdog per task (a worker
 * stuck in native code is terminated and replaced), results in completion order.
 */
import { Worker } from 'node:worker_threads';

/** Options of {@link createWorkerPool}. */
export interface WorkerPoolOptions {
  /**
   * Script each worker runs. It posts `{ ready: true }` once loaded, then answers each
   * `{ id, task }` with `{ id, result }` or `{ id, error }`.
   */
  readonly script: URL;
  readonly size: number;
  /** A task not answered within this time is abandoned and its worker replaced. */
  readonly taskTimeoutMs: number;
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
  job: Job<Task, Result> | undefined;
  timer: NodeJS.Timeout | undefined;
}

/** Start `size` workers running `script`; they expect `{ id, task }` and answer `{ id, result | error }`. */
export function createWorkerPool<Task, Result>(options: WorkerPoolOptions): WorkerPool<Task, Result> {
  const queue: Job<Task, Result>[] = [];
  const slots: Slot<Task, Result>[] = [];
  let nextId = 0;
  let closed = false;
  let everReady = false;
  let broken: WorkerStartupError | undefined;

  function spawn(slot?: Slot<Task, Result>): Slot<Task, Result> {
    const worker = new Worker(options.script);
    const target: Slot<Task, Result> = slot ?? { worker, ready: false, job: undefined, timer: undefined };
    target.worker = worker;
    target.ready = false;
    worker.on('message', (message: { id: number; result?: Result; error?: string; ready?: boolean }) => {
      if (message.ready) {
        target.ready = true;
        everReady = true;
        dispatch();
        return;
      }
      const job = target.job;
      if (!job || job.id !== message.id) return;
      finish(target);
      if (message.error !== undefined) job.reject(new Error(message.error));
      else job.resolve(message.result as Result);
      dispatch();
    });
    const died = (error: Error): void => {
      if (target.worker !== worker) return;
      const job = target.job;
      finish(target);
      if (!target.ready && !everReady && !closed) {
        broken = new WorkerStartupError(error);
        closed = true;
        job?.reject(broken);
        for (const queued of queue.splice(0)) queued.reject(broken);
        for (const slot of slots) if (slot.job) slot.job.reject(broken);
        void Promise.all(slots.map((slot) => slot.worker.terminate()));
        return;
      }
      if (!closed) spawn(target);
      job?.reject(error);
      dispatch();
    };
    worker.on('error', died);
    worker.on('exit', (code) => {
      if (!closed && (target.job || !target.ready)) died(new Error(`worker exited with code ${code}`));
    });
    // Idle workers must not keep the process alive; workers with work queued must, even
    // before they are ready (else a script awaiting only the pool exits mid-run).
    if (queue.length === 0) worker.unref();
    return target;
  }

  function finish(slot: Slot<Task, Result>): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
  }

  function dispatch(): void {
    // Only a worker that said it is ready gets a task: a death before that is a start-up failure,
    // a death after it is the task's crash (the two events can otherwise arrive in either order).
    for (const slot of slots) {
      if (!slot.ready || slot.job || queue.length === 0 || closed) continue;
      const job = queue.shift()!;
      slot.job = job;
      slot.timer = setTimeout(() => {
        if (slot.job !== job) return;
        finish(slot);
        const stuck = slot.worker;
        spawn(slot);
        void stuck.terminate();
        job.reject(new TaskTimeoutError(options.taskTimeoutMs));
        dispatch();
      }, options.taskTimeoutMs);
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, task: job.task });
    }
    for (const slot of slots) {
      if (slot.job || (queue.length > 0 && !closed)) slot.worker.ref();
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
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}
