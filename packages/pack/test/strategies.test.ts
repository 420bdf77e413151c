import { describe, expect, it } from 'vitest';
import { ErrorCode, isKnowingError } from '@knowing/graph';
import { packDensity, packFileGrouped, packSymbols, packTopK, phantomRatio, proximityExponent } from '../src/index.js';
import type { PackSelection } from '../src/index.js';
import { exactCosts, names, rng, sym } from './fixtures.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isKnowingError(error) ? error.code : 'other';
  }
  return undefined;
}

const totalScore = (selection: PackSelection) => selection.symbols.reduce((sum, s) => sum + s.score, 0);

describe('packDensity without a ranked share (the pure knapsack)', () => {
  // One big symbol with the best score, and small ones that together are worth more.
  const candidates = [sym('big', { score: 0.9 }), sym('small1', { score: 0.6 }), sym('small2', { score: 0.5 }), sym('tiny', { score: 0.1 })];
  const costs = { ...exactCosts({ big: 100, small1: 40, small2: 40, tiny: 30 }), rankedShare: 0 };

  it('prefers dense symbols to the score order', () => {
    const dense = packDensity(candidates, { ...costs, budget: 100 });
    const top = packTopK(candidates, { ...costs, budget: 100 });
    expect(names(top.symbols)).toEqual(['big']);
    expect(names(dense.symbols)).toEqual(['small1', 'small2']);
    expect(totalScore(dense)).toBeGreaterThan(totalScore(top));
    expect(dense.tokensUsed).toBe(80);
  });

  it('skips what does not fit and keeps trying smaller symbols', () => {
    // Density order: small1 (0.015), small2 (0.0125), big (0.009), tiny (0.0033).
    // With 110 tokens: small1 + small2 = 80, big does not fit, tiny (30) still does.
    const selection = packDensity(candidates, { ...costs, budget: 110 });
    expect(names(selection.symbols)).toEqual(['small1', 'small2', 'tiny']);
    expect(selection.tokensUsed).toBe(110);
  });

  it('returns the selection best score first', () => {
    const scrambled = [sym('a', { score: 0.2 }), sym('b', { score: 0.9 }), sym('c', { score: 0.5 })];
    const selection = packDensity(scrambled, { ...exactCosts({ a: 1, b: 50, c: 10 }), budget: 1000 });
    expect(names(selection.symbols)).toEqual(['b', 'c', 'a']);
  });

  it('weighs density by rwr^exponent', () => {
    // near: density 0.1; far: 0.2 × 0.1^e — ahead of near for e = 0.3, behind for e = 0.7.
    const pair = [sym('near', { score: 1, rwr: 1 }), sym('far', { score: 1, rwr: 0.1 })];
    const options = { ...exactCosts({ near: 10, far: 5 }), budget: 10, rankedShare: 0 };
    expect(names(packDensity(pair, { ...options, exponent: 0.3 }).symbols)).toEqual(['far']);
    expect(names(packDensity(pair, { ...options, exponent: 0.7 }).symbols)).toEqual(['near']);
    expect(names(packDensity(pair, { ...options, exponent: 0 }).symbols)).toEqual(['far']);
  });
});

describe('packDensity with a ranked share', () => {
  it('keeps the best-scored symbol that density alone would trade for smaller ones', () => {
    const candidates = [sym('big', { score: 0.9 }), sym('small1', { score: 0.6 }), sym('small2', { score: 0.5 })];
    const options = { ...exactCosts({ big: 100, small1: 40, small2: 40 }), budget: 100 };
    expect(names(packDensity(candidates, { ...options, rankedShare: 0 }).symbols)).toEqual(['small1', 'small2']);
    expect(names(packDensity(candidates, options).symbols)).toEqual(['big']);
  });

  it('packs a symbol the walk never reached when it ranks first', () => {
    // Found by its text alone: no walk score, so its density is 0 whatever its rank.
    const pair = [sym('textual', { score: 1, rwr: 0 }), sym('neighbour', { score: 0.5, rwr: 1 })];
    const options = { ...exactCosts({ textual: 10, neighbour: 10 }), budget: 10 };
    expect(names(packDensity(pair, { ...options, rankedShare: 0 }).symbols)).toEqual(['neighbour']);
    expect(names(packDensity(pair, options).symbols)).toEqual(['textual']);
  });

  it('follows the score order up to its share of the budget, then density', () => {
    const candidates = [sym('a', { score: 0.9 }), sym('b', { score: 0.8 }), sym('c', { score: 0.7 }), sym('d', { score: 0.6 })];
    const options = { ...exactCosts({ a: 10, b: 10, c: 20, d: 5 }), budget: 40 };
    // Half of 40: a and b in score order; then d (0.12 per token) before c (0.035), and c no longer fits.
    expect(names(packDensity(candidates, { ...options, rankedShare: 0.5 }).symbols)).toEqual(['a', 'b', 'd']);
    expect(names(packDensity(candidates, { ...options, rankedShare: 1 }).symbols)).toEqual(['a', 'b', 'c']);
  });

  it('skips a best-scored symbol larger than the whole budget and goes on in score order', () => {
    const candidates = [sym('huge', { score: 0.9 }), sym('b', { score: 0.8 }), sym('c', { score: 0.1 })];
    const selection = packDensity(candidates, { ...exactCosts({ huge: 500, b: 30, c: 10 }), budget: 100, rankedShare: 0.2 });
    expect(names(selection.symbols)).toEqual(['b', 'c']);
    expect(selection.tokensUsed).toBe(40);
  });

  it('rejects a share outside [0, 1]', () => {
    const one = [sym('a', { score: 1 })];
    for (const rankedShare of [-0.1, 1.5, Number.NaN]) expect(codeOf(() => packDensity(one, { budget: 10, rankedShare }))).toBe(ErrorCode.InvalidArgument);
  });
});

describe('proximity exponent adaptation', () => {
  it('is clamp(0.3 + 0.2 · phantomRatio, 0.3, 0.7)', () => {
    expect(proximityExponent(0)).toBe(0.3);
    expect(proximityExponent(1)).toBeCloseTo(0.5, 12);
    expect(proximityExponent(2)).toBeCloseTo(0.7, 12);
    expect(proximityExponent(10)).toBe(0.7);
    expect(proximityExponent(Number.POSITIVE_INFINITY)).toBe(0.7);
    expect(proximityExponent(1, { slope: 0.1 })).toBeCloseTo(0.4, 12);
  });

  it('counts phantoms per non-phantom among the candidates', () => {
    const real = [sym('a', { score: 1 }), sym('b', { score: 1 })];
    const phantoms = [1, 2, 3].map((i) => sym(`p${i}`, { score: 0.1, external: true }));
    expect(phantomRatio(real)).toBe(0);
    expect(phantomRatio([...real, ...phantoms])).toBe(1.5);
    expect(phantomRatio(phantoms)).toBe(Number.POSITIVE_INFINITY);
    expect(phantomRatio([])).toBe(0);
  });

  it('switches the selection as phantoms come in', () => {
    const pair = [sym('near', { score: 1, rwr: 1 }), sym('far', { score: 1, rwr: 0.1 })];
    // Phantoms too big to ever fit, so they only move the exponent.
    const phantoms = [1, 2, 3, 4].map((i) => sym(`p${i}`, { score: 0.01, external: true }));
    const options = { ...exactCosts({ near: 10, far: 5, p1: 99, p2: 99, p3: 99, p4: 99 }), budget: 10, rankedShare: 0 };
    expect(names(packDensity(pair, options).symbols)).toEqual(['far']); // ratio 0 → 0.3
    expect(names(packDensity([...pair, ...phantoms], options).symbols)).toEqual(['near']); // ratio 2 → 0.7
    expect(names(packDensity(pair, { ...options, phantomRatio: 2 }).symbols)).toEqual(['near']);
    expect(names(packDensity([...pair, ...phantoms], { ...options, exponent: 0.3 }).symbols)).toEqual(['far']);
    expect(names(packDensity([...pair, ...phantoms], { ...options, proximity: { max: 0.3 } }).symbols)).toEqual(['far']);
  });
});

describe('packTopK', () => {
  const candidates = [sym('a', { score: 0.9 }), sym('b', { score: 0.8 }), sym('c', { score: 0.7 }), sym('d', { score: 0.6 })];
  const costs = exactCosts({ a: 10, b: 50, c: 10, d: 10 });

  it('takes the best scores and stops at the first that does not fit', () => {
    expect(names(packTopK(candidates, { ...costs, budget: 40 }).symbols)).toEqual(['a']);
    expect(names(packTopK(candidates, { ...costs, budget: 70 }).symbols)).toEqual(['a', 'b', 'c']);
  });

  it('stops after `limit` symbols', () => {
    expect(names(packTopK(candidates, { ...costs, budget: 1000, limit: 2 }).symbols)).toEqual(['a', 'b']);
  });
});

describe('packFileGrouped', () => {
  const candidates = [
    sym('x1', { score: 0.9, file: 'x.ts' }),
    sym('y1', { score: 0.8, file: 'y.ts' }),
    sym('y2', { score: 0.7, file: 'y.ts' }),
    sym('x2', { score: 0.1, file: 'x.ts' }),
    sym('ext', { score: 0.5, external: true }),
  ];
  // File densities: y = 1.5 / 20 = 0.075, ext = 0.5 / 10 = 0.05, x = 1.0 / 40 = 0.025.
  const costs = exactCosts({ x1: 10, x2: 30, y1: 10, y2: 10, ext: 10 });

  it('fills with the densest files first, whole files together', () => {
    expect(names(packFileGrouped(candidates, { ...costs, budget: 30 }).symbols)).toEqual(['y1', 'y2', 'ext']);
    expect(names(packFileGrouped(candidates, { ...costs, budget: 70 }).symbols)).toEqual(['x1', 'y1', 'y2', 'ext', 'x2']);
  });

  it('fills a file partly when it does not fit whole', () => {
    expect(names(packFileGrouped(candidates, { ...costs, budget: 40 }).symbols)).toEqual(['x1', 'y1', 'y2', 'ext']);
    expect(names(packFileGrouped(candidates, { ...costs, budget: 15 }).symbols)).toEqual(['y1']);
  });

  it('differs from the density order', () => {
    // Density alone picks x1 (0.09) before anything of file y.
    expect(names(packDensity(candidates, { ...costs, budget: 10 }).symbols)).toEqual(['x1']);
    expect(names(packFileGrouped(candidates, { ...costs, budget: 10 }).symbols)).toEqual(['y1']);
  });
});

describe('budgets', () => {
  it('are never exceeded, whatever the strategy', () => {
    const random = rng(17);
    for (let round = 0; round < 40; round++) {
      const count = 1 + Math.floor(random() * 40);
      const costMap: Record<string, number> = {};
      const candidates = Array.from({ length: count }, (_, i) => {
        costMap[`s${i}`] = 1 + Math.floor(random() * 200);
        return sym(`s${i}`, { score: random(), rwr: random(), file: `f${Math.floor(random() * 5)}.ts`, external: random() < 0.1 });
      });
      const budget = Math.floor(random() * 1500);
      for (const strategy of ['density', 'file-grouped', 'top-k'] as const) {
        const pack = packSymbols(candidates, { ...exactCosts(costMap), budget, strategy });
        const spent = pack.symbols.reduce((sum, s) => sum + costMap[s.node.name]!, 0);
        expect(pack.tokensUsed).toBe(spent);
        expect(spent).toBeLessThanOrEqual(budget);
        expect(new Set(names(pack.symbols)).size).toBe(pack.symbols.length);
        const scores = pack.symbols.map((s) => s.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
      }
    }
  });

  it('of zero select nothing, and the default is 50,000 tokens', () => {
    const candidates = [sym('a', { score: 1 })];
    expect(packDensity(candidates, { budget: 0 }).symbols).toEqual([]);
    expect(packDensity(candidates).tokenBudget).toBe(50_000);
  });
});

describe('bad input', () => {
  it('is rejected with INVALID_ARGUMENT', () => {
    const a = sym('a', { score: 1 });
    expect(codeOf(() => packDensity([a, a]))).toBe(ErrorCode.InvalidArgument);
    expect(codeOf(() => packDensity([sym('n', { score: Number.NaN })]))).toBe(ErrorCode.InvalidArgument);
    expect(codeOf(() => packTopK([sym('r', { score: 1, rwr: Number.POSITIVE_INFINITY })]))).toBe(ErrorCode.InvalidArgument);
    expect(codeOf(() => packFileGrouped([a], { budget: -1 }))).toBe(ErrorCode.InvalidArgument);
    expect(codeOf(() => packDensity([a], { exponent: -1 }))).toBe(ErrorCode.InvalidArgument);
    expect(codeOf(() => packSymbols([a], { strategy: 'random' as never }))).toBe(ErrorCode.InvalidArgument);
  });
});
