import type { TextColumn } from '@knowing/graph';
import { STORE_CACHE_NOTES, STORE_COLUMN_WEIGHTS } from '@knowing/graph/store-kit';
import type { CacheNoteLimit } from './types.js';

/**
 * Default BM25 weight of each full-text column, the values every knowing store shares: a hit in
 * a symbol's name counts ten times a hit in its signature.
 *
 * @example
 * ```ts
 * await store.search('retry', { columnWeights: { ...POSTGRES_COLUMN_WEIGHTS, doc: 6 } });
 * ```
 */
export const POSTGRES_COLUMN_WEIGHTS: Readonly<Record<TextColumn, number>> = STORE_COLUMN_WEIGHTS;

/**
 * Default cache note bounds: the engine's cached answers (`context_pack` notes) keep the
 * newest 200 and at most 32 MiB per repository.
 *
 * @example
 * ```ts
 * const store = await createPostgresStore({ connectionString, cacheNotes: { context_pack: { maxCount: 50 } } });
 * ```
 */
export const POSTGRES_CACHE_NOTES: Readonly<Record<string, CacheNoteLimit>> = STORE_CACHE_NOTES;

/**
 * Defaults of {@link PostgresStoreOptions} (everything but the connection).
 *
 * @example
 * ```ts
 * const store = await createPostgresStore({ connectionString, lockTimeoutMs: POSTGRES_STORE_DEFAULTS.lockTimeoutMs * 6 });
 * ```
 */
export const POSTGRES_STORE_DEFAULTS = Object.freeze({
  repository: 'default',
  schemaPrefix: 'knowing_',
  readonly: false,
  maxConnections: 4,
  connectTimeoutMs: 10_000,
  lockTimeoutMs: 30_000,
  columnWeights: POSTGRES_COLUMN_WEIGHTS,
  cacheNotes: POSTGRES_CACHE_NOTES,
});
