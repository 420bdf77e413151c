import { edgeKey, merkleRoot, snapshotId, type Snapshot } from '@knowing/graph';
import { snapshotFromRow, type SnapshotRow } from '@knowing/graph/store-kit';
import type { DirtyGroups } from './batch.js';
import type { WriteStatements } from './write-statements.js';

/**
 * Level 1: the root of each dirty (package, edge type) group over its edges' keys; level 2:
 * the root of each package touched over its type roots.
 */
function recomputeRoots(st: WriteStatements, dirty: DirtyGroups): void {
  const packages = new Set<string>();
  for (const group of dirty.groups()) {
    packages.add(group.pkg);
    let leaves: readonly string[];
    if (group.complete && st.typeRootLeaves.get(group.pkg, group.type) === undefined) {
      // A group that had no edges before this batch and lost none: its leaves are exactly
      // the edges added now, already hashed; no need to read them back.
      leaves = group.added;
    } else {
      const all: string[] = [];
      const query = group.pkg === '' ? st.groupLeavesExternal : st.groupLeaves;
      const params = group.pkg === '' ? { type: group.type } : { package: group.pkg, type: group.type };
      for (const row of query.iterate(params) as IterableIterator<{ source: string; target: string }>) {
        all.push(edgeKey(row.source, row.target, group.type));
      }
      leaves = all;
    }
    if (leaves.length === 0) st.typeRootDelete.run(group.pkg, group.type);
    else st.typeRootPut.run(group.pkg, group.type, merkleRoot(leaves), leaves.length);
  }
  for (const pkg of packages) {
    const typeRoots = st.typeRootsOfPackage.all(pkg) as string[];
    if (typeRoots.length === 0) st.packageRootDelete.run(pkg);
    else st.packageRootPut.run(pkg, merkleRoot(typeRoots));
  }
}

/** Record the batch's snapshot, or return the latest one when the batch changed nothing. */
export function commitSnapshot(
  st: WriteStatements,
  dirty: DirtyGroups,
  change: { readonly changed: boolean; readonly nodeDelta: number; readonly edgeDelta: number },
): Snapshot {
  const previous = st.snapshotLatest.get() as SnapshotRow | undefined;
  if (previous !== undefined && !change.changed && dirty.size === 0) return snapshotFromRow(previous);
  if (dirty.size > 0) recomputeRoots(st, dirty);
  const root = previous !== undefined && dirty.size === 0 ? previous.root : merkleRoot(st.packageRootsAll.all() as string[]);
  // Counts move by the batch's deltas; only the very first snapshot counts rows.
  const nodeCount = previous !== undefined ? previous.node_count + change.nodeDelta : Number(st.countNodes.get());
  const edgeCount = previous !== undefined ? previous.edge_count + change.edgeDelta : Number(st.countEdges.get());
  const row: SnapshotRow = {
    generation: (previous?.generation ?? 0) + 1,
    id: snapshotId(root),
    root,
    created_at: Date.now(),
    node_count: nodeCount,
    edge_count: edgeCount,
  };
  st.snapshotInsert.run(row.generation, row.id, row.root, row.created_at, row.node_count, row.edge_count);
  return snapshotFromRow(row);
}
