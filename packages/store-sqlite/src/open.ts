import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { ErrorCode } from '@knowing/graph';
import { storeError, translateError, type ErrorContext } from './errors.js';
import { KNOWING_APPLICATION_ID, SCHEMA_VERSION } from './version.js';

/** Resolved, validated options of one open. */
export interface OpenSettings {
  readonly path: string;
  readonly readonly: boolean;
  readonly busyTimeoutMs: number;
  readonly cacheSizeKib: number;
  readonly mmapSizeBytes: number;
  readonly walLimitBytes: number;
}

export interface OpenDatabase {
  readonly db: Database.Database;
  /** The path as shown in messages: absolute for files, `:memory:` otherwise. */
  readonly path: string;
  readonly schemaVersion: number;
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

/** Checks on the file system that give better messages than SQLite's CANTOPEN. */
function prepareLocation(path: string, readonly: boolean): void {
  let stats: ReturnType<typeof statSync> | undefined;
  try {
    stats = statSync(path);
  } catch {
    stats = undefined;
  }
  if (stats?.isDirectory()) {
    throw storeError(ErrorCode.NotADatabase, `${path} is a directory, not a database file`, `pass a file path such as ${resolve(path, 'graph.db')}`);
  }
  if (readonly) {
    if (stats === undefined) {
      throw storeError(ErrorCode.NoIndex, `no knowing index at ${path}`, 'run `knowing index` first, or check the path');
    }
    return;
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
function classify(header: Header, path: string, readonly: boolean): boolean {
  if (header.applicationId === KNOWING_APPLICATION_ID) {
    if (header.userVersion > SCHEMA_VERSION) {
      throw storeError(
        ErrorCode.SchemaTooNew,
        `${path} was written by schema v${header.userVersion}; this build reads up to v${SCHEMA_VERSION}`,
        'upgrade knowing or re-index with --full',
      );
    }
    if (header.userVersion < SCHEMA_VERSION) {
      if (readonly) {
        throw storeError(
          ErrorCode.NoIndex,
          `${path} holds schema v${header.userVersion}; this build needs v${SCHEMA_VERSION} and cannot migrate a read-only store`,
          'open it once without readonly to migrate, or re-index',
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
    'point knowing at another path; knowing will not modify this file',
  );
}

function applyPragmas(db: Database.Database, settings: OpenSettings): void {
  if (!settings.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`journal_size_limit = ${settings.walLimitBytes}`);
  }
  db.pragma('foreign_keys = ON');
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
  if (!memory) prepareLocation(path, settings.readonly);

  let db: Database.Database;
  try {
    db = new Database(path, { readonly: settings.readonly, fileMustExist: settings.readonly, timeout: settings.busyTimeoutMs });
  } catch (error) {
    throw translateError(error, ctx, 'opening the database');
  }
  try {
    const header = readHeader(db);
    const needsMigration = classify(header, path, settings.readonly);
    applyPragmas(db, settings);
    if (needsMigration) {
      // kysely (≈280 modules, most of a query process's start-up) is loaded only here: a
      // current file is recognised from its header pragmas alone.
      const { migrate } = await import('./migrations.js');
      await migrate(db);
    }
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    return { db, path, schemaVersion };
  } catch (error) {
    if (db.open) db.close();
    if (settings.readonly && sqliteCodeOf(error).startsWith('SQLITE_READONLY')) {
      // A WAL database can only be read by a process that can create the shared-memory
      // file beside it; SQLite says "readonly database", which reads as nonsense here.
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

function sqliteCodeOf(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : '';
}
