import { describe, expect, it } from 'vitest';
import { createDefaultRanker, DEFAULT_RANKING_OPTIONS } from '../src/index.js';
import { RANK_COMPONENT_ORDER } from '../src/formula.js';
import type { RankInput, RankContext } from '../src/index.js';
import type { RankedSymbol } from '@knowing/graph';
import { fixtureNode } from '../src/testing.js';

/** The golden values below pin the seeds' formula; the kind prior is tested on its own. */
const NO_PRIOR = { kindWeights: {} };

const NOW = 1_700_000_000_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function near(actual: number | undefined, expected: number): void {
  expect(actual).toBeDefined();
  expect(Math.abs(actual! - expected), `${actual} vs ${expected}`).toBeLessThan(1e-9);
}

function byName(ranked: readonly RankedSymbol[]): Map<string, RankedSymbol> {
  return new Map(ranked.map((symbol) => [symbol.node.name, symbol]));
}

function sum(components: Readonly<Record<string, number>>): number {
  return Object.values(components).reduce((a, b) => a + b, 0);
}

// Caller proxies (rwr·100 + seedWeight·50 for seeds): A 150, B 90, C 60, D 80, E 10 → max 150.
const A: RankInput = {
  node: fixtureNode('src/hooks.py', 'register_hook'),
  rwr: 1,
  distance: 0,
  isSeed: true,
  seedWeight: 1,
  confidence: 0.9,
  lastModified: NOW - 2 * HOUR, // commit recency +0.05
};
const B: RankInput = {
  node: fixtureNode('src/app.py', 'Flask.before_request', { kind: 'method' }),
  rwr: 0.5,
  distance: 0,
  isSeed: true,
  seedWeight: 0.8,
  provenance: 'ast_inferred', // confidence 0.7 by provenance
  sessionBoost: 1, // 1/2 of the cap → session 0.1
};
const C: RankInput = {
  node: fixtureNode('src/ctx.py', 'RequestContext.push', { kind: 'method' }),
  rwr: 0.6,
  distance: 1,
  isSeed: false,
  confidence: 0.3, // floored to 0.5
  feedback: { useful: 3, notUseful: 1 }, // ratio 0.75 → signal 0.5 → +0.125
  lastModified: NOW - 10 * DAY, // +0.01
};
const D: RankInput = {
  node: fixtureNode('tests/test_hooks.py', 'test_hook_order', { isTest: true }),
  rwr: 0.8,
  distance: 2, // scored as 1 hop (binary distance)
  isSeed: false,
  confidence: 0.8,
  feedback: { useful: 0, notUseful: 2 }, // ratio 0 → −0.05
};
const E: RankInput = {
  node: fixtureNode('src/globals.py', 'current_app', { kind: 'variable' }),
  rwr: 0.1,
  distance: 1,
  isSeed: false, // no confidence, no provenance → floor 0.5
  lastModified: NOW - 40 * DAY, // no bonus
};

const CONTEXT: RankContext = { task: 'add a before-request hook', keywords: ['before_request', 'hook'], now: NOW };

describe('default ranker, base mode (no HITS)', () => {
  const ranker = createDefaultRanker(NO_PRIOR);
  const ranked = ranker.rank([E, D, C, B, A], CONTEXT);
  const s = byName(ranked);

  it('scores each component with the base weights (golden values)', () => {
    // A: 0.40·150/150 + 0.25·0.9 + 0.05 + 0.15·1                      = 0.825
    near(s.get('register_hook')!.score, 0.4 * 1 + 0.25 * 0.9 + 0.05 + 0.15);
    near(s.get('register_hook')!.score, 0.825);
    // B: 0.40·90/150 + 0.25·0.7 + 0.15·1 + 0.20·(1/2)                  = 0.665
    near(s.get('before_request')!.score, 0.665);
    // C: 0.40·60/150 + 0.25·0.5 + 0.01 + 0.15·0.5 + 0.25·0.5           = 0.495
    near(s.get('push')!.score, 0.495);
    // E: 0.40·10/150 + 0.25·0.5 + 0.15·0.5                             = 0.2266…
    near(s.get('current_app')!.score, 0.4 / 15 + 0.125 + 0.075);
    // D: (0.40·80/150 + 0.25·0.8 + 0.15·0.5 − 0.05) · 0.15              = 0.06575
    near(s.get('test_hook_order')!.score, (0.4 * 80 / 150 + 0.2 + 0.075 - 0.05) * 0.15);
    near(s.get('test_hook_order')!.score, 0.06575);
  });

  it('orders by score descending', () => {
    expect(ranked.map((r) => r.node.name)).toEqual(['register_hook', 'before_request', 'push', 'current_app', 'test_hook_order']);
  });

  it('fills every named component, and they sum to the score', () => {
    for (const symbol of ranked) {
      expect(Object.keys(symbol.components)).toEqual([...RANK_COMPONENT_ORDER]);
      near(sum(symbol.components), symbol.score);
    }
    const b = s.get('before_request')!.components;
    near(b['blast_radius'], 0.24);
    near(b['confidence'], 0.175);
    near(b['distance'], 0.15);
    near(b['session'], 0.1);
    expect(b['hits_authority']).toBe(0);
    expect(b['hits_hub']).toBe(0);
    near(s.get('push')!.components['feedback'], 0.125);
    near(s.get('register_hook')!.components['commit_recency'], 0.05);
    near(s.get('test_hook_order')!.components['test_penalty'], -0.43833333333333335 * 0.85);
  });

  it('keeps the real distance, rwr and provenance on the output', () => {
    expect(s.get('test_hook_order')!.distance).toBe(2);
    expect(s.get('test_hook_order')!.rwr).toBe(0.8);
    expect(s.get('before_request')!.provenance).toBe('ast_inferred');
    expect(s.get('register_hook')!.provenance).toBeUndefined();
  });

  it('ignores HITS scores when the mode is forced to base', () => {
    const withHits = [{ ...A, authority: 0.9, hub: 0.9 }, B];
    const base = ranker.rank(withHits, { ...CONTEXT, mode: 'base' });
    // Only A and B: max proxy 150 still, so A scores as above.
    near(base[0]!.score, 0.825);
    expect(base[0]!.components['hits_authority']).toBe(0);
  });

  it('uses real hops when binary distance is off', () => {
    const real = createDefaultRanker({ ...NO_PRIOR, binaryDistance: false }).rank([A, D], { ...CONTEXT, aboutTests: true });
    // D at 2 hops: 0.15/3 instead of 0.15/2.
    near(real.find((r) => r.node.name === 'test_hook_order')!.components['distance'], 0.05);
  });

  it('counts raw RWR only when the relevance weight is set', () => {
    const ranked2 = createDefaultRanker({ ...NO_PRIOR, weights: { relevance: 0.5 } }).rank([A, C], CONTEXT);
    near(ranked2.find((r) => r.node.name === 'push')!.components['relevance'], 0.3);
    expect(s.get('push')!.components['relevance']).toBe(0);
  });
});

describe('default ranker, HITS mode', () => {
  const inputs: RankInput[] = [
    { ...A, authority: 0.6, hub: 0.5 }, // seed: +0.6·0.25, +0.5·0.10
    { ...B, authority: 0.04, hub: 0.1 }, // seed under both thresholds: nothing
    { ...C, authority: 0.5, hub: 0.9 }, // non-seed authority: −0.5·0.15; non-seed hub: nothing
    { ...D, authority: 0.2 }, // non-seed at the threshold (not above): nothing
    E, // no HITS scores: nothing
  ];
  const ranked = createDefaultRanker(NO_PRIOR).rank(inputs, CONTEXT);
  const s = byName(ranked);

  it('switches to the HITS weights when hub/authority scores are present', () => {
    // A: 0.35 + 0.20·0.9 + 0.05 + 0.15 + 0.15 + 0.05                   = 0.93
    near(s.get('register_hook')!.score, 0.35 + 0.18 + 0.05 + 0.15 + 0.15 + 0.05);
    near(s.get('register_hook')!.score, 0.93);
    // B: 0.35·0.6 + 0.20·0.7 + 0.15 + 0.1                               = 0.6
    near(s.get('before_request')!.score, 0.6);
    // C: 0.35·0.4 + 0.20·0.5 + 0.01 + 0.15·0.5 − 0.075 + 0.125          = 0.375
    near(s.get('push')!.score, 0.375);
    // E: 0.35·10/150 + 0.20·0.5 + 0.15·0.5                              = 0.198333…
    near(s.get('current_app')!.score, 0.35 / 15 + 0.1 + 0.075);
    // D: (0.35·80/150 + 0.20·0.8 + 0.075 − 0.05) · 0.15                  = 0.05575
    near(s.get('test_hook_order')!.score, 0.05575);
  });

  it('reports the HITS adjustments as components', () => {
    near(s.get('register_hook')!.components['hits_authority'], 0.15);
    near(s.get('register_hook')!.components['hits_hub'], 0.05);
    near(s.get('push')!.components['hits_authority'], -0.075);
    expect(s.get('push')!.components['hits_hub']).toBe(0);
    expect(s.get('before_request')!.components['hits_authority']).toBe(0);
    expect(s.get('test_hook_order')!.components['hits_authority']).toBe(0);
    expect(ranked.map((r) => r.node.name)).toEqual(['register_hook', 'before_request', 'push', 'current_app', 'test_hook_order']);
  });

  it('can be asked for HITS mode without scores (all adjustments 0)', () => {
    const hits = createDefaultRanker(NO_PRIOR).rank([A, B, C, D, E], { ...CONTEXT, mode: 'hits' });
    near(hits.find((r) => r.node.name === 'before_request')!.score, 0.6);
  });
});

describe('blast radius', () => {
  it('uses caller counts when given, normalised by the maximum of the set', () => {
    const ranked = createDefaultRanker(NO_PRIOR).rank(
      [
        { ...E, callerCount: 4, lastModified: undefined },
        { ...C, callerCount: 12, feedback: undefined, lastModified: undefined },
      ],
      CONTEXT,
    );
    near(ranked.find((r) => r.node.name === 'current_app')!.components['blast_radius'], 0.4 / 3);
    near(ranked.find((r) => r.node.name === 'push')!.components['blast_radius'], 0.4);
  });

  it('contributes nothing when no candidate has callers', () => {
    const ranked = createDefaultRanker(NO_PRIOR).rank([{ ...E, rwr: 0 }], CONTEXT);
    expect(ranked[0]!.components['blast_radius']).toBe(0);
  });
});

describe('hub damping (off by default)', () => {
  it('divides by √(inDegree/threshold) above the threshold', () => {
    const input: RankInput = { ...E, inDegree: 400, lastModified: undefined };
    const plain = createDefaultRanker(NO_PRIOR).rank([input], CONTEXT)[0]!;
    expect(plain.components['hub_damping']).toBe(0);
    const damped = createDefaultRanker({ ...NO_PRIOR, hubDampingThreshold: 100 }).rank([input], CONTEXT)[0]!;
    near(damped.score, plain.score / 2);
    near(damped.components['hub_damping'], -plain.score / 2);
  });
});

describe('per-call option overrides', () => {
  it('merge over the ranker options for one call only', () => {
    const ranker = createDefaultRanker(NO_PRIOR);
    const tweaked = ranker.rank([A], { ...CONTEXT, options: { weights: { confidence: 0 } } });
    near(tweaked[0]!.score, 0.825 - 0.225);
    near(ranker.rank([A], CONTEXT)[0]!.score, 0.825);
    expect(DEFAULT_RANKING_OPTIONS.weights.confidence).toBe(0.25);
  });
});

describe('kind prior', () => {
  it('multiplies data members and variables by their kind weight and leaves callables alone', () => {
    const method = { node: fixtureNode('src/a.py', 'Store.put', { kind: 'method' }), rwr: 0.5, distance: 1, isSeed: false } as const;
    const field = { node: fixtureNode('src/a.py', 'Store.items', { kind: 'field' }), rwr: 0.5, distance: 1, isSeed: false } as const;
    const [plainMethod, plainField] = ['put', 'items'].map((n) => createDefaultRanker(NO_PRIOR).rank([method, field], CONTEXT).find((s) => s.node.name === n)!);
    const ranked = createDefaultRanker({ kindWeights: { field: 0.5 } }).rank([method, field], CONTEXT);
    const m = ranked.find((s) => s.node.name === 'put')!;
    const f = ranked.find((s) => s.node.name === 'items')!;
    near(m.score, plainMethod!.score);
    near(f.score, plainField!.score * 0.5);
    near(f.components.kind_prior, -plainField!.score * 0.5);
  });

  it('treats kinds named like Object.prototype members as unlisted', () => {
    const ctor = { node: fixtureNode('src/a.py', 'Store.__init__', { kind: 'constructor' }), rwr: 0.5, distance: 1, isSeed: false } as const;
    const [ranked] = createDefaultRanker({ kindWeights: { field: 0.5 } }).rank([ctor], CONTEXT);
    expect(Number.isFinite(ranked!.score)).toBe(true);
    expect(ranked!.components.kind_prior).toBe(0);
  });
});
