// What openDatabase() checks and does on the file system around SQLite: refusing files that
// cannot be an index before SQLite writes to them, creating a new index so that it appears
// whole or not at all, and reading an index where SQLite cannot open it read-only.
import { constants, copyFileSync, linkSync, readFileSync, rmSync, statSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { ErrorCode } from '@knowing/graph';
import { storeError } from './errors.js';

/** What a non-regular file is, for messages. */
function kindOf(stats: Stats): string {
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isFIFO()) return 'named pipe';
  if (stats.isSocket()) return 'socket';
  return 'special file';
}

/** Size of a file, or 0 when it does not exist. */
export function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Refuse, before SQLite opens it (and, for a device such as /dev/null, creates a journal next
 * to it), a path that exists but cannot hold an index: a device, a pipe, or an empty file.
 * knowing creates an index only where no file exists, so an empty file is something else (a
 * placeholder, a truncated copy) and is left alone, unless its write-ahead log holds the data.
 */
export function refuseNonIndexFile(path: string, stats: Stats): void {
  if (!stats.isFile()) {
    throw storeError(
      ErrorCode.NotADatabase,
      `${path} is a ${kindOf(stats)}, not a knowing index`,
      'point knowing at a file path (knowing creates the file when it does not exist); nothing was written',
    );
  }
  if (stats.size === 0 && sizeOf(`${path}-wal`) === 0) {
    throw storeError(
      ErrorCode.NotADatabase,
      `${path} is an empty file, not a knowing index`,
      'point --db at a path that does not exist yet (knowing creates an index only where no file exists), or remove the empty file; nothing was written',
    );
  }
}

/**
 * Build a new database at a temporary path beside `path` with `build`, then move it into place
 * only if `path` still does not exist. Another process creating the same index at the same
 * time wins or loses as a whole, and a process killed while creating leaves no half-made (or
 * empty) file at `path`.
 */
export async function createWhole(path: string, options: Database.Options, build: (db: Database.Database) => Promise<void>): Promise<void> {
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.creating`;
  const db = new Database(temp, options);
  try {
    await build(db);
    // Closing the last connection checkpoints the log into the file and deletes it.
    db.close();
    try {
      linkSync(temp, path);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'EEXIST') return; // another process created it first: use theirs
      // A file system without hard links: an exclusive copy still never replaces a file.
      try {
        copyFileSync(temp, path, constants.COPYFILE_EXCL);
      } catch (copyError) {
        if ((copyError as { code?: string }).code !== 'EEXIST') throw copyError;
      }
    }
  } finally {
    if (db.open) db.close();
    for (const file of [temp, `${temp}-wal`, `${temp}-shm`, `${temp}-journal`]) rmSync(file, { force: true });
  }
}

/** The largest index read into memory when SQLite cannot open it read-only in place. */
const PRIVATE_COPY_LIMIT_BYTES = 1024 * 1024 * 1024;

/**
 * Whether a read-only open that failed may read a private copy instead: only when the file is
 * whole by itself (no write-ahead log with data beside it) and small enough to hold in memory.
 */
export function canReadPrivateCopy(path: string): boolean {
  return sizeOf(`${path}-wal`) === 0 && sizeOf(path) <= PRIVATE_COPY_LIMIT_BYTES;
}

/**
 * An in-memory, read-only copy of a database file. A WAL database can be opened in place only
 * by a process that can create its shared-memory file (`-shm`) beside it; in a read-only
 * folder or on a read-only mount nobody can, yet a checkpointed file is complete in itself.
 */
export function openPrivateCopy(path: string, options: Database.Options = {}): Database.Database {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unknown error';
    throw storeError(ErrorCode.PathNotFound, `${path} cannot be read (${code})`, 'check that this user may read the file', error);
  }
  // Bytes 18 and 19 of the header say "WAL" (2); an in-memory database must be told it uses
  // a rollback journal (1), which for a read-only copy changes nothing else.
  if (bytes.length >= 100 && bytes[18] === 2 && bytes[19] === 2) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
  return new Database(bytes, { ...options, readonly: true });
}
