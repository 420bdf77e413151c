import type { NodeId, RankedSymbol } from '@knowing/graph';
import { compareRanked } from '@knowing/rank';
import type { RankInput, Ranker } from '@knowing/rank';

/**
 * The smallest useful ranker: order candidates by their random-walk score alone, ignoring
 * HITS, edge confidence, feedback, sessions, the test penalty and forced injections. A
 * baseline for experiments ("how much does the formula add over the walk?").
 *
 * @example
 * ```ts
 * const engine = createEngine({ store, ranker: createWalkOnlyRanker() });
 * ```
 */
export function createWalkOnlyRanker(): Ranker {
  return {
    name: 'walk-only',
    rank(inputs: readonly RankInput[]): RankedSymbol[] {
      // The engine sends each node once; keeping the best copy makes that true for any caller.
      const best = new Map<NodeId, RankInput>();
      for (const input of inputs) {
        const kept = best.get(input.node.id);
        if (!kept || input.rwr > kept.rwr) best.set(input.node.id, input);
      }
      return [...best.values()]
        .map((input) => ({
          node: input.node,
          score: input.rwr,
          rwr: input.rwr,
          distance: input.distance,
          components: { walk: input.rwr },
          ...(input.provenance ? { provenance: input.provenance } : {}),
        }))
        .sort(compareRanked);
    },
  };
}
