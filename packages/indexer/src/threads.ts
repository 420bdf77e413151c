/**
 * How many threads parse: the calling thread, and worker threads beside it when they pay off.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/** Parser threads, the calling one included, for an explicit `workers` setting. */
export function parserThreads(workers: number, cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(workers, cores));
}

/**
 * Threads running or ready to run on the whole machine at this instant, the calling one
 * included: the fourth field of Linux's `/proc/loadavg` (`1/84` on an idle machine). Null
 * where the system does not report it.
 */
export function runnableThreadsNow(): number | null {
  try {
    const match = /^\S+ \S+ \S+ (\d+)\//.exec(readFileSync('/proc/loadavg', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Parser threads when the caller left `workers` unset: two when the machine has a core to
 * spare, else the calling thread alone.
 *
 * A worker is only faster when it runs on a core nobody else wants. It starts a second V8
 * isolate, which loads the extractors and compiles the WASM runtime, the grammars and the hot
 * JavaScript once more, and its results are encoded, copied and decoded. On a 2-core machine
 * with one core busy elsewhere, a full index took 8–15% longer with the worker than without
 * it, from flask (0.6 MB) to cargo (8.2 MB) (benchmarks/RESULTS.md, session 12).
 *
 * A core is spare when no other thread wants one right now (`runnable`, this thread aside,
 * leaves a core free) or, where that is not known or says busy, when the 1-minute load average
 * leaves one idle. The load average alone lags: for a minute after a build or a test run ends
 * it still counts the work that finished, and a run would parse alone on an idle machine; a
 * process that keeps a core busy is runnable at every instant, so the instant reading sees it.
 * Where neither is known (Windows reports a load of 0), the worker is used as before.
 */
export function automaticParserThreads(
  cores: number = availableParallelism(),
  load: number = loadavg()[0] ?? 0,
  runnable: number | null = runnableThreadsNow(),
): number {
  if (cores < 2) return 1;
  if (runnable !== null && runnable - 1 <= cores - 2) return 2;
  return load <= cores - 1 ? 2 : 1;
}

/**
 * Bytes a batch must hold before an automatic setting parses it with a worker on a machine of
 * two cores. There, Node's own helper threads (garbage collection, compilation) already want the
 * second core. In alternating full indexes of a fresh database on an idle 2-core machine
 * (`pnpm bench:threads`, benchmarks/RESULTS.md session 26), the worker made every index of up to
 * 4.4 MB of source slower (flask, jekyll, spark-java, caddy, ocelot, fastapi, vue: 1.01–1.10×
 * the time alone), and at 8.2 and 10.8 MB (cargo, typeorm) it was within the runs' noise either
 * way. It is kept from where it broke even.
 */
export const TWO_CORE_WORKER_MIN_BYTES = 8_000_000;

/**
 * The fewest bytes a batch must hold for an automatic setting to parse it with workers: none
 * where a worker has a core to itself (three cores or more), {@link TWO_CORE_WORKER_MIN_BYTES}
 * on two.
 */
export function automaticWorkerMinBytes(cores: number = availableParallelism()): number {
  return cores >= 3 ? 0 : TWO_CORE_WORKER_MIN_BYTES;
}
