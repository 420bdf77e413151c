import { ErrorCode, type TextColumn } from '@knowing/graph';
import { DEFAULT_COLUMN_WEIGHTS, SQLITE_STORE_DEFAULTS, TEXT_COLUMNS } from './defaults.js';
import { storeError } from './errors.js';
import type { OpenSettings } from './open.js';
import type { CacheNoteLimit, SqliteStoreOptions } from './types.js';

/** SQLite reads a negative LIMIT as "no limit". */
export const NO_LIMIT = -1;

/** A cache kind's bound as SQL parameters: -1 for "no bound". */
export interface CacheBound {
  readonly maxCount: number;
  readonly maxBytes: number;
}

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
    columnWeights: mergeWeights(DEFAULT_COLUMN_WEIGHTS, options.columnWeights, 'createSqliteStore: columnWeights'),
    cacheNotes: cacheBounds(options.cacheNotes ?? SQLITE_STORE_DEFAULTS.cacheNotes, fail),
    cacheWriteTimeoutMs: count(options.cacheWriteTimeoutMs, SQLITE_STORE_DEFAULTS.cacheWriteTimeoutMs, 'cacheWriteTimeoutMs'),
  };
}

function cacheBounds(notes: Readonly<Record<string, CacheNoteLimit>>, fail: (what: string) => never): Map<string, CacheBound> {
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

export function mergeWeights(
  base: Readonly<Record<TextColumn, number>>,
  override: Readonly<Partial<Record<TextColumn, number>>> | undefined,
  where: string,
): Record<TextColumn, number> {
  const merged = { ...base };
  if (override === undefined) return merged;
  for (const [column, weight] of Object.entries(override)) {
    if (!TEXT_COLUMNS.includes(column as TextColumn)) {
      throw storeError(ErrorCode.InvalidArgument, `${where}: unknown column '${column}'`, `use one of ${TEXT_COLUMNS.join(', ')}`);
    }
    if (weight !== undefined) merged[column as TextColumn] = checkWeight(weight, column, where);
  }
  return merged;
}

export function checkWeight(weight: unknown, name: string, where: string): number {
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
    throw storeError(ErrorCode.InvalidArgument, `${where}: weight of '${name}' must be a finite number ≥ 0, got ${String(weight)}`);
  }
  return weight;
}

export function limitOf(limit: number | undefined, fallback: number, where: string): number {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 0) {
    throw storeError(ErrorCode.InvalidArgument, `${where}: limit must be a non-negative integer, got ${String(limit)}`);
  }
  return limit;
}

/** Filters that take a list are bound as one JSON array (json_each), so statements stay prepared. */
export function jsonList(values: readonly string[] | undefined): string | null {
  return values === undefined ? null : JSON.stringify(values);
}
