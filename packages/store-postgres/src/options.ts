import { ErrorCode, LEXICAL_FIELDS, type LexicalField, type TextColumn } from '@knowing/graph';
import type { PostgresPool } from 'kysely';
import { POSTGRES_COLUMN_WEIGHTS, POSTGRES_STORE_DEFAULTS, TEXT_COLUMNS } from './defaults.js';
import { storeError } from './errors.js';
import { isPlainIdentifier, schemaNameOf } from './schema.js';
import type { CacheNoteLimit, PostgresStoreOptions } from './types.js';

export interface CacheBound {
  readonly maxCount: number;
  readonly maxBytes: number;
}

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
    columnWeights: mergeWeights(POSTGRES_COLUMN_WEIGHTS, options.columnWeights, 'createPostgresStore: columnWeights'),
    cacheNotes: cacheBounds(options.cacheNotes ?? POSTGRES_STORE_DEFAULTS.cacheNotes, fail),
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

function checkWeight(weight: unknown, name: string, where: string): number {
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
    throw storeError(ErrorCode.InvalidArgument, `${where}: weight of '${name}' must be a finite number ≥ 0, got ${String(weight)}`);
  }
  return weight;
}

export function mergeWeights(
  base: Readonly<Record<TextColumn, number>>,
  override: Readonly<Partial<Record<TextColumn, number>>> | undefined,
  where: string,
): Record<TextColumn, number> {
  const merged = { ...base };
  for (const [column, weight] of Object.entries(override ?? {})) {
    if (!TEXT_COLUMNS.includes(column as TextColumn)) {
      throw storeError(ErrorCode.InvalidArgument, `${where}: unknown column '${column}'`, `use one of ${TEXT_COLUMNS.join(', ')}`);
    }
    if (weight !== undefined) merged[column as TextColumn] = checkWeight(weight, column, where);
  }
  return merged;
}

export function lexicalWeights(override: Readonly<Partial<Record<LexicalField, number>>> | undefined, where: string): number[] {
  const weights: Record<LexicalField, number> = { name: 1, path: 1, signature: 1, doc: 1, body: 1, members: 1 };
  for (const [field, weight] of Object.entries(override ?? {})) {
    if (!LEXICAL_FIELDS.includes(field as LexicalField)) {
      throw storeError(ErrorCode.InvalidArgument, `${where}: unknown field '${field}'`, `use one of ${LEXICAL_FIELDS.join(', ')}`);
    }
    if (weight !== undefined) weights[field as LexicalField] = checkWeight(weight, field, where);
  }
  return LEXICAL_FIELDS.map((field) => weights[field]);
}

export function limitOf(limit: number | undefined, fallback: number | null, where: string): number | null {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 0) {
    throw storeError(ErrorCode.InvalidArgument, `${where}: limit must be a non-negative integer, got ${String(limit)}`);
  }
  return limit;
}

/** A list filter as a parameter: null for "no filter". */
export function listParam(values: readonly string[] | undefined): string[] | null {
  return values === undefined ? null : [...values];
}
