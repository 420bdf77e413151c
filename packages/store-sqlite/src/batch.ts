import { edgeKey } from '@knowing/graph';

/** Last entry per key wins, in first-seen order: later writes of the same thing replace earlier ones. */
export function lastWins<T>(items: readonly T[] | undefined, key: (item: T) => string): T[] {
  if (items === undefined || items.length === 0) return [];
  const map = new Map<string, T>();
  for (const item of items) map.set(key(item), item);
  return map.size === items.length ? [...items] : [...map.values()];
}

/**
 * Merkle groups, (package of the source node, edge type), that a batch touched. Groups
 * touched only by additions remember the added leaves, so a group that is new in this batch
 * (the whole of a first index) is hashed without reading its edges back.
 */
export class DirtyGroups {
  private readonly byKey = new Map<string, { pkg: string; type: string; added: string[]; complete: boolean }>();

  private group(pkg: string, type: string) {
    const key = `${pkg}\0${type}`;
    let group = this.byKey.get(key);
    if (group === undefined) this.byKey.set(key, (group = { pkg, type, added: [], complete: true }));
    return group;
  }

  /** An edge was inserted into the group. */
  added(pkg: string, type: string, source: string, target: string): void {
    this.group(pkg, type).added.push(edgeKey(source, target, type));
  }

  /** The group changed in a way the added leaves do not describe (a deletion, a move). */
  touched(pkg: string, type: string): void {
    this.group(pkg, type).complete = false;
  }

  get size(): number {
    return this.byKey.size;
  }

  groups(): IterableIterator<{ readonly pkg: string; readonly type: string; readonly added: readonly string[]; readonly complete: boolean }> {
    return this.byKey.values();
  }
}

/** Values per row of the multi-row INSERTs, in the column order of their statements. */
export const NODE_WIDTH = 15;
export const FTS_WIDTH = 7;
/** Values per `lexical_fts` row: rowid, name, path, signature, doc, body, members. */
export const LEXICAL_WIDTH = 7;
export const EDGE_WIDTH = 7;

/** Owner names of a file's edges and of an OwnedEdges entry. */
export const FILE_OWNER = 'file:';
export const PASS_OWNER = 'pass:';
