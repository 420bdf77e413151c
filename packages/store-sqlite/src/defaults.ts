import type { TextColumn } from '@knowing/graph';
import type { CacheNoteLimit } from './types.js';

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
 * Default {@link SqliteStoreOptions.cacheNotes}: the engine's cached answers (`context_pack`
 * notes, a few hundred KB each, one per distinct task) keep the newest 200 and at most 32 MiB.
 *
 * @example
 * ```ts
 * const store = await createSqliteStore({ path, cacheNotes: { ...DEFAULT_CACHE_NOTES, context_pack: { maxCount: 50 } } });
 * ```
 */
export const DEFAULT_CACHE_NOTES: Readonly<Record<string, CacheNoteLimit>> = Object.freeze({
  context_pack: Object.freeze({ maxCount: 200, maxBytes: 32 * 1024 * 1024 }),
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
  cacheNotes: DEFAULT_CACHE_NOTES,
  cacheWriteTimeoutMs: 100,
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
