import { ErrorCode, KnowingError } from '@knowing/graph';
import type { Adjacency } from '@knowing/graph';
import type { WalkTransitions } from './types.js';

/**
 * Walk transitions as bytes, so that a cold query reads what `knowing index` computed instead
 * of weighing every edge again (a pass over the adjacency that ran as cold code in every
 * process). Layout, little-endian: magic `KWTRN`, format version (u8), directed (u8), a pad
 * byte, then u32 node count, edge count, neighbour entries and the length of a caller's key
 * (what the weights depend on: the edge weights and the lsp weight), the key's UTF-8 bytes
 * padded to 8, then edgeWeights, weights, totalWeight (f64) and offsets, neighbors (i32).
 */
const MAGIC = 'KWTRN';
export const TRANSITIONS_FORMAT_VERSION = 1;
const HEADER_BYTES = 24;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function badFormat(message: string): KnowingError {
  return new KnowingError(ErrorCode.BadFormat, `transitions blob: ${message}`, {
    source: 'walk',
    hint: 'compute them again with weightedTransitions(adjacency, options)',
  });
}

const pad8 = (n: number): number => (n + 7) & ~7;

/**
 * Encode transitions with the key of the settings they were weighed with.
 *
 * @example
 * ```ts
 * const bytes = serializeTransitions(weightedTransitions(adjacency, { lspWeight: 0.3 }), 'lsp=0.3');
 * ```
 */
export function serializeTransitions(transitions: WalkTransitions, key: string): Uint8Array {
  const n = transitions.nodeCount;
  const m = transitions.edgeWeights.length;
  const size = transitions.neighbors.length;
  const keyBytes = new TextEncoder().encode(key);
  const keyEnd = pad8(HEADER_BYTES + keyBytes.length);
  const total = keyEnd + 8 * (m + size + n) + 4 * (n + 1 + size);
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint8(5, TRANSITIONS_FORMAT_VERSION);
  view.setUint8(6, transitions.directed ? 1 : 0);
  view.setUint32(8, n, true);
  view.setUint32(12, m, true);
  view.setUint32(16, size, true);
  view.setUint32(20, keyBytes.length, true);
  bytes.set(keyBytes, HEADER_BYTES);
  let at = keyEnd;
  const put = (array: Float64Array | Int32Array): void => {
    if (LITTLE_ENDIAN) bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    else if (array instanceof Float64Array) array.forEach((value, i) => view.setFloat64(at + 8 * i, value, true));
    else array.forEach((value, i) => view.setInt32(at + 4 * i, value, true));
    at += array.byteLength;
  };
  put(transitions.edgeWeights);
  put(transitions.weights);
  put(transitions.totalWeight);
  put(transitions.offsets);
  put(transitions.neighbors);
  return bytes;
}

/**
 * Decode bytes written by {@link serializeTransitions}. Undefined when they were weighed with
 * another key; throws `BAD_FORMAT` on anything that is not such bytes, or that does not fit the
 * adjacency given. The transitions share the bytes' memory when they start at a multiple of 8:
 * leave them unchanged.
 *
 * @example
 * ```ts
 * const stored = note ? deserializeTransitions(note.value, { adjacency, key }) : undefined;
 * const transitions = stored ?? weightedTransitions(adjacency, options);
 * ```
 */
export function deserializeTransitions(bytes: Uint8Array, options: { readonly adjacency: Adjacency; readonly key: string }): WalkTransitions | undefined {
  if (bytes.length < HEADER_BYTES) throw badFormat('too short');
  if (new TextDecoder().decode(bytes.subarray(0, 5)) !== MAGIC) throw badFormat('wrong magic');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint8(5);
  if (version !== TRANSITIONS_FORMAT_VERSION) throw badFormat(`version ${version}, this build reads ${TRANSITIONS_FORMAT_VERSION}`);
  const directed = view.getUint8(6) === 1;
  const n = view.getUint32(8, true);
  const m = view.getUint32(12, true);
  const size = view.getUint32(16, true);
  const keyLength = view.getUint32(20, true);
  const keyEnd = pad8(HEADER_BYTES + keyLength);
  if (bytes.length !== keyEnd + 8 * (m + size + n) + 4 * (n + 1 + size)) throw badFormat(`length ${bytes.length} does not match its header`);
  if (new TextDecoder().decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + keyLength)) !== options.key) return undefined;
  const { adjacency } = options;
  if (n !== adjacency.nodeCount || m !== adjacency.edgeCount) {
    throw badFormat(`computed for ${n} nodes / ${m} edges, the adjacency has ${adjacency.nodeCount} / ${adjacency.edgeCount}`);
  }
  let at = keyEnd;
  // Views of the bytes where they are aligned (a note read from the store is): a copy of a large
  // graph's megabytes costs a cold query more than the rest of decoding. Copies otherwise.
  const aligned = LITTLE_ENDIAN && bytes.byteOffset % 8 === 0;
  const take = <T extends Float64Array | Int32Array>(make: (buffer: ArrayBuffer, offset?: number, length?: number) => T, count: number, width: number): T => {
    if (aligned) {
      const array = make(bytes.buffer as ArrayBuffer, bytes.byteOffset + at, count);
      at += count * width;
      return array;
    }
    const slice = bytes.slice(at, at + count * width);
    at += count * width;
    if (LITTLE_ENDIAN) return make(slice.buffer);
    const out = make(new ArrayBuffer(count * width));
    const v = new DataView(slice.buffer);
    for (let i = 0; i < count; i++) out[i] = width === 8 ? v.getFloat64(8 * i, true) : v.getInt32(4 * i, true);
    return out;
  };
  const edgeWeights = take((b, offset, length) => new Float64Array(b, offset, length), m, 8);
  const weights = take((b, offset, length) => new Float64Array(b, offset, length), size, 8);
  const totalWeight = take((b, offset, length) => new Float64Array(b, offset, length), n, 8);
  const offsets = take((b, offset, length) => new Int32Array(b, offset, length), n + 1, 4);
  const neighbors = take((b, offset, length) => new Int32Array(b, offset, length), size, 4);
  if (offsets[0] !== 0 || offsets[n] !== size) throw badFormat('offsets do not span the neighbour entries');
  for (let i = 0; i < size; i++) if (neighbors[i]! < 0 || neighbors[i]! >= n) throw badFormat(`neighbour ${neighbors[i]} is out of range`);
  return { nodeCount: n, directed, edgeWeights, offsets, neighbors, weights, totalWeight };
}
