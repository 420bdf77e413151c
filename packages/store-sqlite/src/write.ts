import type Database from 'better-sqlite3';
import {
  ErrorCode,
  edgeKey,
  merkleRoot,
  packageOf,
  snapshotId,
  type FileRecord,
  type FileWrite,
  type GraphEdge,
  type GraphNode,
  type RepoInfo,
  type Snapshot,
  type WriteBatch,
  type WriteResult,
} from '@knowing/graph';
import { DirtyGroups, EDGE_WIDTH, FILE_OWNER, FTS_WIDTH, LEXICAL_WIDTH, NODE_WIDTH, PASS_OWNER, lastWins } from './batch.js';
import { planBulkLoad } from './bulk.js';
import { storeError } from './errors.js';
import { asciiLower } from './rows.js';
import { fileTextOf, ftsRowOf } from './text.js';

/**
 * Per-connection scratch state for a batch, kept in TEMP objects so it never reaches the
 * file. The triggers record what FK cascades do behind our back — which Merkle groups lost
 * an edge, which external nodes may have become orphans, how many edges went — so every way
 * a row can disappear (explicit delete, node cascade, owner cascade) is accounted for.
 */
const TEMP_SCHEMA = `
CREATE TEMP TABLE IF NOT EXISTS merkle_dirty (package TEXT NOT NULL, type TEXT NOT NULL, PRIMARY KEY (package, type)) WITHOUT ROWID;
CREATE TEMP TABLE IF NOT EXISTS prune_candidates (seq INTEGER PRIMARY KEY);
CREATE TEMP TABLE IF NOT EXISTS batch_counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;

-- The cascade deletes a node's out-edges after the node row is gone, so the edge trigger
-- below cannot find their package; record those groups while the node still exists.
-- (In-edges from other nodes need nothing here: their sources survive the cascade.)
CREATE TEMP TRIGGER IF NOT EXISTS knowing_node_deleting BEFORE DELETE ON main.nodes BEGIN
  INSERT OR IGNORE INTO merkle_dirty (package, type) SELECT OLD.package, type FROM edges WHERE src = OLD.seq;
END;

CREATE TEMP TRIGGER IF NOT EXISTS knowing_node_deleted AFTER DELETE ON main.nodes WHEN OLD.external = 0 BEGIN
  DELETE FROM nodes_fts WHERE rowid = OLD.seq;
  DELETE FROM lexical_fts WHERE rowid = OLD.seq;
END;

-- A node whose file (and so package) changed moves its out-edges to another Merkle group.
CREATE TEMP TRIGGER IF NOT EXISTS knowing_node_moved AFTER UPDATE OF package ON main.nodes
WHEN OLD.package <> NEW.package BEGIN
  INSERT OR IGNORE INTO merkle_dirty (package, type) SELECT OLD.package, type FROM edges WHERE src = NEW.seq;
  INSERT OR IGNORE INTO merkle_dirty (package, type) SELECT NEW.package, type FROM edges WHERE src = NEW.seq;
END;

CREATE TEMP TRIGGER IF NOT EXISTS knowing_edge_deleted AFTER DELETE ON main.edges BEGIN
  INSERT OR IGNORE INTO merkle_dirty (package, type) SELECT package, OLD.type FROM nodes WHERE seq = OLD.src;
  INSERT OR IGNORE INTO prune_candidates (seq) SELECT seq FROM nodes WHERE seq IN (OLD.src, OLD.dst) AND external = 1;
  UPDATE batch_counters SET n = n + 1 WHERE name = 'edges_deleted';
END;
`;

interface ExistingNode {
  readonly seq: number;
  readonly id: string;
  readonly name: string;
  readonly qualified_name: string;
  readonly kind: string;
  readonly language: string;
  readonly file: string;
  readonly start_line: number;
  readonly end_line: number;
  readonly signature: string;
  readonly doc: string;
  readonly is_test: number;
  readonly external: number;
}

interface ExistingEdge {
  readonly src: number;
  readonly type: string;
  readonly dst: number;
  readonly confidence: number;
  readonly provenance: string;
  readonly line: number;
}

/** Where a node id lives: its row and Merkle package, or null when it does not exist. */
interface Resolved {
  readonly seq: number;
  readonly pkg: string;
}

const NODE_VALUES = '@id, @name, @name_lower, @qualified_name, @kind, @language, @file, @package, @start_line, @end_line, @signature, @doc, @is_test, @external';
const NODE_FIELDS = 'id, name, name_lower, qualified_name, kind, language, file, package, start_line, end_line, signature, doc, is_test, external';

/**
 * Rows of a bulk load from which the secondary indexes of nodes and edges are dropped and
 * rebuilt after the insert (one sort per index instead of a B-tree insert per row): about
 * 10% of a 135K-row first index. Small loads gain nothing measurable, and the schema change
 * makes every prepared statement, of this connection and of readers, prepare again.
 */
const BULK_REINDEX_MIN_ROWS = 5000;

/** Nodes whose rows and full-text rows a bulk load builds and inserts at a time. */
const BULK_NODE_CHUNK = 1024;

/** Thrown inside the bulk transaction when the graph turned out not to be empty. */
const GRAPH_NOT_EMPTY = Symbol('graph not empty');

/** Rows per multi-row INSERT: one statement per chunk instead of one per row. */
const CHUNK = 32;

/**
 * Multi-row INSERT statements by row count (1..CHUNK), prepared on first use. Binding one
 * flat array per chunk saves most of the per-statement cost of a bulk load.
 */
function bulkInsert(db: Database.Database, head: string, rowPlaceholder: string) {
  const bySize = new Map<number, Database.Statement>();
  const statement = (rows: number): Database.Statement => {
    let st = bySize.get(rows);
    if (st === undefined) {
      st = db.prepare(`${head} VALUES ${Array.from({ length: rows }, () => rowPlaceholder).join(', ')}`);
      bySize.set(rows, st);
    }
    return st;
  };
  /** Insert rows of `width` values each from `flat`; returns the number of rows inserted. */
  return (flat: unknown[], width: number): number => {
    let inserted = 0;
    const rows = flat.length / width;
    for (let at = 0; at < rows; at += CHUNK) {
      const count = Math.min(CHUNK, rows - at);
      inserted += statement(count).run(flat.slice(at * width, (at + count) * width)).changes;
    }
    return inserted;
  };
}

function prepareStatements(db: Database.Database) {
  return {
    nodesInsert: bulkInsert(db, `INSERT INTO nodes (seq, ${NODE_FIELDS})`, `(${Array(NODE_WIDTH).fill('?').join(', ')})`),
    ftsInsertMany: bulkInsert(
      db,
      'INSERT INTO nodes_fts (rowid, name, concepts, path, qualified_name, doc, signature)',
      `(${Array(FTS_WIDTH).fill('?').join(', ')})`,
    ),
    lexicalInsertMany: bulkInsert(
      db,
      'INSERT INTO lexical_fts (rowid, name, path, signature, doc, body, members)',
      `(${Array(LEXICAL_WIDTH).fill('?').join(', ')})`,
    ),
    lexicalDelete: db.prepare('DELETE FROM lexical_fts WHERE rowid = ?'),
    edgesInsert: bulkInsert(
      db,
      'INSERT OR IGNORE INTO edges (src, type, dst, confidence, provenance, line, owner)',
      `(${Array(EDGE_WIDTH).fill('?').join(', ')})`,
    ),
    // The bulk load dedupes edges itself: a duplicate here would be a bug, not a take-over.
    edgesInsertNew: bulkInsert(
      db,
      'INSERT INTO edges (src, type, dst, confidence, provenance, line, owner)',
      `(${Array(EDGE_WIDTH).fill('?').join(', ')})`,
    ),
    graphEmpty: db.prepare('SELECT NOT EXISTS (SELECT 1 FROM nodes)').pluck(),
    secondaryIndexes: db.prepare(
      `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('nodes', 'edges') AND sql IS NOT NULL ORDER BY name`,
    ),
    maxSeq: db.prepare('SELECT coalesce(max(seq), 0) FROM nodes').pluck(),
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
    ftsDelete: db.prepare('DELETE FROM nodes_fts WHERE rowid = ?'),
    ownerGet: db.prepare('SELECT id FROM owners WHERE name = ?').pluck(),
    ownerInsert: db.prepare('INSERT INTO owners (name) VALUES (?)'),
    ownerDelete: db.prepare('DELETE FROM owners WHERE name = ?'),
    edgesOfOwner: db.prepare('SELECT src, type, dst, confidence, provenance, line FROM edges WHERE owner = ?'),
    edgeUpdate: db.prepare(
      `UPDATE edges SET confidence = ?, provenance = ?, line = ?, owner = ? WHERE src = ? AND type = ? AND dst = ?`,
    ),
    edgeDelete: db.prepare('DELETE FROM edges WHERE src = ? AND type = ? AND dst = ?'),
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
  };
}

export interface SnapshotRow {
  readonly generation: number;
  readonly id: string;
  readonly root: string;
  readonly created_at: number;
  readonly node_count: number;
  readonly edge_count: number;
}

export function toSnapshot(row: SnapshotRow): Snapshot {
  return {
    id: row.id,
    root: row.root,
    generation: row.generation,
    createdAt: row.created_at,
    nodeCount: row.node_count,
    edgeCount: row.edge_count,
  };
}

function nodeParams(node: GraphNode, pkg: string) {
  return {
    id: node.id,
    name: node.name,
    name_lower: asciiLower(node.name),
    qualified_name: node.qualifiedName,
    kind: node.kind,
    language: node.language,
    file: node.file,
    package: pkg,
    start_line: node.startLine,
    end_line: node.endLine,
    signature: node.signature,
    doc: node.doc,
    is_test: node.isTest ? 1 : 0,
    external: node.external ? 1 : 0,
  };
}

/** Fields the full-text row is built from; a change to anything else leaves the row alone. */
function sameText(row: ExistingNode, node: GraphNode): boolean {
  return (
    row.name === node.name &&
    row.qualified_name === node.qualifiedName &&
    row.file === node.file &&
    row.doc === node.doc &&
    row.signature === node.signature
  );
}

function sameNode(row: ExistingNode, node: GraphNode): boolean {
  return (
    sameText(row, node) &&
    row.kind === node.kind &&
    row.language === node.language &&
    row.start_line === node.startLine &&
    row.end_line === node.endLine &&
    row.is_test === (node.isTest ? 1 : 0) &&
    row.external === (node.external ? 1 : 0)
  );
}

/** The batch writer of one writable connection. */
export interface BatchWriter {
  apply(batch: WriteBatch): WriteResult;
}

export function createBatchWriter(db: Database.Database, path: string): BatchWriter {
  db.exec(TEMP_SCHEMA);
  const st = prepareStatements(db);

  function write(batch: WriteBatch): WriteResult {
    let nodesWritten = 0;
    let nodesInserted = 0;
    let nodesDeleted = 0;
    let edgesWritten = 0;
    let edgesInserted = 0;
    const dirty = new DirtyGroups();
    const resolved = new Map<string, Resolved | null>();
    const resolve = (id: string): Resolved | null => {
      let hit = resolved.get(id);
      if (hit === undefined) {
        const row = st.nodeById.get(id) as (ExistingNode & { package: string }) | undefined;
        hit = row === undefined ? null : { seq: row.seq, pkg: row.package };
        resolved.set(id, hit);
      }
      return hit;
    };
    st.countersReset.run();

    if (batch.repo !== undefined) putRepo(batch.repo, batch);

    // 1. Deleted files lose their record, nodes (edges cascade) and owned edges.
    for (const file of batch.deleteFiles ?? []) {
      nodesDeleted += st.nodesDeleteInFile.run(file).changes;
      st.ownerDelete.run(FILE_OWNER + file);
      st.fileDelete.run(file);
    }

    // 2. Written files: upsert their nodes, remove the ones that are gone.
    const writes = lastWins(batch.files, (w) => w.file.path);
    const seq = { next: Number(st.maxSeq.get()) + 1 };
    for (const w of writes) {
      const counts = writeFileNodes(w, resolved, seq);
      nodesWritten += counts.written;
      nodesInserted += counts.inserted;
      nodesDeleted += counts.deleted;
    }

    // 3. External placeholders. Upserted before any edge is written so edges to them resolve;
    // the end state equals the documented order because nothing in between removes them.
    for (const node of lastWins(batch.externalNodes, (n) => n.id)) {
      const existing = st.nodeById.get(node.id) as ExistingNode | undefined;
      let seq: number;
      if (existing === undefined) {
        // Nodes of the files above are all inserted, so the automatic rowid is fresh.
        seq = Number(st.nodeInsert.run(nodeParams(node, '')).lastInsertRowid);
        nodesWritten++;
        nodesInserted++;
      } else {
        seq = existing.seq;
        // Never downgrade a real symbol to a placeholder.
        if (existing.external === 1 && !sameNode(existing, node)) {
          st.nodeUpdate.run({ ...nodeParams(node, ''), seq });
          nodesWritten++;
        }
      }
      resolved.set(node.id, { seq, pkg: existing !== undefined && existing.external === 0 ? resolvePkg(existing) : '' });
      // A placeholder nothing points at is pruned below.
      st.pruneAdd.run(seq);
    }

    // 4. Edges: each owner's edge set is replaced (diffed, so unchanged edges are untouched).
    for (const w of writes) {
      const counts = replaceEdges(FILE_OWNER + w.file.path, w.edges, resolve, dirty);
      edgesWritten += counts.written;
      edgesInserted += counts.inserted;
    }
    for (const owned of lastWins(batch.ownedEdges, (o) => o.owner)) {
      const counts = replaceEdges(PASS_OWNER + owned.owner, owned.edges, resolve, dirty);
      edgesWritten += counts.written;
      edgesInserted += counts.inserted;
    }

    // 5. External nodes no edge touches any more.
    nodesDeleted += st.prune.run().changes;
    st.pruneClear.run();
    const edgesDeleted = Number(st.edgesDeletedCount.get() ?? 0);

    // 6. Merkle roots of the touched groups only, then the snapshot.
    for (const row of st.dirtyTake.all() as { package: string; type: string }[]) dirty.touched(row.package, row.type);
    st.dirtyClear.run();
    const snapshot = commitSnapshot(dirty, {
      changed: nodesWritten + nodesDeleted + edgesWritten + edgesDeleted > 0,
      nodeDelta: nodesInserted - nodesDeleted,
      edgeDelta: edgesInserted - edgesDeleted,
    });
    return { nodesWritten, edgesWritten, nodesDeleted, edgesDeleted, snapshot };
  }

  function resolvePkg(row: ExistingNode): string {
    return row.external === 1 || row.file === '' ? '' : packageOf(row.file);
  }

  /**
   * A batch for another repository is refused, unless it deletes every stored file (and may
   * write them again): a rebuild under a new identity (a renamed or copied folder, a new git
   * origin) that leaves nothing of the old repository's files behind.
   */
  function putRepo(repo: RepoInfo, batch: WriteBatch): void {
    const stored = st.repoGet.get() as { id: string } | undefined;
    if (stored !== undefined && stored.id !== repo.id && !deletesEveryFile(batch)) {
      throw storeError(
        ErrorCode.InvalidArgument,
        `${path} holds repository '${stored.id}' but the batch is for '${repo.id}'`,
        're-index in full to rebuild it under the new identity, or use one store file per repository',
      );
    }
    st.repoPut.run({ id: repo.id, root: repo.root, commit: repo.commit, indexedAt: repo.indexedAt });
  }

  function deletesEveryFile(batch: WriteBatch): boolean {
    const deleted = new Set<string>(batch.deleteFiles ?? []);
    for (const file of st.filePaths.iterate() as IterableIterator<string>) if (!deleted.has(file)) return false;
    return true;
  }

  /** Upsert a file's record; returns its package. */
  function putFile(file: FileRecord): string {
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

  function writeFileNodes(w: FileWrite, resolved: Map<string, Resolved | null>, seq: { next: number }) {
    let written = 0;
    let inserted = 0;
    let deleted = 0;
    const file = w.file;
    const pkg = putFile(file);
    const fileText = fileTextOf(file.path);
    const existing = new Map<string, ExistingNode>();
    for (const row of st.nodesOfFile.all(file.path) as ExistingNode[]) existing.set(row.id, row);
    const nodes = lastWins(w.nodes, (n) => n.id);

    // Ids not in this file yet may still exist elsewhere: a placeholder being resolved, or a
    // symbol that moved here. One query per file finds them.
    const elsewhere = new Map<string, ExistingNode>();
    const unknown = nodes.filter((n) => !existing.has(n.id)).map((n) => n.id);
    if (unknown.length > 0) {
      for (const row of st.nodesByIds.all(JSON.stringify(unknown)) as ExistingNode[]) elsewhere.set(row.id, row);
    }

    const newNodes: unknown[] = [];
    const newText: unknown[] = [];
    // A file write replaces the lexical documents of all its nodes (see FileWrite.lexical).
    const newLexical: unknown[] = [];
    const lexicalOf = (seq: number, node: GraphNode): void => {
      const doc = w.lexical?.get(node.id);
      if (doc !== undefined) newLexical.push(seq, doc.name, doc.path, doc.signature, doc.doc, doc.body, doc.members);
    };
    for (const node of nodes) {
      let row = existing.get(node.id);
      if (row !== undefined) existing.delete(node.id);
      else row = elsewhere.get(node.id);
      if (row === undefined) {
        const s = seq.next++;
        newNodes.push(s, node.id, node.name, asciiLower(node.name), node.qualifiedName, node.kind, node.language, node.file, pkg,
          node.startLine, node.endLine, node.signature, node.doc, node.isTest ? 1 : 0, 0);
        const text = ftsRowOf(node, fileText);
        newText.push(s, text.name, text.concepts, text.path, text.qualified_name, text.doc, text.signature);
        lexicalOf(s, node);
        resolved.set(node.id, { seq: s, pkg });
        written++;
        inserted++;
        continue;
      }
      resolved.set(node.id, { seq: row.seq, pkg });
      if (row.external !== 1) st.lexicalDelete.run(row.seq);
      lexicalOf(row.seq, node);
      if (sameNode(row, node)) continue;
      st.nodeUpdate.run({ ...nodeParams(node, pkg), seq: row.seq });
      written++;
      if (row.external === 1) {
        st.ftsInsert.run({ seq: row.seq, ...ftsRowOf(node, fileText) });
      } else if (!sameText(row, node)) {
        st.ftsDelete.run(row.seq);
        st.ftsInsert.run({ seq: row.seq, ...ftsRowOf(node, fileText) });
      }
    }
    // Removed before inserting, so a node deleted here never collides with a new one.
    // Nodes of this file absent from the write: their edges (in and out) go by cascade.
    for (const row of existing.values()) {
      deleted += st.nodeDelete.run(row.seq).changes;
      resolved.set(row.id, null);
    }
    if (newNodes.length > 0) {
      st.nodesInsert(newNodes, NODE_WIDTH);
      st.ftsInsertMany(newText, FTS_WIDTH);
    }
    if (newLexical.length > 0) st.lexicalInsertMany(newLexical, LEXICAL_WIDTH);
    return { written, inserted, deleted };
  }

  function ownerId(name: string): number {
    const id = st.ownerGet.get(name) as number | undefined;
    return id ?? Number(st.ownerInsert.run(name).lastInsertRowid);
  }

  function replaceEdges(
    owner: string,
    edges: readonly GraphEdge[],
    resolve: (id: string) => Resolved | null,
    dirty: DirtyGroups,
  ) {
    let written = 0;
    let inserted = 0;
    const oid = ownerId(owner);
    const existing = new Map<string, ExistingEdge>();
    for (const row of st.edgesOfOwner.all(oid) as ExistingEdge[]) existing.set(`${row.src}\0${row.type}\0${row.dst}`, row);

    const wanted = new Map<string, { edge: GraphEdge; src: Resolved; dst: number }>();
    for (const edge of edges) {
      const src = resolve(edge.source);
      const dst = resolve(edge.target);
      // An edge whose endpoint does not exist would dangle; the contract removes those.
      if (src === null || dst === null) continue;
      wanted.set(`${src.seq}\0${edge.type}\0${dst.seq}`, { edge, src, dst: dst.seq });
    }

    const fresh: unknown[] = [];
    const freshPkgs: string[] = [];
    for (const [key, { edge, src, dst }] of wanted) {
      const line = edge.line ?? 0;
      const old = existing.get(key);
      if (old !== undefined) {
        existing.delete(key);
        if (old.confidence === edge.confidence && old.provenance === edge.provenance && old.line === line) continue;
        st.edgeUpdate.run(edge.confidence, edge.provenance, line, oid, src.seq, edge.type, dst);
        written++;
        continue;
      }
      fresh.push(src.seq, edge.type, dst, edge.confidence, edge.provenance, line, oid);
      freshPkgs.push(src.pkg);
      dirty.added(src.pkg, edge.type, edge.source, edge.target);
      written++;
    }
    if (fresh.length > 0) {
      inserted = st.edgesInsert(fresh, EDGE_WIDTH);
      if (inserted < fresh.length / EDGE_WIDTH) {
        // Some of these (source, target, type) edges already belong to another owner: the
        // last writer takes them over (one row per edge identity; the Merkle leaf is unchanged).
        for (let i = 0, row = 0; i < fresh.length; i += EDGE_WIDTH, row++) {
          const took = st.edgeTakeOver.run(fresh[i + 3], fresh[i + 4], fresh[i + 5], oid, fresh[i], fresh[i + 1], fresh[i + 2], oid);
          // Its leaf was already in the group: the added leaves no longer describe it alone.
          if (took.changes > 0) dirty.touched(freshPkgs[row]!, fresh[i + 1] as string);
        }
      }
    }
    // The owner's edges that are gone; the delete trigger marks their Merkle groups.
    for (const old of existing.values()) st.edgeDelete.run(old.src, old.type, old.dst);
    return { written, inserted };
  }

  function recomputeRoots(dirty: DirtyGroups): void {
    const packages = new Set<string>();
    for (const group of dirty.groups()) {
      packages.add(group.pkg);
      let leaves: readonly string[];
      if (group.complete && st.typeRootLeaves.get(group.pkg, group.type) === undefined) {
        // A group that had no edges before this batch and lost none: its leaves are exactly
        // the edges added now, already hashed; no need to read them back.
        leaves = group.added;
      } else {
        const all: string[] = [];
        const query = group.pkg === '' ? st.groupLeavesExternal : st.groupLeaves;
        const params = group.pkg === '' ? { type: group.type } : { package: group.pkg, type: group.type };
        for (const row of query.iterate(params) as IterableIterator<{ source: string; target: string }>) {
          all.push(edgeKey(row.source, row.target, group.type));
        }
        leaves = all;
      }
      if (leaves.length === 0) st.typeRootDelete.run(group.pkg, group.type);
      else st.typeRootPut.run(group.pkg, group.type, merkleRoot(leaves), leaves.length);
    }
    for (const pkg of packages) {
      const typeRoots = st.typeRootsOfPackage.all(pkg) as string[];
      if (typeRoots.length === 0) st.packageRootDelete.run(pkg);
      else st.packageRootPut.run(pkg, merkleRoot(typeRoots));
    }
  }

  function commitSnapshot(
    dirty: DirtyGroups,
    change: { readonly changed: boolean; readonly nodeDelta: number; readonly edgeDelta: number },
  ): Snapshot {
    const previous = st.snapshotLatest.get() as SnapshotRow | undefined;
    if (previous !== undefined && !change.changed && dirty.size === 0) return toSnapshot(previous);
    if (dirty.size > 0) recomputeRoots(dirty);
    const root = previous !== undefined && dirty.size === 0 ? previous.root : merkleRoot(st.packageRootsAll.all() as string[]);
    // Counts move by the batch's deltas; only the very first snapshot counts rows.
    const nodeCount = previous !== undefined ? previous.node_count + change.nodeDelta : Number(st.countNodes.get());
    const edgeCount = previous !== undefined ? previous.edge_count + change.edgeDelta : Number(st.countEdges.get());
    const row: SnapshotRow = {
      generation: (previous?.generation ?? 0) + 1,
      id: snapshotId(root),
      root,
      created_at: Date.now(),
      node_count: nodeCount,
      edge_count: edgeCount,
    };
    st.snapshotInsert.run(row.generation, row.id, row.root, row.created_at, row.node_count, row.edge_count);
    return toSnapshot(row);
  }

  /**
   * A batch for an empty graph (a first index): the rows are planned in memory, inserted in
   * bulk and the secondary indexes built once afterwards instead of row by row. The result,
   * rows, counts, roots and snapshot, equal what write() produces for the same batch; the
   * bulk-store tests compare the two.
   */
  function writeBulk(batch: WriteBatch): WriteResult {
    // Another process may have written between the check before the lock and the lock.
    if (st.graphEmpty.get() !== 1) throw GRAPH_NOT_EMPTY;
    if (batch.repo !== undefined) putRepo(batch.repo, batch);
    // Files without nodes can be stored in an empty graph; their records and owners go.
    for (const file of batch.deleteFiles ?? []) {
      st.ownerDelete.run(FILE_OWNER + file);
      st.fileDelete.run(file);
    }
    const writes = lastWins(batch.files, (w) => w.file.path);
    for (const w of writes) putFile(w.file);
    const plan = planBulkLoad(
      writes,
      lastWins(batch.externalNodes, (n) => n.id),
      lastWins(batch.ownedEdges, (o) => o.owner),
      Number(st.maxSeq.get()) + 1,
      ownerId,
    );
    const rows = plan.nodeCount + plan.edges.length / EDGE_WIDTH;
    const rebuild = rows >= BULK_REINDEX_MIN_ROWS ? dropSecondaryIndexes() : [];
    for (const chunk of plan.chunks(BULK_NODE_CHUNK)) {
      st.nodesInsert(chunk.nodes, NODE_WIDTH);
      st.ftsInsertMany(chunk.text, FTS_WIDTH);
      if (chunk.lexical.length > 0) st.lexicalInsertMany(chunk.lexical, LEXICAL_WIDTH);
    }
    st.edgesInsertNew(plan.edges, EDGE_WIDTH);
    // The same CREATE INDEX statements the migrations ran, read back from the schema.
    for (const sql of rebuild) db.exec(sql);
    const snapshot = commitSnapshot(plan.dirty, {
      changed: plan.nodesWritten + plan.nodesDeleted + plan.edgesWritten > 0,
      nodeDelta: plan.nodesInserted - plan.nodesDeleted,
      edgeDelta: plan.edgesInserted,
    });
    return { nodesWritten: plan.nodesWritten, edgesWritten: plan.edgesWritten, nodesDeleted: plan.nodesDeleted, edgesDeleted: 0, snapshot };
  }

  /** Drop the secondary indexes of nodes and edges; returns the SQL that recreates them. */
  function dropSecondaryIndexes(): string[] {
    const indexes = st.secondaryIndexes.all() as { name: string; sql: string }[];
    for (const { name } of indexes) db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
    return indexes.map((index) => index.sql);
  }

  // IMMEDIATE takes the write lock up front: waiting for it is bounded by busy_timeout,
  // and a read transaction can never fail to upgrade half-way through the batch.
  const transaction = db.transaction(write);
  const bulkTransaction = db.transaction(writeBulk);
  return {
    apply(batch) {
      if (st.graphEmpty.get() !== 1) return transaction.immediate(batch);
      // The bulk load inserts only edges between nodes it inserts, to owners it resolved, and
      // deletes nothing that has dependents: the per-edge parent lookups of the foreign keys
      // would re-check what the plan guarantees. The setting is per connection and can only
      // change outside a transaction.
      db.pragma('foreign_keys = OFF');
      try {
        return bulkTransaction.immediate(batch);
      } catch (error) {
        if (error !== GRAPH_NOT_EMPTY) throw error;
      } finally {
        db.pragma('foreign_keys = ON');
      }
      return transaction.immediate(batch);
    },
  };
}
