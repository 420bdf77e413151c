import { ErrorCode } from '@knowing/graph';
import type { Kysely, PostgresPool, PostgresPoolClient, RawBuilder } from 'kysely';
import { storeError, translateError, type Target } from './errors.js';
import type { Settings } from './options.js';
import type { Tables } from './tables.js';

/** Rows fetched per step by allNodes/allEdges. */
const PAGE_SIZE = 2000;

type Read = <R>(query: RawBuilder<R>) => Promise<R[]>;

/**
 * What the method groups of one open store share: the connection pool, the repository's
 * tables, the state that outlives a call, and the guards every public method runs through.
 */
export interface StoreCore {
  readonly db: Kysely<unknown>;
  readonly pool: PostgresPool;
  readonly t: Tables;
  readonly settings: Settings;
  readonly target: Target;
  /** The knowing that last wrote the schema; applyBatch records this build. */
  writtenBy: string | null;
  closed: boolean;
  /** Connections held by allNodes/allEdges iterations, released by close() if abandoned. */
  readonly streams: Map<PostgresPoolClient, { released: boolean }>;
  ensureOpen(action: string): void;
  /** Every public method runs through here: closed check, then driver errors → KnowingError. */
  run<T>(action: string, fn: () => Promise<T>): Promise<T>;
  writable(action: string): void;
  /** The rows of one statement on any pooled connection. */
  rows: Read;
  /** Several statements over one snapshot: readers see the graph before or after a batch, never between. */
  snapshotRead<T>(fn: (read: Read) => Promise<T>): Promise<T>;
}

export function storeCore(
  db: Kysely<unknown>,
  pool: PostgresPool,
  t: Tables,
  settings: Settings,
  target: Target,
  writtenBy: string | null,
): StoreCore {
  const ensureOpen = (action: string): void => {
    if (core.closed) throw storeError(ErrorCode.StoreClosed, `${target.where}: ${action} after the store was closed`, 'open a new store with createPostgresStore()');
  };
  const core: StoreCore = {
    db,
    pool,
    t,
    settings,
    target,
    writtenBy,
    closed: false,
    streams: new Map(),
    ensureOpen,
    async run<T>(action: string, fn: () => Promise<T>): Promise<T> {
      try {
        ensureOpen(action);
        return await fn();
      } catch (error) {
        throw translateError(error, target, action);
      }
    },
    writable(action: string): void {
      if (settings.readonly) {
        throw storeError(ErrorCode.ReadOnly, `${target.where} was opened read-only; cannot ${action}`, 'open the store without readonly: true to write');
      }
    },
    rows: async (query) => (await query.execute(db)).rows,
    snapshotRead: (fn) =>
      db
        .transaction()
        .setIsolationLevel('repeatable read')
        .setAccessMode('read only')
        .execute((trx) => fn(async (query) => (await query.execute(trx)).rows)),
  };
  return core;
}

/** The rows of `query`, mapped, from a cursor held open on one connection for the whole iteration. */
export function streamRows<R, T>(core: StoreCore, action: string, query: RawBuilder<R>, map: (row: R) => T): AsyncIterable<T> {
  const { db, pool, target, streams, ensureOpen } = core;
  return {
    async *[Symbol.asyncIterator]() {
      ensureOpen(action);
      const compiled = query.compile(db);
      let client: PostgresPoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw translateError(error, target, action);
      }
      const state = { released: false };
      streams.set(client, state);
      let inTransaction = false;
      try {
        // One snapshot for the whole iteration, however long the consumer takes.
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', []);
        inTransaction = true;
        await client.query(`DECLARE knowing_stream NO SCROLL CURSOR FOR ${compiled.sql}`, compiled.parameters);
        for (;;) {
          ensureOpen(action);
          const page = await client.query<R>(`FETCH ${PAGE_SIZE} FROM knowing_stream`, []);
          for (const row of page.rows) yield map(row);
          if (page.rows.length < PAGE_SIZE) break;
        }
        await client.query('COMMIT', []);
        inTransaction = false;
      } catch (error) {
        throw translateError(error, target, action);
      } finally {
        streams.delete(client);
        if (!state.released) {
          if (inTransaction) await client.query('ROLLBACK', []).catch(() => {});
          client.release();
        }
      }
    },
  };
}
