/** The column lists the store's queries select, in the shape of the store-kit rows they map to. */
import { sql } from 'kysely';

/** Columns of a `NodeRow`, for a query whose nodes table is aliased `n`. */
export const NODE_COLUMNS = sql.raw('n.id, n.name, n.qualified_name, n.kind, n.language, n.file, n.start_line, n.end_line, n.signature, n.doc, n.is_test, n.external');

/** Columns of an `EdgeRow` for `edges e` joined with `nodes s` (source) and `nodes x` (target). */
export const EDGE_COLUMNS = sql.raw('s.id AS source, x.id AS target, e.type, e.confidence, e.provenance, e.line');

/** Columns of a `FileRow`; bigint sizes and times come back as float8 so they arrive as numbers. */
export const FILE_COLUMNS = sql.raw('path, language, content_hash, size_bytes::float8 AS size_bytes, indexed_at::float8 AS indexed_at, syntax_errors');
