import { describe, expect, it } from 'vitest';
import type { RankedSymbol } from '@knowing/graph';
import { createDefaultRanker, wrapRanker } from '../src/index.js';
import type { Ranker } from '../src/index.js';
import { RANK_FIXTURES, testRanker } from '../src/testing.js';

testRanker('default ranker', () => createDefaultRanker());
testRanker('default ranker with the seeds test penalty', () => createDefaultRanker({ testPenalty: 0.3, binaryDistance: false }));
testRanker('default ranker behind wrapRanker', () => wrapRanker(createDefaultRanker()));

/** A researcher's minimal ranker: RWR only, no explain. It must pass the same kit. */
const rwrOnly: Ranker = {
  name: 'rwr-only',
  rank(inputs) {
    const ranked: RankedSymbol[] = inputs.map((input) => ({
      node: input.node,
      score: input.rwr,
      distance: input.distance,
      rwr: input.rwr,
      components: { relevance: input.rwr },
    }));
    return ranked.sort((a, b) => b.score - a.score || (a.node.qualifiedName < b.node.qualifiedName ? -1 : 1));
  },
};
testRanker('an RWR-only plugin without explain', () => rwrOnly);

describe('the default ranker explains', () => {
  const fixture = RANK_FIXTURES[1]!; // HITS mode
  const ranker = createDefaultRanker();

  it('a seed with its factors, mode and notes', () => {
    const seed = fixture.inputs[0]!;
    const explanation = ranker.explain(seed.node.id, fixture.inputs, fixture.context)!;
    const ranked = ranker.rank(fixture.inputs, fixture.context);
    expect(explanation.rank).toBe(ranked.findIndex((r) => r.node.id === seed.node.id) + 1);
    expect(explanation.total).toBe(ranked.length);
    expect(explanation.mode).toBe('hits');
    expect(explanation.factors).toMatchObject({ rwr: 1, authority: 0.4, hub: 0.3, confidence: 0.9, hops: 0, distance_factor: 1 });
    expect(explanation.notes).toContain('HITS mode');
    expect(explanation.notes).toContain('seed (weight 1; channels tiered, bm25; tier exact)');
  });

  it('the test penalty and its lifting', () => {
    const testInput = fixture.inputs[4]!;
    expect(ranker.explain(testInput.node.id, fixture.inputs, fixture.context)!.notes).toContain('test code: score ×0.15');
    const lifted = ranker.explain(testInput.node.id, fixture.inputs, { ...fixture.context, task: 'fix the flaky test' })!;
    expect(lifted.notes).toContain('test code: penalty lifted because the task is about tests');
    expect(lifted.factors!['test_multiplier']).toBe(1);
  });

  it('forced injection', () => {
    const forcedFixture = RANK_FIXTURES[2]!;
    const forced = forcedFixture.inputs.find((input) => input.forced)!;
    const explanation = ranker.explain(forced.node.id, forcedFixture.inputs, forcedFixture.context)!;
    expect(explanation.rank).toBeLessThanOrEqual(2);
    expect(explanation.components['forced']).toBeGreaterThan(0);
    expect(explanation.notes!.some((note) => note.startsWith('forced to the front'))).toBe(true);
  });
});
