import { ErrorCode, KnowingError } from '@knowing/graph';
import type { Adjacency } from '@knowing/graph';
import type { HitsOptions, HitsResult } from './types.js';

/** Defaults of {@link hits}: the original system's values. */
export const DEFAULT_HITS_OPTIONS: Readonly<Required<Pick<HitsOptions, 'limit' | 'iterations'>>> = Object.freeze({
  limit: 200,
  iterations: 10,
});

function invalid(message: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source: 'walk' });
}

function normalizeL2(values: Float64Array): void {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]! * values[i]!;
  if (sum === 0) return;
  const norm = Math.sqrt(sum);
  for (let i = 0; i < values.length; i++) values[i]! /= norm;
}

function selectCandidates(adjacency: Adjacency, candidates: ArrayLike<number>, limit: number, scores: ArrayLike<number> | undefined): Int32Array {
  const seen = new Uint8Array(adjacency.nodeCount);
  const unique: number[] = [];
  for (let c = 0; c < candidates.length; c++) {
    const index = candidates[c]!;
    if (!Number.isInteger(index) || index < 0 || index >= adjacency.nodeCount) {
      throw invalid(`candidate ${index} is outside the adjacency (0..${adjacency.nodeCount - 1})`);
    }
    if (seen[index]) continue;
    seen[index] = 1;
    unique.push(index);
  }
  if (scores) {
    if (scores.length !== adjacency.nodeCount) throw invalid(`scores have ${scores.length} entries for ${adjacency.nodeCount} nodes`);
    // Stable: equal scores keep the caller's order.
    const order = unique.map((index, position) => ({ index, position }));
    order.sort((a, b) => scores[b.index]! - scores[a.index]! || a.position - b.position);
    return Int32Array.from(order.slice(0, limit), (entry) => entry.index);
  }
  return Int32Array.from(unique.slice(0, limit));
}

/**
 * HITS (hubs and authorities) on the subgraph of the best candidates, using the directed
 * edges among them (each linked pair once, self-loops ignored). Each iteration updates
 * authorities from hubs, then hubs from the new authorities, normalising both to unit L2
 * norm. Candidates without edges score 0.
 *
 * @example
 * ```ts
 * const top = walkCandidates(adjacency, walk, { limit: 200 }).map((c) => c.index);
 * const { indices, hub, authority } = hits(adjacency, top);
 * // authority[k] belongs to node indices[k]
 * ```
 */
export function hits(adjacency: Adjacency, candidates: ArrayLike<number>, options: HitsOptions = {}): HitsResult {
  const limit = options.limit ?? DEFAULT_HITS_OPTIONS.limit;
  const iterations = options.iterations ?? DEFAULT_HITS_OPTIONS.iterations;
  if (!(limit >= 0)) throw invalid(`limit must be ≥ 0, got ${limit}`);
  if (!Number.isInteger(iterations) || iterations < 0) throw invalid(`iterations must be an integer ≥ 0, got ${iterations}`);
  const indices = selectCandidates(adjacency, candidates, limit, options.scores);
  const k = indices.length;

  const local = new Map<number, number>();
  for (let c = 0; c < k; c++) local.set(indices[c]!, c);
  // Local directed edge list among the candidates, one entry per linked pair.
  const from: number[] = [];
  const to: number[] = [];
  const pairs = new Set<number>();
  const { outOffsets, outTargets } = adjacency;
  for (let c = 0; c < k; c++) {
    const u = indices[c]!;
    for (let e = outOffsets[u]!; e < outOffsets[u + 1]!; e++) {
      const d = local.get(outTargets[e]!);
      if (d === undefined || d === c) continue;
      const key = c * k + d;
      if (pairs.has(key)) continue;
      pairs.add(key);
      from.push(c);
      to.push(d);
    }
  }
  const edgeFrom = Int32Array.from(from);
  const edgeTo = Int32Array.from(to);

  const hub = new Float64Array(k).fill(k > 0 ? 1 : 0);
  const authority = new Float64Array(k);
  for (let iteration = 0; iteration < iterations; iteration++) {
    authority.fill(0);
    for (let e = 0; e < edgeFrom.length; e++) authority[edgeTo[e]!]! += hub[edgeFrom[e]!]!;
    normalizeL2(authority);
    hub.fill(0);
    for (let e = 0; e < edgeFrom.length; e++) hub[edgeFrom[e]!]! += authority[edgeTo[e]!]!;
    normalizeL2(hub);
  }
  if (iterations === 0) hub.fill(0);
  return { indices, hub, authority };
}
