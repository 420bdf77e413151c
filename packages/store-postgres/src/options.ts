import { ErrorCode, type TextColumn } from '@knowing/graph';
import { cacheBounds, mergeColumnWeights, type CacheBound } from '@knowing/graph/store-kit';
import type { PostgresPool } from 'kysely';
import { POSTGRES_COLUMN_WEIGHTS, POSTGRES_STORE_DEFAULTS } from './defaults.js';
import { SOURCE, storeError } from './errors.js';
import { isPlainIdentifier, schemaNameOf } from './schema.js';
import type { PostgresStoreOptions } from './types.js';

export interface Settings {
  readonly connectionString: string | undefined;
  readonly pool: PostgresPool | undefined;
  readonly repository: string;
  readonly schema: string;
  readonly readonly: boolean;
  readonly maxConnections: number;
  readonly connectTimeoutMs: number;
  readonly lockTimeoutMs: number;
  readonly columnWeights: Record<TextColumn, number>;
  readonly cacheNotes: ReadonlyMap<string, CacheBound>;
}

export function resolveOptions(options: PostgresStoreOptions): Settings {
  const fail = (what: string): never => {
    throw storeError(ErrorCode.InvalidArgument, `createPostgresStore: ${what}`, 'see PostgresStoreOptions for valid values');
  };
  if (typeof options !== 'object' || options === null) fail('options must be an object with a connectionString or a pool');
  const { connectionString, pool } = options;
  if ((connectionString === undefined) === (pool === undefined)) fail('give exactly one of connectionString and pool');
  if (connectionString !== undefined && (typeof connectionString !== 'string' || connectionString === '')) fail('connectionString must be a non-empty string');
  if (pool !== undefined && typeof (pool as { connect?: unknown }).connect !== 'function') fail('pool must be a pg Pool (an object with connect())');
  const repository = options.repository ?? POSTGRES_STORE_DEFAULTS.repository;
  if (typeof repository !== 'string' || repository === '' || repository.includes('\0')) fail('repository must be a non-empty string');
  const prefix = options.schemaPrefix ?? POSTGRES_STORE_DEFAULTS.schemaPrefix;
  if (typeof prefix !== 'string' || !/^[a-z_][a-z0-9_]{0,39}$/.test(prefix)) fail(`schemaPrefix must be lower-case letters, digits and _ (at most 40), got ${JSON.stringify(prefix)}`);
  const schema = options.schema ?? schemaNameOf(repository, prefix);
  if (typeof schema !== 'string' || !isPlainIdentifier(schema)) fail(`schema must be letters, digits and _ (at most 63 bytes, not starting with a digit), got ${JSON.stringify(schema)}`);
  const count = (value: number | undefined, fallback: number, name: string, min = 0): number => {
    const v = value ?? fallback;
    if (!Number.isInteger(v) || v < min) fail(`${name} must be an integer ≥ ${min}, got ${String(v)}`);
    return v;
  };
  return {
    connectionString,
    pool,
    repository,
    schema,
    readonly: options.readonly ?? POSTGRES_STORE_DEFAULTS.readonly,
    maxConnections: count(options.maxConnections, POSTGRES_STORE_DEFAULTS.maxConnections, 'maxConnections', 1),
    connectTimeoutMs: count(options.connectTimeoutMs, POSTGRES_STORE_DEFAULTS.connectTimeoutMs, 'connectTimeoutMs'),
    lockTimeoutMs: count(options.lockTimeoutMs, POSTGRES_STORE_DEFAULTS.lockTimeoutMs, 'lockTimeoutMs'),
    columnWeights: mergeColumnWeights(POSTGRES_COLUMN_WEIGHTS, options.columnWeights, 'createPostgresStore: columnWeights', SOURCE),
    cacheNotes: cacheBounds(options.cacheNotes ?? POSTGRES_STORE_DEFAULTS.cacheNotes, fail),
  };
}

/** A list filter as a parameter: null for "no filter". */
export function listParam(values: readonly string[] | undefined): string[] | null {
  return values === undefined ? null : [...values];
}
