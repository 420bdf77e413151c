import { merkleRoot, type Snapshot, type WriteBatch, type WriteResult } from '@knowing/graph';
import { snapshotFromRow, type SnapshotRow } from '@knowing/graph/store-kit';
import { storeCore, type StoreCore } from './core.js';
import { translateError } from './errors.js';
import { sizeOf } from './files.js';
import { recordWriter } from './meta.js';
import { feedbackAndVocabulary, noteMethods } from './notes.js';
import { openDatabase } from './open.js';
import { resolveOptions } from './options.js';
import { edgeReads, graphScans, nodeReads } from './reads.js';
import { textSearches } from './search.js';
import type { IntegrityReport, SqliteGraphStore, SqliteStoreOptions, StoreUsage } from './types.js';
import { thisBuild } from './version.js';
import { validateBatch } from './validate.js';
import { createBatchWriter } from './write.js';

/**
 * Open the embedded SQLite store of one repository: creates the file (and its directory)
 * when missing, migrates older knowing schemas, and refuses files it cannot safely use with
 * a {@link KnowingError} (`STORE_NOT_A_DATABASE`, `STORE_SCHEMA_TOO_NEW`, `STORE_READ_ONLY`,
 * `STORE_LOCKED`, `PATH_NOT_FOUND`, `NO_INDEX`).
 *
 * @example
 * ```ts
 * import { createSqliteStore } from '@knowing/store-sqlite';
 *
 * const store = await createSqliteStore({ path: '.knowing/graph.db' });
 * await store.applyBatch({ files: [{ file, nodes, edges }] });
 * const hits = await store.search('name:"before_request" OR config', { limit: 10 });
 * await store.close();
 * ```
 */
export async function createSqliteStore(options: SqliteStoreOptions): Promise<SqliteGraphStore> {
  const settings = resolveOptions(options);
  const opened = await openDatabase(settings);
  const { db, path, schemaVersion } = opened;
  const readonly = settings.readonly;
  try {
    // Every group prepares its statements now: a store that opens can run all of them.
    const core = storeCore(opened, settings, readonly ? undefined : createBatchWriter(db, path));
    return {
      path,
      schemaVersion,
      readonly,
      get writtenBy() {
        return core.writtenBy;
      },
      ...nodeReads(core),
      ...edgeReads(core),
      ...graphScans(core),
      ...textSearches(core),
      ...noteMethods(core),
      ...feedbackAndVocabulary(core),
      ...snapshotReads(core),
      ...lifecycle(core),
    };
  } catch (error) {
    db.close();
    throw translateError(error, { path, busyTimeoutMs: settings.busyTimeoutMs }, 'preparing statements');
  }
}

/** The latest snapshot and the Merkle roots and file hashes it summarises. */
function snapshotReads({ db, run }: StoreCore): Pick<SqliteGraphStore, 'currentSnapshot' | 'packageRoots' | 'subgraphRoot' | 'fileHashes'> {
  const st = {
    snapshotLatest: db.prepare(
      'SELECT generation, id, root, created_at, node_count, edge_count FROM snapshots ORDER BY generation DESC LIMIT 1',
    ),
    packageRoots: db.prepare('SELECT package, root FROM merkle_packages').raw(),
    packageRootsOf: db.prepare('SELECT root FROM merkle_packages WHERE package IN (SELECT value FROM json_each(?))').pluck(),
    fileHashes: db.prepare('SELECT path, content_hash FROM files').raw(),
  };
  return {
    currentSnapshot: () =>
      run('currentSnapshot', (): Snapshot | null => {
        const row = st.snapshotLatest.get() as SnapshotRow | undefined;
        return row === undefined ? null : snapshotFromRow(row);
      }),

    packageRoots: () => run('packageRoots', () => new Map(st.packageRoots.all() as [string, string][])),

    subgraphRoot: (packages) =>
      run('subgraphRoot', () => merkleRoot(st.packageRootsOf.all(JSON.stringify([...new Set(packages)])) as string[])),

    fileHashes: () =>
      run('fileHashes', () => new Map(st.fileHashes.all() as [string, string][])),
  };
}

/** Writing batches, looking after the file (checks, sizes, compaction) and closing it. */
function lifecycle(core: StoreCore): Pick<SqliteGraphStore, 'applyBatch' | 'checkIntegrity' | 'usage' | 'vacuum' | 'close'> {
  const { db, path, settings, run, writable } = core;
  const noteUsage = db.prepare('SELECT kind, count(*) AS count, sum(length(value)) AS bytes FROM notes GROUP BY kind ORDER BY bytes DESC, kind');
  return {
    applyBatch: (batch: WriteBatch) =>
      run('applyBatch', (): WriteResult => {
        const w = writable('apply a batch');
        validateBatch(batch, path);
        const result = w.apply(batch);
        if (core.writtenBy !== thisBuild()) {
          try {
            recordWriter(db);
            core.writtenBy = thisBuild();
          } catch {
            // Who wrote the file only explains later errors; the batch itself is committed.
          }
        }
        return result;
      }),

    checkIntegrity: (options?: { readonly full?: boolean }) =>
      run('checkIntegrity', (): IntegrityReport => {
        const check = options?.full === true ? 'integrity_check' : 'quick_check';
        const started = performance.now();
        let problems: string[];
        try {
          const rows = db.pragma(`${check}(100)`) as Record<string, unknown>[];
          problems = rows.map((row) => String(Object.values(row)[0])).filter((line) => line !== 'ok');
        } catch (error) {
          // Damage SQLite meets before it can list it (a broken schema page) is a finding too.
          const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : '';
          if (!code.startsWith('SQLITE_CORRUPT') && code !== 'SQLITE_NOTADB') throw error;
          problems = [`${(error as Error).message} (${code})`];
        }
        return { ok: problems.length === 0, check, problems, ms: Math.round(performance.now() - started) };
      }),

    usage: () =>
      run('usage', (): StoreUsage => {
        const pageSize = db.pragma('page_size', { simple: true }) as number;
        const freePages = db.pragma('freelist_count', { simple: true }) as number;
        const notes = (noteUsage.all() as { kind: string; count: number; bytes: number | null }[]).map((row) => ({
          kind: row.kind,
          count: Number(row.count),
          bytes: Number(row.bytes ?? 0),
        }));
        const file = path === ':memory:' ? 0 : sizeOf(path);
        return { fileBytes: file, walBytes: path === ':memory:' ? 0 : sizeOf(`${path}-wal`), freeBytes: pageSize * freePages, notes };
      }),

    vacuum: () =>
      run('vacuum', () => {
        writable('vacuum');
        db.exec(`INSERT INTO nodes_fts (nodes_fts) VALUES ('optimize')`);
        db.exec('VACUUM');
        db.pragma('wal_checkpoint(TRUNCATE)');
      }),

    close: async () => {
      if (core.closed) return;
      core.closed = true;
      try {
        // Lets SQLite refresh planner statistics for the tables this connection used, if no
        // other process holds the write lock: a reader must not wait for a long index run.
        if (!settings.readonly) {
          db.pragma('busy_timeout = 0');
          db.pragma('optimize');
        }
      } catch {
        // Best effort: failing to optimise must not keep the file open.
      }
      db.close();
    },
  };
}
