import { describe, expect, it } from 'vitest';
import { ErrorCode, NodeFlag, isKnowingError } from '@knowing/graph';
import { randomWalkWithRestart, walkCandidates, weightedTransitions } from '../src/index.js';
import { EXACT, denseRwr, graphOf, rng } from './fixtures.js';
import { WALK_KERNEL, encodeWalkKernel, instantiateWalkKernel } from '../src/rwr-kernel.js';
import type { DenseEdge, EdgeSpec } from './fixtures.js';
import type { TransitionOptions } from '../src/index.js';

const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `n${i}`);

function expectClose(actual: ArrayLike<number>, expected: readonly number[], digits = 9): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) expect(actual[i], `node ${i}`).toBeCloseTo(expected[i]!, digits);
}

function maxDifference(a: readonly number[], b: readonly number[]): number {
  return Math.max(...a.map((value, i) => Math.abs(value - b[i]!)));
}

/** A random multigraph with mixed edge types and provenances, some isolated nodes and sinks. */
function randomGraph(seed: number, n: number, m: number) {
  const random = rng(seed);
  const types: [string, number][] = [
    ['calls', 1],
    ['imports', 0.5],
    ['references', 0.4],
    ['extends', 0.7],
    ['similar_to', 0.15],
  ];
  const specs: EdgeSpec[] = [];
  const dense: DenseEdge[] = [];
  const seen = new Set<string>();
  // The last two nodes stay isolated.
  const connected = n - 2;
  while (specs.length < m) {
    const s = Math.floor(random() * connected);
    const t = Math.floor(random() * connected);
    const [type, weight] = types[Math.floor(random() * types.length)]!;
    const key = `${s}/${t}/${type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const lsp = random() < 0.25;
    specs.push([`n${s}`, `n${t}`, type, lsp ? 'lsp_resolved' : 'ast_resolved']);
    dense.push({ source: s, target: t, weight: weight * (lsp ? 0.3 : 1) });
  }
  return { adjacency: graphOf(names(n), specs), dense };
}

/** A random graph with every edge type, lsp and other provenances, confidences and some self-loops. */
function graphWithSelfLoops(seed: number, n: number, m: number) {
  const random = rng(seed);
  const types = ['calls', 'imports', 'references', 'extends', 'similar_to'];
  const specs: EdgeSpec[] = [];
  const seen = new Set<string>();
  while (specs.length < m) {
    const s = Math.floor(random() * (n - 2));
    const t = random() < 0.03 ? s : Math.floor(random() * (n - 2));
    const type = types[Math.floor(random() * types.length)]!;
    const key = `${s}/${t}/${type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    specs.push([`n${s}`, `n${t}`, type, random() < 0.3 ? 'lsp_resolved' : 'ast_resolved', 0.2 + 0.8 * random()]);
  }
  return { adjacency: graphOf(names(n), specs) };
}

describe('randomWalkWithRestart against an independent dense solution', () => {
  for (const seed of [1, 2, 3]) {
    for (const directed of [false, true]) {
      it(`matches the stationary distribution (graph ${seed}, ${directed ? 'directed' : 'undirected'})`, () => {
        const { adjacency, dense } = randomGraph(seed, 24, 45);
        const seeds = new Map([
          [0, 1],
          [5, 0.5],
          [22, 0.25], // isolated: a dead end that is also a seed
        ]);
        const expected = denseRwr(24, dense, seeds, { alpha: 0.2, directed });
        const transitions = weightedTransitions(adjacency, { directed });
        const result = randomWalkWithRestart(
          adjacency,
          [...seeds].map(([index, weight]) => ({ id: `n${index}`, weight })),
          { ...EXACT, transitions },
        );
        expect(result.stopReason).toBe('converged');
        expectClose(result.scores, expected);
      });
    }
  }

  it('uses the alpha it is given', () => {
    const { adjacency, dense } = randomGraph(7, 16, 30);
    const seeds = new Map([[3, 1]]);
    const result = randomWalkWithRestart(adjacency, [{ index: 3 }], { ...EXACT, alpha: 0.45 });
    expectClose(result.scores, denseRwr(16, dense, seeds, { alpha: 0.45, directed: false }));
    expect(maxDifference([...result.scores], denseRwr(16, dense, seeds, { alpha: 0.2, directed: false }))).toBeGreaterThan(0.01);
  });
});

describe('restart and dead ends', () => {
  it('gives each leaf of a star (1 − alpha) / leaves of the centre seed', () => {
    const adjacency = graphOf(['c', 'l1', 'l2', 'l3', 'l4'], [['c', 'l1'], ['c', 'l2'], ['l3', 'c'], ['l4', 'c']]);
    for (const alpha of [0.2, 0.5]) {
      const { scores } = randomWalkWithRestart(adjacency, [{ id: 'c' }], { ...EXACT, alpha });
      expect(scores[adjacency.indexOf('c')]).toBe(1);
      for (const leaf of ['l1', 'l2', 'l3', 'l4']) expect(scores[adjacency.indexOf(leaf)]).toBeCloseTo((1 - alpha) / 4, 9);
    }
  });

  it('returns dead-end mass to the seeds in proportion to seed weights', () => {
    // Directed: s1 → a → x, s2 → b; a, b and x have no way on.
    const adjacency = graphOf(['s1', 's2', 'a', 'b', 'x'], [['s1', 'a'], ['s2', 'b'], ['a', 'x'], ['s1', 's2', 'imports']]);
    const dense: DenseEdge[] = [
      { source: 0, target: 2, weight: 1 },
      { source: 1, target: 3, weight: 1 },
      { source: 2, target: 4, weight: 1 },
      { source: 0, target: 1, weight: 0.5 },
    ];
    const seeds = new Map([
      [0, 3],
      [1, 1],
    ]);
    const result = randomWalkWithRestart(
      adjacency,
      [
        { id: 's1', weight: 3 },
        { id: 's2', weight: 1 },
      ],
      { ...EXACT, transitions: weightedTransitions(adjacency, { directed: true }) },
    );
    const weighted = denseRwr(5, dense, seeds, { alpha: 0.2, directed: true, deadEnds: 'weighted' });
    expectClose(result.scores, weighted);
    // Returning the mass uniformly over the seeds gives a visibly different answer, so the
    // comparison above has teeth. (Dropping it would not: after normalising by the maximum,
    // returning dead-end mass in proportion to the restart vector is the same as dropping it.)
    expect(maxDifference(weighted, denseRwr(5, dense, seeds, { alpha: 0.2, directed: true, deadEnds: 'uniform' }))).toBeGreaterThan(0.02);
  });

  it('keeps an isolated seed at 1 and reaches nothing else', () => {
    const adjacency = graphOf(['a', 'b', 'c'], [['b', 'c']]);
    const result = randomWalkWithRestart(adjacency, [{ id: 'a' }]);
    expect([...result.scores]).toEqual([1, 0, 0]);
    expect([...result.hops]).toEqual([0, -1, -1]);
    expect(result.stopReason).toBe('converged');
  });

  it('does not propagate mass from nodes holding less than minPropagationMass', () => {
    // A centre seed with ten spokes, each spoke leading to its own far node. Spokes hold at
    // most 0.08 of the mass.
    const nodes = ['c', ...names(10).map((s) => `spoke-${s}`), ...names(10).map((s) => `far-${s}`)];
    const edges: EdgeSpec[] = names(10).flatMap((s): EdgeSpec[] => [
      ['c', `spoke-${s}`],
      [`spoke-${s}`, `far-${s}`],
    ]);
    const adjacency = graphOf(nodes, edges);
    const far = adjacency.indexOf('far-n0');
    const spoke = adjacency.indexOf('spoke-n0');
    const blocked = randomWalkWithRestart(adjacency, [{ id: 'c' }], { ...EXACT, minPropagationMass: 0.1 });
    expect(blocked.scores[spoke]).toBeGreaterThan(0);
    expect(blocked.scores[far]).toBe(0);
    const open = randomWalkWithRestart(adjacency, [{ id: 'c' }], { ...EXACT, minPropagationMass: 0 });
    expect(open.scores[far]).toBeGreaterThan(0);
  });
});

describe('restrictions', () => {
  const chain = graphOf(names(8), names(7).map((name, i): EdgeSpec => [name, `n${i + 1}`]));

  it('walks only within maxHops of the seeds and reports hop distances', () => {
    const result = randomWalkWithRestart(chain, [{ id: 'n0' }], { ...EXACT, maxHops: 4 });
    expect([...result.hops]).toEqual([0, 1, 2, 3, 4, -1, -1, -1]);
    expect(result.activeCount).toBe(5);
    expect([...result.scores.slice(5)]).toEqual([0, 0, 0]);
    // Within the limit it is the walk on the induced five-node chain.
    const dense = denseRwr(5, [0, 1, 2, 3].map((i) => ({ source: i, target: i + 1, weight: 1 })), new Map([[0, 1]]), {
      alpha: 0.2,
      directed: false,
    });
    expectClose(result.scores.slice(0, 5), dense);
  });

  it('reaches the whole component when the hop limit is off', () => {
    const result = randomWalkWithRestart(chain, [{ id: 'n0' }], EXACT);
    expect([...result.hops]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(result.scores[7]).toBeGreaterThan(0);
  });

  it('walks only over allowed nodes, seeds included', () => {
    // Two triangles joined by the edge c–d.
    const adjacency = graphOf(
      ['a', 'b', 'c', 'd', 'e', 'f'],
      [['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'd']],
    );
    const allowed = Uint8Array.from([0, 1, 1, 0, 0, 0]); // the seed 'a' is not listed but still walks
    const result = randomWalkWithRestart(adjacency, [{ id: 'a' }], { ...EXACT, allowed });
    expect([...result.scores.slice(3)]).toEqual([0, 0, 0]);
    expect([...result.hops]).toEqual([0, 1, 1, -1, -1, -1]);
    const triangle = denseRwr(
      3,
      [
        { source: 0, target: 1, weight: 1 },
        { source: 1, target: 2, weight: 1 },
        { source: 2, target: 0, weight: 1 },
      ],
      new Map([[0, 1]]),
      { alpha: 0.2, directed: false },
    );
    expectClose(result.scores.slice(0, 3), triangle);
    const unrestricted = randomWalkWithRestart(adjacency, [{ id: 'a' }], EXACT);
    expect(unrestricted.scores[3]).toBeGreaterThan(0);
  });
});

describe('stopping', () => {
  const { adjacency } = randomGraph(11, 300, 900);
  const seeds = [{ index: 1 }, { index: 2, weight: 0.5 }];

  function topSet(scores: Float64Array, k = 10): number[] {
    return [...scores.keys()]
      .filter((i) => scores[i]! > 0)
      .sort((a, b) => scores[b]! - scores[a]! || a - b)
      .slice(0, k)
      .sort((a, b) => a - b);
  }

  it('stops when the L1 change drops below the tolerance, not earlier', () => {
    const options = { ...EXACT, tolerance: 1e-6 };
    const result = randomWalkWithRestart(adjacency, seeds, options);
    expect(result.stopReason).toBe('converged');
    expect(result.residual).toBeLessThan(1e-6);
    const oneLess = randomWalkWithRestart(adjacency, seeds, { ...options, maxIterations: result.iterations - 1 });
    expect(oneLess.stopReason).toBe('max-iterations');
    expect(oneLess.residual).toBeGreaterThanOrEqual(1e-6);
  });

  it('stops when the top-10 set is unchanged for two consecutive iterations', () => {
    const options = { ...EXACT, tolerance: 0, topKStableIterations: 2, maxIterations: 50 };
    const result = randomWalkWithRestart(adjacency, seeds, options);
    expect(result.stopReason).toBe('top-k-stable');
    const at = (iterations: number) => topSet(randomWalkWithRestart(adjacency, seeds, { ...EXACT, tolerance: 0, maxIterations: iterations }).scores);
    const k = result.iterations;
    expect(at(k)).toEqual(topSet(result.scores));
    expect(at(k - 1)).toEqual(at(k));
    expect(at(k - 2)).toEqual(at(k));
    // And not stable one iteration earlier: otherwise it would have stopped there.
    expect(at(k - 3)).not.toEqual(at(k - 2));
  });

  it('caps iterations at maxIterations (20 by default)', () => {
    const result = randomWalkWithRestart(adjacency, seeds, { tolerance: 0, topKStableIterations: 0 });
    expect(result.iterations).toBe(20);
    expect(result.stopReason).toBe('max-iterations');
  });

  it('with defaults, stops early and agrees with the exact solution on the leaders', () => {
    const fast = randomWalkWithRestart(adjacency, seeds, { maxHops: Number.POSITIVE_INFINITY });
    const exact = randomWalkWithRestart(adjacency, seeds, EXACT);
    expect(fast.iterations).toBeLessThan(20);
    expect(topSet(fast.scores, 3)).toEqual(topSet(exact.scores, 3));
  });
});

describe('the walk in WebAssembly and in TypeScript', () => {
  const cases = [
    { graph: 21, n: 500, m: 1800, maxHops: 4, minMass: 1e-4, tolerance: 0.001, stable: 2, directed: false },
    { graph: 22, n: 800, m: 2400, maxHops: 2, minMass: 1e-4, tolerance: 0.001, stable: 2, directed: true },
    { graph: 23, n: 400, m: 2000, maxHops: Number.POSITIVE_INFINITY, minMass: 0, tolerance: 1e-9, stable: 0, directed: false },
    { graph: 24, n: 600, m: 1500, maxHops: 3, minMass: 1e-3, tolerance: 0, stable: 0, directed: false },
    { graph: 25, n: 300, m: 600, maxHops: 4, minMass: 1e-5, tolerance: 1e-6, stable: 3, directed: true },
  ];
  for (const c of cases) {
    it(`gives the TypeScript walk's results bit for bit (graph ${c.graph}, ${c.directed ? 'directed' : 'undirected'}, ${c.maxHops} hops)`, () => {
      const { adjacency } = randomGraph(c.graph, c.n, c.m);
      const random = rng(c.graph * 7);
      const seeds = Array.from({ length: 6 }, () => ({ index: Math.floor(random() * (c.n - 2)), weight: 0.1 + random() }));
      const transitions = weightedTransitions(adjacency, { directed: c.directed });
      const run = (kernel: 'webassembly' | 'typescript') =>
        randomWalkWithRestart(adjacency, seeds, {
          transitions,
          kernel,
          alpha: 0.2,
          maxIterations: 20,
          tolerance: c.tolerance,
          topK: 10,
          topKStableIterations: c.stable,
          minPropagationMass: c.minMass,
          maxHops: c.maxHops,
        });
      const [wasm, ts] = [run('webassembly'), run('typescript')];
      expect([wasm.stopReason, wasm.iterations, wasm.residual, wasm.activeCount]).toEqual([ts.stopReason, ts.iterations, ts.residual, ts.activeCount]);
      expect([...wasm.scores]).toEqual([...ts.scores]);
      expect([...wasm.hops]).toEqual([...ts.hops]);
      expect([...ts.scores].filter((x) => x > 0).length).toBeGreaterThan(10);
    });
  }

  it('gives the same hops, active count and scores under a restriction to allowed nodes', () => {
    const { adjacency } = randomGraph(31, 400, 1600);
    const random = rng(31);
    const allowed = Uint8Array.from({ length: 400 }, () => (random() < 0.7 ? 1 : 0));
    const seeds = [{ index: 3 }, { index: 50, weight: 0.5 }, { index: 120, weight: 2 }];
    const run = (kernel: 'webassembly' | 'typescript') => randomWalkWithRestart(adjacency, seeds, { allowed, kernel, maxHops: 3 });
    const [wasm, ts] = [run('webassembly'), run('typescript')];
    expect(wasm.activeCount).toBeLessThan(400);
    expect(wasm.activeCount).toBe(ts.activeCount);
    expect([...wasm.hops]).toEqual([...ts.hops]);
    expect([...wasm.scores]).toEqual([...ts.scores]);
    expect([wasm.iterations, wasm.stopReason, wasm.residual]).toEqual([ts.iterations, ts.stopReason, ts.residual]);
  });

  // The kernel weighs the adjacency itself when no transitions are given (`weighting`).
  const weightings: [string, TransitionOptions][] = [
    ['defaults', {}],
    ['directed, an override, an excluded type and lsp at 0.5', { directed: true, edgeWeights: { imports: 0.9 }, excludeEdgeTypes: ['references'], lspWeight: 0.5 }],
    ['lsp edges at 0 and a type at 0', { lspWeight: 0, edgeWeights: { extends: 0 } }],
    ['confidence (weighed in TypeScript)', { useConfidence: true }],
  ];
  for (const [label, weighting] of weightings) {
    it(`weighs the edges as weightedTransitions does: ${label}`, () => {
      const { adjacency } = graphWithSelfLoops(41, 500, 2200);
      const random = rng(41);
      const seeds = Array.from({ length: 5 }, () => ({ index: Math.floor(random() * 498), weight: 0.1 + random() }));
      const settings = { tolerance: 0, minPropagationMass: 0, maxHops: Number.POSITIVE_INFINITY, topKStableIterations: 0, maxIterations: 30 };
      const weighedInKernel = randomWalkWithRestart(adjacency, seeds, { ...settings, weighting });
      const fromTransitions = randomWalkWithRestart(adjacency, seeds, { ...settings, transitions: weightedTransitions(adjacency, weighting) });
      const inTypeScript = randomWalkWithRestart(adjacency, seeds, { ...settings, weighting, kernel: 'typescript' });
      for (const other of [fromTransitions, inTypeScript]) {
        expect([...weighedInKernel.scores]).toEqual([...other.scores]);
        expect([...weighedInKernel.hops]).toEqual([...other.hops]);
        expect([weighedInKernel.iterations, weighedInKernel.residual, weighedInKernel.activeCount]).toEqual([other.iterations, other.residual, other.activeCount]);
      }
      expect(weighedInKernel.activeCount).toBeGreaterThan(100);
      // The weighting is applied: the default weights give other scores.
      const unweighed = randomWalkWithRestart(adjacency, seeds, settings);
      if (Object.keys(weighting).length > 0) expect([...unweighed.scores]).not.toEqual([...weighedInKernel.scores]);
    });
  }

  it('stops at once with no iterations allowed, as the TypeScript walk does', () => {
    const { adjacency } = randomGraph(32, 100, 300);
    const run = (kernel: 'webassembly' | 'typescript') => randomWalkWithRestart(adjacency, [{ index: 1 }, { index: 2 }], { kernel, maxIterations: 0 });
    const [wasm, ts] = [run('webassembly'), run('typescript')];
    expect(wasm).toEqual(ts);
    expect(wasm.iterations).toBe(0);
  });
});

describe('hub dampening', () => {
  it('divides a hub score by √(inDegree / threshold)', () => {
    const leaves = names(8);
    const adjacency = graphOf(['hub', ...leaves], leaves.map((leaf): EdgeSpec => [leaf, 'hub']));
    const hub = adjacency.indexOf('hub');
    const leaf = adjacency.indexOf('n0');
    const seeds = leaves.map((id) => ({ id }));
    const plain = randomWalkWithRestart(adjacency, seeds, EXACT);
    const damped = randomWalkWithRestart(adjacency, seeds, { ...EXACT, hubDampeningThreshold: 2 });
    const ratio = (r: typeof plain) => r.scores[hub]! / r.scores[leaf]!;
    expect(ratio(damped)).toBeCloseTo(ratio(plain) / 2, 9);
    expect(Math.max(...damped.scores)).toBe(1);
  });
});

describe('seeds', () => {
  const adjacency = graphOf(['a', 'b', 'c', 'd'], [['a', 'b'], ['b', 'c'], ['c', 'd', 'imports']]);

  it('accepts ids and indices, merges duplicates and ignores seed order', () => {
    const one = randomWalkWithRestart(adjacency, [{ id: 'a', weight: 2 }, { index: 3 }], EXACT);
    const other = randomWalkWithRestart(adjacency, [{ id: 'd' }, { id: 'a' }, { index: 0 }], EXACT);
    expectClose(one.scores, [...other.scores], 12);
  });

  it('reports unknown ids and skips zero weights', () => {
    const result = randomWalkWithRestart(adjacency, [{ id: 'zz' }, { id: 'b', weight: 0 }]);
    expect(result.unknownSeeds).toEqual(['zz']);
    expect(result.stopReason).toBe('no-seeds');
    expect([...result.scores]).toEqual([0, 0, 0, 0]);
  });

  it('rejects bad seeds and options with INVALID_ARGUMENT', () => {
    const codeOf = (fn: () => unknown): string | undefined => {
      try {
        fn();
      } catch (error) {
        return isKnowingError(error) ? error.code : 'other';
      }
      return undefined;
    };
    expect(codeOf(() => randomWalkWithRestart(adjacency, [{ index: 9 }]))).toBe(ErrorCode.InvalidArgument);
    expect(codeOf(() => randomWalkWithRestart(adjacency, [{ id: 'a', weight: -1 }]))).toBe(ErrorCode.InvalidArgument);
    expect(codeOf(() => randomWalkWithRestart(adjacency, [{ id: 'a' }], { alpha: 0 }))).toBe(ErrorCode.InvalidArgument);
    expect(codeOf(() => randomWalkWithRestart(adjacency, [{ id: 'a' }], { allowed: new Uint8Array(2) }))).toBe(ErrorCode.InvalidArgument);
    expect(codeOf(() => randomWalkWithRestart(adjacency, [{ id: 'a' }], { kernel: 'native' as never }))).toBe(ErrorCode.InvalidArgument);
    const other = graphOf(['x'], []);
    expect(codeOf(() => randomWalkWithRestart(adjacency, [{ id: 'a' }], { transitions: weightedTransitions(other) }))).toBe(
      ErrorCode.InvalidArgument,
    );
  });
});

describe('weightedTransitions', () => {
  const adjacency = graphOf(
    ['a', 'b', 'c', 'x'],
    [
      ['a', 'b', 'calls', 'ast_resolved', 0.5],
      ['a', 'c', 'calls', 'lsp_resolved', 0.5],
      ['b', 'c', 'imports'],
      ['c', 'a', 'owned_by'],
      ['c', 'x', 'references'],
    ],
    { x: NodeFlag.External },
  );
  const neighbours = (t: ReturnType<typeof weightedTransitions>, id: string): Record<string, number> => {
    const i = adjacency.indexOf(id);
    const out: Record<string, number> = {};
    for (let e = t.offsets[i]!; e < t.offsets[i + 1]!; e++) out[adjacency.ids[t.neighbors[e]!]!] = t.weights[e]!;
    return out;
  };

  it('weights by edge type, attenuates lsp_resolved edges and leaves out zero weights', () => {
    const t = weightedTransitions(adjacency);
    expect(neighbours(t, 'a')).toEqual({ b: 1, c: expect.closeTo(0.3, 12) });
    expect(neighbours(t, 'c')).toEqual({ a: expect.closeTo(0.3, 12), b: 0.5, x: 0.4 });
    expect(t.totalWeight[adjacency.indexOf('c')]).toBeCloseTo(1.2, 12);
  });

  it('is directed on request, and applies overrides, exclusions, confidence and external skipping', () => {
    expect(neighbours(weightedTransitions(adjacency, { directed: true }), 'c')).toEqual({ x: 0.4 });
    expect(neighbours(weightedTransitions(adjacency, { edgeWeights: { calls: 0.5 }, lspWeight: 1 }), 'a')).toEqual({ b: 0.5, c: 0.5 });
    expect(neighbours(weightedTransitions(adjacency, { excludeEdgeTypes: ['imports'] }), 'b')).toEqual({ a: 1 });
    expect(neighbours(weightedTransitions(adjacency, { useConfidence: true }), 'a')).toEqual({ b: 0.5, c: expect.closeTo(0.15, 12) });
    expect(neighbours(weightedTransitions(adjacency, { traverseExternal: false }), 'c')).toEqual({ a: expect.closeTo(0.3, 12), b: 0.5 });
  });

  it('rejects negative weights', () => {
    expect(() => weightedTransitions(adjacency, { edgeWeights: { calls: -1 } })).toThrow(/edgeWeights.calls/);
  });
});

describe('walkCandidates', () => {
  it('lists reached nodes above the threshold, best first, without externals', () => {
    const adjacency = graphOf(['s', 'a', 'b', 'ext'], [['s', 'a'], ['a', 'b', 'similar_to'], ['s', 'ext', 'references']], {
      ext: NodeFlag.External,
    });
    const result = randomWalkWithRestart(adjacency, [{ id: 's' }], EXACT);
    const all = walkCandidates(adjacency, result, { minScore: 0 });
    expect(all.map((c) => c.id)).toEqual(['s', 'a', 'b']);
    expect(all[0]).toMatchObject({ score: 1, hops: 0 });
    expect(walkCandidates(adjacency, result, { minScore: 0, includeExternal: true }).map((c) => c.id)).toContain('ext');
    expect(walkCandidates(adjacency, result, { minScore: 0, limit: 1 }).map((c) => c.id)).toEqual(['s']);
    const threshold = result.scores[adjacency.indexOf('b')]! + 1e-9;
    expect(walkCandidates(adjacency, result, { minScore: threshold }).map((c) => c.id)).toEqual(['s', 'a']);
  });
});

describe('the walk kernel module', () => {
  it('is stored as the emitter writes it', () => {
    const emitted = Buffer.from(encodeWalkKernel()).toString('base64');
    expect(WALK_KERNEL, `emitted anew; set WALK_KERNEL in src/rwr-kernel.ts to '${emitted}'`).toBe(emitted);
    // And it loads here, so the comparisons above do run it.
    expect(instantiateWalkKernel(1024)).toBeDefined();
  });
});
