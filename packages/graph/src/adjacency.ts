import { checkAndInvert, invertEdges } from './adjacency-kernel.js';
import type { InEdges, OutEdgeProblem } from './adjacency-kernel.js';
import { ErrorCode, KnowingError } from './errors.js';
import type { EdgeType, NodeId, Provenance } from './types.js';

/** Bits of `Adjacency.nodeFlags`. */
export const NodeFlag = {
  External: 1,
  Test: 2,
  TypeLike: 4,
} as const;

/** Provenances in the order of their ids in `Adjacency.outProvenance`. */
export const PROVENANCES: readonly Provenance[] = Object.freeze([
  'ast_inferred',
  'ast_resolved',
  'lsp_resolved',
  'runtime',
  'derived',
]);

/**
 * The graph as compressed sparse rows: out-edges grouped by source, plus an in-edge index
 * pointing back into them. Built once per snapshot; the walk reads only these arrays.
 */
export interface Adjacency {
  readonly nodeCount: number;
  readonly edgeCount: number;
  /** Node id of each index. */
  readonly ids: readonly NodeId[];
  /** `NodeFlag` bits per node. */
  readonly nodeFlags: Uint8Array;
  /** Edge type names; `outTypes` holds indices into this list. */
  readonly typeNames: readonly EdgeType[];
  /** Out-edges of node i are `outOffsets[i] .. outOffsets[i+1]-1`. Length nodeCount + 1. */
  readonly outOffsets: Int32Array;
  readonly outTargets: Int32Array;
  readonly outTypes: Uint8Array;
  /** Index into `PROVENANCES`. */
  readonly outProvenance: Uint8Array;
  readonly outConfidence: Float32Array;
  /** In-edges of node i are `inOffsets[i] .. inOffsets[i+1]-1`. */
  readonly inOffsets: Int32Array;
  readonly inSources: Int32Array;
  /** Position of each in-edge in the out arrays (for its type, provenance, confidence). */
  readonly inEdges: Int32Array;
  /** Index of a node id, or -1. */
  indexOf(id: NodeId): number;
}

/** A node as the adjacency builder needs it. */
export interface AdjacencyNode {
  readonly id: NodeId;
  /** `NodeFlag` bits. @default 0 */
  readonly flags?: number;
}

/** An edge as the adjacency builder needs it. */
export interface AdjacencyEdge {
  readonly source: NodeId;
  readonly target: NodeId;
  readonly type: EdgeType;
  readonly provenance: Provenance;
  readonly confidence: number;
}

const MAX_EDGE_TYPES = 255;

/** The in-edge index where the WebAssembly kernel cannot run: grouped by target, each group in source order. */
function invertInTypeScript(n: number, outOffsets: Int32Array, outTargets: Int32Array): InEdges {
  const m = outTargets.length;
  const inOffsets = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) inOffsets[outTargets[e]! + 1]!++;
  for (let i = 0; i < n; i++) inOffsets[i + 1]! += inOffsets[i]!;
  const inSources = new Int32Array(m);
  const inEdges = new Int32Array(m);
  const cursor = inOffsets.slice(0, n);
  for (let source = 0; source < n; source++) {
    for (let e = outOffsets[source]!; e < outOffsets[source + 1]!; e++) {
      const slot = cursor[outTargets[e]!]!++;
      inSources[slot] = source;
      inEdges[slot] = e;
    }
  }
  return { inOffsets, inSources, inEdges };
}

class CsrAdjacency implements Adjacency {
  private index: Map<NodeId, number> | undefined;
  /** Whether `ids` ascend strictly (code-unit order), once the first lookup has checked. */
  private sorted: boolean | undefined;
  readonly inOffsets: Int32Array;
  readonly inSources: Int32Array;
  readonly inEdges: Int32Array;

  constructor(
    readonly ids: readonly NodeId[],
    readonly nodeFlags: Uint8Array,
    readonly typeNames: readonly EdgeType[],
    readonly outOffsets: Int32Array,
    readonly outTargets: Int32Array,
    readonly outTypes: Uint8Array,
    readonly outProvenance: Uint8Array,
    readonly outConfidence: Float32Array,
    inverse: InEdges | undefined = invertEdges({ n: ids.length, outOffsets, outTargets, outTypes, outProvenance }),
  ) {
    ({ inOffsets: this.inOffsets, inSources: this.inSources, inEdges: this.inEdges } = inverse ?? invertInTypeScript(ids.length, outOffsets, outTargets));
  }

  get nodeCount(): number {
    return this.ids.length;
  }

  get edgeCount(): number {
    return this.outTargets.length;
  }

  indexOf(id: NodeId): number {
    const ids = this.ids;
    if (this.sorted === undefined) {
      // An adjacency read from the index lists its ids in order (the canonical order of the
      // stored note): a binary search then needs no table. Checking the order costs a tenth of
      // hashing every id into a map, which a cold query would pay for a few hundred lookups.
      let sorted = true;
      for (let i = 1; i < ids.length && sorted; i++) sorted = ids[i - 1]! < ids[i]!;
      this.sorted = sorted;
    }
    if (this.sorted) {
      let lo = 0;
      let hi = ids.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const at = ids[mid]!;
        if (at === id) return mid;
        if (at < id) lo = mid + 1;
        else hi = mid - 1;
      }
      return -1;
    }
    if (!this.index) {
      this.index = new Map();
      for (let i = 0; i < ids.length; i++) this.index.set(ids[i]!, i);
    }
    return this.index.get(id) ?? -1;
  }
}

/**
 * Build a CSR adjacency. Edges whose endpoints are not among `nodes` are skipped; duplicate
 * (source, target, type) edges are kept once.
 *
 * @example
 * ```ts
 * const adj = buildAdjacency(
 *   [{ id: 'a' }, { id: 'b' }],
 *   [{ source: 'a', target: 'b', type: 'calls', provenance: 'ast_resolved', confidence: 0.9 }],
 * );
 * adj.outTargets[adj.outOffsets[adj.indexOf('a')]!]; // index of 'b'
 * ```
 */
export function buildAdjacency(nodes: Iterable<AdjacencyNode>, edges: Iterable<AdjacencyEdge>): Adjacency {
  const ids: NodeId[] = [];
  const flags: number[] = [];
  const index = new Map<NodeId, number>();
  for (const node of nodes) {
    if (index.has(node.id)) continue;
    index.set(node.id, ids.length);
    ids.push(node.id);
    flags.push(node.flags ?? 0);
  }
  const typeIds = new Map<string, number>();
  const typeNames: EdgeType[] = [];
  const provenanceIds = new Map(PROVENANCES.map((p, i) => [p, i]));
  const src: number[] = [];
  const tgt: number[] = [];
  const typ: number[] = [];
  const prov: number[] = [];
  const conf: number[] = [];
  const seen = new Set<string>();
  for (const edge of edges) {
    const s = index.get(edge.source);
    const t = index.get(edge.target);
    if (s === undefined || t === undefined) continue;
    let typeId = typeIds.get(edge.type);
    if (typeId === undefined) {
      if (typeNames.length >= MAX_EDGE_TYPES) {
        throw new KnowingError(ErrorCode.InvalidArgument, `more than ${MAX_EDGE_TYPES} edge types`, { source: 'graph' });
      }
      typeId = typeNames.length;
      typeIds.set(edge.type, typeId);
      typeNames.push(edge.type);
    }
    const key = `${s}\0${t}\0${typeId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    src.push(s);
    tgt.push(t);
    typ.push(typeId);
    prov.push(provenanceIds.get(edge.provenance) ?? 0);
    conf.push(edge.confidence);
  }
  const n = ids.length;
  const m = src.length;
  const outOffsets = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) outOffsets[src[e]! + 1]!++;
  for (let i = 0; i < n; i++) outOffsets[i + 1]! += outOffsets[i]!;
  const cursor = outOffsets.slice(0, n);
  const outTargets = new Int32Array(m);
  const outTypes = new Uint8Array(m);
  const outProvenance = new Uint8Array(m);
  const outConfidence = new Float32Array(m);
  for (let e = 0; e < m; e++) {
    const slot = cursor[src[e]!]!++;
    outTargets[slot] = tgt[e]!;
    outTypes[slot] = typ[e]!;
    outProvenance[slot] = prov[e]!;
    outConfidence[slot] = conf[e]!;
  }
  return new CsrAdjacency(ids, Uint8Array.from(flags), typeNames, outOffsets, outTargets, outTypes, outProvenance, outConfidence);
}

const MAGIC = 'KNADJ\0';
/** Version of the binary layout written by {@link serializeAdjacency}. */
export const ADJACENCY_FORMAT_VERSION = 1;
const HEADER_BYTES = 8 + 4 * 4;

function isLittleEndian(): boolean {
  return new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
}

const align4 = (n: number): number => (n + 3) & ~3;

/**
 * Encode an adjacency as bytes. Layout (little-endian): `KNADJ\0`, u16 version, u16 0,
 * u32 nodeCount, u32 edgeCount, u32 byte length of the type-name block, u32 byte length of
 * the id block; then the type names and the node ids, each newline-joined UTF-8 and padded
 * to 4 bytes; node flags (padded); out offsets (i32 × n+1); out targets (i32 × m);
 * confidences (f32 × m); types (u8 × m); provenance (u8 × m).
 */
export function serializeAdjacency(adjacency: Adjacency): Uint8Array {
  if (!isLittleEndian()) throw new KnowingError(ErrorCode.Internal, 'adjacency serialization needs a little-endian host', { source: 'graph' });
  const encoder = new TextEncoder();
  for (const id of adjacency.ids) {
    if (id.includes('\n')) throw new KnowingError(ErrorCode.InvalidArgument, `node id contains a newline: ${JSON.stringify(id)}`, { source: 'graph' });
  }
  const typeBlock = encoder.encode(adjacency.typeNames.join('\n'));
  const idBlock = encoder.encode(adjacency.ids.join('\n'));
  const n = adjacency.nodeCount;
  const m = adjacency.edgeCount;
  const size =
    HEADER_BYTES + align4(typeBlock.length) + align4(idBlock.length) + align4(n) + 4 * (n + 1) + 4 * m + 4 * m + align4(m) + align4(m);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  bytes.set(encoder.encode(MAGIC), 0);
  view.setUint16(6, ADJACENCY_FORMAT_VERSION, true);
  view.setUint32(8, n, true);
  view.setUint32(12, m, true);
  view.setUint32(16, typeBlock.length, true);
  view.setUint32(20, idBlock.length, true);
  let at = HEADER_BYTES;
  bytes.set(typeBlock, at);
  at += align4(typeBlock.length);
  bytes.set(idBlock, at);
  at += align4(idBlock.length);
  bytes.set(adjacency.nodeFlags, at);
  at += align4(n);
  bytes.set(new Uint8Array(adjacency.outOffsets.buffer, adjacency.outOffsets.byteOffset, 4 * (n + 1)), at);
  at += 4 * (n + 1);
  bytes.set(new Uint8Array(adjacency.outTargets.buffer, adjacency.outTargets.byteOffset, 4 * m), at);
  at += 4 * m;
  bytes.set(new Uint8Array(adjacency.outConfidence.buffer, adjacency.outConfidence.byteOffset, 4 * m), at);
  at += 4 * m;
  bytes.set(adjacency.outTypes, at);
  at += align4(m);
  bytes.set(adjacency.outProvenance, at);
  return bytes;
}

/** {@link checkAndInvert}'s check where the WebAssembly kernel cannot run. */
function checkInTypeScript(
  n: number,
  outOffsets: Int32Array,
  outTargets: Int32Array,
  outTypes: Uint8Array,
  outProvenance: Uint8Array,
  typeCount: number,
): OutEdgeProblem | undefined {
  const m = outTargets.length;
  if (outOffsets[0] !== 0 || outOffsets[n] !== m) return { kind: 'span' };
  for (let i = 0; i < n; i++) if (outOffsets[i]! > outOffsets[i + 1]!) return { kind: 'decrease', node: i };
  for (let e = 0; e < m; e++) {
    const target = outTargets[e]!;
    if (target < 0 || target >= n || outTypes[e]! >= typeCount || outProvenance[e]! >= PROVENANCES.length) return { kind: 'range', edge: e };
  }
  return undefined;
}

function badFormat(message: string): KnowingError {
  return new KnowingError(ErrorCode.BadFormat, `adjacency blob: ${message}`, {
    source: 'graph',
    hint: 'rebuild it from the store',
  });
}

/**
 * Decode bytes written by {@link serializeAdjacency}; throws `BAD_FORMAT` on anything else. The
 * adjacency shares the bytes' memory when they start at a multiple of 4: leave them unchanged.
 */
export function deserializeAdjacency(input: Uint8Array): Adjacency {
  if (!isLittleEndian()) throw new KnowingError(ErrorCode.Internal, 'adjacency serialization needs a little-endian host', { source: 'graph' });
  // The arrays are views of the bytes where they are aligned (a note read from the store is):
  // a copy of a large graph's megabytes costs a cold query more than the rest of decoding.
  // Bytes at an unaligned offset are copied once, so that every view below is aligned.
  const bytes = input.byteOffset % 4 === 0 ? input : new Uint8Array(input);
  if (bytes.length < HEADER_BYTES) throw badFormat('too short');
  const decoder = new TextDecoder();
  if (decoder.decode(bytes.subarray(0, 6)) !== MAGIC) throw badFormat('wrong magic');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(6, true);
  if (version !== ADJACENCY_FORMAT_VERSION) throw badFormat(`version ${version}, this build reads ${ADJACENCY_FORMAT_VERSION}`);
  const n = view.getUint32(8, true);
  const m = view.getUint32(12, true);
  const typeLength = view.getUint32(16, true);
  const idLength = view.getUint32(20, true);
  const expected =
    HEADER_BYTES + align4(typeLength) + align4(idLength) + align4(n) + 4 * (n + 1) + 8 * m + align4(m) + align4(m);
  if (bytes.length !== expected) throw badFormat(`length ${bytes.length}, header implies ${expected}`);
  let at = HEADER_BYTES;
  const typeNames = typeLength === 0 ? [] : decoder.decode(bytes.subarray(at, at + typeLength)).split('\n');
  at += align4(typeLength);
  const idBlock = bytes.subarray(at, at + idLength);
  const ids = n === 0 ? [] : decoder.decode(idBlock).split('\n');
  if (ids.length !== n) throw badFormat(`${ids.length} ids for ${n} nodes`);
  at += align4(idLength);
  const nodeFlags = bytes.slice(at, at + n);
  at += align4(n);
  const base = bytes.byteOffset;
  const outOffsets = new Int32Array(bytes.buffer, base + at, n + 1);
  at += 4 * (n + 1);
  const outTargets = new Int32Array(bytes.buffer, base + at, m);
  at += 4 * m;
  const outConfidence = new Float32Array(bytes.buffer, base + at, m);
  at += 4 * m;
  const outTypes = new Uint8Array(bytes.buffer, base + at, m);
  at += align4(m);
  const outProvenance = new Uint8Array(bytes.buffer, base + at, m);
  const checked = checkAndInvert({ n, outOffsets, outTargets, outTypes, outProvenance }, { typeCount: typeNames.length, provenanceCount: PROVENANCES.length });
  const problem = checked ? checked.problem : checkInTypeScript(n, outOffsets, outTargets, outTypes, outProvenance, typeNames.length);
  if (problem?.kind === 'span') throw badFormat('offsets do not span the edges');
  if (problem?.kind === 'decrease') throw badFormat(`offsets decrease at node ${problem.node}`);
  if (problem?.kind === 'range') throw badFormat(`edge ${problem.edge} is out of range`);
  const adjacency = new CsrAdjacency(ids, nodeFlags, typeNames, outOffsets, outTargets, outTypes, outProvenance, outConfidence, checked?.inverse);
  idBlocks.set(adjacency, idBlock);
  return adjacency;
}

/** The id block each decoded adjacency was read from (see {@link adjacencyIdBytes}). */
const idBlocks = new WeakMap<Adjacency, Uint8Array>();

/**
 * The node ids of an adjacency decoded by {@link deserializeAdjacency}, as the bytes it read
 * them from: `ids.join('\n')` in UTF-8, without building that string (megabytes of a large
 * graph). Undefined for an adjacency built otherwise. Leave the bytes unchanged.
 *
 * @example
 * ```ts
 * const bytes = adjacencyIdBytes(adjacency); // hash them instead of adjacency.ids.join('\n')
 * ```
 */
export function adjacencyIdBytes(adjacency: Adjacency): Uint8Array | undefined {
  return idBlocks.get(adjacency);
}
