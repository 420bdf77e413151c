import { describe, expect, it } from 'vitest';
import { ErrorCode, KnowingError, isKnowingError } from '@knowing/graph';
import type { RankedSymbol } from '@knowing/graph';
import { createDefaultRanker, validateRankerOutput, wrapRanker } from '../src/index.js';
import { validateRankerExplanation } from '../src/validate.js';
import type { RankInput, Ranker } from '../src/index.js';
import { fixtureNode } from '../src/testing.js';

const inputs: RankInput[] = ['a', 'b', 'c'].map((name, i) => ({ node: fixtureNode('src/m.ts', name), rwr: 1 - i / 4, distance: i === 0 ? 0 : 1, isSeed: i === 0 }));
const out = (input: RankInput, score: number, extra: Partial<RankedSymbol> = {}): RankedSymbol => ({
  node: input.node,
  score,
  rwr: input.rwr,
  distance: input.distance,
  components: { mine: score },
  ...extra,
});

function rejection(run: () => unknown): KnowingError {
  try {
    run();
  } catch (error) {
    if (isKnowingError(error)) return error;
    throw error;
  }
  throw new Error('expected a KnowingError');
}

describe('validateRankerOutput', () => {
  it('accepts a good answer and returns it sorted (stable for ties)', () => {
    const result = validateRankerOutput('mine', inputs, [out(inputs[2]!, 0.1), out(inputs[0]!, 0.5), out(inputs[1]!, 0.5)]);
    expect(result.map((r) => r.node.name)).toEqual(['a', 'b', 'c']);
    expect(validateRankerOutput('mine', inputs, [])).toEqual([]);
  });

  it('rejects NaN and infinite scores, naming the plugin and the symbol', () => {
    for (const score of [Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = rejection(() => validateRankerOutput('nan-ranker', inputs, [out(inputs[0]!, score)]));
      expect(error.code).toBe(ErrorCode.PluginInvalid);
      expect(error.message).toContain('ranker "nan-ranker"');
      expect(error.message).toContain(inputs[0]!.node.id);
    }
  });

  it('rejects ids that were not among the inputs', () => {
    const stranger = { ...out(inputs[0]!, 1), node: fixtureNode('src/other.ts', 'stranger') };
    const error = rejection(() => validateRankerOutput('inventive', inputs, [stranger]));
    expect(error.code).toBe(ErrorCode.PluginInvalid);
    expect(error.message).toMatch(/ranker "inventive" returned unknown symbol/);
  });

  it('rejects duplicates', () => {
    const error = rejection(() => validateRankerOutput('echo', inputs, [out(inputs[0]!, 1), out(inputs[0]!, 0.9)]));
    expect(error.code).toBe(ErrorCode.PluginInvalid);
    expect(error.message).toMatch(/ranker "echo" returned duplicate symbol .* \(position 1\)/);
  });

  it('rejects non-arrays, non-finite components, rwr and distances', () => {
    expect(rejection(() => validateRankerOutput('x', inputs, null)).message).toContain('instead of an array');
    expect(rejection(() => validateRankerOutput('x', inputs, [out(inputs[0]!, 1, { components: { a: Number.NaN } })])).message).toContain('component "a"');
    expect(rejection(() => validateRankerOutput('x', inputs, [out(inputs[0]!, 1, { rwr: Number.NaN })])).message).toContain('rwr');
    expect(rejection(() => validateRankerOutput('x', inputs, [out(inputs[0]!, 1, { distance: -1 })])).message).toContain('distance');
    expect(rejection(() => validateRankerOutput('x', inputs, [{ score: 1 }])).message).toContain('without a node id');
  });
});

describe('validateRankerExplanation', () => {
  it('accepts undefined and well-formed explanations, rejects the rest', () => {
    const id = inputs[0]!.node.id;
    expect(validateRankerExplanation('x', id, undefined)).toBeUndefined();
    expect(validateRankerExplanation('x', id, { symbol: id, score: 1, rank: 1, components: { a: 1 } })).toBeDefined();
    expect(rejection(() => validateRankerExplanation('x', id, { symbol: 'other', score: 1, rank: 1, components: {} })).message).toContain('explained other');
    expect(rejection(() => validateRankerExplanation('x', id, { symbol: id, score: Number.NaN, rank: 1, components: {} })).code).toBe(ErrorCode.PluginInvalid);
    expect(rejection(() => validateRankerExplanation('x', id, { symbol: id, score: 1, rank: 0, components: {} })).message).toContain('rank 0');
  });
});

describe('wrapRanker', () => {
  it('validates and sorts what the plugin returns', async () => {
    const unsorted: Ranker = { name: 'unsorted', rank: (ins) => [out(ins[1]!, 0.2), out(ins[0]!, 0.9)] };
    const ranked = await wrapRanker(unsorted).rank(inputs, { task: '' });
    expect(ranked.map((r) => r.node.name)).toEqual(['a', 'b']);
  });

  it('rejects a bad answer naming the plugin, sync or async', async () => {
    const bad: Ranker = { name: 'bad-plugin', rank: async (ins) => [out(ins[0]!, Number.NaN)] };
    await expect(wrapRanker(bad).rank(inputs, { task: '' })).rejects.toMatchObject({
      code: ErrorCode.PluginInvalid,
      message: expect.stringContaining('ranker "bad-plugin"'),
    });
  });

  it('wraps exceptions from the plugin, keeping the cause; KnowingErrors pass through', async () => {
    const boom = new Error('boom');
    const crashing: Ranker = { name: 'crashy', rank: () => { throw boom; } };
    await expect(wrapRanker(crashing).rank(inputs, { task: '' })).rejects.toMatchObject({
      code: ErrorCode.Internal,
      message: expect.stringMatching(/ranker "crashy" threw during rank\(\): boom/),
      cause: boom,
    });
    const own = new KnowingError(ErrorCode.InvalidArgument, 'no', { source: 'x' });
    const polite: Ranker = { name: 'polite', rank: () => { throw own; } };
    await expect(wrapRanker(polite).rank(inputs, { task: '' })).rejects.toBe(own);
  });

  it('checks explanations and omits explain when the plugin has none', async () => {
    const liar: Ranker = { name: 'liar', rank: () => [], explain: (symbol) => ({ symbol, score: Number.NaN, rank: 1, components: {} }) };
    await expect(wrapRanker(liar).explain!(inputs[0]!.node.id, inputs, { task: '' })).rejects.toMatchObject({ code: ErrorCode.PluginInvalid });
    expect(wrapRanker({ name: 'plain', rank: () => [] }).explain).toBeUndefined();
  });

  it('refuses objects that are not rankers, and is idempotent', () => {
    expect(() => wrapRanker({ name: 'x' } as unknown as Ranker)).toThrow(expect.objectContaining({ code: ErrorCode.PluginInvalid }));
    expect(() => wrapRanker({ name: '', rank: () => [] })).toThrow(/non-empty name/);
    const once = wrapRanker(createDefaultRanker());
    expect(wrapRanker(once)).toBe(once);
    expect(once.name).toBe('knowing-default');
  });

  it('passes the default ranker through unchanged', async () => {
    const context = { task: 'x', now: 1_700_000_000_000 };
    expect(await wrapRanker(createDefaultRanker()).rank(inputs, context)).toEqual(createDefaultRanker().rank(inputs, context));
  });
});
