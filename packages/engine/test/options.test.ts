import { describe, expect, it } from 'vitest';
import { ErrorCode, isKnowingError } from '@knowing/graph';
import { createMemoryStore } from '@knowing/graph/memory';
import { createEngine, DEFAULT_ENGINE_OPTIONS, resolveEngineOptions } from '../src/index.js';

function rejection(input: unknown): { detail: string; hint: string | undefined } {
  try {
    resolveEngineOptions(input as never);
  } catch (error) {
    expect(isKnowingError(error, ErrorCode.InvalidArgument)).toBe(true);
    const e = error as { detail: string; hint: string | undefined };
    return { detail: e.detail, hint: e.hint };
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe('resolveEngineOptions', () => {
  it('merges groups field by field over the defaults', () => {
    const options = resolveEngineOptions({ walk: { alpha: 0.3 }, channels: { lexical: 4, myChannel: 1 }, cache: false });
    expect(options.walk.alpha).toBe(0.3);
    expect(options.walk.maxHops).toBe(DEFAULT_ENGINE_OPTIONS.walk.maxHops);
    expect(options.channels['myChannel']).toBe(1);
    expect(options.cache).toBe(false);
  });

  it('rejects unknown fields and values of the wrong type, naming the field', () => {
    expect(rejection({ walks: {} }).detail).toBe('unknown field "engine.walks"');
    const typo = rejection({ walk: { alpah: 0.2 } });
    expect(typo.detail).toBe('unknown field "engine.walk.alpah"');
    expect(typo.hint).toContain('alpha');
    expect(rejection({ walk: { alpha: '0.2' } }).detail).toContain('"engine.walk.alpha" must be a number');
    expect(rejection({ walk: { alpha: Number.NaN } }).detail).toContain('"engine.walk.alpha" must be a number');
    expect(rejection({ cache: 'yes' }).detail).toContain('"engine.cache" must be a boolean');
    expect(rejection({ channels: { lexical: 'high' } }).detail).toContain('"engine.channels" must be an object of numbers');
    expect(rejection({ walk: { edgeWeights: { calls: null } } }).detail).toContain('"engine.walk.edgeWeights" must be an object of numbers');
    expect(rejection({ ranking: 3 }).detail).toContain('"engine.ranking" must be an object');
    expect(rejection([]).detail).toContain('must be an object');
  });

  it('is what createEngine checks its options with', () => {
    expect(() => createEngine({ store: createMemoryStore(), options: { walk: { alpah: 0.2 } } as never })).toThrow(/engine\.walk\.alpah/);
  });
});
