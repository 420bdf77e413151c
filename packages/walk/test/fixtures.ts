import { buildAdjacency, isKnowingError } from '@knowing/graph';
import type { Adjacency, AdjacencyEdge, Provenance } from '@knowing/graph';

export type EdgeSpec = readonly [source: string, target: string, type?: string, provenance?: Provenance, confidence?: number];

/** An adjacency over named nodes; edges default to `calls`, `ast_resolved`, confidence 1. */
export function graphOf(nodes: readonly string[], edges: readonly EdgeSpec[], flags: Readonly<Record<string, number>> = {}): Adjacency {
  return buildAdjacency(
    nodes.map((id) => ({ id, flags: flags[id] ?? 0 })),
    edges.map(
      ([source, target, type = 'calls', provenance = 'ast_resolved', confidence = 1]): AdjacencyEdge => ({ source, target, type, provenance, confidence }),
    ),
  );
}

/** Deterministic pseudo-random numbers for generated test graphs. */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

export interface DenseEdge {
  readonly source: number;
  readonly target: number;
  readonly weight: number;
}

/**
 * Reference random walk with restart on a dense matrix, iterated far past convergence.
 * `deadEnds` says where the mass of nodes without edges goes: back to the seeds in proportion
 * to their weights, uniformly over the seeds, or nowhere.
 */
export function denseRwr(
  n: number,
  edges: readonly DenseEdge[],
  seeds: ReadonlyMap<number, number>,
  options: { alpha: number; directed: boolean; deadEnds?: 'weighted' | 'uniform' | 'drop'; iterations?: number },
): number[] {
  const w: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (const { source, target, weight } of edges) {
    w[source]![target]! += weight;
    if (!options.directed && source !== target) w[target]![source]! += weight;
  }
  let seedTotal = 0;
  for (const weight of seeds.values()) seedTotal += weight;
  const restart = new Array<number>(n).fill(0);
  const uniform = new Array<number>(n).fill(0);
  for (const [index, weight] of seeds) {
    restart[index] = weight / seedTotal;
    uniform[index] = 1 / seeds.size;
  }
  const deadTarget = options.deadEnds === 'uniform' ? uniform : restart;
  let x = [...restart];
  for (let iteration = 0; iteration < (options.iterations ?? 5000); iteration++) {
    const next = restart.map((r) => options.alpha * r);
    for (let u = 0; u < n; u++) {
      const rowSum = w[u]!.reduce((a, b) => a + b, 0);
      if (rowSum === 0) {
        if (options.deadEnds !== 'drop') for (let v = 0; v < n; v++) next[v]! += (1 - options.alpha) * x[u]! * deadTarget[v]!;
        continue;
      }
      for (let v = 0; v < n; v++) next[v]! += (1 - options.alpha) * x[u]! * (w[u]![v]! / rowSum);
    }
    x = next;
  }
  const max = Math.max(...x);
  return x.map((value) => value / max);
}

/** Options that make the walk an exact solver: no early stops, no thresholds, no hop limit. */
export const EXACT = Object.freeze({
  tolerance: 1e-14,
  maxIterations: 5000,
  topKStableIterations: 0,
  minPropagationMass: 0,
  maxHops: Number.POSITIVE_INFINITY,
});

/** The KnowingError code `fn` throws ('other' for any other error), or undefined when it returns. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isKnowingError(error) ? error.code : 'other';
  }
  return undefined;
}
