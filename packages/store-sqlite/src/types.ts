import type { GraphStore, TextColumn } from '@knowing/graph';

/**
 * Options of {@link createSqliteStore}. Defaults are in {@link SQLITE_STORE_DEFAULTS}.
 *
 * @example
 * ```ts
 * const options: SqliteStoreOptions = { path: '.knowing/graph.db', busyTimeoutMs: 10_000 };
 * ```
 */
export interface SqliteStoreOptions {
  /**
   * Database file, or `':memory:'` for a private in-memory store. A missing parent
   * directory is created.
   */
  readonly path: string;
  /**
   * Open without migrating and refuse writes. The file must exist and hold a knowing index.
   * @default false
   */
  readonly readonly?: boolean;
  /**
   * How long a write waits for another process's write lock before failing with
   * `STORE_LOCKED`, in milliseconds.
   * @default 5000
   */
  readonly busyTimeoutMs?: number;
  /**
   * SQLite page cache per connection, in KiB.
   * @default 65536 (64 MiB)
   */
  readonly cacheSizeKib?: number;
  /**
   * Bytes of the file SQLite may memory-map for reads; 0 disables mmap.
   * @default 268435456 (256 MiB)
   */
  readonly mmapSizeBytes?: number;
  /**
   * Size the write-ahead log is cut back to once its content is in the database file. A
   * first index writes the whole graph through the log in one transaction (hundreds of MB
   * on a large repository); without a limit the file keeps that size on disk.
   * @default 67108864 (64 MiB)
   */
  readonly walLimitBytes?: number;
  /**
   * bm25 weights of the full-text columns used when a search does not pass its own.
   * @default { name: 10, concepts: 5, path: 4, qualified_name: 3, doc: 3, signature: 1 }
   */
  readonly columnWeights?: Readonly<Partial<Record<TextColumn, number>>>;
}

/**
 * What the SQLite store offers beyond {@link GraphStore}.
 *
 * @example
 * ```ts
 * const known = await store.fileHashes();
 * const changed = files.filter((f) => known.get(f.path) !== f.contentHash);
 * ```
 */
export interface SqliteExtras {
  /** The database file as opened (`':memory:'` for in-memory stores). */
  readonly path: string;
  /** Schema version of the open database (the number of migrations applied). */
  readonly schemaVersion: number;
  /** True when opened with `readonly: true`. */
  readonly readonly: boolean;
  /**
   * Content hash of every indexed file, keyed by repo-relative path: what an incremental
   * indexer compares against to skip unchanged files.
   */
  fileHashes(): Promise<Map<string, string>>;
  /**
   * Compact the database: merge full-text segments, rebuild the file without free pages and
   * truncate the write-ahead log. Takes a while on large indexes; run it after a full index.
   */
  vacuum(): Promise<void>;
}

/**
 * The SQLite store: a {@link GraphStore} plus {@link SqliteExtras}.
 *
 * @example
 * ```ts
 * const store: SqliteGraphStore = await createSqliteStore({ path: ':memory:' });
 * ```
 */
export type SqliteGraphStore = GraphStore & SqliteExtras;
