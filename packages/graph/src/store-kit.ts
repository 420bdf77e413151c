/**
 * What every {@link GraphStore} implementation does the same way, whatever its database: the
 * default full-text weights and cache bounds, the checks of their options, the mapping of
 * stored rows to contract values and the tally of feedback. The SQLite, PostgreSQL and memory
 * stores share these so that they agree on defaults, messages and results.
 *
 * @example
 * ```ts
 * import { STORE_COLUMN_WEIGHTS, mergeColumnWeights } from '@knowing/graph/store-kit';
 * const weights = mergeColumnWeights(STORE_COLUMN_WEIGHTS, options.columnWeights, 'createMyStore: columnWeights', 'my-store');
 * ```
 */
import { ErrorCode, KnowingError } from './errors.js';
import { LEXICAL_FIELDS } from './types.js';
import type { FeedbackTally, FileRecord, GraphEdge, GraphNode, LanguageId, LexicalField, NodeId, NodeKind, Provenance, Snapshot, TextColumn, TextHit } from './types.js';

/**
 * Default BM25 weight of each full-text column (the original system's tuned values): a hit in
 * a symbol's name counts ten times a hit in its signature.
 *
 * @example
 * ```ts
 * await store.search('retry', { columnWeights: { ...STORE_COLUMN_WEIGHTS, doc: 6 } });
 * ```
 */
export const STORE_COLUMN_WEIGHTS: Readonly<Record<TextColumn, number>> = Object.freeze({
  name: 10,
  concepts: 5,
  path: 4,
  qualified_name: 3,
  doc: 3,
  signature: 1,
});

/**
 * Column order of the full-text index; weights are passed to the database in this order.
 *
 * @example
 * ```ts
 * const weights = TEXT_COLUMNS.map((column) => merged[column]);
 * ```
 */
export const TEXT_COLUMNS: readonly TextColumn[] = Object.freeze(['name', 'concepts', 'path', 'qualified_name', 'doc', 'signature']);

/**
 * The bound of one cache note kind; a missing field means "no bound on that".
 *
 * @example
 * ```ts
 * const limit: CacheNoteLimit = { maxCount: 200, maxBytes: 32 * 1024 * 1024 };
 * ```
 */
export interface CacheNoteLimit {
  /** Notes of the kind kept, newest first. */
  readonly maxCount?: number;
  /** Total bytes of their values kept, newest first. */
  readonly maxBytes?: number;
}

/**
 * Default cache note bounds: the engine's cached answers (`context_pack` notes, a few hundred
 * KB each, one per distinct task) keep the newest 200 and at most 32 MiB.
 *
 * @example
 * ```ts
 * const cacheNotes = { ...STORE_CACHE_NOTES, context_pack: { maxCount: 50 } };
 * ```
 */
export const STORE_CACHE_NOTES: Readonly<Record<string, CacheNoteLimit>> = Object.freeze({
  context_pack: Object.freeze({ maxCount: 200, maxBytes: 32 * 1024 * 1024 }),
});

/**
 * A cache kind's bound as query parameters: -1 for "no bound".
 *
 * @example
 * ```ts
 * const bound: CacheBound = { maxCount: 200, maxBytes: -1 };
 * ```
 */
export interface CacheBound {
  readonly maxCount: number;
  readonly maxBytes: number;
}

/**
 * The `cacheNotes` option checked and turned into query parameters; `fail` throws the store's
 * own error for a malformed entry.
 *
 * @example
 * ```ts
 * const bounds = cacheBounds(options.cacheNotes ?? STORE_CACHE_NOTES, (what) => { throw new Error(what); });
 * ```
 */
export function cacheBounds(notes: Readonly<Record<string, CacheNoteLimit>>, fail: (what: string) => never): Map<string, CacheBound> {
  if (typeof notes !== 'object' || notes === null) fail('cacheNotes must be an object of note kind → { maxCount?, maxBytes? }');
  const bounds = new Map<string, CacheBound>();
  for (const [kind, limit] of Object.entries(notes)) {
    if (typeof limit !== 'object' || limit === null) fail(`cacheNotes.${kind} must be an object { maxCount?, maxBytes? }`);
    const bound = (value: number | undefined, name: string): number => {
      if (value === undefined) return -1;
      if (!Number.isInteger(value) || value < 0) fail(`cacheNotes.${kind}.${name} must be a non-negative integer, got ${String(value)}`);
      return value;
    };
    bounds.set(kind, { maxCount: bound(limit.maxCount, 'maxCount'), maxBytes: bound(limit.maxBytes, 'maxBytes') });
  }
  return bounds;
}

function invalidArgument(source: string, message: string, hint?: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source, hint });
}

/**
 * A search weight checked: a finite number ≥ 0, else `INVALID_ARGUMENT` from `source`.
 *
 * @example
 * ```ts
 * const weight = checkWeight(options.weight, 'name', 'search', 'my-store');
 * ```
 */
export function checkWeight(weight: unknown, name: string, where: string, source: string): number {
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
    throw invalidArgument(source, `${where}: weight of '${name}' must be a finite number ≥ 0, got ${String(weight)}`);
  }
  return weight;
}

/**
 * `base` with the weights `override` names, each checked; an unknown column is
 * `INVALID_ARGUMENT` from `source`.
 *
 * @example
 * ```ts
 * const weights = mergeColumnWeights(STORE_COLUMN_WEIGHTS, { doc: 6 }, 'search', 'my-store');
 * ```
 */
export function mergeColumnWeights(
  base: Readonly<Record<TextColumn, number>>,
  override: Readonly<Partial<Record<TextColumn, number>>> | undefined,
  where: string,
  source: string,
): Record<TextColumn, number> {
  const merged = { ...base };
  for (const [column, weight] of Object.entries(override ?? {})) {
    if (!TEXT_COLUMNS.includes(column as TextColumn)) {
      throw invalidArgument(source, `${where}: unknown column '${column}'`, `use one of ${TEXT_COLUMNS.join(', ')}`);
    }
    if (weight !== undefined) merged[column as TextColumn] = checkWeight(weight, column, where, source);
  }
  return merged;
}

/**
 * Field weights of a lexical search in {@link LEXICAL_FIELDS} order; every field weighs 1
 * unless `override` names it.
 *
 * @example
 * ```ts
 * const weights = lexicalFieldWeights({ name: 3 }, 'lexicalSearch', 'my-store'); // [3, 1, 1, 1, 1, 1]
 * ```
 */
export function lexicalFieldWeights(override: Readonly<Partial<Record<LexicalField, number>>> | undefined, where: string, source: string): number[] {
  const weights: Record<LexicalField, number> = { name: 1, path: 1, signature: 1, doc: 1, body: 1, members: 1 };
  for (const [field, weight] of Object.entries(override ?? {})) {
    if (!LEXICAL_FIELDS.includes(field as LexicalField)) {
      throw invalidArgument(source, `${where}: unknown field '${field}'`, `use one of ${LEXICAL_FIELDS.join(', ')}`);
    }
    if (weight !== undefined) weights[field as LexicalField] = checkWeight(weight, field, where, source);
  }
  return LEXICAL_FIELDS.map((field) => weights[field]);
}

/**
 * The symbols a lexical search is restricted to (`LexicalSearchOptions.ids`), or undefined for
 * all of them.
 *
 * @example
 * ```ts
 * const only = lexicalIds(options?.ids, 'lexicalSearch', 'my-store'); // Set { 'a1…', … } or undefined
 * ```
 */
export function lexicalIds(ids: readonly NodeId[] | undefined, where: string, source: string): ReadonlySet<NodeId> | undefined {
  if (ids === undefined) return undefined;
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
    throw invalidArgument(source, `${where}: ids must be an array of node ids`, 'pass the ids of the symbols to score, or leave ids out to search them all');
  }
  return new Set(ids);
}

/**
 * Per-field scores in {@link LEXICAL_FIELDS} order as a record (`TextHit.fields`).
 *
 * @example
 * ```ts
 * lexicalFieldRecord([2, 0, 0, 0, 1.5, 0]); // { name: 2, path: 0, signature: 0, doc: 0, body: 1.5, members: 0 }
 * ```
 */
export function lexicalFieldRecord(scores: readonly number[]): Record<LexicalField, number> {
  return Object.fromEntries(LEXICAL_FIELDS.map((field, f) => [field, scores[f] ?? 0])) as Record<LexicalField, number>;
}

/**
 * A node row as stores select it. Flags are booleans where the database has them and 0/1
 * where it has not (SQLite).
 *
 * @example
 * ```ts
 * const node = nodeFromRow(row as NodeRow);
 * ```
 */
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
  readonly is_test: boolean | number;
  readonly external: boolean | number;
}

/**
 * The {@link GraphNode} a {@link NodeRow} holds.
 *
 * @example
 * ```ts
 * const nodes = rows.map(nodeFromRow);
 * ```
 */
export function nodeFromRow(row: NodeRow): GraphNode {
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
    isTest: row.is_test === true || row.is_test === 1,
    external: row.external === true || row.external === 1,
  };
}

/**
 * An edge row joined with its endpoints' ids.
 *
 * @example
 * ```ts
 * const edge = edgeFromRow(row as EdgeRow);
 * ```
 */
export interface EdgeRow {
  readonly source: string;
  readonly target: string;
  readonly type: string;
  readonly confidence: number;
  readonly provenance: string;
  readonly line: number;
}

/**
 * The {@link GraphEdge} an {@link EdgeRow} holds.
 *
 * @example
 * ```ts
 * const edges = rows.map(edgeFromRow);
 * ```
 */
export function edgeFromRow(row: EdgeRow): GraphEdge {
  return { source: row.source, target: row.target, type: row.type, confidence: row.confidence, provenance: row.provenance as Provenance, line: row.line };
}

/**
 * A `files` row.
 *
 * @example
 * ```ts
 * const file = fileFromRow(row as FileRow);
 * ```
 */
export interface FileRow {
  readonly path: string;
  readonly language: string;
  readonly content_hash: string;
  readonly size_bytes: number;
  readonly indexed_at: number;
  readonly syntax_errors: number;
}

/**
 * The {@link FileRecord} a {@link FileRow} holds.
 *
 * @example
 * ```ts
 * const files = rows.map(fileFromRow);
 * ```
 */
export function fileFromRow(row: FileRow): FileRecord {
  return {
    path: row.path,
    language: row.language as LanguageId,
    contentHash: row.content_hash,
    sizeBytes: row.size_bytes,
    indexedAt: row.indexed_at,
    syntaxErrors: row.syntax_errors,
  };
}

/**
 * A `snapshots` row; counts may come back as numeric strings (PostgreSQL bigint).
 *
 * @example
 * ```ts
 * const snapshot = snapshotFromRow(row as SnapshotRow);
 * ```
 */
export interface SnapshotRow {
  readonly generation: number;
  readonly id: string;
  readonly root: string;
  readonly created_at: number;
  readonly node_count: number;
  readonly edge_count: number;
}

/**
 * The {@link Snapshot} a {@link SnapshotRow} holds.
 *
 * @example
 * ```ts
 * const snapshots = rows.map(snapshotFromRow);
 * ```
 */
export function snapshotFromRow(row: SnapshotRow): Snapshot {
  return {
    id: row.id,
    root: row.root,
    generation: Number(row.generation),
    createdAt: Number(row.created_at),
    nodeCount: Number(row.node_count),
    edgeCount: Number(row.edge_count),
  };
}

/**
 * Lower-case ASCII only, as name lookups compare (`exact_ci`, `prefix`, `substring`) and as
 * SQLite's lower() folds.
 *
 * @example
 * ```ts
 * asciiLower('ÄpfelReader'); // 'Äpfelreader'
 * ```
 */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/**
 * Feedback rows of a symbol, grouped by the neighbourhood root they were recorded under.
 *
 * @example
 * ```ts
 * const group: FeedbackGroup = { symbol: id, root: null, useful: 2, total: 3 };
 * ```
 */
export interface FeedbackGroup {
  readonly symbol: NodeId;
  readonly root: string | null;
  readonly useful: number;
  readonly total: number;
}

/**
 * The tally `feedbackFor` answers: groups stamped with a neighbourhood root other than the
 * symbol's current one are left out, because the feedback was about a neighbourhood that has
 * since changed.
 *
 * @example
 * ```ts
 * const tally = tallyFeedback(groups, options?.currentRoots);
 * ```
 */
export function tallyFeedback(groups: Iterable<FeedbackGroup>, currentRoots: ReadonlyMap<NodeId, string> | undefined): Map<NodeId, FeedbackTally> {
  const out = new Map<NodeId, FeedbackTally>();
  for (const group of groups) {
    const current = currentRoots?.get(group.symbol);
    if (group.root !== null && current !== undefined && group.root !== current) continue;
    const prev = out.get(group.symbol) ?? { useful: 0, notUseful: 0 };
    out.set(group.symbol, { useful: prev.useful + group.useful, notUseful: prev.notUseful + (group.total - group.useful) });
  }
  return out;
}

/**
 * A result limit checked: a non-negative integer, `fallback` when unset, else
 * `INVALID_ARGUMENT` from `source`.
 *
 * @example
 * ```ts
 * const limit = checkLimit(options?.limit, 30, 'search', 'my-store');
 * ```
 */
export function checkLimit<Fallback extends number | null>(limit: number | undefined, fallback: Fallback, where: string, source: string): number | Fallback {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 0) {
    throw invalidArgument(source, `${where}: limit must be a non-negative integer, got ${String(limit)}`);
  }
  return limit;
}

/**
 * Mixed-case words whose CamelCase split is noise (`SQLite` would become `SQ` + `Lite`). General
 * vocabulary of software, not tuned to any repository.
 */
const MIXED_CASE_WORDS: ReadonlySet<string> = new Set([
  'SQLite', 'OAuth', 'GraphQL', 'MySQL', 'PostgreSQL', 'NoSQL', 'IPv4', 'IPv6', 'iOS', 'macOS',
  'GitHub', 'GitLab', 'JavaScript', 'TypeScript', 'CoffeeScript',
]);

/**
 * CamelCase parts with each two adjacent parts that form a known mixed-case word joined again,
 * so every store splits identifiers alike (`SQ`, `Lite`, `Store` → `SQLite`, `Store`).
 *
 * @example
 * ```ts
 * joinMixedCaseWords(['SQ', 'Lite', 'Store']); // ['SQLite', 'Store']
 * ```
 */
export function joinMixedCaseWords(raw: readonly string[]): string[] {
  const parts: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const next = raw[i + 1];
    if (next !== undefined && MIXED_CASE_WORDS.has(raw[i]! + next)) {
      parts.push(raw[i]! + next);
      i++;
    } else {
      parts.push(raw[i]!);
    }
  }
  return parts;
}

const byCodeUnits = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/**
 * The order `search()` returns hits in, in every store: best score first (scores already
 * rounded to 1e-9), ties in source order (file, then start line), then by qualified name and id
 * — never by row numbers, which each store assigns its own way.
 *
 * @example
 * ```ts
 * hits.sort(compareSearchHits);
 * ```
 */
export function compareSearchHits(a: TextHit, b: TextHit): number {
  return (
    b.score - a.score ||
    byCodeUnits(a.node.file, b.node.file) ||
    a.node.startLine - b.node.startLine ||
    byCodeUnits(a.node.qualifiedName, b.node.qualifiedName) ||
    byCodeUnits(a.node.id, b.node.id)
  );
}
export { LEXICAL_FIELDS } from './types.js';
