import { merkleRoot, type Snapshot, type WriteBatch, type WriteResult } from '@knowing/graph';
import { snapshotFromRow, type SnapshotRow } from '@knowing/graph/store-kit';
import { Kysely, PostgresDialect, sql, type PostgresPool } from 'kysely';
import pg from 'pg';
import { storeCore, type StoreCore } from './core.js';
import { targetOf, translateError, type Target } from './errors.js';
import { META_WRITTEN_BY } from './migrations.js';
import { feedbackAndVocabulary, noteMethods } from './notes.js';
import { openSchema } from './open.js';
import { resolveOptions, type Settings } from './options.js';
import { edgeReads, nodeReads } from './reads.js';
import { textSearches } from './search.js';
import { tablesOf } from './tables.js';
import type { PostgresGraphStore, PostgresStoreOptions } from './types.js';
import { validateBatch } from './validate.js';
import { thisBuild } from './version.js';
import { writeBatch } from './write.js';

/**
 * Open the PostgreSQL store of one repository: connects, creates the repository's schema or
 * migrates it when older, and refuses what it cannot safely use with a {@link KnowingError}
 * (`NOT_FOUND` for an unreachable server or missing database, `STORE_SCHEMA_TOO_NEW`,
 * `STORE_NOT_A_DATABASE` for a schema that is not knowing's, `NO_INDEX` read-only without
 * an index, `STORE_READ_ONLY` without the privileges to create it). Many repositories share
 * a database, each in its own schema.
 *
 * @example
 * ```ts
 * import { createPostgresStore } from '@knowing/store-postgres';
 *
 * const store = await createPostgresStore({
 *   connectionString: 'postgres://knowing@localhost:5432/knowing',
 *   repository: 'github.com/acme/shop',
 * });
 * await store.applyBatch({ files: [{ file, nodes, edges }] });
 * const hits = await store.search('name:"before_request" OR config', { limit: 10 });
 * await store.close();
 * ```
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresGraphStore> {
  const settings = resolveOptions(options);
  const { schema, repository } = settings;
  const located = targetOf(settings.connectionString, settings.pool);
  const target: Target = { ...located, where: `repository '${repository}' (schema ${schema} of ${located.host}:${located.port}/${located.database})` };
  const pool = settings.pool ?? ownPool(settings);
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  const t = tablesOf(schema);

  let opened: Awaited<ReturnType<typeof openSchema>>;
  try {
    opened = await openSchema(db, t, settings);
  } catch (error) {
    if (settings.pool === undefined) await db.destroy().catch(() => {});
    throw translateError(error, target, 'opening the store');
  }

  const core = storeCore(db, pool, t, settings, target, opened.writtenBy);
  return {
    repository,
    schema,
    schemaVersion: opened.schemaVersion,
    readonly: settings.readonly,
    get writtenBy() {
      return core.writtenBy;
    },
    ...nodeReads(core),
    ...edgeReads(core),
    ...textSearches(core),
    ...noteMethods(core),
    ...feedbackAndVocabulary(core),
    ...snapshotReads(core),
    ...lifecycle(core),
  };
}

function ownPool(settings: Settings): PostgresPool {
  const created = new pg.Pool({
    connectionString: settings.connectionString,
    max: settings.maxConnections,
    connectionTimeoutMillis: settings.connectTimeoutMs,
  });
  // An idle connection the server closes (a restart) must not crash the process; the next
  // query opens a new one.
  created.on('error', () => {});
  return created;
}

/** The latest snapshot and the Merkle roots and file hashes it summarises. */
function snapshotReads({ t, run, rows }: StoreCore): Pick<PostgresGraphStore, 'currentSnapshot' | 'packageRoots' | 'subgraphRoot' | 'fileHashes'> {
  return {
    currentSnapshot: () =>
      run('currentSnapshot', async (): Promise<Snapshot | null> => {
        const [row] = await rows<SnapshotRow>(sql`
          SELECT generation, id, root, created_at::float8 AS created_at, node_count, edge_count FROM ${t.snapshots} ORDER BY generation DESC LIMIT 1`);
        return row === undefined ? null : snapshotFromRow(row);
      }),

    packageRoots: () =>
      run('packageRoots', async () => new Map((await rows<{ package: string; root: string }>(sql`SELECT package, root FROM ${t.merkle_packages}`)).map((r) => [r.package, r.root]))),

    subgraphRoot: (packages) =>
      run('subgraphRoot', async () => {
        const found = await rows<{ root: string }>(sql`SELECT root FROM ${t.merkle_packages} WHERE package = ANY(${[...new Set(packages)]}::text[])`);
        return merkleRoot(found.map((r) => r.root));
      }),

    fileHashes: () =>
      run('fileHashes', async () => new Map((await rows<{ path: string; content_hash: string }>(sql`SELECT path, content_hash FROM ${t.files}`)).map((r) => [r.path, r.content_hash]))),
  };
}

/**
 * Whether a batch changed enough of the graph that the planner's statistics are stale:
 * autovacuum's own rule (50 rows plus a tenth of the table), on nodes and edges.
 */
function rewroteMuch(result: WriteResult): boolean {
  const stale = (changed: number, rows: number): boolean => changed > 50 + rows / 10;
  return stale(result.nodesWritten + result.nodesDeleted, result.snapshot.nodeCount) || stale(result.edgesWritten + result.edgesDeleted, result.snapshot.edgeCount);
}

/**
 * Refresh the planner's statistics of the graph's tables. Right after a first index autovacuum
 * has not analysed them yet, and with no statistics BM25 over the lexical terms ran about 50
 * times slower on caddy (a nested loop over every node; 460 ms against 10 ms). A role that does
 * not own the tables gets a warning from PostgreSQL, not an error: the write stands either way.
 */
async function analyzeGraph({ db, t }: StoreCore): Promise<void> {
  try {
    await sql`ANALYZE ${t.nodes}, ${t.edges}, ${t.files}, ${t.search_docs}, ${t.lexical_docs}, ${t.lexical_terms}`.execute(db);
  } catch {
    // Statistics only make queries faster; autovacuum will gather them later.
  }
}

/** Writing batches, and closing. */
function lifecycle(core: StoreCore): Pick<PostgresGraphStore, 'applyBatch' | 'close'> {
  const { db, t, settings, target, run, writable, streams } = core;
  const { schema } = settings;
  return {
    applyBatch: (batch: WriteBatch) =>
      run('applyBatch', async (): Promise<WriteResult> => {
        writable('apply a batch');
        validateBatch(batch, target.where);
        const build = thisBuild();
        const result = await db.transaction().execute(async (trx) => {
          // Writers of one repository take turns; readers never wait (they read the last commit).
          await sql`SELECT set_config('lock_timeout', ${`${settings.lockTimeoutMs}ms`}, true)`.execute(trx);
          await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`knowing:${schema}`}, 0))`.execute(trx);
          const written = await writeBatch(trx, t, batch, target.where);
          if (core.writtenBy !== build) {
            await sql`
              INSERT INTO ${t.meta} (key, value) VALUES (${META_WRITTEN_BY}, ${build})
              ON CONFLICT (key) DO UPDATE SET value = excluded.value`.execute(trx);
          }
          return written;
        });
        core.writtenBy = build;
        if (rewroteMuch(result)) await analyzeGraph(core);
        return result;
      }),

    close: async () => {
      if (core.closed) return;
      core.closed = true;
      // Iterations the consumer abandoned hold a connection each: give them back (destroyed).
      for (const [client, state] of streams) {
        state.released = true;
        (client.release as (destroy?: boolean) => void)(true);
      }
      streams.clear();
      // A pool the caller passed is theirs to end.
      if (settings.pool === undefined) await db.destroy().catch(() => {});
    },
  };
}
