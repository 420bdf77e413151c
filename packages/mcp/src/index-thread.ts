import { Worker } from 'node:worker_threads';
import { ErrorCode, KnowingError } from '@knowing/graph';
import type { IndexProgress, IndexSummary } from '@knowing/indexer';
import type { IndexRunner } from './freshness.js';
import { abandonedRun, receivedError } from './index-protocol.js';
import type { FromIndexWorker, IndexWorkerData, ToIndexWorker } from './index-protocol.js';

/** How to start the worker from wherever this module was loaded, or why it cannot be. */
type WorkerScript = { readonly url: URL; readonly execArgv?: string[] } | { readonly unavailable: string };

const SOURCE_CONDITION = '@knowing/source';
/** What a worker loading the sources takes from this process's flags: its preloads and export conditions. */
const LOADING_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '--conditions', '-C']);

/** The loading flags of `execArgv`; the rest (V8 and process-wide flags) a worker refuses when they are passed to it. */
function loadingFlags(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    if (!LOADING_FLAGS.has(flag.split('=', 1)[0]!)) continue;
    if (flag.includes('=')) kept.push(flag);
    else if (i + 1 < execArgv.length) kept.push(flag, execArgv[++i]!);
  }
  return kept;
}

function workerScript(): WorkerScript {
  const here = import.meta.url;
  // Built: dist/index-worker.js, beside the chunk this code is in; it inherits this process's flags.
  if (here.endsWith('.js')) return { url: new URL('./index-worker.js', here) };
  // From the TypeScript sources (vitest, `node --import tsx`). Node 20 gives a worker none of
  // this thread's module hooks, and tsx registers itself in the main thread only: the worker
  // registers tsx on its own, and resolves the workspace packages to their sources as this
  // thread does. The process's preloads run there too (the fault-injection tests use one).
  let api: string;
  try {
    api = import.meta.resolve('tsx/esm/api');
  } catch (error) {
    return { unavailable: `a worker needs tsx to load the TypeScript sources, and it cannot be found (${(error as Error).message})` };
  }
  const register = `data:text/javascript,${encodeURIComponent(`import { register } from ${JSON.stringify(api)}; register();`)}`;
  return { url: new URL('./index-worker.ts', here), execArgv: [...loadingFlags(process.execArgv), `--conditions=${SOURCE_CONDITION}`, '--import', register] };
}

interface PendingRun {
  readonly resolve: (summary: IndexSummary) => void;
  readonly reject: (error: Error) => void;
  readonly onProgress: (event: IndexProgress) => void;
}

/** One started worker. */
interface IndexThread {
  readonly worker: Worker;
  /** Settles when the worker said it loaded; rejects when it ended before. */
  readonly ready: Promise<void>;
  /** Resolves once the worker closed its store after a `close`, or ended. */
  readonly closed: Promise<void>;
  current: PendingRun | undefined;
}

/** What {@link workerIndexRunner} needs. */
export interface WorkerRunnerSettings extends IndexWorkerData {
  readonly log: (message: string) => void;
  /** Where runs go when the worker cannot start. */
  readonly inThread: IndexRunner;
}

function workerStopped(error: Error): KnowingError {
  return new KnowingError(ErrorCode.Internal, `the index worker stopped during the run (${error.message})`, {
    source: 'mcp',
    hint: 'the index keeps the graph it had before the run; the next index run starts a new worker',
    cause: error,
  });
}

/**
 * Index runs in a worker thread with its own connection to the store (`locator`), so that
 * this thread answers requests during the whole run. The worker starts with the first run and
 * stays, unref'd between runs; a worker that ended (crashed, out of memory) is replaced by the
 * next run. One that cannot start at all sends runs to `inThread`, saying so once in the log.
 * `close()` abandons the run in progress — before its write, the stored graph stays as it was;
 * a write under way completes, as one transaction — and ends the worker.
 */
export function workerIndexRunner(settings: WorkerRunnerSettings): IndexRunner {
  const { log, inThread } = settings;
  const data: IndexWorkerData = { root: settings.root, locator: settings.locator, indexOptions: settings.indexOptions };
  const script = workerScript();
  let thread: IndexThread | undefined;
  let fallback = 'unavailable' in script ? script.unavailable : undefined;
  if (fallback) log(`knowing: index runs stay in the server's thread: ${fallback}`);
  let closing = false;

  /** The thread's run, taken off it (the worker goes back to not keeping the process alive). */
  function settle(started: IndexThread): PendingRun | undefined {
    const pending = started.current;
    started.current = undefined;
    if (!closing) started.worker.unref();
    return pending;
  }

  function spawn(where: { readonly url: URL; readonly execArgv?: string[] }): IndexThread {
    const worker = new Worker(where.url, { workerData: data, ...(where.execArgv ? { execArgv: where.execArgv } : {}) });
    let loaded = false;
    let markReady: () => void = () => {};
    let failStart: (error: Error) => void = () => {};
    let markClosed: () => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failStart = reject;
    });
    ready.catch(() => undefined);
    const started: IndexThread = { worker, ready, closed: new Promise<void>((resolve) => (markClosed = resolve)), current: undefined };
    worker.on('message', (message: FromIndexWorker) => {
      if (message.type === 'ready') {
        loaded = true;
        markReady();
      } else if (message.type === 'progress') started.current?.onProgress(message.event);
      else if (message.type === 'done') settle(started)?.resolve(message.summary);
      else if (message.type === 'failed') {
        const error = receivedError(message.error);
        settle(started)?.reject(closing ? abandonedRun(error) : error);
      } else markClosed();
    });
    const ended = (error: Error): void => {
      if (thread === started) thread = undefined;
      if (!loaded) failStart(error);
      settle(started)?.reject(closing ? abandonedRun(error) : workerStopped(error));
      markClosed();
    };
    worker.on('error', ended);
    worker.on('exit', (code) => ended(new Error(`the worker exited with code ${code}`)));
    // Idle, it must not keep the process alive; a run refs it.
    worker.unref();
    return started;
  }

  async function run(full: boolean, onProgress: (event: IndexProgress) => void): Promise<IndexSummary> {
    if (closing) throw abandonedRun();
    if (fallback || 'unavailable' in script) return inThread.run(full, onProgress);
    let started: IndexThread;
    try {
      started = thread ??= spawn(script);
      await started.ready;
    } catch (error) {
      if (closing) throw abandonedRun(error);
      fallback = (error as Error).message;
      log(`knowing: the index worker could not start (${fallback}); index runs go on in the server's thread`);
      return inThread.run(full, onProgress);
    }
    if (closing) throw abandonedRun();
    if (thread !== started) throw workerStopped(new Error('it ended before the run began'));
    return new Promise<IndexSummary>((resolve, reject) => {
      started.current = { resolve, reject, onProgress };
      started.worker.ref();
      started.worker.postMessage({ type: 'run', full } satisfies ToIndexWorker);
    });
  }

  return {
    get inWorker() {
      return fallback === undefined;
    },
    run,
    async close() {
      if (closing) return;
      closing = true;
      const started = thread;
      thread = undefined;
      if (!started) return;
      if (started.current) log('knowing: the server is closing: the index run in progress is abandoned');
      // Until the worker has ended, it keeps the process alive: a caller awaiting only close() must not see the process exit first.
      started.worker.ref();
      started.worker.postMessage({ type: 'close' } satisfies ToIndexWorker);
      await started.closed;
      await started.worker.terminate();
    },
  };
}
