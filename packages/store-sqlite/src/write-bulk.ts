import type { GraphOutline, WriteBatch, WriteResult } from '@knowing/graph';
import { EDGE_WIDTH, FILE_OWNER, lastWins } from './batch.js';
import { planBulkLoad } from './bulk.js';
import { commitSnapshot } from './write-merkle.js';
import { ownerId, putFile, putRepo, type WriteConnection } from './write-statements.js';

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
export const GRAPH_NOT_EMPTY = Symbol('graph not empty');

/** What a bulk load wrote, and the outline of the graph it leaves, built when asked for. */
export interface BulkWritten {
  readonly result: WriteResult;
  readonly outline: () => GraphOutline;
}

/**
 * A batch for an empty graph (a first index): the rows are planned in memory, inserted in
 * bulk and the secondary indexes built once afterwards instead of row by row. The result,
 * rows, counts, roots and snapshot, equal what write() produces for the same batch; the
 * bulk-store tests compare the two.
 */
export function writeBulk(conn: WriteConnection, batch: WriteBatch): BulkWritten {
  const { db, st } = conn;
  // Another process may have written between the check before the lock and the lock.
  if (st.graphEmpty.get() !== 1) throw GRAPH_NOT_EMPTY;
  if (batch.repo !== undefined) putRepo(conn, batch.repo, batch);
  // Files without nodes can be stored in an empty graph; their records and owners go.
  for (const file of batch.deleteFiles ?? []) {
    st.ownerDelete.run(FILE_OWNER + file);
    st.fileDelete.run(file);
  }
  const writes = lastWins(batch.files, (w) => w.file.path);
  for (const w of writes) putFile(st, w.file);
  const plan = planBulkLoad(
    writes,
    lastWins(batch.externalNodes, (n) => n.id),
    lastWins(batch.ownedEdges, (o) => o.owner),
    Number(st.maxSeq.get()) + 1,
    (name) => ownerId(st, name),
  );
  const rows = plan.nodeCount + plan.edges.length / EDGE_WIDTH;
  const rebuild = rows >= BULK_REINDEX_MIN_ROWS ? dropSecondaryIndexes(conn) : [];
  for (const chunk of plan.chunks(BULK_NODE_CHUNK)) {
    st.nodesInsert(chunk.nodes);
    st.ftsInsertMany(chunk.text);
    if (chunk.lexical.length > 0) st.lexicalInsertMany(chunk.lexical);
  }
  st.edgesInsertNew(plan.edges);
  // The same CREATE INDEX statements the migrations ran, read back from the schema.
  for (const sql of rebuild) db.exec(sql);
  const snapshot = commitSnapshot(st, plan.dirty, {
    changed: plan.nodesWritten + plan.nodesDeleted + plan.edgesWritten > 0,
    nodeDelta: plan.nodesInserted - plan.nodesDeleted,
    edgeDelta: plan.edgesInserted,
  });
  return {
    result: { nodesWritten: plan.nodesWritten, edgesWritten: plan.edgesWritten, nodesDeleted: plan.nodesDeleted, edgesDeleted: 0, snapshot },
    outline: plan.outline,
  };
}

/** Drop the secondary indexes of nodes and edges; returns the SQL that recreates them. */
function dropSecondaryIndexes({ db, st }: WriteConnection): string[] {
  const indexes = st.secondaryIndexes.all() as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
  return indexes.map((index) => index.sql);
}
