/**
 * The prepared statements of a writable connection, and the row helpers both batch writers
 * (the diffing one and the bulk load) share.
 */
import type Database from 'better-sqlite3';
import { ErrorCode, packageOf, type FileRecord, type RepoInfo, type WriteBatch } from '@knowing/graph';
import { EDGE_WIDTH, FTS_WIDTH, LEXICAL_WIDTH, NODE_WIDTH } from './batch.js';
import { storeError } from './errors.js';
import { rememberRemoved } from './fts-totals.js';

const NODE_VALUES = '@id, @name, @name_lower, @qualified_name, @kind, @language, @file, @package, @start_line, @end_line, @signature, @doc, @is_test, @external';
const NODE_FIELDS = 'id, name, name_lower, qualified_name, kind, language, file, package, start_line, end_line, signature, doc, is_test, external';

/** Rows per multi-row INSERT: one statement per chunk instead of one per row. */
const CHUNK = 32;

/**
 * Multi-row INSERT statements of rows of `width` values, by row count (1..CHUNK), prepared on
 * first use. Binding one flat array per chunk saves most of the per-statement cost of a bulk load.
 */
function bulkInsert(db: Database.Database, head: string, width: number) {
  const rowPlaceholder = `(${Array(width).fill('?').join(', ')})`;
  const bySize = new Map<number, Database.Statement>();
  const statement = (rows: number): Database.Statement => {
    let st = bySize.get(rows);
    if (st === undefined) {
      st = db.prepare(`${head} VALUES ${Array.from({ length: rows }, () => rowPlaceholder).join(', ')}`);
      bySize.set(rows, st);
    }
    return st;
  };
  /** Insert the rows of `flat`; returns the number of rows inserted. */
  return (flat: unknown[]): number => {
    let inserted = 0;
    const rows = flat.length / width;
    for (let at = 0; at < rows; at += CHUNK) {
      const count = Math.min(CHUNK, rows - at);
      inserted += statement(count).run(flat.slice(at * width, (at + count) * width)).changes;
    }
    return inserted;
  };
}

/** A prepared statement under a name declarations can print: better-sqlite3's typings keep their class private. */
interface Statement extends Database.Statement {}

function statements<K extends string>(table: Record<K, Statement>): Record<K, Statement> {
  return table;
}

/** Multi-row inserts of whole rows and what a bulk load checks first. */
function prepareBulkStatements(db: Database.Database) {
  return {
    nodesInsert: bulkInsert(db, `INSERT INTO nodes (seq, ${NODE_FIELDS})`, NODE_WIDTH),
    ftsInsertMany: bulkInsert(db, 'INSERT INTO nodes_fts (rowid, name, concepts, path, qualified_name, doc, signature)', FTS_WIDTH),
    lexicalInsertMany: bulkInsert(db, 'INSERT INTO lexical_fts (rowid, name, path, signature, doc, body, members)', LEXICAL_WIDTH),
    edgesInsert: bulkInsert(db, 'INSERT OR IGNORE INTO edges (src, type, dst, confidence, provenance, line, owner)', EDGE_WIDTH),
    // The bulk load dedupes edges itself: a duplicate here would be a bug, not a take-over.
    edgesInsertNew: bulkInsert(db, 'INSERT INTO edges (src, type, dst, confidence, provenance, line, owner)', EDGE_WIDTH),
    ...statements({
      graphEmpty: db.prepare('SELECT NOT EXISTS (SELECT 1 FROM nodes)').pluck(),
      secondaryIndexes: db.prepare(
        `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('nodes', 'edges') AND sql IS NOT NULL ORDER BY name`,
      ),
      maxSeq: db.prepare('SELECT coalesce(max(seq), 0) FROM nodes').pluck(),
    }),
  };
}

/** Single-row reads and writes of repos, files, nodes, full-text rows, owners and edges. */
function prepareRowStatements(db: Database.Database) {
  return statements({
    // Each FTS delete is preceded by its `remember` statement (see fts-totals.ts).
    lexicalRemember: db.prepare(rememberRemoved('lexical_fts', '?')),
    lexicalDelete: db.prepare('DELETE FROM lexical_fts WHERE rowid = ?'),
    nodesByIds: db.prepare(
      `SELECT seq, id, name, qualified_name, kind, language, file, start_line, end_line, signature, doc, is_test, external
       FROM nodes WHERE id IN (SELECT value FROM json_each(?))`,
    ),
    edgeTakeOver: db.prepare(
      `UPDATE edges SET confidence = ?, provenance = ?, line = ?, owner = ? WHERE src = ? AND type = ? AND dst = ? AND owner <> ?`,
    ),
    repoGet: db.prepare('SELECT id FROM repos WHERE slot = 1'),
    filePaths: db.prepare('SELECT path FROM files').pluck(),
    repoPut: db.prepare(
      `INSERT INTO repos (slot, id, root, commit_sha, indexed_at) VALUES (1, @id, @root, @commit, @indexedAt)
       ON CONFLICT (slot) DO UPDATE SET id = excluded.id, root = excluded.root, commit_sha = excluded.commit_sha, indexed_at = excluded.indexed_at`,
    ),
    fileUpsert: db.prepare(
      `INSERT INTO files (path, language, content_hash, size_bytes, indexed_at, syntax_errors, package)
       VALUES (@path, @language, @contentHash, @sizeBytes, @indexedAt, @syntaxErrors, @package)
       ON CONFLICT (path) DO UPDATE SET language = excluded.language, content_hash = excluded.content_hash,
         size_bytes = excluded.size_bytes, indexed_at = excluded.indexed_at, syntax_errors = excluded.syntax_errors`,
    ),
    fileDelete: db.prepare('DELETE FROM files WHERE path = ?'),
    nodesOfFile: db.prepare(
      `SELECT seq, id, name, qualified_name, kind, language, file, start_line, end_line, signature, doc, is_test, external
       FROM nodes WHERE file = ?`,
    ),
    nodeById: db.prepare(
      `SELECT seq, id, name, qualified_name, kind, language, file, package, start_line, end_line, signature, doc, is_test, external
       FROM nodes WHERE id = ?`,
    ),
    nodeInsert: db.prepare(`INSERT INTO nodes (${NODE_FIELDS}) VALUES (${NODE_VALUES})`),
    nodeUpdate: db.prepare(
      `UPDATE nodes SET name = @name, name_lower = @name_lower, qualified_name = @qualified_name, kind = @kind,
         language = @language, file = @file, package = @package, start_line = @start_line, end_line = @end_line,
         signature = @signature, doc = @doc, is_test = @is_test, external = @external
       WHERE seq = @seq`,
    ),
    nodesDeleteInFile: db.prepare('DELETE FROM nodes WHERE file = ?'),
    nodeDelete: db.prepare('DELETE FROM nodes WHERE seq = ?'),
    ftsInsert: db.prepare(
      `INSERT INTO nodes_fts (rowid, name, concepts, path, qualified_name, doc, signature)
       VALUES (@seq, @name, @concepts, @path, @qualified_name, @doc, @signature)`,
    ),
    ftsRemember: db.prepare(rememberRemoved('nodes_fts', '?')),
    ftsDelete: db.prepare('DELETE FROM nodes_fts WHERE rowid = ?'),
    ownerGet: db.prepare('SELECT id FROM owners WHERE name = ?').pluck(),
    ownerInsert: db.prepare('INSERT INTO owners (name) VALUES (?)'),
    ownerDelete: db.prepare('DELETE FROM owners WHERE name = ?'),
    edgesOfOwner: db.prepare('SELECT src, type, dst, confidence, provenance, line FROM edges WHERE owner = ?'),
    edgeUpdate: db.prepare(
      `UPDATE edges SET confidence = ?, provenance = ?, line = ?, owner = ? WHERE src = ? AND type = ? AND dst = ?`,
    ),
    edgeDelete: db.prepare('DELETE FROM edges WHERE src = ? AND type = ? AND dst = ?'),
  });
}

/** The batch's scratch tables (see TEMP_SCHEMA), Merkle roots, snapshots and totals. */
function prepareBookkeepingStatements(db: Database.Database) {
  return statements({
    pruneAdd: db.prepare('INSERT OR IGNORE INTO prune_candidates (seq) VALUES (?)'),
    prune: db.prepare(
      `DELETE FROM nodes WHERE seq IN (SELECT seq FROM prune_candidates) AND external = 1
         AND NOT EXISTS (SELECT 1 FROM edges WHERE src = nodes.seq)
         AND NOT EXISTS (SELECT 1 FROM edges WHERE dst = nodes.seq)`,
    ),
    pruneClear: db.prepare('DELETE FROM prune_candidates'),
    countersReset: db.prepare(`INSERT OR REPLACE INTO batch_counters (name, n) VALUES ('edges_deleted', 0)`),
    edgesDeletedCount: db.prepare(`SELECT n FROM batch_counters WHERE name = 'edges_deleted'`).pluck(),
    dirtyTake: db.prepare('SELECT package, type FROM merkle_dirty'),
    dirtyClear: db.prepare('DELETE FROM merkle_dirty'),
    // A package's nodes are the nodes of its files (files.package is indexed, nodes.package is not).
    groupLeaves: db.prepare(
      `SELECT s.id AS source, t.id AS target FROM files f
       JOIN nodes s ON s.file = f.path
       JOIN edges e ON e.src = s.seq AND e.type = @type
       JOIN nodes t ON t.seq = e.dst
       WHERE f.package = @package`,
    ),
    // Edges out of external placeholders (file '') form the package ''.
    groupLeavesExternal: db.prepare(
      `SELECT s.id AS source, t.id AS target FROM nodes s
       JOIN edges e ON e.src = s.seq AND e.type = @type
       JOIN nodes t ON t.seq = e.dst
       WHERE s.file = ''`,
    ),
    typeRootPut: db.prepare(
      `INSERT INTO merkle_types (package, type, root, leaves) VALUES (?, ?, ?, ?)
       ON CONFLICT (package, type) DO UPDATE SET root = excluded.root, leaves = excluded.leaves`,
    ),
    typeRootLeaves: db.prepare('SELECT leaves FROM merkle_types WHERE package = ? AND type = ?').pluck(),
    typeRootDelete: db.prepare('DELETE FROM merkle_types WHERE package = ? AND type = ?'),
    typeRootsOfPackage: db.prepare('SELECT root FROM merkle_types WHERE package = ?').pluck(),
    packageRootPut: db.prepare(
      `INSERT INTO merkle_packages (package, root) VALUES (?, ?) ON CONFLICT (package) DO UPDATE SET root = excluded.root`,
    ),
    packageRootDelete: db.prepare('DELETE FROM merkle_packages WHERE package = ?'),
    packageRootsAll: db.prepare('SELECT root FROM merkle_packages').pluck(),
    snapshotLatest: db.prepare(
      'SELECT generation, id, root, created_at, node_count, edge_count FROM snapshots ORDER BY generation DESC LIMIT 1',
    ),
    snapshotInsert: db.prepare(
      'INSERT INTO snapshots (generation, id, root, created_at, node_count, edge_count) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    countNodes: db.prepare('SELECT count(*) FROM nodes').pluck(),
    countEdges: db.prepare('SELECT count(*) FROM edges').pluck(),
  });
}

export type WriteStatements = ReturnType<typeof prepareBulkStatements> &
  ReturnType<typeof prepareRowStatements> &
  ReturnType<typeof prepareBookkeepingStatements>;

export function prepareWriteStatements(db: Database.Database): WriteStatements {
  return { ...prepareBulkStatements(db), ...prepareRowStatements(db), ...prepareBookkeepingStatements(db) };
}

/** A writable connection: its statements, and its path as shown in messages. */
export interface WriteConnection {
  readonly db: Database.Database;
  readonly path: string;
  readonly st: WriteStatements;
}

/**
 * A batch for another repository is refused, unless it deletes every stored file (and may
 * write them again): a rebuild under a new identity (a renamed or copied folder, a new git
 * origin) that leaves nothing of the old repository's files behind.
 */
export function putRepo({ st, path }: WriteConnection, repo: RepoInfo, batch: WriteBatch): void {
  const stored = st.repoGet.get() as { id: string } | undefined;
  if (stored !== undefined && stored.id !== repo.id && !deletesEveryFile(st, batch)) {
    throw storeError(
      ErrorCode.InvalidArgument,
      `${path} holds repository '${stored.id}' but the batch is for '${repo.id}'`,
      're-index in full to rebuild it under the new identity, or use one store file per repository',
    );
  }
  st.repoPut.run({ id: repo.id, root: repo.root, commit: repo.commit, indexedAt: repo.indexedAt });
}

function deletesEveryFile(st: WriteStatements, batch: WriteBatch): boolean {
  const deleted = new Set<string>(batch.deleteFiles ?? []);
  for (const file of st.filePaths.iterate() as IterableIterator<string>) if (!deleted.has(file)) return false;
  return true;
}

/** Upsert a file's record; returns its package. */
export function putFile(st: WriteStatements, file: FileRecord): string {
  const pkg = packageOf(file.path);
  st.fileUpsert.run({
    path: file.path,
    language: file.language,
    contentHash: file.contentHash,
    sizeBytes: file.sizeBytes,
    indexedAt: file.indexedAt,
    syntaxErrors: file.syntaxErrors,
    package: pkg,
  });
  return pkg;
}

export function ownerId(st: WriteStatements, name: string): number {
  const id = st.ownerGet.get(name) as number | undefined;
  return id ?? Number(st.ownerInsert.run(name).lastInsertRowid);
}
