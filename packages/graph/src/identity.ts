import * as crypto from 'node:crypto';
import type { NodeId, NodeKind } from './types.js';

const { createHash } = crypto;

/**
 * One-shot hashing (Node ≥ 20.12): about 40% cheaper than a Hash object for the short inputs
 * hashed by the hundred thousand (node ids, edge keys). Absent on older Node versions.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string }).hash;

/** Hex SHA-256 of a UTF-8 string or bytes. */
export function sha256Hex(input: string | Uint8Array): string {
  return oneShot ? oneShot('sha256', input, 'hex') : createHash('sha256').update(input).digest('hex');
}

/**
 * The stable id of a node: the first 128 bits of SHA-256 over repo, qualified name and kind,
 * NUL-separated. Moving nothing but lines keeps the id; renaming makes a new node.
 *
 * @example
 * ```ts
 * nodeId('github.com/pallets/flask', 'src/flask/app.py.Flask.run', 'method');
 * ```
 */
export function nodeId(repo: string, qualifiedName: string, kind: NodeKind): NodeId {
  return sha256Hex(`node\0${repo}\0${qualifiedName}\0${kind}`).slice(0, 32);
}

/**
 * Identity of an edge for Merkle leaves: source, target and type. Provenance is deliberately
 * left out, so upgrading how an edge was resolved does not make it a different edge.
 */
export function edgeKey(source: NodeId, target: NodeId, type: string): string {
  return sha256Hex(`edge\0${source}\0${target}\0${type}`);
}

const ZERO_ROOT = '0'.repeat(64);

/**
 * Merkle root over hex leaves: sorted, paired left to right (an odd last leaf pairs with
 * itself), hashed `merkle\0‖left‖right` until one remains. Empty input gives 64 zeros.
 * Order of the input does not matter.
 */
export function merkleRoot(leaves: readonly string[]): string {
  if (leaves.length === 0) return ZERO_ROOT;
  let level = [...leaves].sort();
  if (level.length === 1) return level[0]!;
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!;
      const right = level[i + 1] ?? left;
      next.push(
        createHash('sha256')
          .update('merkle\0')
          .update(Buffer.from(left, 'hex'))
          .update(Buffer.from(right, 'hex'))
          .digest('hex'),
      );
    }
    level = next;
  }
  return level[0]!;
}

/** Id of a snapshot with the given repo root. */
export function snapshotId(repoRoot: string): string {
  return createHash('sha256').update('snapshot\0').update(Buffer.from(repoRoot, 'hex')).digest('hex');
}
