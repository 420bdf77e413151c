import { ErrorCode, type TextColumn } from '@knowing/graph';
import { cacheBounds, mergeColumnWeights, type CacheBound } from '@knowing/graph/store-kit';
import { DEFAULT_COLUMN_WEIGHTS, SQLITE_STORE_DEFAULTS } from './defaults.js';
import { SOURCE, storeError } from './errors.js';
import type { OpenSettings } from './open.js';
import type { SqliteStoreOptions } from './types.js';

/** SQLite reads a negative LIMIT as "no limit". */
export const NO_LIMIT = -1;

export interface StoreSettings extends OpenSettings {
  readonly columnWeights: Record<TextColumn, number>;
  readonly cacheNotes: ReadonlyMap<string, CacheBound>;
  readonly cacheWriteTimeoutMs: number;
}

export function resolveOptions(options: SqliteStoreOptions): StoreSettings {
  const fail = (what: string): never => {
    throw storeError(ErrorCode.InvalidArgument, `createSqliteStore: ${what}`, 'see SqliteStoreOptions for valid values');
  };
  if (typeof options !== 'object' || options === null) fail('options must be an object with a path');
  if (typeof options.path !== 'string' || options.path.length === 0) fail('path must be a non-empty string');
  const readonly = options.readonly ?? SQLITE_STORE_DEFAULTS.readonly;
  if (readonly && options.path === ':memory:') fail('a read-only in-memory store would always be empty; pass a file path');
  const count = (value: number | undefined, fallback: number, name: string): number => {
    const v = value ?? fallback;
    if (!Number.isInteger(v) || v < 0) fail(`${name} must be a non-negative integer, got ${String(v)}`);
    return v;
  };
  return {
    path: options.path,
    readonly,
    busyTimeoutMs: count(options.busyTimeoutMs, SQLITE_STORE_DEFAULTS.busyTimeoutMs, 'busyTimeoutMs'),
    cacheSizeKib: count(options.cacheSizeKib, SQLITE_STORE_DEFAULTS.cacheSizeKib, 'cacheSizeKib'),
    mmapSizeBytes: count(options.mmapSizeBytes, SQLITE_STORE_DEFAULTS.mmapSizeBytes, 'mmapSizeBytes'),
    walLimitBytes: count(options.walLimitBytes, SQLITE_STORE_DEFAULTS.walLimitBytes, 'walLimitBytes'),
    columnWeights: mergeColumnWeights(DEFAULT_COLUMN_WEIGHTS, options.columnWeights, 'createSqliteStore: columnWeights', SOURCE),
    cacheNotes: cacheBounds(options.cacheNotes ?? SQLITE_STORE_DEFAULTS.cacheNotes, fail),
    cacheWriteTimeoutMs: count(options.cacheWriteTimeoutMs, SQLITE_STORE_DEFAULTS.cacheWriteTimeoutMs, 'cacheWriteTimeoutMs'),
  };
}

/** Filters that take a list are bound as one JSON array (json_each), so statements stay prepared. */
export function jsonList(values: readonly string[] | undefined): string | null {
  return values === undefined ? null : JSON.stringify(values);
}
