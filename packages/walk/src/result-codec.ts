import { ErrorCode, KnowingError } from '@knowing/graph';
import type { Adjacency } from '@knowing/graph';
import { adjacencyFingerprint } from './communities.js';
import type { WalkResult, WalkStopReason } from './types.js';

/** Version of the layout written by {@link serializeWalkResult}. */
export const WALK_RESULT_FORMAT_VERSION = 1;

const MAGIC = 'KNRWR\0';
const STOP_REASONS: readonly WalkStopReason[] = ['converged', 'top-k-stable', 'max-iterations', 'no-seeds'];
// magic 6, version u16, node count u32, entry count u32, iterations u32, active count u32,
// stop reason u8 + 3 padding, residual f64, fingerprint 64.
const HEADER_BYTES = 6 + 2 + 4 + 4 + 4 + 4 + 4 + 8 + 64;
const ENTRY_BYTES = 4 + 8 + 4;

function badFormat(message: string): KnowingError {
  return new KnowingError(ErrorCode.BadFormat, `walk result blob: ${message}`, { source: 'walk', hint: 'run the walk again' });
}

/**
 * Encode a walk result for the note store. Sparse: only nodes the walk covered or scored are
 * written (index, score, hops), with a fingerprint of the adjacency's node ids. Unknown seed
 * ids are not kept.
 *
 * @example
 * ```ts
 * await notes.putNote(`rwr:${key}`, 'rwr_cache', serializeWalkResult(result, adjacency), snapshotId);
 * ```
 */
export function serializeWalkResult(result: WalkResult, adjacency: Adjacency): Uint8Array {
  const n = adjacency.nodeCount;
  if (result.scores.length !== n || result.hops.length !== n) {
    throw new KnowingError(ErrorCode.InvalidArgument, 'walk result does not belong to this adjacency', { source: 'walk' });
  }
  let entries = 0;
  for (let i = 0; i < n; i++) if (result.scores[i]! > 0 || result.hops[i]! >= 0) entries++;
  const bytes = new Uint8Array(HEADER_BYTES + ENTRY_BYTES * entries);
  const view = new DataView(bytes.buffer);
  const encoder = new TextEncoder();
  bytes.set(encoder.encode(MAGIC), 0);
  view.setUint16(6, WALK_RESULT_FORMAT_VERSION, true);
  view.setUint32(8, n, true);
  view.setUint32(12, entries, true);
  view.setUint32(16, result.iterations, true);
  view.setUint32(20, result.activeCount, true);
  view.setUint8(24, STOP_REASONS.indexOf(result.stopReason));
  view.setFloat64(28, result.residual, true);
  bytes.set(encoder.encode(adjacencyFingerprint(adjacency)), 36);
  let at = HEADER_BYTES;
  for (let i = 0; i < n; i++) {
    if (!(result.scores[i]! > 0 || result.hops[i]! >= 0)) continue;
    view.setUint32(at, i, true);
    view.setFloat64(at + 4, result.scores[i]!, true);
    view.setInt32(at + 12, result.hops[i]!, true);
    at += ENTRY_BYTES;
  }
  return bytes;
}

/**
 * Decode bytes written by {@link serializeWalkResult} for the same adjacency. Throws
 * `BAD_FORMAT` on anything else or when the adjacency's node ids differ.
 *
 * @example
 * ```ts
 * const note = await notes.getNote(`rwr:${key}`);
 * const result = note ? deserializeWalkResult(note.value, adjacency) : randomWalkWithRestart(adjacency, seeds);
 * ```
 */
export function deserializeWalkResult(bytes: Uint8Array, adjacency: Adjacency): WalkResult {
  if (bytes.length < HEADER_BYTES) throw badFormat('too short');
  const decoder = new TextDecoder();
  if (decoder.decode(bytes.subarray(0, 6)) !== MAGIC) throw badFormat('wrong magic');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(6, true);
  if (version !== WALK_RESULT_FORMAT_VERSION) throw badFormat(`version ${version}, this build reads ${WALK_RESULT_FORMAT_VERSION}`);
  const n = view.getUint32(8, true);
  const entries = view.getUint32(12, true);
  if (bytes.length !== HEADER_BYTES + ENTRY_BYTES * entries) throw badFormat('length does not match the entry count');
  const stopReason = STOP_REASONS[view.getUint8(24)];
  if (stopReason === undefined) throw badFormat('unknown stop reason');
  if (n !== adjacency.nodeCount || decoder.decode(bytes.subarray(36, HEADER_BYTES)) !== adjacencyFingerprint(adjacency)) {
    throw badFormat('computed for a different adjacency');
  }
  const scores = new Float64Array(n);
  const hops = new Int32Array(n).fill(-1);
  for (let k = 0, at = HEADER_BYTES; k < entries; k++, at += ENTRY_BYTES) {
    const index = view.getUint32(at, true);
    if (index >= n) throw badFormat(`entry ${k} is out of range`);
    scores[index] = view.getFloat64(at + 4, true);
    hops[index] = view.getInt32(at + 12, true);
  }
  return {
    scores,
    hops,
    iterations: view.getUint32(16, true),
    stopReason,
    residual: view.getFloat64(28, true),
    activeCount: view.getUint32(20, true),
    unknownSeeds: [],
  };
}
