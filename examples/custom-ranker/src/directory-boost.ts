import type { NodeId, RankedSymbol } from '@knowing/graph';
import { compareRanked, createDefaultRanker } from '@knowing/rank';
import type { RankContext, RankExplanation, RankInput, Ranker } from '@knowing/rank';

/** Options of {@link createDirectoryBoostRanker}. */
export interface DirectoryBoostOptions {
  /** Repository-relative directory whose symbols go up, e.g. `services/shipping`. */
  readonly directory: string;
  /** Added to the score of every symbol under `directory`. @default 0.5 */
  readonly boost?: number;
  /** The ranker whose order is adjusted. @default createDefaultRanker() */
  readonly inner?: Ranker;
}

/** Name of the component this ranker adds to every symbol's breakdown. */
export const DIRECTORY_BOOST_COMPONENT = 'directory_boost';

/**
 * A ranker that keeps the default formula and adds a fixed bonus to the symbols under one
 * directory: for a monorepo where the agent works inside one service, so code of that service
 * wins ties and near-ties against look-alikes elsewhere. Symbols outside the directory keep
 * their score, and a component of 0, so every symbol's components still sum to its score.
 *
 * Only `rank()` is required by the contract. The engine's `explainSymbol` reports the
 * components `rank()` returned, bonus included; `explain()` serves callers that ask the ranker
 * directly.
 *
 * @example
 * ```ts
 * const engine = createEngine({ store, ranker: createDirectoryBoostRanker({ directory: 'shop/orders' }) });
 * ```
 */
export function createDirectoryBoostRanker(options: DirectoryBoostOptions): Ranker {
  const directory = options.directory.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
  const boost = options.boost ?? 0.5;
  if (directory === '') throw new Error('createDirectoryBoostRanker: directory must not be empty');
  if (!Number.isFinite(boost)) throw new Error(`createDirectoryBoostRanker: boost must be a finite number, got ${boost}`);
  const inner = options.inner ?? createDefaultRanker();
  const prefix = `${directory}/`;

  const adjust = (symbol: RankedSymbol): RankedSymbol => {
    const bonus = symbol.node.file.startsWith(prefix) ? boost : 0;
    // New objects: the conformance kit checks that inputs (and what they share) stay untouched.
    return { ...symbol, score: symbol.score + bonus, components: { ...symbol.components, [DIRECTORY_BOOST_COMPONENT]: bonus } };
  };

  async function rank(inputs: readonly RankInput[], context: RankContext): Promise<RankedSymbol[]> {
    const ranked = await inner.rank(inputs, context);
    // compareRanked breaks ties by qualified name and id, so the order never depends on the
    // order of the inputs.
    return ranked.map(adjust).sort(compareRanked);
  }

  return {
    name: `directory-boost(${directory}, +${boost}) over ${inner.name}`,
    rank,
    async explain(symbol: NodeId, inputs: readonly RankInput[], context: RankContext): Promise<RankExplanation | undefined> {
      const ranked = await rank(inputs, context);
      const index = ranked.findIndex((s) => s.node.id === symbol);
      if (index < 0) return undefined;
      const entry = ranked[index]!;
      const bonus = entry.components[DIRECTORY_BOOST_COMPONENT] ?? 0;
      const base = inner.explain ? await inner.explain(symbol, inputs, context) : undefined;
      return {
        symbol,
        score: entry.score,
        rank: index + 1,
        components: entry.components,
        total: ranked.length,
        ...(base?.mode ? { mode: base.mode } : {}),
        ...(base?.factors ? { factors: base.factors } : {}),
        notes: [...(base?.notes ?? []), bonus !== 0 ? `+${bonus} for living under ${directory}/` : `not under ${directory}/`],
      };
    },
  };
}
