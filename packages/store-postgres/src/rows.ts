/** Rows as the store's queries select them, and what the contract returns for each. */
import type { FileRecord, GraphEdge, GraphNode, LanguageId, NodeKind, Provenance } from '@knowing/graph';
import { sql } from 'kysely';

export interface NodeRow {
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
  readonly is_test: boolean;
  readonly external: boolean;
}

export const NODE_COLUMNS = sql.raw('n.id, n.name, n.qualified_name, n.kind, n.language, n.file, n.start_line, n.end_line, n.signature, n.doc, n.is_test, n.external');

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
    isTest: row.is_test,
    external: row.external,
  };
}

export interface EdgeRow {
  readonly source: string;
  readonly target: string;
  readonly type: string;
  readonly confidence: number;
  readonly provenance: string;
  readonly line: number;
}

export const EDGE_COLUMNS = sql.raw('s.id AS source, x.id AS target, e.type, e.confidence, e.provenance, e.line');

export function toEdge(row: EdgeRow): GraphEdge {
  return { source: row.source, target: row.target, type: row.type, confidence: row.confidence, provenance: row.provenance as Provenance, line: row.line };
}

export interface FileRow {
  readonly path: string;
  readonly language: string;
  readonly content_hash: string;
  readonly size_bytes: number;
  readonly indexed_at: number;
  readonly syntax_errors: number;
}

export const FILE_COLUMNS = sql.raw('path, language, content_hash, size_bytes::float8 AS size_bytes, indexed_at::float8 AS indexed_at, syntax_errors');

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

/** Lower-case ASCII only, as name lookups compare (`exact_ci`, `prefix`, `substring`). */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}
