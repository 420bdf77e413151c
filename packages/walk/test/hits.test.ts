import { describe, expect, it } from 'vitest';
import { ErrorCode, isKnowingError } from '@knowing/graph';
import { hits } from '../src/index.js';
import { graphOf } from './fixtures.js';
import type { EdgeSpec } from './fixtures.js';

const PHI = (1 + Math.sqrt(5)) / 2;
const BIG = PHI / Math.sqrt(PHI * PHI + 1); // 0.8507…
const SMALL = 1 / Math.sqrt(PHI * PHI + 1); // 0.5257…

describe('hits', () => {
  // h1 → a1, h1 → a2, h2 → a1. AᵀA = [[2,1],[1,1]] has the principal eigenvector (φ, 1):
  // authorities a1 = φ/√(φ²+1), a2 = 1/√(φ²+1); the hubs come out the same way round.
  const adjacency = graphOf(['h1', 'h2', 'a1', 'a2'], [['h1', 'a1'], ['h1', 'a2'], ['h2', 'a1']]);
  const all = [0, 1, 2, 3];

  it('finds the textbook hub and authority values', () => {
    const result = hits(adjacency, all);
    expect([...result.indices]).toEqual(all);
    const expectedAuthority = [0, 0, BIG, SMALL];
    const expectedHub = [BIG, SMALL, 0, 0];
    for (let k = 0; k < 4; k++) {
      expect(result.authority[k]).toBeCloseTo(expectedAuthority[k]!, 6);
      expect(result.hub[k]).toBeCloseTo(expectedHub[k]!, 6);
    }
  });

  it('computes hubs from the authorities of the same iteration', () => {
    // One iteration from unit hubs: authority ∝ (2, 1) → (2, 1)/√5; hub ∝ (3, 2)/√5 → (3, 2)/√13.
    // Using the previous authorities instead would give all-zero hubs after one iteration.
    const result = hits(adjacency, all, { iterations: 1 });
    expect(result.authority[2]).toBeCloseTo(2 / Math.sqrt(5), 12);
    expect(result.hub[0]).toBeCloseTo(3 / Math.sqrt(13), 12);
    expect(result.hub[1]).toBeCloseTo(2 / Math.sqrt(13), 12);
  });

  it('uses only edges among the chosen candidates, and counts a linked pair once', () => {
    const withExtras = graphOf(
      ['h1', 'h2', 'a1', 'a2', 'x'],
      [['h1', 'a1'], ['h1', 'a1', 'references'], ['h1', 'a2'], ['h2', 'a1'], ['x', 'a2'], ['x', 'a2', 'imports'], ['a1', 'a1']],
    );
    const result = hits(withExtras, all);
    expect(result.authority[2]).toBeCloseTo(BIG, 6);
    expect(result.authority[3]).toBeCloseTo(SMALL, 6);
  });

  it('keeps the best `limit` candidates by score, or the first ones in the order given', () => {
    const scores = [0.1, 0.9, 0.5, 0.7];
    expect([...hits(adjacency, all, { limit: 2, scores }).indices]).toEqual([1, 3]);
    expect([...hits(adjacency, [3, 2, 2, 1, 0], { limit: 3 }).indices]).toEqual([3, 2, 1]);
  });

  it('gives zeros to candidates without edges among them', () => {
    const result = hits(graphOf(['a', 'b'], []), [0, 1]);
    expect([...result.hub, ...result.authority]).toEqual([0, 0, 0, 0]);
  });

  it('rejects candidates outside the adjacency', () => {
    try {
      hits(adjacency, [7]);
      expect.unreachable();
    } catch (error) {
      expect(isKnowingError(error, ErrorCode.InvalidArgument)).toBe(true);
    }
  });

  it('ranks a chain by authority towards the end', () => {
    const chain = graphOf(['a', 'b', 'c'], [['a', 'b'], ['b', 'c'], ['a', 'c']] as EdgeSpec[]);
    const { authority, hub } = hits(chain, [0, 1, 2]);
    expect(authority[2]).toBeGreaterThan(authority[1]!);
    expect(authority[0]).toBe(0);
    expect(hub[0]).toBeGreaterThan(hub[1]!);
    expect(hub[2]).toBe(0);
  });
});
