import { ErrorCode, KnowingError, NodeFlag, PROVENANCES, edgeWeight } from '@knowing/graph';
import type { Adjacency } from '@knowing/graph';
import type { TransitionOptions, WalkTransitions } from './types.js';

/** Defaults of {@link weightedTransitions}: the original system's walk. */
export const DEFAULT_TRANSITION_OPTIONS: Readonly<Required<TransitionOptions>> = Object.freeze({
  edgeWeights: Object.freeze({}),
  lspWeight: 0.3,
  useConfidence: false,
  excludeEdgeTypes: Object.freeze([]),
  directed: false,
  traverseExternal: true,
});

function invalid(message: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source: 'walk' });
}

function checkWeight(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) throw invalid(`${name} must be a finite number ≥ 0, got ${value}`);
}

/** How {@link weightedTransitions} weighs an adjacency's edges: its options, checked, and a weight per edge type. */
export interface EdgeWeighing {
  readonly typeWeights: Float64Array;
  readonly lspWeight: number;
  readonly useConfidence: boolean;
  readonly directed: boolean;
  readonly traverseExternal: boolean;
}

/** The options of {@link weightedTransitions}, checked, with each edge type's weight. */
export function edgeWeighing(adjacency: Adjacency, options: TransitionOptions = {}): EdgeWeighing {
  const lspWeight = options.lspWeight ?? DEFAULT_TRANSITION_OPTIONS.lspWeight;
  const useConfidence = options.useConfidence ?? DEFAULT_TRANSITION_OPTIONS.useConfidence;
  const directed = options.directed ?? DEFAULT_TRANSITION_OPTIONS.directed;
  const traverseExternal = options.traverseExternal ?? DEFAULT_TRANSITION_OPTIONS.traverseExternal;
  const overrides = options.edgeWeights ?? DEFAULT_TRANSITION_OPTIONS.edgeWeights;
  const excluded = new Set(options.excludeEdgeTypes ?? DEFAULT_TRANSITION_OPTIONS.excludeEdgeTypes);
  checkWeight('lspWeight', lspWeight);
  for (const [type, weight] of Object.entries(overrides)) checkWeight(`edgeWeights.${type}`, weight);
  const typeWeights = new Float64Array(adjacency.typeNames.length);
  for (let t = 0; t < adjacency.typeNames.length; t++) {
    const name = adjacency.typeNames[t]!;
    typeWeights[t] = excluded.has(name) ? 0 : edgeWeight(name, overrides);
  }
  return { typeWeights, lspWeight, useConfidence, directed, traverseExternal };
}

/** The provenance index whose edges weigh `lspWeight` times their type's weight. */
export const LSP_PROVENANCE_INDEX = PROVENANCES.indexOf('lsp_resolved');

/**
 * Turn an adjacency into walk weights: the edge type's weight (`edgeWeight`, with overrides),
 * × `lspWeight` for `lsp_resolved` edges, × confidence when asked. Undirected by default: each
 * edge a→b appears in the neighbour lists of both a and b with the same weight. Edges of
 * weight 0, and edges touching external nodes when `traverseExternal` is false, are left out.
 *
 * @example
 * ```ts
 * const transitions = weightedTransitions(adjacency, { lspWeight: 0.5 });
 * const result = randomWalkWithRestart(adjacency, [{ id: seedId }], { transitions });
 * ```
 */
export function weightedTransitions(adjacency: Adjacency, options: TransitionOptions = {}): WalkTransitions {
  const { typeWeights, lspWeight, useConfidence, directed, traverseExternal } = edgeWeighing(adjacency, options);

  const n = adjacency.nodeCount;
  const m = adjacency.edgeCount;
  const { outOffsets, outTargets, outTypes, outProvenance, outConfidence, nodeFlags } = adjacency;
  const edgeWeights = new Float64Array(m);
  for (let source = 0; source < n; source++) {
    const sourceBlocked = !traverseExternal && (nodeFlags[source]! & NodeFlag.External) !== 0;
    for (let e = outOffsets[source]!; e < outOffsets[source + 1]!; e++) {
      if (sourceBlocked || (!traverseExternal && (nodeFlags[outTargets[e]!]! & NodeFlag.External) !== 0)) continue;
      let w = typeWeights[outTypes[e]!]!;
      if (w === 0) continue;
      if (outProvenance[e] === LSP_PROVENANCE_INDEX) w *= lspWeight;
      if (useConfidence) {
        const c = outConfidence[e]!;
        w *= Number.isFinite(c) && c > 0 ? c : 0;
      }
      edgeWeights[e] = w;
    }
  }

  // Count walkable entries per node: out-edges always, in-edges too when undirected
  // (a self-loop is listed once).
  const offsets = new Int32Array(n + 1);
  for (let source = 0; source < n; source++) {
    for (let e = outOffsets[source]!; e < outOffsets[source + 1]!; e++) {
      if (edgeWeights[e] === 0) continue;
      offsets[source + 1]!++;
      const target = outTargets[e]!;
      if (!directed && target !== source) offsets[target + 1]!++;
    }
  }
  for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
  const size = offsets[n]!;
  const neighbors = new Int32Array(size);
  const weights = new Float64Array(size);
  const totalWeight = new Float64Array(n);
  const cursor = offsets.slice(0, n);
  for (let source = 0; source < n; source++) {
    for (let e = outOffsets[source]!; e < outOffsets[source + 1]!; e++) {
      const w = edgeWeights[e]!;
      if (w === 0) continue;
      const target = outTargets[e]!;
      let slot = cursor[source]!++;
      neighbors[slot] = target;
      weights[slot] = w;
      totalWeight[source]! += w;
      if (!directed && target !== source) {
        slot = cursor[target]!++;
        neighbors[slot] = source;
        weights[slot] = w;
        totalWeight[target]! += w;
      }
    }
  }
  return { nodeCount: n, directed, edgeWeights, offsets, neighbors, weights, totalWeight };
}

const memoised = new WeakMap<Adjacency, Map<string, WalkTransitions>>();

/** Transitions of an adjacency weighed with `options`, computed once per adjacency object and options. */
export function transitionsFor(adjacency: Adjacency, options: TransitionOptions = {}): WalkTransitions {
  const key = JSON.stringify([
    Object.entries(options.edgeWeights ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    options.lspWeight,
    options.useConfidence,
    options.excludeEdgeTypes === undefined ? undefined : [...options.excludeEdgeTypes].sort(),
    options.directed,
    options.traverseExternal,
  ]);
  let byKey = memoised.get(adjacency);
  if (!byKey) memoised.set(adjacency, (byKey = new Map()));
  let transitions = byKey.get(key);
  if (!transitions) {
    transitions = weightedTransitions(adjacency, options);
    byKey.set(key, transitions);
  }
  return transitions;
}

/** The transitions to use for a walk, checked against the adjacency. */
export function resolveTransitions(adjacency: Adjacency, transitions: WalkTransitions | undefined): WalkTransitions {
  if (!transitions) return transitionsFor(adjacency);
  if (transitions.nodeCount !== adjacency.nodeCount || transitions.edgeWeights.length !== adjacency.edgeCount) {
    throw invalid(
      `transitions were computed for ${transitions.nodeCount} nodes / ${transitions.edgeWeights.length} edges, ` +
        `the adjacency has ${adjacency.nodeCount} / ${adjacency.edgeCount}; compute them from this adjacency`,
    );
  }
  return transitions;
}
