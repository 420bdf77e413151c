/**
 * A run that keeps Node's event loop from running dry while it works.
 *
 * When nothing keeps the loop alive, Node drains V8's platform tasks before it looks again:
 * it blocks until every background job has finished, and repeats while that brings foreground
 * tasks. An index run awaits promises no loop handle stands for, the compilation of the
 * tree-sitter runtime and grammars among them, so the loop does run dry there. The run then
 * goes on inside the drain, and the first immediate it queues waits for V8's background work
 * on the freshly compiled WASM: 80–170 ms idle after the first file parsed in the calling
 * thread of a flask index (`--cpu-prof` showed the idle stretch, strace the main thread
 * waiting on a futex). A handle held for the whole run keeps the loop turning instead.
 */

/** Long enough never to fire during a run; it only has to exist. */
const HOLD_INTERVAL_MS = 2 ** 30;

/**
 * Run `work` with a loop handle held until it settles, then release the handle, whether it
 * resolved or threw.
 *
 * @example
 * ```ts
 * const summary = await withLoopHeld(() => indexFiles(options));
 * ```
 */
export async function withLoopHeld<T>(work: () => Promise<T>): Promise<T> {
  const hold = setInterval(() => {}, HOLD_INTERVAL_MS);
  try {
    return await work();
  } finally {
    clearInterval(hold);
  }
}
