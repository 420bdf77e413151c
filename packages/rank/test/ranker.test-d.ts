import { describe, expectTypeOf, it } from 'vitest';
import type { RankedSymbol } from '@knowing/graph';
import { createDefaultRanker, wrapRanker } from '@knowing/rank';
import type { CheckedRanker, DefaultRanker, RankContext, RankExplanation, RankInput, Ranker } from '@knowing/rank';

const toRanked = (input: RankInput): RankedSymbol => ({
  node: input.node,
  score: input.rwr,
  distance: input.distance,
  rwr: input.rwr,
  components: { relevance: input.rwr },
});

describe('the Ranker contract', () => {
  it('needs only a name and rank(), sync or async; explain() is optional', () => {
    const sync: Ranker = { name: 'by-rwr', rank: (inputs) => inputs.map(toRanked) };
    const async: Ranker = { name: 'remote', rank: async (inputs) => inputs.map(toRanked) };
    const explained: Ranker = {
      name: 'explained',
      rank: (inputs) => inputs.map(toRanked),
      explain: (symbol, inputs) => (inputs.some((i) => i.node.id === symbol) ? undefined : undefined),
    };
    expectTypeOf(sync).toExtend<Ranker>();
    expectTypeOf(async).toExtend<Ranker>();
    expectTypeOf(explained).toExtend<Ranker>();
    expectTypeOf<Ranker['rank']>().parameters.toEqualTypeOf<[readonly RankInput[], RankContext]>();
    expectTypeOf<ReturnType<Ranker['rank']>>().toEqualTypeOf<RankedSymbol[] | Promise<RankedSymbol[]>>();
    expectTypeOf<Ranker['explain']>().toEqualTypeOf<
      ((symbol: string, inputs: readonly RankInput[], context: RankContext) => RankExplanation | undefined | Promise<RankExplanation | undefined>) | undefined
    >();
  });

  it('rejects a ranker without a name or rank(), or returning the wrong thing', () => {
    // @ts-expect-error a ranker is named (errors and explanations use the name)
    const unnamed: Ranker = { rank: (inputs: readonly RankInput[]) => inputs.map(toRanked) };
    // @ts-expect-error rank() is required
    const noRank: Ranker = { name: 'empty' };
    // @ts-expect-error rank() returns ranked symbols, not scores
    const scores: Ranker = { name: 'scores', rank: (inputs: readonly RankInput[]) => inputs.map((i) => i.rwr) };
    // @ts-expect-error inputs are readonly: a ranker cannot sort them in place
    const mutating: Ranker = { name: 'sorts', rank: (inputs) => inputs.sort().map(toRanked) };
    void [unnamed, noRank, scores, mutating];
  });

  it('wraps any ranker into an async, validated one and keeps the default ranker explainable', () => {
    const checked = wrapRanker({ name: 'by-rwr', rank: (inputs) => inputs.map(toRanked) });
    expectTypeOf(checked).toEqualTypeOf<CheckedRanker>();
    expectTypeOf(checked.rank).returns.toEqualTypeOf<Promise<RankedSymbol[]>>();
    expectTypeOf(checked.inner).toEqualTypeOf<Ranker>();

    const ranker = createDefaultRanker();
    expectTypeOf(ranker).toEqualTypeOf<DefaultRanker>();
    expectTypeOf(ranker.rank).returns.toEqualTypeOf<RankedSymbol[]>();
    expectTypeOf(ranker.explain).toBeFunction();
    // @ts-expect-error the default ranker's overrides are typed options, not arbitrary keys
    createDefaultRanker({ noSuchWeight: 1 });
  });
});
