import type { TextColumn } from '@knowing/graph';
import { STORE_CACHE_NOTES, STORE_COLUMN_WEIGHTS } from '@knowing/graph/store-kit';
import type { CacheNoteLimit } from './types.js';

/**
 * Default bm25 weight of each full-text column, the values every knowing store shares: a hit
 * in a symbol's name counts ten times a hit in its signature.
 *
 * @example
 * ```ts
 * await store.search('retry', { columnWeights: { ...DEFAULT_COLUMN_WEIGHTS, doc: 6 } });
 * ```
 */
export const DEFAULT_COLUMN_WEIGHTS: Readonly<Record<TextColumn, number>> = STORE_COLUMN_WEIGHTS;

/**
 * Default {@link SqliteStoreOptions.cacheNotes}: the engine's cached answers (`context_pack`
 * notes, a few hundred KB each, one per distinct task) keep the newest 200 and at most 32 MiB.
 *
 * @example
 * ```ts
 * const store = await createSqliteStore({ path, cacheNotes: { ...DEFAULT_CACHE_NOTES, context_pack: { maxCount: 50 } } });
 * ```
 */
export const DEFAULT_CACHE_NOTES: Readonly<Record<string, CacheNoteLimit>> = STORE_CACHE_NOTES;

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
