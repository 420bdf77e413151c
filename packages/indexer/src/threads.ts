/**
 * How many threads parse: the calling thread, and worker threads beside it when they pay off.
 */
import { availableParallelism, loadavg } from 'node:os';

/** Parser threads, the calling one included, for an explicit `workers` setting. */
export function parserThreads(workers: number, cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(workers, cores));
}

/**
 * Parser threads when the caller left `workers` unset: two when the machine has a core to
 * spare (the 1-minute load average leaves at least one idle), else the calling thread alone.
 *
 * A worker is only faster when it runs on a core nobody else wants. It starts a second V8
 * isolate, which loads the extractors and compiles the WASM runtime, the grammars and the hot
 * JavaScript once more, and its results are encoded, copied and decoded. On a 2-core machine
 * with one core busy elsewhere, a full index took 8–15% longer with the worker than without
 * it, from flask (0.6 MB) to cargo (8.2 MB) (benchmarks/RESULTS.md, session 12). Where the
 * load average is not known (Windows reports 0), the worker is used as before.
 */
export function automaticParserThreads(cores: number = availableParallelism(), load: number = loadavg()[0] ?? 0): number {
  return cores >= 2 && load <= cores - 1 ? 2 : 1;
}
