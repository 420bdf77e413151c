import { describe, expect, it } from 'vitest';
import { ErrorCode, isKnowingError } from '@knowing/graph';
import { createWalkCache, deserializeWalkResult, randomWalkWithRestart, serializeWalkResult, walkCacheKey } from '../src/index.js';
import { graphOf } from './fixtures.js';

describe('walkCacheKey', () => {
  const base = { seeds: ['a', 'b', 'c'], weights: [1, 0.9, 0.8], alpha: 0.2, packageRoots: ['r1', 'r2'] };
  const key = walkCacheKey(base);

  it('is a hex SHA-256 that ignores the order of seeds and roots', () => {
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(walkCacheKey({ seeds: ['c', 'a', 'b'], weights: [0.8, 1, 0.9], alpha: 0.2, packageRoots: ['r2', 'r1'] })).toBe(key);
  });

  it('changes with any seed, weight, alpha, package root or variant', () => {
    const variants = [
      { ...base, seeds: ['a', 'b', 'd'] },
      { ...base, weights: [1, 0.9, 0.7] },
      { ...base, weights: [0.9, 1, 0.8] }, // same multiset of weights, attached to other seeds
      { ...base, alpha: 0.25 },
      { ...base, packageRoots: ['r1', 'r3'] },
      { ...base, packageRoots: ['r1'] },
      { ...base, variant: 'maxHops=3' },
    ];
    const keys = new Set([key, ...variants.map(walkCacheKey)]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it('cannot be fooled by moving characters between fields', () => {
    expect(walkCacheKey({ seeds: ['ab'], alpha: 0.2, packageRoots: ['c'] })).not.toBe(walkCacheKey({ seeds: ['a'], alpha: 0.2, packageRoots: ['bc'] }));
  });

  it('merges duplicate seeds and defaults weights to 1', () => {
    expect(walkCacheKey({ seeds: ['a', 'a'], alpha: 0.2, packageRoots: [] })).toBe(walkCacheKey({ seeds: ['a'], weights: [2], alpha: 0.2, packageRoots: [] }));
  });

  it('rejects mismatched weights', () => {
    try {
      walkCacheKey({ seeds: ['a'], weights: [1, 2], alpha: 0.2, packageRoots: [] });
      expect.unreachable();
    } catch (error) {
      expect(isKnowingError(error, ErrorCode.InvalidArgument)).toBe(true);
    }
  });
});

describe('createWalkCache', () => {
  it('evicts the least recently used entry', () => {
    const cache = createWalkCache<number>({ capacity: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect(cache.has('b')).toBe(false);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
    cache.set('a', 10); // overwriting refreshes too
    cache.set('d', 4);
    expect(cache.has('c')).toBe(false);
    expect(cache.get('a')).toBe(10);
    expect(cache.delete('a')).toBe(true);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('rejects a capacity below 1', () => {
    expect(() => createWalkCache({ capacity: 0 })).toThrow(/capacity/);
  });
});

describe('walk result codec', () => {
  const adjacency = graphOf(['s', 'a', 'b', 'far', 'alone'], [['s', 'a'], ['a', 'b'], ['b', 'far', 'imports']]);

  it('round-trips scores, hops and stats for the same adjacency', () => {
    const result = randomWalkWithRestart(adjacency, [{ id: 's' }], { maxHops: 2 });
    const back = deserializeWalkResult(serializeWalkResult(result, adjacency), adjacency);
    expect([...back.scores]).toEqual([...result.scores]);
    expect([...back.hops]).toEqual([...result.hops]);
    expect(back).toMatchObject({ iterations: result.iterations, stopReason: result.stopReason, activeCount: result.activeCount, residual: result.residual });
  });

  it('refuses bytes made for another adjacency or damaged', () => {
    const result = randomWalkWithRestart(adjacency, [{ id: 's' }]);
    const bytes = serializeWalkResult(result, adjacency);
    const other = graphOf(['s', 'a', 'b', 'far', 'other'], []);
    expect(() => deserializeWalkResult(bytes, other)).toThrow(/different adjacency/);
    expect(() => deserializeWalkResult(bytes.subarray(0, bytes.length - 1), adjacency)).toThrow(/length/);
  });
});
