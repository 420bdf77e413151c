import type { GraphStore, TextColumn } from '@knowing/graph';
import type { PostgresPool } from 'kysely';
import type { CacheNoteLimit } from '@knowing/graph/store-kit';

/**
 * Options of {@link createPostgresStore}. Give either `connectionString` or `pool`. Defaults
 * are in {@link POSTGRES_STORE_DEFAULTS}.
 *
 * @example
 * ```ts
 * const options: PostgresStoreOptions = {
 *   connectionString: 'postgres://knowing@db.internal:5432/knowing',
 *   repository: 'github.com/acme/shop',
 * };
 * ```
 */
export interface PostgresStoreOptions {
  /**
   * A libpq-style URL (`postgres://user:password@host:5432/database`). The store opens its own
   * pool (at most {@link maxConnections} connections) and ends it on `close()`.
   */
  readonly connectionString?: string;
  /**
   * A `pg` Pool (or anything with its `connect()`), shared with the application. The store
   * never ends it: `close()` only stops using it.
   */
  readonly pool?: PostgresPool;
  /**
   * Which repository of the database this store reads and writes. Each repository lives in
   * its own schema, named after it (see {@link schemaNameOf}).
   * @default 'default'
   */
  readonly repository?: string;
  /**
   * The schema holding this repository's tables, instead of the one derived from
   * `repository` and `schemaPrefix`: a plain identifier (letters, digits, `_`), at most 63
   * characters.
   */
  readonly schema?: string;
  /**
   * Prefix of derived schema names.
   * @default 'knowing_'
   */
  readonly schemaPrefix?: string;
  /**
   * Open without creating or migrating the schema, and refuse writes (`STORE_READ_ONLY`).
   * The schema must exist and be current (`NO_INDEX` otherwise).
   * @default false
   */
  readonly readonly?: boolean;
  /**
   * Size of the pool the store opens for `connectionString` (ignored with `pool`).
   * @default 4
   */
  readonly maxConnections?: number;
  /**
   * How long opening a connection may take before failing, in milliseconds (ignored with `pool`).
   * @default 10000
   */
  readonly connectTimeoutMs?: number;
  /**
   * How long a batch waits for another writer of the same repository (or a migration) before
   * failing with `STORE_LOCKED`, in milliseconds.
   * @default 30000
   */
  readonly lockTimeoutMs?: number;
  /**
   * BM25 weights of the full-text columns used when a search does not pass its own.
   * @default { name: 10, concepts: 5, path: 4, qualified_name: 3, doc: 3, signature: 1 }
   */
  readonly columnWeights?: Readonly<Partial<Record<TextColumn, number>>>;
  /**
   * Note kinds that are caches, each with its bound: writing such a note deletes the oldest
   * notes of its kind (by `updatedAt`) beyond the bound, in the same transaction.
   * @default { context_pack: { maxCount: 200, maxBytes: 33554432 } }
   */
  readonly cacheNotes?: Readonly<Record<string, CacheNoteLimit>>;
}

/**
 * What the PostgreSQL store offers beyond {@link GraphStore}.
 *
 * @example
 * ```ts
 * const known = await store.fileHashes();
 * const changed = files.filter((f) => known.get(f.path) !== f.contentHash);
 * ```
 */
export interface PostgresExtras {
  /** The repository name the store was opened for. */
  readonly repository: string;
  /** The schema holding its tables. */
  readonly schema: string;
  /** Schema version of the repository's tables (the number of migrations applied). */
  readonly schemaVersion: number;
  /** True when opened with `readonly: true`. */
  readonly readonly: boolean;
  /** The knowing that last wrote the repository (`knowing X.Y.Z`), or null. */
  readonly writtenBy: string | null;
  /** Content hash of every indexed file, keyed by repo-relative path. */
  fileHashes(): Promise<Map<string, string>>;
  /**
   * Bring every kind of {@link PostgresStoreOptions.cacheNotes} within its bound now (writes do
   * so for their own kind); returns how many notes were deleted.
   */
  pruneCacheNotes(): Promise<number>;
}

/**
 * The PostgreSQL store: a {@link GraphStore} plus {@link PostgresExtras}.
 *
 * @example
 * ```ts
 * const store: PostgresGraphStore = await createPostgresStore({ connectionString, repository: 'shop' });
 * ```
 */
export type PostgresGraphStore = GraphStore & PostgresExtras;

/** The bound of one cache note kind; shared by every knowing store. */
export type { CacheNoteLimit };
