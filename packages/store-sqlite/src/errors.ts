import { ErrorCode, KnowingError } from '@knowing/graph';

const SOURCE = 'store-sqlite';

/** A KnowingError raised by this package. */
export function storeError(code: ErrorCode, message: string, hint?: string, cause?: unknown): KnowingError {
  return new KnowingError(code, message, { source: SOURCE, hint, cause });
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

/**
 * Translate an error thrown by the driver into a KnowingError with a stable code and a
 * message naming the file and what to do. KnowingErrors pass through unchanged.
 */
export function translateError(error: unknown, ctx: ErrorContext, action: string): KnowingError {
  if (error instanceof KnowingError) return error;
  const code = sqliteCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (code === undefined) {
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
      'point knowing at another path, or delete the file and re-index',
      error,
    );
  }
  if (code.startsWith('SQLITE_CORRUPT')) {
    return storeError(
      ErrorCode.Corrupt,
      `${ctx.path} is corrupt (${detail}) during ${action}`,
      'delete the file and re-index with --full',
      error,
    );
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return storeError(
      ErrorCode.PathNotFound,
      `${ctx.path} cannot be opened (${detail})`,
      'check that the path exists and is accessible',
      error,
    );
  }
  if (code === 'SQLITE_FULL') {
    return storeError(ErrorCode.Internal, `${ctx.path}: disk full during ${action}`, 'free disk space and retry', error);
  }
  return storeError(ErrorCode.Internal, `${ctx.path}: ${action} failed: ${detail} (${code})`, 'this is a bug in knowing; please report it', error);
}
