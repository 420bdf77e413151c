import { ErrorCode, KnowingError, NodeFlag } from '@knowing/graph';
import type { Adjacency, NodeId } from '@knowing/graph';
import { KernelLayout } from '@knowing/graph/wasm';
import { KERNEL_STOP, instantiateWalkKernel } from './rwr-kernel.js';
import { LSP_PROVENANCE_INDEX, edgeWeighing, resolveTransitions, transitionsFor } from './transitions.js';
import type { EdgeWeighing } from './transitions.js';
import type { CandidateOptions, TransitionOptions, WalkCandidate, WalkOptions, WalkResult, WalkSeed, WalkStopReason, WalkTransitions } from './types.js';

/** Defaults of {@link randomWalkWithRestart}: the original system's values. */
export const DEFAULT_WALK_OPTIONS: Readonly<Required<Omit<WalkOptions, 'allowed' | 'transitions' | 'weighting' | 'kernel'>>> = Object.freeze({
  alpha: 0.2,
  maxIterations: 20,
  tolerance: 0.001,
  topK: 10,
  topKStableIterations: 2,
  minPropagationMass: 1e-4,
  maxHops: 4,
  hubDampeningThreshold: 0,
});

/** Defaults of {@link walkCandidates}. */
export const DEFAULT_CANDIDATE_OPTIONS: Readonly<Required<CandidateOptions>> = Object.freeze({
  minScore: 0.02,
  includeExternal: false,
  limit: Number.POSITIVE_INFINITY,
});

function invalid(message: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source: 'walk' });
}

function checkRange(name: string, value: number, min: number, max: number, integer = false): void {
  if (Number.isNaN(value) || value < min || value > max || (integer && Number.isFinite(value) && !Number.isInteger(value))) {
    throw invalid(`${name} must be ${integer ? 'an integer ' : ''}in [${min}, ${max}], got ${value}`);
  }
}

interface ResolvedSeeds {
  readonly indices: Int32Array;
  /** Restart probability per seed, summing to 1. */
  readonly probabilities: Float64Array;
  readonly unknown: NodeId[];
}

function resolveSeeds(adjacency: Adjacency, seeds: readonly WalkSeed[]): ResolvedSeeds {
  const weightByIndex = new Map<number, number>();
  const unknown: NodeId[] = [];
  for (const seed of seeds) {
    const weight = seed.weight ?? 1;
    if (!Number.isFinite(weight) || weight < 0) throw invalid(`seed weight must be a finite number ≥ 0, got ${weight}`);
    let index: number;
    if ('index' in seed) {
      index = seed.index;
      if (!Number.isInteger(index) || index < 0 || index >= adjacency.nodeCount) {
        throw invalid(`seed index ${index} is outside the adjacency (0..${adjacency.nodeCount - 1})`);
      }
    } else {
      index = adjacency.indexOf(seed.id);
      if (index < 0) {
        unknown.push(seed.id);
        continue;
      }
    }
    if (weight === 0) continue;
    weightByIndex.set(index, (weightByIndex.get(index) ?? 0) + weight);
  }
  // Ascending index order keeps results independent of the order seeds were listed in.
  const indices = Int32Array.from([...weightByIndex.keys()].sort((a, b) => a - b));
  const probabilities = new Float64Array(indices.length);
  let total = 0;
  for (let s = 0; s < indices.length; s++) total += weightByIndex.get(indices[s]!)!;
  for (let s = 0; s < indices.length; s++) probabilities[s] = weightByIndex.get(indices[s]!)! / total;
  return { indices, probabilities, unknown };
}

/**
 * Fill `outIndex`/`outValue` with the `k` active nodes of highest mass (ties: lower index
 * first), best first; returns how many were found (nodes without mass are never included).
 */
function topKOf(
  mass: Float64Array,
  active: Int32Array,
  activeCount: number,
  k: number,
  outIndex: Int32Array,
  outValue: Float64Array,
): number {
  let count = 0;
  for (let a = 0; a < activeCount; a++) {
    const node = active[a]!;
    const value = mass[node]!;
    if (value <= 0) continue;
    if (count === k) {
      const lastValue = outValue[k - 1]!;
      if (value < lastValue || (value === lastValue && node > outIndex[k - 1]!)) continue;
    } else {
      count++;
    }
    let slot = count - 1;
    while (slot > 0) {
      const previousValue = outValue[slot - 1]!;
      if (previousValue > value || (previousValue === value && outIndex[slot - 1]! < node)) break;
      outIndex[slot] = outIndex[slot - 1]!;
      outValue[slot] = previousValue;
      slot--;
    }
    outIndex[slot] = node;
    outValue[slot] = value;
  }
  return count;
}

function sameSet(a: Int32Array, b: Int32Array, count: number): boolean {
  for (let i = 0; i < count; i++) if (a[i] !== b[i]) return false;
  return true;
}

type ResolvedWalkOptions = Readonly<Required<Omit<WalkOptions, 'allowed' | 'transitions' | 'weighting' | 'kernel'>>> & Pick<WalkOptions, 'allowed'>;

function resolveWalkOptions(options: WalkOptions, nodeCount: number): ResolvedWalkOptions {
  const resolved = {
    alpha: options.alpha ?? DEFAULT_WALK_OPTIONS.alpha,
    maxIterations: options.maxIterations ?? DEFAULT_WALK_OPTIONS.maxIterations,
    tolerance: options.tolerance ?? DEFAULT_WALK_OPTIONS.tolerance,
    topK: options.topK ?? DEFAULT_WALK_OPTIONS.topK,
    topKStableIterations: options.topKStableIterations ?? DEFAULT_WALK_OPTIONS.topKStableIterations,
    minPropagationMass: options.minPropagationMass ?? DEFAULT_WALK_OPTIONS.minPropagationMass,
    maxHops: options.maxHops ?? DEFAULT_WALK_OPTIONS.maxHops,
    hubDampeningThreshold: options.hubDampeningThreshold ?? DEFAULT_WALK_OPTIONS.hubDampeningThreshold,
    allowed: options.allowed,
  };
  checkRange('alpha', resolved.alpha, Number.MIN_VALUE, 1);
  checkRange('maxIterations', resolved.maxIterations, 0, Number.MAX_SAFE_INTEGER, true);
  checkRange('tolerance', resolved.tolerance, 0, Number.POSITIVE_INFINITY);
  checkRange('topK', resolved.topK, 1, Number.MAX_SAFE_INTEGER, true);
  checkRange('topKStableIterations', resolved.topKStableIterations, 0, Number.MAX_SAFE_INTEGER, true);
  checkRange('minPropagationMass', resolved.minPropagationMass, 0, 1);
  checkRange('maxHops', resolved.maxHops, 0, Number.POSITIVE_INFINITY);
  checkRange('hubDampeningThreshold', resolved.hubDampeningThreshold, 0, Number.POSITIVE_INFINITY);
  const { allowed } = resolved;
  if (allowed && allowed.length !== nodeCount) throw invalid(`allowed has ${allowed.length} entries for ${nodeCount} nodes`);
  if (options.kernel !== undefined && options.kernel !== 'webassembly' && options.kernel !== 'typescript') {
    throw invalid(`kernel must be 'webassembly' or 'typescript', got ${JSON.stringify(options.kernel)}`);
  }
  return resolved;
}

interface Coverage {
  /** The covered nodes in discovery order; only the first `count` entries are used. */
  readonly active: Int32Array;
  readonly count: number;
}

/**
 * Breadth-first search from the seeds: fills `hops` with hop distances and lists the nodes the
 * walk covers (`hops[v] >= 0` marks them).
 */
function coverFromSeeds(
  transitions: Pick<WalkTransitions, 'offsets' | 'neighbors'>,
  seedIndices: Int32Array,
  hops: Int32Array,
  maxHops: number,
  allowed: WalkOptions['allowed'],
): Coverage {
  const { offsets, neighbors } = transitions;
  const active = new Int32Array(hops.length);
  let count = 0;
  for (let s = 0; s < seedIndices.length; s++) {
    const seed = seedIndices[s]!;
    hops[seed] = 0;
    active[count++] = seed;
  }
  for (let head = 0; head < count; head++) {
    const u = active[head]!;
    const nextHop = hops[u]! + 1;
    if (nextHop > maxHops) continue;
    for (let e = offsets[u]!, end = offsets[u + 1]!; e < end; e++) {
      const v = neighbors[e]!;
      if (hops[v] !== -1 || (allowed !== undefined && allowed[v] === 0)) continue;
      hops[v] = nextHop;
      active[count++] = v;
    }
  }
  return { active, count };
}

/** Hub dampening (when on), then division by the maximum: scores in place. */
function normalizeScores(scores: Float64Array, coverage: Coverage, inOffsets: Adjacency['inOffsets'], hubThreshold: number): void {
  const { active, count } = coverage;
  if (hubThreshold > 0) {
    for (let a = 0; a < count; a++) {
      const u = active[a]!;
      const degree = inOffsets[u + 1]! - inOffsets[u]!;
      if (degree > hubThreshold) scores[u]! /= Math.sqrt(degree / hubThreshold);
    }
  }
  let max = 0;
  for (let a = 0; a < count; a++) {
    const value = scores[active[a]!]!;
    if (value > max) max = value;
  }
  if (max > 0) for (let a = 0; a < count; a++) scores[active[a]!]! /= max;
}

/**
 * Random walk with restart from weighted seeds. At each step a node keeps nothing: a share
 * `alpha` of all mass jumps back to the seeds (in proportion to seed weights) and the rest
 * moves to neighbours in proportion to edge weight. Nodes without walkable edges (dead ends)
 * send their moving mass back to the seeds too. The walk covers the nodes within `maxHops` of
 * a seed (and in `allowed`, when given); it stops when the L1 change falls below
 * `tolerance`, when the top-K set is stable, or after `maxIterations`.
 *
 * Scores are divided by their maximum (after hub dampening, when on).
 *
 * @example
 * ```ts
 * const { scores, hops } = randomWalkWithRestart(adjacency, [
 *   { id: seedA, weight: 1 },
 *   { id: seedB, weight: 0.5 },
 * ]);
 * const best = walkCandidates(adjacency, { scores, hops }, { limit: 200 });
 * ```
 */
export function randomWalkWithRestart(adjacency: Adjacency, seeds: readonly WalkSeed[], options: WalkOptions = {}): WalkResult {
  const n = adjacency.nodeCount;
  const {
    alpha,
    maxIterations,
    tolerance,
    topK,
    maxHops,
    allowed,
    topKStableIterations: stableNeeded,
    minPropagationMass: minMass,
    hubDampeningThreshold: hubThreshold,
  } = resolveWalkOptions(options, n);
  const given = options.transitions === undefined ? undefined : resolveTransitions(adjacency, options.transitions);

  const seedSet = resolveSeeds(adjacency, seeds);
  const seedCount = seedSet.indices.length;
  const hops = new Int32Array(n).fill(-1);
  if (seedCount === 0) {
    return {
      scores: new Float64Array(n),
      hops,
      iterations: 0,
      stopReason: 'no-seeds',
      residual: 0,
      activeCount: 0,
      unknownSeeds: seedSet.unknown,
    };
  }
  if (options.kernel !== 'typescript') {
    const walked = walkInKernel(given ?? kernelWeighing(adjacency, options.weighting) ?? transitionsFor(adjacency, options.weighting), seedSet, { alpha, maxIterations, tolerance, topK, maxHops, allowed, stableNeeded, minMass });
    if (walked) {
      normalizeScores(walked.scores, walked.coverage, adjacency.inOffsets, hubThreshold);
      return {
        scores: walked.scores,
        hops: walked.hops,
        iterations: walked.iterations,
        stopReason: walked.stopReason,
        residual: walked.iterations === 0 ? 0 : walked.residual,
        activeCount: walked.coverage.count,
        unknownSeeds: seedSet.unknown,
      };
    }
  }
  const transitions = given ?? transitionsFor(adjacency, options.weighting);
  const { offsets, neighbors, weights } = transitions;
  const coverage = coverFromSeeds(transitions, seedSet.indices, hops, maxHops, allowed);
  const { active, count: activeCount } = coverage;

  // Each node splits its moving mass over the neighbours inside the walk only:
  // share[u] = (1 − alpha) / (their total weight), or 0 for a dead end. Computed the first time
  // u propagates (-1 until then): with the mass threshold most covered nodes never do.
  const share = new Float64Array(n).fill(-1);

  let current = new Float64Array(n);
  let next = new Float64Array(n);
  for (let s = 0; s < seedCount; s++) current[seedSet.indices[s]!] = seedSet.probabilities[s]!;

  const trackTopK = stableNeeded > 0 && activeCount > topK;
  let topIndex = new Int32Array(topK);
  let previousTop = new Int32Array(topK);
  const topValue = new Float64Array(topK);
  let previousTopCount = -1;
  let stableFor = 0;

  let iterations = 0;
  let residual = Number.POSITIVE_INFINITY;
  let stopReason: WalkStopReason = 'max-iterations';
  while (iterations < maxIterations) {
    iterations++;
    for (let a = 0; a < activeCount; a++) next[active[a]!] = 0;
    let deadMass = 0;
    for (let a = 0; a < activeCount; a++) {
      const u = active[a]!;
      const mass = current[u]!;
      if (mass === 0 || mass < minMass) continue;
      let perWeight = share[u]!;
      if (perWeight < 0) {
        let total = 0;
        for (let e = offsets[u]!, end = offsets[u + 1]!; e < end; e++) if (hops[neighbors[e]!]! >= 0) total += weights[e]!;
        perWeight = total > 0 ? (1 - alpha) / total : 0;
        share[u] = perWeight;
      }
      if (perWeight === 0) {
        deadMass += mass;
        continue;
      }
      const moving = mass * perWeight;
      for (let e = offsets[u]!, end = offsets[u + 1]!; e < end; e++) {
        const v = neighbors[e]!;
        if (hops[v]! >= 0) next[v]! += moving * weights[e]!;
      }
    }
    const toSeeds = alpha + (1 - alpha) * deadMass;
    for (let s = 0; s < seedCount; s++) next[seedSet.indices[s]!]! += toSeeds * seedSet.probabilities[s]!;

    residual = 0;
    for (let a = 0; a < activeCount; a++) {
      const u = active[a]!;
      residual += Math.abs(next[u]! - current[u]!);
    }
    const swap = current;
    current = next;
    next = swap;

    if (residual < tolerance) {
      stopReason = 'converged';
      break;
    }
    if (trackTopK) {
      const count = topKOf(current, active, activeCount, topK, topIndex, topValue);
      topIndex.subarray(0, count).sort();
      if (count === previousTopCount && sameSet(topIndex, previousTop, count)) stableFor++;
      else stableFor = 0;
      previousTopCount = count;
      const swapTop = previousTop;
      previousTop = topIndex;
      topIndex = swapTop;
      if (stableFor >= stableNeeded) {
        stopReason = 'top-k-stable';
        break;
      }
    }
  }

  const scores = current;
  normalizeScores(scores, coverage, adjacency.inOffsets, hubThreshold);
  return {
    scores,
    hops,
    iterations,
    stopReason,
    residual: iterations === 0 ? 0 : residual,
    activeCount,
    unknownSeeds: seedSet.unknown,
  };
}

interface KernelSettings {
  readonly alpha: number;
  readonly maxIterations: number;
  readonly tolerance: number;
  readonly topK: number;
  readonly maxHops: number;
  readonly allowed: Uint8Array | undefined;
  readonly stableNeeded: number;
  readonly minMass: number;
}

interface KernelWalk {
  readonly scores: Float64Array;
  readonly hops: Int32Array;
  readonly coverage: Coverage;
  readonly iterations: number;
  readonly stopReason: WalkStopReason;
  readonly residual: number;
}

const I32_MAX = 2 ** 31 - 1;

/** An adjacency the kernel weighs itself (see {@link kernelWeighing}). */
interface KernelEdges {
  readonly adjacency: Adjacency;
  readonly weighing: EdgeWeighing;
}

/**
 * The weighing of `options` when the kernel can do it (no confidence, external nodes walked), so
 * that the walk's memory is filled from the adjacency: no transitions to build or read first.
 */
function kernelWeighing(adjacency: Adjacency, options: TransitionOptions | undefined): KernelEdges | undefined {
  const weighing = edgeWeighing(adjacency, options);
  return weighing.useConfidence || !weighing.traverseExternal ? undefined : { adjacency, weighing };
}

/**
 * The cover and the iterations in the WebAssembly kernel (`rwr-kernel.ts`), over a memory
 * holding copies of the transitions, or the transitions the kernel weighed there from the
 * adjacency; undefined where it cannot run (no WebAssembly, a graph past 32-bit addresses), and
 * the TypeScript loops below run instead.
 */
function walkInKernel(edges: WalkTransitions | KernelEdges, seedSet: ResolvedSeeds, settings: KernelSettings): KernelWalk | undefined {
  const weighed = 'weighing' in edges ? edges : undefined;
  const transitions = 'weighing' in edges ? undefined : edges;
  const n = weighed ? weighed.adjacency.nodeCount : transitions!.nodeCount;
  const edgeCount = weighed ? weighed.adjacency.edgeCount : 0;
  // Weighed here: room for every edge at both ends; pages never written cost nothing.
  const m = weighed ? (weighed.weighing.directed ? 1 : 2) * edgeCount : transitions!.neighbors.length;
  const typeCount = weighed ? weighed.weighing.typeWeights.length : 0;
  const seedCount = seedSet.indices.length;
  const topSlots = Math.min(settings.topK, n) + 1;
  const layout = new KernelLayout();
  const at = {
    offsets: layout.take(4 * (n + 1)),
    neighbors: layout.take(4 * m),
    weights: layout.take(8 * m),
    hops: layout.take(4 * n),
    active: layout.take(4 * n),
    share: layout.take(8 * n),
    current: layout.take(8 * n),
    next: layout.take(8 * n),
    seeds: layout.take(4 * seedCount),
    probabilities: layout.take(8 * seedCount),
    topIndex: layout.take(4 * topSlots),
    previousTop: layout.take(4 * topSlots),
    topValue: layout.take(8 * topSlots),
    allowed: layout.take(n),
    out: layout.take(24),
    outOffsets: layout.take(weighed ? 4 * (n + 1) : 0),
    outTargets: layout.take(4 * edgeCount),
    outTypes: layout.take(edgeCount),
    outProvenance: layout.take(edgeCount),
    typeWeights: layout.take(8 * typeCount),
    cursor: layout.take(weighed ? 4 * n : 0),
  };
  const kernel = instantiateWalkKernel(layout.bytes);
  if (!kernel) return undefined;
  const buffer = kernel.memory.buffer;
  if (weighed) {
    const { adjacency, weighing } = weighed;
    new Int32Array(buffer, at.outOffsets, n + 1).set(adjacency.outOffsets.subarray(0, n + 1));
    new Int32Array(buffer, at.outTargets, edgeCount).set(adjacency.outTargets.subarray(0, edgeCount));
    new Uint8Array(buffer, at.outTypes, edgeCount).set(adjacency.outTypes.subarray(0, edgeCount));
    new Uint8Array(buffer, at.outProvenance, edgeCount).set(adjacency.outProvenance.subarray(0, edgeCount));
    new Float64Array(buffer, at.typeWeights, typeCount).set(weighing.typeWeights);
    kernel.weigh(
      at.outOffsets,
      at.outTargets,
      at.outTypes,
      at.outProvenance,
      at.typeWeights,
      n,
      LSP_PROVENANCE_INDEX,
      weighing.lspWeight,
      weighing.directed ? 1 : 0,
      at.offsets,
      at.neighbors,
      at.weights,
      at.cursor,
    );
  } else {
    new Int32Array(buffer, at.offsets, n + 1).set(transitions!.offsets);
    new Int32Array(buffer, at.neighbors, m).set(transitions!.neighbors);
    new Float64Array(buffer, at.weights, m).set(transitions!.weights);
  }
  const hops = new Int32Array(buffer, at.hops, n).fill(-1);
  const active = new Int32Array(buffer, at.active, n);
  new Float64Array(buffer, at.share, n).fill(-1);
  const current = new Float64Array(buffer, at.current, n);
  new Int32Array(buffer, at.seeds, seedCount).set(seedSet.indices);
  new Float64Array(buffer, at.probabilities, seedCount).set(seedSet.probabilities);
  for (let s = 0; s < seedCount; s++) {
    const seed = seedSet.indices[s]!;
    hops[seed] = 0;
    active[s] = seed;
    current[seed] = seedSet.probabilities[s]!;
  }
  if (settings.allowed) new Uint8Array(buffer, at.allowed, n).set(settings.allowed);
  const count = kernel.cover(at.offsets, at.neighbors, at.hops, settings.allowed ? at.allowed : 0, at.active, seedCount, Math.min(Math.floor(settings.maxHops), I32_MAX));
  const trackTopK = settings.stableNeeded > 0 && count > settings.topK;
  const iterations = kernel.iterate(
    at.offsets,
    at.neighbors,
    at.weights,
    at.hops,
    at.active,
    count,
    at.share,
    at.current,
    at.next,
    at.seeds,
    at.probabilities,
    seedCount,
    at.topIndex,
    at.previousTop,
    at.topValue,
    Math.min(settings.topK, I32_MAX),
    Math.min(settings.stableNeeded, I32_MAX),
    trackTopK ? 1 : 0,
    Math.min(settings.maxIterations, I32_MAX),
    settings.alpha,
    settings.tolerance,
    settings.minMass,
    at.out,
  );
  const out = new DataView(buffer, at.out, 24);
  return {
    scores: new Float64Array(buffer, out.getInt32(16, true), n).slice(),
    hops: hops.slice(),
    coverage: { active: active.slice(0, count), count },
    iterations,
    stopReason: KERNEL_STOP[out.getInt32(4, true)]!,
    residual: out.getFloat64(8, true),
  };
}

/**
 * The nodes a walk reached, best first: score at least `minScore`, external placeholders left
 * out unless asked for. Ties go to the lower node index.
 *
 * @example
 * ```ts
 * const result = randomWalkWithRestart(adjacency, seeds);
 * for (const { id, score, hops } of walkCandidates(adjacency, result, { limit: 200 })) {
 *   // rank them
 * }
 * ```
 */
export function walkCandidates(
  adjacency: Adjacency,
  result: Pick<WalkResult, 'scores' | 'hops'>,
  options: CandidateOptions = {},
): WalkCandidate[] {
  const minScore = options.minScore ?? DEFAULT_CANDIDATE_OPTIONS.minScore;
  const includeExternal = options.includeExternal ?? DEFAULT_CANDIDATE_OPTIONS.includeExternal;
  const limit = options.limit ?? DEFAULT_CANDIDATE_OPTIONS.limit;
  checkRange('limit', limit, 0, Number.POSITIVE_INFINITY);
  const { scores, hops } = result;
  if (scores.length !== adjacency.nodeCount) throw invalid(`scores have ${scores.length} entries for ${adjacency.nodeCount} nodes`);
  const picked: number[] = [];
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i]!;
    if (score <= 0 || score < minScore) continue;
    if (!includeExternal && (adjacency.nodeFlags[i]! & NodeFlag.External) !== 0) continue;
    picked.push(i);
  }
  picked.sort((a, b) => scores[b]! - scores[a]! || a - b);
  if (picked.length > limit) picked.length = limit;
  return picked.map((index) => ({ index, id: adjacency.ids[index]!, score: scores[index]!, hops: hops[index]! }));
}
