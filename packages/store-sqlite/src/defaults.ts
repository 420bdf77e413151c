import type { TextColumn } from '@knowing/graph';

/**
 * Default bm25 weight of each full-text column (the original system's tuned values): a hit
 * in a symbol's name counts ten times a hit in its signature.
 *
 * @example
 * ```ts
 * await store.search('retry', { columnWeights: { ...DEFAULT_COLUMN_WEIGHTS, doc: 6 } });
 * ```
 */
export const DEFAULT_COLUMN_WEIGHTS: Readonly<Record<TextColumn, number>> = Object.freeze({
  name: 10,
  concepts: 5,
  path: 4,
  qualified_name: 3,
  doc: 3,
  signature: 1,
});

/**
 * Defaults of {@link SqliteStoreOptions} (everything but `path`).
 *
 * @example
 * ```ts
 * const store = await createSqliteStore({ path, busyTimeoutMs: SQLITE_STORE_DEFAULTS.busyTimeoutMs * 2 });
 * ```
 */
export const SQLITE_STORE_DEFAULTS = Object.freeze({
  readonly: false,
  busyTimeoutMs: 5000,
  cacheSizeKib: 64 * 1024,
  mmapSizeBytes: 256 * 1024 * 1024,
  walLimitBytes: 64 * 1024 * 1024,
  columnWeights: DEFAULT_COLUMN_WEIGHTS,
});

/** Column order of the FTS5 table; bm25() takes weights in this order. */
export const TEXT_COLUMNS: readonly TextColumn[] = Object.freeze([
  'name',
  'concepts',
  'path',
  'qualified_name',
  'doc',
  'signature',
]);
