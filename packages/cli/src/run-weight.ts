/**
 * Whether this run did a command's usual work. bin.cjs writes the bundle's code cache after the
 * first run of a command that answers, and keeps it: it holds the functions that run compiled.
 * A run that did little (an answer taken from the answer cache, an index run that found nothing
 * to do) would leave a cache without most of the code later runs need, and every later run
 * would compile that code afresh. Such a run says so here, and bin.cjs leaves the cache to the
 * next run.
 */
let light = false;

/** This run did little of its command's usual work: no code cache is written from it. */
export function markLightRun(): void {
  light = true;
}

/** Whether {@link markLightRun} was called in this process. */
export function wasLightRun(): boolean {
  return light;
}
