import type { FileRecord, GraphEdge, GraphNode, LanguageId, NodeKind, Provenance } from '@knowing/graph';

/** A `nodes` row as the node queries select it. */
export interface NodeRow {
  readonly seq: number;
  readonly id: string;
  readonly name: string;
  readonly qualified_name: string;
  readonly kind: string;
  readonly language: string;
  readonly file: string;
  readonly start_line: number;
  readonly end_line: number;
  readonly signature: string;
  readonly doc: string;
  readonly is_test: number;
  readonly external: number;
}

/** Columns of {@link NodeRow}, for a query whose nodes table is aliased `n`. */
export const NODE_COLUMNS =
  'n.seq, n.id, n.name, n.qualified_name, n.kind, n.language, n.file, n.start_line, n.end_line, n.signature, n.doc, n.is_test, n.external';

export function toNode(row: NodeRow): GraphNode {
  return {
    id: row.id,
    name: row.name,
    qualifiedName: row.qualified_name,
    kind: row.kind as NodeKind,
    language: row.language as LanguageId | '',
    file: row.file,
    startLine: row.start_line,
    endLine: row.end_line,
    signature: row.signature,
    doc: row.doc,
    isTest: row.is_test === 1,
    external: row.external === 1,
  };
}

/** An edge row joined with its endpoints' ids. */
export interface EdgeRow {
  readonly source: string;
  readonly target: string;
  readonly type: string;
  readonly confidence: number;
  readonly provenance: string;
  readonly line: number;
}

/** Columns of {@link EdgeRow} for `edges e` joined with `nodes s` (source) and `nodes t` (target). */
export const EDGE_COLUMNS = 's.id AS source, t.id AS target, e.type, e.confidence, e.provenance, e.line';

export function toEdge(row: EdgeRow): GraphEdge {
  return {
    source: row.source,
    target: row.target,
    type: row.type,
    confidence: row.confidence,
    provenance: row.provenance as Provenance,
    line: row.line,
  };
}

export interface FileRow {
  readonly path: string;
  readonly language: string;
  readonly content_hash: string;
  readonly size_bytes: number;
  readonly indexed_at: number;
  readonly syntax_errors: number;
}

export function toFile(row: FileRow): FileRecord {
  return {
    path: row.path,
    language: row.language as LanguageId,
    contentHash: row.content_hash,
    sizeBytes: row.size_bytes,
    indexedAt: row.indexed_at,
    syntaxErrors: row.syntax_errors,
  };
}

/** SQLite's lower() folds ASCII only; names are folded the same way so both sides agree. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/**
 * Exclusive upper bound for a prefix range scan under BINARY collation: every string that
 * starts with `prefix` sorts below `prefix + U+10FFFF`.
 */
export function prefixUpperBound(prefix: string): string {
  return prefix + '\u{10FFFF}';
}
