import { describe, expect, it } from 'vitest';
import { edgesAmong, packRoot, packSymbols } from '../src/index.js';
import { edge, exactCosts, names, sym } from './fixtures.js';

const candidates = [sym('a', { score: 0.9 }), sym('b', { score: 0.8 }), sym('c', { score: 0.7 }), sym('d', { score: 0.1 })];
const costs = exactCosts({ a: 10, b: 10, c: 10, d: 100 });
const edges = [edge('a', 'b'), edge('b', 'c', 'imports'), edge('c', 'd'), edge('a', 'b'), edge('d', 'a')];

describe('packSymbols', () => {
  it('returns a ContextPack with the edges among the selection and its pack root', () => {
    const pack = packSymbols(candidates, { ...costs, budget: 50, task: 'Fix A', edges });
    expect(names(pack.symbols)).toEqual(['a', 'b', 'c']);
    expect(pack.edges).toEqual([edge('a', 'b'), edge('b', 'c', 'imports')]);
    expect(pack.tokensUsed).toBe(30);
    expect(pack.tokenBudget).toBe(50);
    expect(pack.packRoot).toBe(packRoot('fix a', ['id-c', 'id-a', 'id-b']));
  });

  it('dispatches to the chosen strategy', () => {
    const dense = [sym('big', { score: 0.9 }), sym('s1', { score: 0.6 }), sym('s2', { score: 0.5 })];
    const options = { ...exactCosts({ big: 100, s1: 40, s2: 40 }), budget: 100, rankedShare: 0 };
    expect(names(packSymbols(dense, options).symbols)).toEqual(['s1', 's2']);
    expect(names(packSymbols(dense, { ...options, strategy: 'top-k' }).symbols)).toEqual(['big']);
    expect(names(packSymbols(dense, { ...options, strategy: 'file-grouped' }).symbols)).toEqual(['s1', 's2']);
  });

  it('has no edges when none are given, and a root for the empty task', () => {
    const pack = packSymbols(candidates, { ...costs, budget: 50 });
    expect(pack.edges).toEqual([]);
    expect(pack.packRoot).toBe(packRoot('', ['id-a', 'id-b', 'id-c']));
  });
});

describe('edgesAmong', () => {
  it('keeps edges with both ends selected, once each', () => {
    expect(edgesAmong(['id-a', 'id-b'], edges)).toEqual([edge('a', 'b')]);
    expect(edgesAmong(candidates, edges)).toEqual([edge('a', 'b'), edge('b', 'c', 'imports'), edge('c', 'd'), edge('d', 'a')]);
    expect(edgesAmong(new Set(candidates.slice(2)), edges)).toEqual([edge('c', 'd')]);
  });
});
