import type { NodeRow as StoredNodeRow } from '@knowing/graph/store-kit';

/** A `nodes` row as the node queries select it: the stored fields, its sequence number and 0/1 flags. */
export interface NodeRow extends StoredNodeRow {
  readonly seq: number;
  readonly is_test: number;
  readonly external: number;
}

/** Columns of {@link NodeRow}, for a query whose nodes table is aliased `n`. */
export const NODE_COLUMNS =
  'n.seq, n.id, n.name, n.qualified_name, n.kind, n.language, n.file, n.start_line, n.end_line, n.signature, n.doc, n.is_test, n.external';

/** Columns of an `EdgeRow` for `edges e` joined with `nodes s` (source) and `nodes t` (target). */
export const EDGE_COLUMNS = 's.id AS source, t.id AS target, e.type, e.confidence, e.provenance, e.line';

/**
 * Exclusive upper bound for a prefix range scan under BINARY collation: every string that
 * starts with `prefix` sorts below `prefix + U+10FFFF`.
 */
export function prefixUpperBound(prefix: string): string {
  return prefix + '\u{10FFFF}';
}
