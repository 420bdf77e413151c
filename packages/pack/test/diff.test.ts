import { describe, expect, it } from 'vitest';
import type { ContextPack, GraphEdge, RankedSymbol } from '@knowing/graph';
import { comparePacks, diffPacks, estimateTokens, packRoot } from '../src/index.js';
import { edge, names, sym } from './fixtures.js';

function packOf(symbols: RankedSymbol[], edges: GraphEdge[] = [], task = 'task'): ContextPack {
  return {
    symbols,
    edges,
    tokensUsed: symbols.reduce((sum, s) => sum + estimateTokens(s), 0),
    tokenBudget: 50_000,
    packRoot: packRoot(task, symbols.map((s) => s.node.id)),
  };
}

// Ten symbols of the same shape, so each costs the same.
const all = Array.from({ length: 10 }, (_, i) => sym(`symbol${i}`, { score: 1 - i / 20, signature: `function symbol${i}(input: Input): Output` }));
const cost = estimateTokens(all[0]!);
const refCost = Math.floor('function src/app.ts.symbol0'.length / 4);

describe('comparePacks', () => {
  it('lists added, removed and kept symbols, and the Jaccard overlap', () => {
    const result = comparePacks(packOf(all.slice(0, 6)), packOf(all.slice(2, 8)));
    expect(names(result.added)).toEqual(['symbol6', 'symbol7']);
    expect(names(result.removed)).toEqual(['symbol0', 'symbol1']);
    expect(names(result.kept)).toEqual(['symbol2', 'symbol3', 'symbol4', 'symbol5']);
    expect(result.overlap).toBeCloseTo(4 / 8, 12);
    expect(result.identical).toBe(false);
  });

  it('calls equal symbol sets identical, in any order', () => {
    const result = comparePacks(packOf(all.slice(0, 3)), packOf([...all.slice(0, 3)].reverse()));
    expect(result).toMatchObject({ added: [], removed: [], overlap: 1, identical: true });
    expect(comparePacks(packOf([]), packOf([])).overlap).toBe(1);
    expect(comparePacks(packOf(all.slice(0, 2)), packOf(all.slice(2, 4))).overlap).toBe(0);
  });
});

describe('diffPacks', () => {
  it('sends a small change as a delta of symbols and edges', () => {
    const previous = packOf(all.slice(0, 8), [edge('symbol0', 'symbol1'), edge('symbol1', 'symbol2')]);
    const next = packOf([...all.slice(1, 8), all[8]!], [edge('symbol1', 'symbol2'), edge('symbol2', 'symbol8', 'imports')]);
    const delta = diffPacks(previous, next)!;
    expect(delta).not.toBeNull();
    expect(names(delta.removedSymbols)).toEqual(['symbol0']);
    expect(names(delta.addedSymbols)).toEqual(['symbol8']);
    expect(delta.removedEdges).toEqual([edge('symbol0', 'symbol1')]);
    expect(delta.addedEdges).toEqual([edge('symbol2', 'symbol8', 'imports')]);
    expect(delta.baseRoot).toBe(previous.packRoot);
    expect(delta.newRoot).toBe(next.packRoot);
    expect(delta.tokens).toBeLessThan(0.6 * delta.fullTokens);
    expect(delta.savings).toBeCloseTo(1 - delta.tokens / delta.fullTokens, 12);
  });

  it('applies the 60 % rule', () => {
    // Replacing k of 10 symbols costs k·(cost + refCost); the full pack costs 10·cost.
    const previous = packOf(all);
    const replace = (k: number) => packOf([...all.slice(k), ...Array.from({ length: k }, (_, i) => sym(`newsym${i}`, { score: 0.1, signature: `function symbol${i}(input: Input): Output` }))]);
    const fits = (k: number) => k * (cost + refCost) < 0.6 * 10 * cost;
    const under = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter(fits).at(-1)!;
    const over = under + 1;
    expect(diffPacks(previous, replace(under))).not.toBeNull();
    expect(diffPacks(previous, replace(under))!.tokens).toBe(under * (cost + refCost));
    expect(diffPacks(previous, replace(over))).toBeNull();
    // The threshold is an option.
    expect(diffPacks(previous, replace(over), { threshold: 0.99 })).not.toBeNull();
  });

  it('returns an empty delta for the same symbols and null against an empty pack', () => {
    const same = diffPacks(packOf(all.slice(0, 3)), packOf(all.slice(0, 3)))!;
    expect(same).toMatchObject({ removedSymbols: [], addedSymbols: [], tokens: 0, savings: 1 });
    expect(diffPacks(packOf(all.slice(0, 3)), packOf([]))).toBeNull();
  });

  it('estimates in the chosen format', () => {
    const previous = packOf(all.slice(0, 8));
    const next = packOf([...all.slice(1, 8), all[8]!]);
    const xml = diffPacks(previous, next)!;
    const gcf = diffPacks(previous, next, { format: 'gcf' })!;
    expect(gcf.fullTokens).toBeLessThan(xml.fullTokens / 4);
  });
});
