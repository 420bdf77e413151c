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
  /**
   * Members of one type allowed among the first `window` symbols after the type itself, not
   * counting members whose own name holds a word of the task. A listed type stands for its
   * members (its code holds them, its location spans them); members that only share the words
   * its name or its file matched — every method of `Kube` for "harden the Kube provider" —
   * crowd out other places the change may touch, and wait as above. A member the task names
   * (`Cart.total` for "the cart total") stays. `window` or more (the default) turns it off: in a
   * small answer it would push out a member the ranker rightly put near the top
   * (`Shortener.shorten` for "return its short code"). @default 10
   */
  readonly membersAfterOwner: number;
}

/** The score component recording how far a waiting symbol's score was lowered. */
export const DIVERSITY_COMPONENT = 'diversity';

/**
 * The ranking with no name repeated more than `sameNameLimit` times among its first `window`
 * symbols, and no more than `membersAfterOwner` members of a type listed above them besides
 * those `namedByTask` says the task names (none, when left out). A task word that is also a
 * common member name (`workspace`, `resolve`, `close`) matches that member on every type that
 * has one, and a word of a type's name matches every member of it; those near-duplicates would
 * fill the top of the answer with one idea. The symbols that wait move to just after the window,
 * where they still come before everything ranked below them. Scores stay non-increasing: a
 * symbol that waits takes the score of the one before it (ties keep this order wherever symbols
 * are sorted by score with their position as the tie-break, as the packers do), and the amount
 * it lost is its `diversity` component. Nothing waits when the window holds nothing too often.
 *
 * @example
 * ```ts
 * // workspace, Workspace, workspace, resolve, … → workspace, Workspace, resolve, …, workspace
 * const ranked = diversifyRanking(run.ranked, { sameNameLimit: 2, window: 10, membersAfterOwner: 0 });
 * ```
 */
export function diversifyRanking(ranked: RankedSymbol[], options: DiversityOptions, namedByTask: (symbol: RankedSymbol) => boolean = () => false): RankedSymbol[] {
  const byName = options.sameNameLimit > 0;
  const byOwner = options.membersAfterOwner < options.window;
  if ((!byName && !byOwner) || options.window <= 0) return ranked;
  const seen = new Map<string, number>();
  /** Members taken so far after each listed type, by the type's qualified name. */
  const listed = new Map<string, number>();
  const head: RankedSymbol[] = [];
  const waiting: RankedSymbol[] = [];
  let next = 0;
  for (; next < ranked.length && head.length < options.window; next++) {
    const symbol = ranked[next]!;
    const name = symbol.node.name.toLowerCase();
    const count = seen.get(name) ?? 0;
    const declaredIn = byOwner ? ownerOf(symbol) : undefined;
    // The type it is a member of, when that type is listed above it and the task does not name the member.
    const owner = declaredIn !== undefined && listed.has(declaredIn) && !namedByTask(symbol) ? declaredIn : undefined;
    const members = owner === undefined ? undefined : listed.get(owner);
    if ((byName && count >= options.sameNameLimit) || (members !== undefined && members >= options.membersAfterOwner)) {
      waiting.push(symbol);
      continue;
    }
    seen.set(name, count + 1);
    if (owner !== undefined && members !== undefined) listed.set(owner, members + 1);
    if (byOwner && !listed.has(symbol.node.qualifiedName)) listed.set(symbol.node.qualifiedName, 0);
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

/** The qualified name of the symbol a member is declared in (`a.py.Flask` for `a.py.Flask.run`); undefined at the top of a file. */
function ownerOf(symbol: RankedSymbol): string | undefined {
  const { qualifiedName, name, file } = symbol.node;
  if (!qualifiedName.endsWith(`.${name}`)) return undefined;
  const owner = qualifiedName.slice(0, -name.length - 1);
  return owner.length > file.length ? owner : undefined;
}
