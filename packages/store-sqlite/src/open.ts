import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { ErrorCode } from '@knowing/graph';
import { corruptHint, startOver, storeError, translateError, type ErrorContext } from './errors.js';
import { canReadPrivateCopy, createWhole, openPrivateCopy, refuseNonIndexFile } from './files.js';
import { readWrittenBy } from './meta.js';
import { createLatestSchema, isEmptyDatabase } from './schema.js';
import { KNOWING_APPLICATION_ID, SCHEMA_VERSION, thisBuild } from './version.js';

/** Resolved, validated options of one open. */
export interface OpenSettings {
  readonly path: string;
  readonly readonly: boolean;
  readonly busyTimeoutMs: number;
  readonly cacheSizeKib: number;
  readonly mmapSizeBytes: number;
  readonly walLimitBytes: number;
  /**
   * Path of a `better_sqlite3.node` to load instead of the one better-sqlite3 finds itself (its
   * `nativeBinding` option): for bundled applications, and for tests of a binding that fails.
   */
  readonly nativeBinding?: string;
}

export interface OpenDatabase {
  readonly db: Database.Database;
  /** The path as shown in messages: absolute for files, `:memory:` otherwise. */
  readonly path: string;
  readonly schemaVersion: number;
  /** The knowing that last wrote the file (`knowing X.Y.Z`), or null when it predates the record. */
  readonly writtenBy: string | null;
}

const MEMORY = ':memory:';

function errno(error: unknown): string {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : 'unknown error';
}

function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks on the file system that give better messages than SQLite's CANTOPEN, and refuse
 * paths SQLite would write to although they cannot be an index. Returns whether the file exists.
 */
function prepareLocation(path: string, readonly: boolean): boolean {
  let stats: ReturnType<typeof statSync> | undefined;
  try {
    stats = statSync(path);
  } catch {
    stats = undefined;
  }
  if (stats?.isDirectory()) {
    throw storeError(ErrorCode.NotADatabase, `${path} is a directory, not a database file`, `pass a file path such as ${resolve(path, 'graph.db')}`);
  }
  if (stats !== undefined) refuseNonIndexFile(path, stats);
  if (readonly) {
    if (stats === undefined) {
      throw storeError(ErrorCode.NoIndex, `no knowing index at ${path}`, 'run `knowing index` first, or check the path');
    }
    return true;
  }
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw storeError(
      ErrorCode.PathNotFound,
      `cannot create the directory ${dir} for ${path} (${errno(error)})`,
      'create it yourself or choose another path',
      error,
    );
  }
  // SQLite also needs the directory: WAL mode keeps -wal and -shm files next to the database.
  if (stats !== undefined && !isWritable(path)) {
    throw storeError(ErrorCode.ReadOnly, `${path} is read-only`, 'make it writable, or open the store with readonly: true');
  }
  if (!isWritable(dir)) {
    throw storeError(
      ErrorCode.ReadOnly,
      `the directory ${dir} of ${path} is read-only`,
      'choose a writable location, or open an existing index with readonly: true',
    );
  }
  return stats !== undefined;
}

interface Header {
  readonly applicationId: number;
  readonly userVersion: number;
  readonly tables: readonly string[];
}

function readHeader(db: Database.Database): Header {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const userVersion = db.pragma('user_version', { simple: true }) as number;
  const tables = (db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map(
    (r) => r.name,
  );
  return { applicationId, userVersion, tables };
}

/** Refuse files that are not ours, or ours but too new; returns whether migrations are needed. */
function classify(header: Header, path: string, readonly: boolean, db: Database.Database): boolean {
  if (header.applicationId === KNOWING_APPLICATION_ID) {
    if (header.userVersion > SCHEMA_VERSION) {
      // Re-indexing cannot help: this build cannot open the file to rebuild it.
      const writer = readWrittenBy(db);
      throw storeError(
        ErrorCode.SchemaTooNew,
        `${path} was written by ${writer ?? 'a newer knowing'} (schema v${header.userVersion}); this is ${thisBuild()}, which reads up to schema v${SCHEMA_VERSION}`,
        `upgrade knowing${writer ? ` to ${writer.replace(/^knowing /, '')} or later` : ''}, or start over with this version: \`${startOver(path)}\``,
      );
    }
    if (header.userVersion < SCHEMA_VERSION) {
      if (readonly) {
        throw storeError(
          ErrorCode.NoIndex,
          `${path} holds schema v${header.userVersion}; this build needs v${SCHEMA_VERSION} and cannot migrate a read-only store`,
          'run `knowing index` once where the file can be written (or open it once without readonly: true) to migrate it',
        );
      }
      return true;
    }
    return false;
  }
  if (header.applicationId === 0 && header.tables.length === 0) {
    if (readonly) {
      throw storeError(ErrorCode.NoIndex, `${path} is an empty database, not a knowing index`, 'run `knowing index` first');
    }
    return true;
  }
  const what =
    header.tables.length > 0
      ? `it holds another application's tables (${header.tables.slice(0, 5).join(', ')}${header.tables.length > 5 ? ', …' : ''})`
      : `its application id is ${header.applicationId}`;
  throw storeError(
    ErrorCode.NotADatabase,
    `${path} is a SQLite database but not a knowing index: ${what}`,
    'point knowing at its index (--db FILE, or the store path), or at a path that does not exist yet to create one; knowing did not modify this file',
  );
}

function applyPragmas(db: Database.Database, settings: OpenSettings): void {
  if (!settings.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`journal_size_limit = ${settings.walLimitBytes}`);
  }
  db.pragma('foreign_keys = ON');
  // Checks each b-tree cell against its page as it is read: a damaged page fails with
  // SQLITE_CORRUPT when touched instead of feeding garbage to a query or a write.
  db.pragma('cell_size_check = ON');
  db.pragma('temp_store = MEMORY');
  db.pragma(`cache_size = -${settings.cacheSizeKib}`);
  db.pragma(`mmap_size = ${settings.mmapSizeBytes}`);
  db.pragma(`busy_timeout = ${settings.busyTimeoutMs}`);
}

/**
 * Open (and if needed create and migrate) a knowing database. Every failure is a
 * KnowingError with a code saying what is wrong with the file.
 */
export async function openDatabase(settings: OpenSettings): Promise<OpenDatabase> {
  const memory = settings.path === MEMORY;
  const path = memory ? MEMORY : resolve(settings.path);
  const ctx: ErrorContext = { path, busyTimeoutMs: settings.busyTimeoutMs };
  const exists = memory ? false : prepareLocation(path, settings.readonly);
  if (!memory && !exists) {
    // A new index is built beside its path and moved into place whole (see createWhole).
    try {
      await createWhole(path, driverOptions(settings), async (db) => {
        applyPragmas(db, settings);
        await migrateToLatest(db);
      });
    } catch (error) {
      throw translateError(error, ctx, 'creating the database');
    }
  }

  let db: Database.Database;
  try {
    db = new Database(path, {
      readonly: settings.readonly,
      fileMustExist: settings.readonly,
      timeout: settings.busyTimeoutMs,
      ...(settings.nativeBinding !== undefined ? { nativeBinding: settings.nativeBinding } : {}),
    });
  } catch (error) {
    throw translateError(error, ctx, 'opening the database');
  }
  try {
    return await prepare(db, path, settings);
  } catch (error) {
    if (db.open) db.close();
    if (sqliteCodeOf(error) === 'SQLITE_NOTADB') {
      // In knowing's own folder the file was an index and is damaged. Anywhere else it is most
      // likely a file of the user's that a path named by mistake: never advise deleting it.
      if (basename(dirname(path)) === '.knowing') {
        throw storeError(ErrorCode.NotADatabase, `${path} is not a SQLite database any more: the index file is damaged`, corruptHint(path), error);
      }
      throw storeError(
        ErrorCode.NotADatabase,
        `${path} is not a SQLite database, so not a knowing index`,
        'point knowing at its index (--db FILE, or the store path), or at a path that does not exist yet to create one; nothing was written',
        error,
      );
    }
    if (settings.readonly && isReadOnlyOpenFailure(error)) {
      // A WAL database can only be opened in place by a process that can create the
      // shared-memory file beside it. In a read-only folder or on a read-only mount a
      // checkpointed file is complete by itself: read a private copy of it instead.
      if (canReadPrivateCopy(path)) {
        let copy: Database.Database | undefined;
        try {
          copy = openPrivateCopy(path, driverOptions(settings));
          return await prepare(copy, path, settings);
        } catch (copyError) {
          if (copy?.open) copy.close();
          throw translateError(copyError, ctx, 'opening the database');
        }
      }
      throw storeError(
        ErrorCode.ReadOnly,
        `${path} cannot be opened read-only: the index uses WAL, so SQLite must create ${path}-shm beside it, and ${dirname(path)} is not writable by this user`,
        'make the directory writable for this user, or copy the index to a writable location',
        error,
      );
    }
    throw translateError(error, ctx, 'opening the database');
  }
}

/** What every connection of this open passes to better-sqlite3 besides its mode. */
function driverOptions(settings: OpenSettings): Database.Options {
  return { timeout: settings.busyTimeoutMs, ...(settings.nativeBinding !== undefined ? { nativeBinding: settings.nativeBinding } : {}) };
}

/** Header checks, connection settings and pending migrations of an open connection. */
async function prepare(db: Database.Database, path: string, settings: OpenSettings): Promise<OpenDatabase> {
  const header = readHeader(db);
  const needsMigration = classify(header, path, settings.readonly, db);
  applyPragmas(db, settings);
  if (needsMigration) await migrateToLatest(db);
  const schemaVersion = db.pragma('user_version', { simple: true }) as number;
  return { db, path, schemaVersion, writtenBy: readWrittenBy(db) };
}

/**
 * Bring a connection to the latest schema. kysely (≈280 modules, most of a query process's
 * start-up) is loaded only to migrate a file an older build wrote: a current file is
 * recognised from its header pragmas alone, and an empty one gets the latest schema's
 * statements directly (see schema.ts).
 */
async function migrateToLatest(db: Database.Database): Promise<void> {
  if (isEmptyDatabase(db) && createLatestSchema(db)) return;
  const { migrate } = await import('./migrations.js');
  await migrate(db);
}

/** SQLite's ways of saying a read-only connection could not set up WAL's shared memory. */
function isReadOnlyOpenFailure(error: unknown): boolean {
  const code = sqliteCodeOf(error);
  return code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN');
}

function sqliteCodeOf(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : '';
}
