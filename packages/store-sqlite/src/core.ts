import type Database from 'better-sqlite3';
import { ErrorCode } from '@knowing/graph';
import { storeError, translateError, type ErrorContext } from './errors.js';
import type { OpenDatabase } from './open.js';
import type { StoreSettings } from './options.js';
import type { BatchWriter } from './write.js';

/**
 * What the method groups of one open store share: the connection, its settings, the state
 * that outlives a call, and the guard every public method runs through.
 */
export interface StoreCore {
  readonly db: Database.Database;
  /** The path as shown in messages. */
  readonly path: string;
  readonly settings: StoreSettings;
  readonly ctx: ErrorContext;
  /** The knowing that last wrote the file; applyBatch records this build. */
  writtenBy: string | null;
  closed: boolean;
  /** Closed check, then driver errors → KnowingError; the result as a promise. */
  run<T>(action: string, fn: () => T): Promise<T>;
  /** The batch writer, or a `STORE_READ_ONLY` error naming `action`. */
  writable(action: string): BatchWriter;
  /** The batch writer, undefined when the store is read-only. */
  readonly writer: BatchWriter | undefined;
}

/** The core of a store opened on `opened`; `writer` is undefined when it is read-only. */
export function storeCore(opened: OpenDatabase, settings: StoreSettings, writer: BatchWriter | undefined): StoreCore {
  const { db, path } = opened;
  const core: StoreCore = {
    db,
    path,
    settings,
    ctx: { path, busyTimeoutMs: settings.busyTimeoutMs },
    writtenBy: opened.writtenBy,
    closed: false,
    writer,
    run<T>(action: string, fn: () => T): Promise<T> {
      try {
        if (core.closed) {
          throw storeError(ErrorCode.StoreClosed, `${path}: ${action} after the store was closed`, 'open a new store with createSqliteStore()');
        }
        return Promise.resolve(fn());
      } catch (error) {
        return Promise.reject(translateError(error, core.ctx, action));
      }
    },
    writable(action: string): BatchWriter {
      if (writer === undefined) {
        throw storeError(ErrorCode.ReadOnly, `${path} was opened read-only; cannot ${action}`, 'open the store without readonly: true to write');
      }
      return writer;
    },
  };
  return core;
}
