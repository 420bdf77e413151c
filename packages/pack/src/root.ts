import { sha256Hex } from '@knowing/graph';
import type { NodeId } from '@knowing/graph';

const encoder = new TextEncoder();

/**
 * The task as pack roots and caches see it: trimmed, lower-cased, inner runs of whitespace
 * collapsed to one space (the original only trimmed and lower-cased).
 *
 * @example
 * ```ts
 * normalizeTask('  Fix the\tLogin  bug '); // 'fix the login bug'
 * ```
 */
export function normalizeTask(task: string): string {
  return task.trim().toLowerCase().replace(/\s+/g, ' ');
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function lengthPrefixed(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length, true);
  out.set(bytes, 4);
  return out;
}

/**
 * Content address of a pack: lowercase hex SHA-256 over
 * `"knowing-pack-v1"`, then the normalised task (see {@link normalizeTask}), then each
 * distinct node id in ascending UTF-8 byte order — every field as a u32 little-endian byte
 * length followed by its UTF-8 bytes. The same task and symbol set give the same root
 * whatever the order of `nodeIds`; like the original, no snapshot goes in, so an unchanged
 * selection over a changed graph keeps its root.
 *
 * @example
 * ```ts
 * packRoot('Fix login', [b, a]) === packRoot('  fix LOGIN ', [a, b]); // true
 * ```
 */
export function packRoot(task: string, nodeIds: Iterable<NodeId>): string {
  const ids = [...new Set(nodeIds)].map((id) => encoder.encode(id)).sort(compareBytes);
  const parts = [lengthPrefixed(encoder.encode('knowing-pack-v1')), lengthPrefixed(encoder.encode(normalizeTask(task))), ...ids.map(lengthPrefixed)];
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return sha256Hex(bytes);
}
