import type Database from 'better-sqlite3';
import { asciiLower } from '@knowing/graph/store-kit';
import { packageOf, type FileWrite, type GraphEdge, type GraphNode, type GraphOutline, type WriteBatch, type WriteResult } from '@knowing/graph';
import type { SnapshotRow } from '@knowing/graph/store-kit';
import { DirtyGroups, EDGE_WIDTH, FILE_OWNER, PASS_OWNER, lastWins } from './batch.js';
import type { NodeRow } from './rows.js';
import { createFtsTotalsKeeper, FTS_REMOVED_SCHEMA, rememberRemoved } from './fts-totals.js';
import { fileTextOf, ftsRowOf } from './text.js';
import { GRAPH_NOT_EMPTY, writeBulk } from './write-bulk.js';
import { commitSnapshot } from './write-merkle.js';
import { ownerId, prepareWriteStatements, putFile, putRepo, type WriteConnection, type WriteStatements } from './write-statements.js';

/**
 * Per-connection scratch state for a batch, kept in TEMP objects so it never reaches the
 * file. The triggers record what FK cascades do behind our back — which Merkle groups lost
 * an edge, which external nodes may have become orphans, how many edges went — so every way
 * a row can disappear (explicit delete, node cascade, owner cascade) is accounted for.
 */
const TEMP_SCHEMA = `
${FTS_REMOVED_SCHEMA}
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
  ${rememberRemoved('nodes_fts', 'OLD.seq')};
  DELETE FROM nodes_fts WHERE rowid = OLD.seq;
  ${rememberRemoved('lexical_fts', 'OLD.seq')};
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
function sameText(row: NodeRow, node: GraphNode): boolean {
  return (
    row.name === node.name &&
    row.qualified_name === node.qualifiedName &&
    row.file === node.file &&
    row.doc === node.doc &&
    row.signature === node.signature
  );
}

function sameNode(row: NodeRow, node: GraphNode): boolean {
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
  /**
   * The outline of the graph as this connection's last batch left it, when that batch was a
   * bulk load (a first index) and no connection has written since; else undefined. Once only:
   * it frees what it was built from, and later calls read the tables.
   */
  takeLoadedOutline(): GraphOutline | undefined;
}

/**
 * What the last bulk load left: its outline, and how to tell the graph has not changed since.
 * The walk builds its adjacency from the outline right after a first index (\`knowing index\`
 * warms it); reading it back cost caddy ~85 ms of ~90 K rows materialised again.
 */
interface LoadedGraph {
  readonly outline: () => GraphOutline;
  /** `PRAGMA data_version` after the load: it moves when another connection commits. */
  readonly dataVersion: number;
  readonly generation: number;
  readonly nodeCount: number;
  readonly edgeCount: number;
}

/** What a batch writes with: the scratch tables, the write statements and the two transactions. */
function prepareWriting(db: Database.Database, path: string) {
  db.exec(TEMP_SCHEMA);
  const conn: WriteConnection = { db, path, st: prepareWriteStatements(db) };
  return {
    conn,
    // IMMEDIATE takes the write lock up front: waiting for it is bounded by busy_timeout,
    // and a read transaction can never fail to upgrade half-way through the batch.
    transaction: db.transaction((batch: WriteBatch) => writeDiffed(conn, batch)),
    bulkTransaction: db.transaction((batch: WriteBatch) => writeBulk(conn, batch)),
    ftsTotals: createFtsTotalsKeeper(db),
  };
}

export function createBatchWriter(db: Database.Database, path: string): BatchWriter {
  // Prepared on the first batch: a connection that only answers queries (most of them) would
  // otherwise create the scratch tables and prepare some sixty write statements for nothing.
  let prepared: ReturnType<typeof prepareWriting> | undefined;
  const writing = () => (prepared ??= prepareWriting(db, path));
  let loaded: LoadedGraph | undefined;
  const latest = (): SnapshotRow | undefined => writing().conn.st.snapshotLatest.get() as SnapshotRow | undefined;
  return {
    takeLoadedOutline() {
      const graph = loaded;
      loaded = undefined;
      if (graph === undefined || db.pragma('data_version', { simple: true }) !== graph.dataVersion) return undefined;
      const snapshot = latest();
      if (snapshot?.generation !== graph.generation) return undefined;
      const outline = graph.outline();
      // The counts the load recorded: anything else in the tables would have been left out.
      return outline.nodes.length === graph.nodeCount && outline.edges.length === graph.edgeCount ? outline : undefined;
    },
    apply(batch) {
      loaded = undefined;
      const result = applyInTransaction(batch);
      writing().ftsTotals.settle();
      return result;
    },
  };

  function applyInTransaction(batch: WriteBatch): WriteResult {
    const { conn, transaction, bulkTransaction } = writing();
    if (conn.st.graphEmpty.get() !== 1) return transaction.immediate(batch);
    // The bulk load inserts only edges between nodes it inserts, to owners it resolved, and
    // deletes nothing that has dependents: the per-edge parent lookups of the foreign keys
    // would re-check what the plan guarantees. The setting is per connection and can only
    // change outside a transaction.
    db.pragma('foreign_keys = OFF');
    try {
      const { result, outline } = bulkTransaction.immediate(batch);
      const snapshot = latest();
      if (snapshot !== undefined) {
        loaded = {
          outline,
          dataVersion: db.pragma('data_version', { simple: true }) as number,
          generation: snapshot.generation,
          nodeCount: snapshot.node_count,
          edgeCount: snapshot.edge_count,
        };
      }
      return result;
    } catch (error) {
      if (error !== GRAPH_NOT_EMPTY) throw error;
    } finally {
      db.pragma('foreign_keys = ON');
    }
    return transaction.immediate(batch);
  }
}

/** The diffing writer: each file, owner and placeholder compared with what is stored. */
function writeDiffed(conn: WriteConnection, batch: WriteBatch): WriteResult {
  const { st } = conn;
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
      const row = st.nodeById.get(id) as (NodeRow & { package: string }) | undefined;
      hit = row === undefined ? null : { seq: row.seq, pkg: row.package };
      resolved.set(id, hit);
    }
    return hit;
  };
  st.countersReset.run();

  if (batch.repo !== undefined) putRepo(conn, batch.repo, batch);

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
    const counts = writeFileNodes(st, w, resolved, seq);
    nodesWritten += counts.written;
    nodesInserted += counts.inserted;
    nodesDeleted += counts.deleted;
  }

  // 3. External placeholders. Upserted before any edge is written so edges to them resolve;
  // the end state equals the documented order because nothing in between removes them.
  const externals = upsertExternals(st, batch, resolved);
  nodesWritten += externals.written;
  nodesInserted += externals.inserted;

  // 4. Edges: each owner's edge set is replaced (diffed, so unchanged edges are untouched).
  for (const w of writes) {
    const counts = replaceEdges(st, FILE_OWNER + w.file.path, w.edges, resolve, dirty);
    edgesWritten += counts.written;
    edgesInserted += counts.inserted;
  }
  for (const owned of lastWins(batch.ownedEdges, (o) => o.owner)) {
    const counts = replaceEdges(st, PASS_OWNER + owned.owner, owned.edges, resolve, dirty);
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
  const snapshot = commitSnapshot(st, dirty, {
    changed: nodesWritten + nodesDeleted + edgesWritten + edgesDeleted > 0,
    nodeDelta: nodesInserted - nodesDeleted,
    edgeDelta: edgesInserted - edgesDeleted,
  });
  return { nodesWritten, edgesWritten, nodesDeleted, edgesDeleted, snapshot };
}

function resolvePkg(row: NodeRow): string {
  return row.external === 1 || row.file === '' ? '' : packageOf(row.file);
}

/** Upsert the batch's external placeholders and mark them for pruning; a real symbol is never downgraded. */
function upsertExternals(st: WriteStatements, batch: WriteBatch, resolved: Map<string, Resolved | null>) {
  let written = 0;
  let inserted = 0;
  for (const node of lastWins(batch.externalNodes, (n) => n.id)) {
    const existing = st.nodeById.get(node.id) as NodeRow | undefined;
    let seq: number;
    if (existing === undefined) {
      // Nodes of the files above are all inserted, so the automatic rowid is fresh.
      seq = Number(st.nodeInsert.run(nodeParams(node, '')).lastInsertRowid);
      written++;
      inserted++;
    } else {
      seq = existing.seq;
      // Never downgrade a real symbol to a placeholder.
      if (existing.external === 1 && !sameNode(existing, node)) {
        st.nodeUpdate.run({ ...nodeParams(node, ''), seq });
        written++;
      }
    }
    resolved.set(node.id, { seq, pkg: existing !== undefined && existing.external === 0 ? resolvePkg(existing) : '' });
    // A placeholder nothing points at is pruned below.
    st.pruneAdd.run(seq);
  }
  return { written, inserted };
}

function writeFileNodes(st: WriteStatements, w: FileWrite, resolved: Map<string, Resolved | null>, seq: { next: number }) {
  let written = 0;
  let inserted = 0;
  let deleted = 0;
  const file = w.file;
  const pkg = putFile(st, file);
  const fileText = fileTextOf(file.path);
  const existing = new Map<string, NodeRow>();
  for (const row of st.nodesOfFile.all(file.path) as NodeRow[]) existing.set(row.id, row);
  const nodes = lastWins(w.nodes, (n) => n.id);

  // Ids not in this file yet may still exist elsewhere: a placeholder being resolved, or a
  // symbol that moved here. One query per file finds them.
  const elsewhere = new Map<string, NodeRow>();
  const unknown = nodes.filter((n) => !existing.has(n.id)).map((n) => n.id);
  if (unknown.length > 0) {
    for (const row of st.nodesByIds.all(JSON.stringify(unknown)) as NodeRow[]) elsewhere.set(row.id, row);
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
    if (row.external !== 1) {
      st.lexicalRemember.run(row.seq);
      st.lexicalDelete.run(row.seq);
    }
    lexicalOf(row.seq, node);
    if (sameNode(row, node)) continue;
    st.nodeUpdate.run({ ...nodeParams(node, pkg), seq: row.seq });
    written++;
    if (row.external === 1) {
      st.ftsInsert.run({ seq: row.seq, ...ftsRowOf(node, fileText) });
    } else if (!sameText(row, node)) {
      st.ftsRemember.run(row.seq);
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
    st.nodesInsert(newNodes);
    st.ftsInsertMany(newText);
  }
  if (newLexical.length > 0) st.lexicalInsertMany(newLexical);
  return { written, inserted, deleted };
}

function replaceEdges(
  st: WriteStatements,
  owner: string,
  edges: readonly GraphEdge[],
  resolve: (id: string) => Resolved | null,
  dirty: DirtyGroups,
) {
  let written = 0;
  let inserted = 0;
  const oid = ownerId(st, owner);
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
    inserted = st.edgesInsert(fresh);
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
