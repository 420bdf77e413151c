import type { GraphStore, TextColumn } from '@knowing/graph';
import type { CacheNoteLimit } from '@knowing/graph/store-kit';

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
  /**
   * Note kinds that are caches, each with its bound. Writing such a note deletes the oldest
   * notes of its kind (by `updatedAt`) beyond the bound, in the same transaction, and waits
   * at most {@link cacheWriteTimeoutMs} for another writer's lock: a cache write only saves
   * later work, so its caller should rather skip it than wait.
   * @default { context_pack: { maxCount: 200, maxBytes: 33554432 } } (32 MiB)
   */
  readonly cacheNotes?: Readonly<Record<string, CacheNoteLimit>>;
  /**
   * How long a write of a note kind listed in {@link cacheNotes} waits for another process's
   * write lock before failing with `STORE_LOCKED`, in milliseconds.
   * @default 100
   */
  readonly cacheWriteTimeoutMs?: number;
}

/**
 * Result of {@link SqliteExtras.checkIntegrity}.
 *
 * @example
 * ```ts
 * const { ok, problems } = await store.checkIntegrity();
 * if (!ok) console.error(problems.join('\n'));
 * ```
 */
export interface IntegrityReport {
  readonly ok: boolean;
  /** The SQLite check that ran: `quick_check` (b-tree structure) or `integrity_check` (also indexes against tables). */
  readonly check: 'quick_check' | 'integrity_check';
  /** SQLite's descriptions of what is wrong (at most 100); empty when ok. */
  readonly problems: readonly string[];
  readonly ms: number;
}

/**
 * Result of {@link SqliteExtras.usage}: where the bytes of the index go.
 *
 * @example
 * ```ts
 * const { notes } = await store.usage();
 * const packs = notes.find((n) => n.kind === 'context_pack');
 * ```
 */
export interface StoreUsage {
  /** Bytes of the database file (0 for in-memory stores). */
  readonly fileBytes: number;
  /** Bytes of its write-ahead log. */
  readonly walBytes: number;
  /** Bytes in free pages: what {@link SqliteExtras.vacuum} gives back. */
  readonly freeBytes: number;
  /** Notes by kind, largest first. */
  readonly notes: readonly { readonly kind: string; readonly count: number; readonly bytes: number }[];
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
   * The knowing that last wrote the graph (`knowing X.Y.Z`), or null for files written before
   * knowing recorded it.
   */
  readonly writtenBy: string | null;
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
  /**
   * Run SQLite's own consistency check: `quick_check` (every page of every table and index,
   * about 5 ms per MB), or with `full` `integrity_check` (also every index against its
   * table, about 2.5 times longer). A damaged file is reported, not thrown.
   */
  checkIntegrity(options?: { readonly full?: boolean }): Promise<IntegrityReport>;
  /** Sizes of the file, its log, its free pages, and of the notes by kind. */
  usage(): Promise<StoreUsage>;
  /**
   * Bring every kind of {@link SqliteStoreOptions.cacheNotes} within its bound now (writes
   * do so for their own kind); returns how many notes were deleted.
   */
  pruneCacheNotes(): Promise<number>;
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

/** The bound of one cache note kind; shared by every knowing store. */
export type { CacheNoteLimit };
