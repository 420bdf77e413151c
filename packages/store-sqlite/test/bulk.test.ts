import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileWrite, GraphNode, WriteBatch, WriteResult } from '@knowing/graph';
import { createSqliteStore, type SqliteGraphStore } from '../src/index.js';
import { REPO, calls, external, fn, generate } from './support/graph-gen.js';

// A batch into an empty graph takes the bulk path (rows planned in memory, foreign-key
// checks off, secondary indexes rebuilt after the insert when the batch is large). These
// tests pin that it leaves exactly what the row-by-row writer leaves for the same batch.

const dir = mkdtempSync(join(tmpdir(), 'knowing-bulk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `graph-${n++}.db`);

function fileWrite(path: string, nodes: GraphNode[], edges: FileWrite['edges'] = []): FileWrite {
  return { file: { path, language: 'python', contentHash: `h:${path}`, sizeBytes: 1, indexedAt: 0, syntaxErrors: 0 }, nodes, edges };
}

/**
 * A first-index batch with every case the writer resolves against what it has written so
 * far: an id declared by two files (the later one wins, same seq), a file written twice, a
 * node id twice in one file, an edge written twice by one owner and taken over by another,
 * edges to unknown ids, placeholders touched, untouched (pruned) and shadowing a real node,
 * and edges out of a placeholder.
 */
function edgeCaseBatch(files: number, perFile: number): WriteBatch {
  const writes = generate(files, perFile, 'bulk');
  const first = writes[0]!.nodes[0]!;
  const second = writes[1]!.nodes[1]!;
  const moved: GraphNode = { ...first, file: 'src/moved/target.py', qualifiedName: 'src/moved/target.py.moved', doc: 'Moved here.' };
  const extra = fn('src/moved/target.py', 'extra_helper', 20, 'Declared twice in its file.');
  const used = external('requests.get');
  const unused = external('json.dumps');
  const shadow: GraphNode = { ...external('shadow'), id: second.id };
  const target = fileWrite(
    'src/moved/target.py',
    [moved, extra, { ...extra, doc: 'The later declaration wins.' }],
    [
      calls(moved, extra),
      { ...calls(moved, extra), confidence: 0.5 },
      calls(extra, first),
      { source: extra.id, target: used.id, type: 'calls', confidence: 0.7, provenance: 'ast_inferred', line: 21 },
      { source: extra.id, target: 'no-such-node', type: 'calls', confidence: 0.7, provenance: 'ast_inferred' },
    ],
  );
  const rewritten = { ...writes[2]!, nodes: writes[2]!.nodes.slice(1) };
  return {
    repo: REPO,
    files: [...writes, target, rewritten],
    externalNodes: [used, unused, shadow, { ...used, doc: 'last placeholder write' }],
    ownedEdges: [
      { owner: 'derived:x', edges: [{ ...calls(moved, extra), confidence: 0.3, provenance: 'ast_inferred' }, calls(writes[3]!.nodes[0]!, second)] },
      { owner: 'derived:y', edges: [{ source: used.id, target: first.id, type: 'references', confidence: 0.4, provenance: 'ast_inferred' }] },
    ],
  };
}

/** Everything the store keeps about the graph, read straight from the file. */
function dump(path: string) {
  const db = new Database(path);
  try {
    // Every token of the full-text index: term, row, column and position.
    db.exec(`CREATE VIRTUAL TABLE temp.fts_tokens USING fts5vocab(main, nodes_fts, 'instance')`);
    const all = (sql: string): unknown[] => db.prepare(sql).all();
    const snapshot = db.prepare('SELECT root, node_count, edge_count FROM snapshots ORDER BY generation DESC LIMIT 1').get();
    return {
      nodes: all('SELECT * FROM nodes ORDER BY seq'),
      edges: all('SELECT * FROM edges ORDER BY src, type, dst'),
      owners: all('SELECT * FROM owners ORDER BY id'),
      files: all('SELECT * FROM files ORDER BY path'),
      repo: all('SELECT * FROM repos'),
      merkleTypes: all('SELECT * FROM merkle_types ORDER BY package, type'),
      merklePackages: all('SELECT * FROM merkle_packages ORDER BY package'),
      snapshot,
      schema: all(`SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY name`),
      // Token counts per column of every full-text row.
      ftsRows: all('SELECT id, sz FROM nodes_fts_docsize ORDER BY id'),
      ftsTokens: all('SELECT term, doc, col, offset FROM temp.fts_tokens ORDER BY term, doc, col, offset'),
    };
  } finally {
    db.close();
  }
}

/** SQLite's own consistency checks, foreign keys and the full-text index included. */
function checkIntegrity(path: string): void {
  const db = new Database(path);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.exec(`INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('integrity-check', 0)`);
  } finally {
    db.close();
  }
}

const QUERIES = ['handle', 'bulk', 'module', 'moved', 'extra_helper', 'declaration', 'name:handle_bulk_1_2', 'path:pkg3', 'concepts:moved'];

async function searches(store: SqliteGraphStore) {
  const out: Record<string, { ids: string[]; scores: number[] }> = {};
  for (const q of QUERIES) {
    const hits = await store.search(q, { limit: 50 });
    out[q] = { ids: hits.map((h) => h.node.id), scores: hits.map((h) => h.score) };
  }
  return out;
}

/**
 * Same hits in the same order; scores equal up to bm25's corpus statistics. FTS5 does not
 * take a deleted row out of a contentless table's row count and average length, so the
 * row-by-row store, which inserted and deleted the dummy's row (and deletes and reinserts a
 * moved node's), scores on a corpus a row or two larger.
 */
function expectSameSearches(actual: Awaited<ReturnType<typeof searches>>, expected: Awaited<ReturnType<typeof searches>>): void {
  for (const q of QUERIES) {
    expect(actual[q]!.ids, q).toEqual(expected[q]!.ids);
    actual[q]!.scores.forEach((score, i) => expect(Math.abs(score / expected[q]!.scores[i]! - 1), q).toBeLessThan(0.05));
  }
}

const DUMMY = fileWrite('zz/dummy.py', [fn('zz/dummy.py', 'dummy', 1)]);

/**
 * The same batch through both writers: into an empty store (bulk), and into a store holding
 * one dummy node the batch deletes first (row by row: the graph is not empty when it starts,
 * yet ends with the same seqs and owner ids since the dummy's are free again).
 */
async function bothWays(batch: WriteBatch, prior: readonly WriteBatch[] = []) {
  const bulkPath = fresh();
  const rowsPath = fresh();
  const bulk = await createSqliteStore({ path: bulkPath });
  const rows = await createSqliteStore({ path: rowsPath });
  for (const b of prior) {
    await bulk.applyBatch(b);
    await rows.applyBatch(b);
  }
  await rows.applyBatch({ files: [DUMMY] });
  const bulkResult = await bulk.applyBatch(batch);
  const rowsResult = await rows.applyBatch({ ...batch, deleteFiles: [...(batch.deleteFiles ?? []), DUMMY.file.path] });
  return { bulk, rows, bulkPath, rowsPath, bulkResult, rowsResult };
}

function counts(result: WriteResult) {
  return { nodesWritten: result.nodesWritten, edgesWritten: result.edgesWritten, nodesDeleted: result.nodesDeleted, edgesDeleted: result.edgesDeleted };
}

describe('bulk load into an empty graph', () => {
  // 12 files × 4 nodes stays below the index-rebuild threshold; 220 × 30 is above it.
  it.each([
    ['a small batch', 12, 4],
    ['a batch large enough to rebuild the indexes', 220, 30],
  ])('leaves the same rows, roots, snapshot and search results as the row-by-row writer: %s', async (_name, files, perFile) => {
    const batch = edgeCaseBatch(files, perFile);
    const { bulk, rows, bulkPath, rowsPath, bulkResult, rowsResult } = await bothWays(batch);

    expect(counts(bulkResult)).toEqual({ ...counts(rowsResult), nodesDeleted: rowsResult.nodesDeleted - 1 });
    // Pruned placeholder and the three dropped/merged duplicates are visible in the counts.
    expect(bulkResult.nodesDeleted).toBe(1);
    expect(bulkResult.snapshot.root).toBe(rowsResult.snapshot.root);
    expect([bulkResult.snapshot.nodeCount, bulkResult.snapshot.edgeCount]).toEqual([rowsResult.snapshot.nodeCount, rowsResult.snapshot.edgeCount]);
    expect(await bulk.packageRoots()).toEqual(await rows.packageRoots());
    expect(await bulk.counts()).toEqual(await rows.counts());
    expectSameSearches(await searches(bulk), await searches(rows));
    await bulk.close();
    await rows.close();

    const bulkDump = dump(bulkPath);
    const rowsDump = dump(rowsPath);
    expect(bulkDump.nodes.length).toBeGreaterThan(files * perFile);
    expect(bulkDump).toEqual(rowsDump);
    checkIntegrity(bulkPath);
  });

  it('counts a first index as written, not as moved or taken over', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    const result = await store.applyBatch(edgeCaseBatch(12, 4));
    // 48 generated nodes, file 2 rewritten without its first node: 47; the moved id written
    // again and the helper (2); the placeholder used and the pruned one (2).
    expect(result.nodesWritten).toBe(47 + 2 + 2);
    expect(result.nodesDeleted).toBe(1);
    expect(result.snapshot.nodeCount).toBe(47 + 1 + 1);
    await store.close();
  });

  it('keeps the store working incrementally afterwards, cascades included (foreign keys are back on)', async () => {
    const batch = edgeCaseBatch(60, 8);
    const { bulk, rows, bulkPath, rowsPath } = await bothWays(batch);
    const writes = batch.files!;
    const next: WriteBatch = {
      deleteFiles: [writes[5]!.file.path, writes[6]!.file.path],
      files: [{ ...writes[7]!, nodes: writes[7]!.nodes.slice(2) }],
    };
    const a = await bulk.applyBatch(next);
    const b = await rows.applyBatch(next);
    expect(counts(a)).toEqual(counts(b));
    expect(a.edgesDeleted).toBeGreaterThan(0);
    expect(a.snapshot.root).toBe(b.snapshot.root);
    await bulk.close();
    await rows.close();
    expect(dump(bulkPath)).toEqual(dump(rowsPath));
    checkIntegrity(bulkPath);
  });

  it('loads into a graph that holds files without nodes, and deletes some of them', async () => {
    const empty = fileWrite('src/empty.py', []);
    const gone = fileWrite('src/gone.py', []);
    const prior: WriteBatch[] = [{ repo: REPO, files: [empty, gone] }];
    const batch = { ...edgeCaseBatch(30, 5), deleteFiles: ['src/gone.py'] };
    const { bulk, rows, bulkPath, rowsPath, bulkResult, rowsResult } = await bothWays(batch, prior);
    expect(bulkResult.snapshot.root).toBe(rowsResult.snapshot.root);
    expect((await bulk.listFiles()).map((f) => f.path)).toContain('src/empty.py');
    expect(await bulk.getFile('src/gone.py')).toBeUndefined();
    await bulk.close();
    await rows.close();
    expect(dump(bulkPath)).toEqual(dump(rowsPath));
  });
});

describe('the outline after a bulk load', () => {
  /** The outline as the tables give it: a second connection, which never wrote the graph. */
  async function outlineFromTables(path: string) {
    const reader = await createSqliteStore({ path, readonly: true });
    try {
      return await reader.graphOutline!();
    } finally {
      await reader.close();
    }
  }

  it.each([
    ['a small batch', 12, 4],
    ['a batch large enough to rebuild the indexes', 220, 30],
  ])('is what the tables hold, in their order, without reading them back: %s', async (_name, files, perFile) => {
    const path = fresh();
    const store = await createSqliteStore({ path });
    const batch = edgeCaseBatch(files, perFile);
    // Types whose UTF-8 order differs from their UTF-16 order ('\u{1F600}' before '\uFF5E' in
    // UTF-16, after it in UTF-8, as SQLite sorts them).
    const [a, b] = [batch.files![0]!.nodes[0]!, batch.files![0]!.nodes[1]!];
    const odd = { owner: 'derived:odd', edges: ['\u{1F600}', '\uFF5E', 'calls_z'].map((type) => ({ ...calls(a, b), type })) };
    await store.applyBatch({ ...batch, ownedEdges: [...batch.ownedEdges!, odd] });
    const raw = new Database(path, { readonly: true });
    const tables = raw.prepare('SELECT count(*) FROM edges').pluck().get();
    raw.close();
    const loaded = await store.graphOutline!();
    expect(loaded.edges).toHaveLength(tables as number);
    expect(loaded).toEqual(await outlineFromTables(path));
    // Once only: the second call reads the tables, and gives the same.
    expect(await store.graphOutline!()).toEqual(loaded);
    await store.close();
  });

  it('is read from the tables again once this store or another wrote the graph', async () => {
    const path = fresh();
    const store = await createSqliteStore({ path });
    const batch = edgeCaseBatch(12, 4);
    await store.applyBatch(batch);
    const other = await createSqliteStore({ path });
    await other.applyBatch({ deleteFiles: [batch.files![3]!.file.path] });
    await other.close();
    const afterOther = await store.graphOutline!();
    expect(afterOther).toEqual(await outlineFromTables(path));
    expect(afterOther.nodes.some((node) => node.id === batch.files![3]!.nodes[0]!.id)).toBe(false);

    const second = fresh();
    const again = await createSqliteStore({ path: second });
    await again.applyBatch(batch);
    await again.applyBatch({ deleteFiles: [batch.files![4]!.file.path] });
    expect(await again.graphOutline!()).toEqual(await outlineFromTables(second));
    await again.close();
    await store.close();
  });
});

describe('a failed bulk load', () => {
  it('leaves the previous state, indexes included, and the next load succeeds', async () => {
    const path = fresh();
    const store = await createSqliteStore({ path });
    await store.applyBatch({ repo: REPO, files: [fileWrite('src/empty.py', [])] });
    const batch = edgeCaseBatch(220, 30);
    // Make the edge insert fail: by then the nodes and their text are in and the secondary
    // indexes are dropped, so the rollback has all of it to undo.
    const raw = new Database(path);
    raw.exec(`CREATE TRIGGER fail_edges BEFORE INSERT ON edges WHEN NEW.type = 'references' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    const before = dump(path);

    await expect(store.applyBatch(batch)).rejects.toThrow(/injected failure/);
    expect(dump(path)).toEqual(before);
    expect((await store.counts()).nodes).toBe(0);
    expect(await store.search('handle')).toEqual([]);

    raw.exec('DROP TRIGGER fail_edges');
    raw.close();
    const result = await store.applyBatch(batch);
    expect(result.snapshot.nodeCount).toBeGreaterThan(6000);
    // Foreign keys are on again: deleting a file cascades to its edges.
    const removed = await store.applyBatch({ deleteFiles: [batch.files![10]!.file.path] });
    expect(removed.edgesDeleted).toBeGreaterThan(0);
    await store.close();
    checkIntegrity(path);
  });
});
