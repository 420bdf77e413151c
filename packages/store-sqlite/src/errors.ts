import { basename, dirname } from 'node:path';
import { ErrorCode, KnowingError } from '@knowing/graph';

/** The source every error of this store names. */
export const SOURCE = 'store-sqlite';

/** A KnowingError raised by this package. */
export function storeError(code: ErrorCode, message: string, hint?: string, cause?: unknown): KnowingError {
  return new KnowingError(code, message, { source: SOURCE, hint, cause });
}

/**
 * How to throw an index away and build it again, as a command line: the whole `.knowing`
 * folder when the file is the default one inside it, else the file and its WAL companions.
 */
export function startOver(path: string): string {
  const dir = dirname(path);
  if (basename(dir) === '.knowing') return `rm -rf ${quoted(dir)} && knowing index ${quoted(dirname(dir))}`;
  const file = quoted(path);
  return `rm -f ${file} ${quoted(`${path}-wal`)} ${quoted(`${path}-shm`)} && knowing index --db ${file}`;
}

function quoted(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** What to do about a corrupt index. */
export function corruptHint(path: string): string {
  return `run \`knowing doctor --fix\` (moves the file aside and re-indexes), or start over: \`${startOver(path)}\``;
}

/** better-sqlite3's SqliteError carries the extended result code as a string. */
function sqliteCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** True for SQLite's "someone else holds the lock" results. */
export function isBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** Context for translating a driver error: which file, and how long we waited for locks. */
export interface ErrorContext {
  readonly path: string;
  readonly busyTimeoutMs: number;
}

const REBUILD = 'npm rebuild better-sqlite3 (pnpm: pnpm rebuild better-sqlite3)';

/**
 * better-sqlite3 loads its compiled binding (`better_sqlite3.node`) when the first database is
 * opened. When that fails the package manager did not build it for this Node.js: pnpm 10 skips
 * dependencies' install scripts unless approved, a Node.js upgrade changes the ABI, an install
 * copied from another OS or CPU does not load. Each gets a message naming the fix, not "a bug".
 */
export function nativeBindingError(error: unknown): KnowingError | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const message = error.message;
  const what = "better-sqlite3's native SQLite binding (better_sqlite3.node) cannot be loaded";
  if (message.includes('Could not locate the bindings file')) {
    return storeError(
      ErrorCode.Internal,
      `${what}: it was not built — its install script did not run (pnpm 10 runs dependencies' build scripts only once approved) or failed`,
      `with pnpm, run \`pnpm approve-builds\` and approve better-sqlite3, which builds it (or add it to onlyBuiltDependencies and run \`pnpm rebuild better-sqlite3\`); with npm, \`npm rebuild better-sqlite3\``,
      error,
    );
  }
  const versions = /NODE_MODULE_VERSION (\d+)[^]*?NODE_MODULE_VERSION (\d+)/.exec(message);
  if (versions) {
    return storeError(
      ErrorCode.Internal,
      `${what}: it was built for another Node.js (NODE_MODULE_VERSION ${versions[1]}; Node.js ${process.versions.node} needs ${versions[2]})`,
      `rebuild it with the Node.js that runs knowing: ${REBUILD}`,
      error,
    );
  }
  const missingFile = code === 'MODULE_NOT_FOUND' && message.includes('better_sqlite3.node');
  if (code === 'ERR_DLOPEN_FAILED' || missingFile) {
    const firstLine = message.split('\n')[0]!.trim();
    return storeError(
      ErrorCode.Internal,
      `${what}: ${firstLine}`,
      missingFile
        ? `reinstall or rebuild better-sqlite3: ${REBUILD}`
        : `it was built for another platform, CPU or C library, or a system library is missing; reinstall it on this machine, or ${REBUILD}`,
      error,
    );
  }
  return undefined;
}

/**
 * Translate an error thrown by the driver into a KnowingError with a stable code and a
 * message naming the file and what to do. KnowingErrors pass through unchanged.
 */
export function translateError(error: unknown, ctx: ErrorContext, action: string): KnowingError {
  if (error instanceof KnowingError) return error;
  const code = sqliteCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (code === undefined) {
    const binding = nativeBindingError(error);
    if (binding) return binding;
    return storeError(ErrorCode.Internal, `${ctx.path}: ${action} failed: ${detail}`, 'this is a bug in knowing; please report it', error);
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return storeError(
      ErrorCode.Locked,
      `${ctx.path} is locked by another writer; gave up on ${action} after waiting ${ctx.busyTimeoutMs} ms`,
      'wait for the other knowing process to finish, or raise busyTimeoutMs',
      error,
    );
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return storeError(
      ErrorCode.ReadOnly,
      `${ctx.path} cannot be written (${detail}) during ${action}`,
      'make the file and its directory writable, or open the store with readonly: true',
      error,
    );
  }
  if (code === 'SQLITE_NOTADB') {
    return storeError(
      ErrorCode.NotADatabase,
      `${ctx.path} is not a SQLite database`,
      `point knowing at another path; if it was a knowing index, its header is damaged: ${corruptHint(ctx.path)}`,
      error,
    );
  }
  if (code.startsWith('SQLITE_CORRUPT')) {
    return storeError(ErrorCode.Corrupt, `${ctx.path} is corrupt (${detail}) during ${action}`, corruptHint(ctx.path), error);
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return storeError(
      ErrorCode.PathNotFound,
      `${ctx.path} cannot be opened (${detail})`,
      'check that the path exists and is accessible',
      error,
    );
  }
  // SQLITE_IOERR_SHMSIZE: the -shm file could not be grown, which on open means no space is left.
  if (code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_SHMSIZE') {
    return storeError(ErrorCode.Internal, `${ctx.path}: disk full during ${action}`, 'free disk space and retry', error);
  }
  return storeError(ErrorCode.Internal, `${ctx.path}: ${action} failed: ${detail} (${code})`, 'this is a bug in knowing; please report it', error);
}
