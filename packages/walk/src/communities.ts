import { createRequire } from 'node:module';
import type { UndirectedGraph } from 'graphology';
import type louvain from 'graphology-communities-louvain';
import { createHash } from 'node:crypto';
import { ErrorCode, KnowingError, NodeFlag, adjacencyIdBytes, sha256Hex } from '@knowing/graph';
import type { Adjacency } from '@knowing/graph';
import { resolveTransitions } from './transitions.js';
import type { Communities, CommunityOptions, DeserializeCommunitiesOptions, RestrictionOptions } from './types.js';

/** Defaults of {@link detectCommunities}. */
export const DEFAULT_COMMUNITY_OPTIONS: Readonly<Required<Pick<CommunityOptions, 'resolution' | 'seed'>>> = Object.freeze({
  resolution: 1,
  seed: 42,
});

/** Defaults of {@link communityRestriction}. */
export const DEFAULT_RESTRICTION_OPTIONS: Readonly<Required<RestrictionOptions>> = Object.freeze({
  includeUnassigned: false,
});

/** Version of the layout written by {@link serializeCommunities}. */
export const COMMUNITIES_FORMAT_VERSION = 1;

function invalid(message: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source: 'walk' });
}

const require = createRequire(import.meta.url);
type LouvainModules = { readonly UndirectedGraph: typeof UndirectedGraph; readonly louvain: typeof louvain };
let louvainLoaded: LouvainModules | undefined;

/**
 * Where a bundle that holds graphology itself hands its copy over: a function on `globalThis`
 * under this symbol, returning the two modules. The CLI's code-cached bundle does (its modules
 * then load compiled from the cache); a require from here would read and compile them afresh.
 */
const BUNDLED_LOUVAIN_MODULES = Symbol.for('@knowing/walk:louvain-modules');

/**
 * graphology and its Louvain, loaded on the first detection: they take longer to load than a
 * query that reads its communities from the index takes to run, and only a detection uses them.
 */
function louvainModules(): LouvainModules {
  const bundled = (globalThis as { [BUNDLED_LOUVAIN_MODULES]?: () => LouvainModules })[BUNDLED_LOUVAIN_MODULES];
  louvainLoaded ??= bundled?.() ?? {
    UndirectedGraph: (require('graphology') as typeof import('graphology')).UndirectedGraph,
    louvain: require('graphology-communities-louvain') as typeof louvain,
  };
  return louvainLoaded;
}

/** A small deterministic PRNG (mulberry32) so Louvain's random choices are reproducible. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fingerprints = new WeakMap<Adjacency, string>();

/**
 * Hex digest of an adjacency's node ids in index order (memoised per adjacency), so data
 * computed per node index can be checked against the adjacency it is used with.
 *
 * @example
 * ```ts
 * adjacencyFingerprint(loaded) === communities.fingerprint; // same node order
 * ```
 */
export function adjacencyFingerprint(adjacency: Adjacency): string {
  let fingerprint = fingerprints.get(adjacency);
  if (fingerprint === undefined) {
    // The bytes the ids were decoded from hash the same as the joined ids, without joining them.
    const idBytes = adjacencyIdBytes(adjacency);
    fingerprint = idBytes ? createHash('sha256').update('ids\0').update(idBytes).digest('hex') : sha256Hex(`ids\0${adjacency.ids.join('\n')}`);
    fingerprints.set(adjacency, fingerprint);
  }
  return fingerprint;
}

/**
 * Louvain communities of the undirected, weighted graph: edge weights are the walk weights
 * (parallel edges and both directions add up), external nodes and weight-0 edges are left
 * out. Deterministic for a given adjacency and `seed`. Community ids are renumbered from 0 in
 * order of their lowest node index.
 *
 * @example
 * ```ts
 * const found = detectCommunities(adjacency);
 * await notes.putNote('communities', 'communities', serializeCommunities(found), snapshotId);
 * const allowed = communityRestriction(found, seedIndices);
 * randomWalkWithRestart(adjacency, seeds, { allowed });
 * ```
 */
export function detectCommunities(adjacency: Adjacency, options: CommunityOptions = {}): Communities {
  const resolution = options.resolution ?? DEFAULT_COMMUNITY_OPTIONS.resolution;
  const seed = options.seed ?? DEFAULT_COMMUNITY_OPTIONS.seed;
  if (!(resolution > 0) || !Number.isFinite(resolution)) throw invalid(`resolution must be a finite number > 0, got ${resolution}`);
  if (!Number.isFinite(seed)) throw invalid(`seed must be a finite number, got ${seed}`);
  const transitions = resolveTransitions(adjacency, options.transitions);
  const n = adjacency.nodeCount;
  const { nodeFlags, outOffsets, outTargets } = adjacency;
  const { edgeWeights } = transitions;

  const skipped = (i: number): boolean => (nodeFlags[i]! & NodeFlag.External) !== 0;
  // Sum parallel edges and both directions per unordered pair first: one graphology edge each.
  const pairWeights = new Map<number, number>();
  for (let source = 0; source < n; source++) {
    if (skipped(source)) continue;
    for (let e = outOffsets[source]!; e < outOffsets[source + 1]!; e++) {
      const target = outTargets[e]!;
      const weight = edgeWeights[e]!;
      if (weight === 0 || target === source || skipped(target)) continue;
      const key = source < target ? source * n + target : target * n + source;
      pairWeights.set(key, (pairWeights.get(key) ?? 0) + weight);
    }
  }
  const { UndirectedGraph, louvain } = louvainModules();
  const graph = new UndirectedGraph<Record<string, never>, { weight: number }>();
  const keys: string[] = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    if (skipped(i)) continue;
    keys[i] = String(i);
    graph.addNode(keys[i]!);
  }
  for (const [pair, weight] of pairWeights) {
    const a = Math.floor(pair / n);
    graph.addEdge(keys[a]!, keys[pair - a * n]!, { weight });
  }

  const communities = new Int32Array(n).fill(-1);
  let count = 0;
  if (graph.order > 0) {
    const mapping = louvain(graph, { getEdgeWeight: 'weight', resolution, rng: seededRandom(seed) });
    const renumbered = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      if (skipped(i)) continue;
      const raw = mapping[String(i)]!;
      let id = renumbered.get(raw);
      if (id === undefined) {
        id = renumbered.size;
        renumbered.set(raw, id);
      }
      communities[i] = id;
    }
    count = renumbered.size;
  }
  return { communities, count, fingerprint: adjacencyFingerprint(adjacency) };
}

/**
 * The nodes a walk may visit when every seed lies in one community: a mask over node indices
 * (1 = allowed) covering that community. Undefined when the seeds span several communities,
 * when a seed has none, or when there are no seeds: the walk then runs unrestricted.
 *
 * @example
 * ```ts
 * const allowed = communityRestriction(communities, [3, 8]);
 * const result = randomWalkWithRestart(adjacency, seeds, allowed ? { allowed } : {});
 * ```
 */
export function communityRestriction(
  communities: Communities,
  seedIndices: ArrayLike<number>,
  options: RestrictionOptions = {},
): Uint8Array | undefined {
  const includeUnassigned = options.includeUnassigned ?? DEFAULT_RESTRICTION_OPTIONS.includeUnassigned;
  const ids = communities.communities;
  if (seedIndices.length === 0) return undefined;
  let community = -1;
  for (let s = 0; s < seedIndices.length; s++) {
    const index = seedIndices[s]!;
    if (!Number.isInteger(index) || index < 0 || index >= ids.length) {
      throw invalid(`seed index ${index} is outside the communities (0..${ids.length - 1})`);
    }
    const c = ids[index]!;
    if (c < 0) return undefined;
    if (community === -1) community = c;
    else if (c !== community) return undefined;
  }
  const allowed = new Uint8Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const c = ids[i]!;
    if (c === community || (includeUnassigned && c < 0)) allowed[i] = 1;
  }
  return allowed;
}

const MAGIC = 'KNCOM\0';
const HEADER_BYTES = 6 + 2 + 4 + 4 + 64;

function badFormat(message: string): KnowingError {
  return new KnowingError(ErrorCode.BadFormat, `communities blob: ${message}`, {
    source: 'walk',
    hint: 'recompute them with detectCommunities',
  });
}

/**
 * Encode communities as bytes (little-endian): `KNCOM\0`, u16 version, u32 node count,
 * u32 community count, the 64-character hex fingerprint, then i32 × node count.
 *
 * @example
 * ```ts
 * await notes.putNote('communities', 'communities', serializeCommunities(found), snapshotId);
 * ```
 */
export function serializeCommunities(communities: Communities): Uint8Array {
  const n = communities.communities.length;
  if (!/^[0-9a-f]{64}$/.test(communities.fingerprint)) throw invalid('communities fingerprint must be 64 hex characters');
  const bytes = new Uint8Array(HEADER_BYTES + 4 * n);
  const view = new DataView(bytes.buffer);
  const encoder = new TextEncoder();
  bytes.set(encoder.encode(MAGIC), 0);
  view.setUint16(6, COMMUNITIES_FORMAT_VERSION, true);
  view.setUint32(8, n, true);
  view.setUint32(12, communities.count, true);
  bytes.set(encoder.encode(communities.fingerprint), 16);
  for (let i = 0; i < n; i++) view.setInt32(HEADER_BYTES + 4 * i, communities.communities[i]!, true);
  return bytes;
}

/**
 * Decode bytes written by {@link serializeCommunities}. Throws `BAD_FORMAT` on anything else,
 * and when `adjacency` is given but is not the one the communities were computed for.
 *
 * @example
 * ```ts
 * const note = await notes.getNote('communities');
 * const found = note && note.snapshot === snapshotId ? deserializeCommunities(note.value, { adjacency }) : detectCommunities(adjacency);
 * ```
 */
export function deserializeCommunities(bytes: Uint8Array, options: DeserializeCommunitiesOptions = {}): Communities {
  if (bytes.length < HEADER_BYTES) throw badFormat('too short');
  const decoder = new TextDecoder();
  if (decoder.decode(bytes.subarray(0, 6)) !== MAGIC) throw badFormat('wrong magic');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(6, true);
  if (version !== COMMUNITIES_FORMAT_VERSION) throw badFormat(`version ${version}, this build reads ${COMMUNITIES_FORMAT_VERSION}`);
  const n = view.getUint32(8, true);
  const count = view.getUint32(12, true);
  if (bytes.length !== HEADER_BYTES + 4 * n) throw badFormat(`length ${bytes.length}, header implies ${HEADER_BYTES + 4 * n}`);
  const fingerprint = decoder.decode(bytes.subarray(16, HEADER_BYTES));
  if (!/^[0-9a-f]{64}$/.test(fingerprint)) throw badFormat('bad fingerprint');
  const communities = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = view.getInt32(HEADER_BYTES + 4 * i, true);
    if (c < -1 || c >= count) throw badFormat(`community ${c} of node ${i} is out of range`);
    communities[i] = c;
  }
  const adjacency = options.adjacency;
  if (adjacency && (adjacency.nodeCount !== n || adjacencyFingerprint(adjacency) !== fingerprint)) {
    throw badFormat('computed for a different adjacency');
  }
  return { communities, count, fingerprint };
}
