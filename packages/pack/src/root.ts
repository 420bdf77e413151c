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
  const distinct = [...new Set(nodeIds)];
  const head = [lengthPrefixed(encoder.encode('knowing-pack-v1')), lengthPrefixed(encoder.encode(normalizeTask(task)))];
  // Node ids are hex: in ASCII, string order is UTF-8 byte order and a character is a byte, so
  // the ids go into the buffer as they are, sorted as strings (packs are rooted on every trial
  // render of a fitted answer). Any other id takes the general path below.
  if (distinct.every(isAscii)) {
    distinct.sort();
    const headBytes = head.reduce((sum, part) => sum + part.length, 0);
    const bytes = Buffer.allocUnsafe(headBytes + distinct.reduce((sum, id) => sum + 4 + id.length, 0));
    let at = 0;
    for (const part of head) {
      bytes.set(part, at);
      at += part.length;
    }
    for (const id of distinct) {
      at = bytes.writeUInt32LE(id.length, at);
      at += bytes.write(id, at, 'latin1');
    }
    return sha256Hex(bytes);
  }
  const ids = distinct.map((id) => encoder.encode(id)).sort(compareBytes);
  const parts = [...head, ...ids.map(lengthPrefixed)];
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return sha256Hex(bytes);
}

const NON_ASCII = /[^\x00-\x7f]/;

function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}
