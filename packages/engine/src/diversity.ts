import type { RankedSymbol } from '@knowing/graph';

/** How the first answers of a task are kept from repeating one name. */
export interface DiversityOptions {
  /**
   * Symbols of one name (compared case-insensitively: the struct `Workspace` and the methods
   * `workspace` of five other types are one name) allowed among the first `window` symbols.
   * The others wait until right after the window, in their order. 0 turns this off. @default 2
   */
  readonly sameNameLimit: number;
  /** How many of the first symbols are kept diverse. @default 10 */
  readonly window: number;
}

/** The score component recording how far a waiting symbol's score was lowered. */
export const DIVERSITY_COMPONENT = 'diversity';

/**
 * The ranking with no name repeated more than `sameNameLimit` times among its first `window`
 * symbols. A task word that is also a common member name (`workspace`, `resolve`, `close`)
 * matches that member on every type that has one, and those near-duplicates would fill the top of
 * the answer with one idea; the symbols that wait move to just after the window, where they
 * still come before everything ranked below them. Scores stay non-increasing: a symbol that
 * waits takes the score of the one before it (ties keep this order wherever symbols are sorted
 * by score with their position as the tie-break, as the packers do), and the amount it lost is
 * its `diversity` component. Nothing waits when the window holds no name too often.
 *
 * @example
 * ```ts
 * // workspace, Workspace, workspace, resolve, … → workspace, Workspace, resolve, …, workspace
 * const ranked = diversifyRanking(run.ranked, { sameNameLimit: 2, window: 10 });
 * ```
 */
export function diversifyRanking(ranked: RankedSymbol[], options: DiversityOptions): RankedSymbol[] {
  if (options.sameNameLimit <= 0 || options.window <= 0) return ranked;
  const seen = new Map<string, number>();
  const head: RankedSymbol[] = [];
  const waiting: RankedSymbol[] = [];
  let next = 0;
  for (; next < ranked.length && head.length < options.window; next++) {
    const symbol = ranked[next]!;
    const name = symbol.node.name.toLowerCase();
    const count = seen.get(name) ?? 0;
    if (count >= options.sameNameLimit) {
      waiting.push(symbol);
      continue;
    }
    seen.set(name, count + 1);
    head.push(symbol);
  }
  if (waiting.length === 0) return ranked;
  const order = [...head, ...waiting, ...ranked.slice(next)];
  const out: RankedSymbol[] = [];
  let previous = Number.POSITIVE_INFINITY;
  for (const symbol of order) {
    if (symbol.score <= previous) {
      out.push(symbol);
      previous = symbol.score;
      continue;
    }
    const lowered = previous - symbol.score;
    out.push({ ...symbol, score: previous, components: { ...symbol.components, [DIVERSITY_COMPONENT]: (symbol.components[DIVERSITY_COMPONENT] ?? 0) + lowered } });
  }
  return out;
}
