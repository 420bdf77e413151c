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
   * Members of one type allowed among the first `window` symbols right after the type itself.
   * A listed type stands for its members (its code holds them, its location spans them), and a
   * word of its name or its file matches every member of it: `Kube`, `Kube.Kube`,
   * `Kube.GetAsync`, `Kube.Dispose` for "harden the Kube provider". The members beyond the
   * limit wait, as far as `memberReturnShare` says, so other places the change may touch get
   * those places. A member whose name the task spells out (`remove_note` for "remove a note from
   * the notebook") neither waits nor counts. `window` or more turns it off. @default 0
   */
  readonly membersAfterOwner: number;
  /**
   * How far a member held back by `membersAfterOwner` waits: it comes back right before the
   * first symbol scoring under this share of its own score. It gives way to code ranked nearly
   * as high, never to code the ranker put far below it, so a small answer keeps the member a
   * task is about when the ranker was sure of it (`Shortener.shorten` for "return its short
   * code"). 0 keeps it until after the window whatever the scores, and so does a score of 0 or
   * below; at 1 it gives way only to symbols of its own score. @default 0.5
   */
  readonly memberReturnShare?: number;
  /**
   * Unless the task is about tests, test code (`node.isTest`) and auxiliary code (benchmarks,
   * examples, documentation programs) come after every other symbol of a task's answer, in
   * their order: an agent changing code reads the tests last, and a small budget leaves them
   * out first. A ranker only weighs them down. @default true
   */
  readonly testsLast?: boolean;
}

/** The score component recording how far a waiting symbol's score was lowered. */
export const DIVERSITY_COMPONENT = 'diversity';

/** The score component recording how far test or auxiliary code was lowered to come last. */
export const TESTS_LAST_COMPONENT = 'tests_last';

/**
 * The ranking with the symbols `last` picks moved after all the others, each group in its order.
 * Scores stay non-increasing: a moved symbol scoring above the one before it takes that score,
 * and the amount it lost is its `tests_last` component. Nothing moves when no picked symbol is
 * above another one.
 *
 * @example
 * ```ts
 * // test_total 0.9, Cart.total 0.8, bench_total 0.7, Cart 0.5 → Cart.total 0.8, Cart 0.5, test_total 0.5, bench_total 0.5
 * const ranked = moveLast(run.ranked, (symbol) => symbol.node.isTest || isAuxiliaryCode(symbol.node));
 * ```
 */
export function moveLast(ranked: RankedSymbol[], last: (symbol: RankedSymbol) => boolean): RankedSymbol[] {
  const first: RankedSymbol[] = [];
  const after: RankedSymbol[] = [];
  for (const symbol of ranked) (last(symbol) ? after : first).push(symbol);
  // Already last (or none, or all): nothing to move.
  if (after.length === 0 || first.length === 0 || ranked.indexOf(after[0]!) > ranked.indexOf(first[first.length - 1]!)) return ranked;
  return inOrder([...first, ...after], TESTS_LAST_COMPONENT);
}

/**
 * The ranking with no name repeated more than `sameNameLimit` times among its first `window`
 * symbols, and no more than `membersAfterOwner` members right after a type listed above them
 * besides those whose name `spelledOut` says the task spells out (none, when left out).
 * A task word that is also a common member name (`workspace`, `resolve`, `close`) matches that
 * member on every type that has one, and a word of a type's name matches every member of it;
 * those near-duplicates would fill the top of the answer with one idea. A repeated name waits
 * until just after the window; a member waits until the first symbol scoring under
 * `memberReturnShare` of its score (or after the window). Either way it still comes before
 * everything ranked below it. Scores stay non-increasing: a symbol that waits takes the score of
 * the one before it (ties keep this order wherever symbols are sorted by score with their
 * position as the tie-break, as the packers do), and the amount it lost is its `diversity`
 * component. Nothing moves when the window holds nothing too often.
 *
 * @example
 * ```ts
 * // workspace, Workspace, workspace, resolve, … → workspace, Workspace, resolve, …, workspace
 * const ranked = diversifyRanking(run.ranked, { sameNameLimit: 2, window: 10, membersAfterOwner: 10 });
 * // Invoice 0.9, Invoice.total 0.8, applyDiscount 0.7, InvoiceLine 0.3
 * //   → Invoice, applyDiscount, Invoice.total, InvoiceLine (0.3 is under half of 0.8)
 * diversifyRanking(ranked, { sameNameLimit: 2, window: 10, membersAfterOwner: 0, memberReturnShare: 0.5 });
 * ```
 */
export function diversifyRanking(ranked: RankedSymbol[], options: DiversityOptions, spelledOut: (symbol: RankedSymbol) => boolean = () => false): RankedSymbol[] {
  const byName = options.sameNameLimit > 0;
  const byOwner = options.membersAfterOwner < options.window;
  if ((!byName && !byOwner) || options.window <= 0) return ranked;
  const share = options.memberReturnShare ?? 0;
  const seen = new Map<string, number>();
  /** Members taken so far after each listed type, by the type's qualified name. */
  const listed = new Map<string, number>();
  const head: RankedSymbol[] = [];
  const waiting: RankedSymbol[] = [];
  /** Held members, in rank order, and the score under which each comes back. */
  const returnBelow = new Map<RankedSymbol, number>();
  const place = (symbol: RankedSymbol): void => {
    const name = symbol.node.name.toLowerCase();
    seen.set(name, (seen.get(name) ?? 0) + 1);
    if (byOwner && !listed.has(symbol.node.qualifiedName)) listed.set(symbol.node.qualifiedName, 0);
    head.push(symbol);
  };
  let held = false;
  let next = 0;
  while (next < ranked.length && head.length < options.window) {
    const symbol = ranked[next]!;
    // Held in rank order, so the first one still held has the highest bar.
    const [first] = returnBelow;
    if (first !== undefined && symbol.score < first[1]) {
      const member = first[0];
      returnBelow.delete(member);
      // Its name may have filled up meanwhile; then it waits for the window's end like any repeat.
      if (!(byName && (seen.get(member.node.name.toLowerCase()) ?? 0) >= options.sameNameLimit)) {
        waiting.splice(waiting.indexOf(member), 1);
        place(member);
      }
      continue;
    }
    next++;
    const count = seen.get(symbol.node.name.toLowerCase()) ?? 0;
    if (byName && count >= options.sameNameLimit) {
      waiting.push(symbol);
      held = true;
      continue;
    }
    const declaredIn = byOwner ? ownerOf(symbol) : undefined;
    // How many members of the type it belongs to came right after that type, when it is listed.
    const members = declaredIn === undefined ? undefined : listed.get(declaredIn);
    if (declaredIn !== undefined && members !== undefined && !spelledOut(symbol)) {
      if (members >= options.membersAfterOwner) {
        waiting.push(symbol);
        held = true;
        if (share > 0 && symbol.score > 0) returnBelow.set(symbol, share * symbol.score);
        continue;
      }
      listed.set(declaredIn, members + 1);
    }
    place(symbol);
  }
  if (!held) return ranked;
  return inOrder([...head, ...waiting, ...ranked.slice(next)], DIVERSITY_COMPONENT);
}

/**
 * `order` with scores that never rise: a symbol scoring above the one before it takes that
 * score, and what it lost is added to its `component`.
 */
function inOrder(order: readonly RankedSymbol[], component: string): RankedSymbol[] {
  const out: RankedSymbol[] = [];
  let previous = Number.POSITIVE_INFINITY;
  for (const symbol of order) {
    if (symbol.score <= previous) {
      out.push(symbol);
      previous = symbol.score;
      continue;
    }
    out.push({ ...symbol, score: previous, components: { ...symbol.components, [component]: (symbol.components[component] ?? 0) + (previous - symbol.score) } });
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
