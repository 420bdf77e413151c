// A batch is one transaction: a reader sees the graph before it or after it, never part of it.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeId, type FileWrite, type GraphNode, type LexicalDocument } from '@knowing/graph';
import { createPostgresStore, type PostgresGraphStore } from '../src/index.js';
import { POSTGRES_URL, freshRepository } from './support/db.js';

function node(file: string, name: string, doc: string): GraphNode {
  const qualifiedName = `${file}.${name}`;
  return { id: nodeId('repo', qualifiedName, 'function'), name, qualifiedName, kind: 'function', language: 'python', file, startLine: 1, endLine: 3, signature: `def ${name}():`, doc, isTest: false, external: false };
}

const lexical = (body: string): LexicalDocument => ({ name: '', path: '', signature: '', doc: '', body, members: '' });

function write(path: string, nodes: GraphNode[], body = ''): FileWrite {
  return {
    file: { path, language: 'python', contentHash: `${path}:${nodes.map((n) => n.doc).join()}`, sizeBytes: 1, indexedAt: 0, syntaxErrors: 0 },
    nodes,
    edges: nodes.slice(1).map((n) => ({ source: nodes[0]!.id, target: n.id, type: 'calls', confidence: 1, provenance: 'ast_resolved' as const })),
    lexical: new Map(nodes.map((n) => [n.id, lexical(body)])),
  };
}

const stores: PostgresGraphStore[] = [];
const clients: pg.Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.end().catch(() => {});
  for (const s of stores.splice(0)) await s.close();
});

async function open(repository: string): Promise<PostgresGraphStore> {
  const s = await createPostgresStore({ connectionString: POSTGRES_URL!, repository, maxConnections: 3 });
  stores.push(s);
  return s;
}

async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(POSTGRES_URL === null)('one batch, one transaction', () => {
  it('a reader during a write sees the old graph, then the new one — never half', async () => {
    const repository = freshRepository('visibility');
    const writer = await open(repository);
    const reader = await open(repository);
    const keep = node('src/keep.py', 'keeper', 'Keeps the old graph.');
    const gone = Array.from({ length: 50 }, (_, i) => node(`src/gone${i}.py`, `gone${i}`, 'Disappears with the batch.'));
    await writer.applyBatch({ files: [write('src/keep.py', [keep], 'keep old'), ...gone.map((n) => write(n.file, [n], 'gone old'))] });
    const old = { counts: await reader.counts(), snapshot: await reader.currentSnapshot(), roots: await reader.packageRoots() };

    // Hold a row lock on keep.py's file record: the batch deletes the gone files' nodes and
    // edges first, then blocks on that record until the lock is released, uncommitted.
    const blocker = new pg.Client({ connectionString: POSTGRES_URL! });
    clients.push(blocker);
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query(`SELECT 1 FROM "${writer.schema}".files WHERE path = 'src/keep.py' FOR UPDATE`);
    const changedKeep = { ...keep, doc: 'Keeps the new graph.' };
    const batch = writer.applyBatch({ deleteFiles: gone.map((n) => n.file), files: [write('src/keep.py', [changedKeep], 'keep new')] });
    const watcher = new pg.Client({ connectionString: POSTGRES_URL! });
    clients.push(watcher);
    await watcher.connect();
    await waitFor(
      async () =>
        (await watcher.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO "${writer.schema}"."files"%'`)).rowCount === 1,
      'the batch waits on the locked file record',
    );

    // Mid-batch: everything a reader can ask still describes the old graph.
    expect(await reader.counts()).toEqual(old.counts);
    expect(await reader.currentSnapshot()).toEqual(old.snapshot);
    expect(await reader.packageRoots()).toEqual(old.roots);
    expect(await reader.getNode(gone[0]!.id)).toEqual(gone[0]);
    expect((await reader.search('disappears', { limit: 100 })).length).toBe(50);
    expect((await reader.search('old graph')).map((h) => h.node.id)).toEqual([keep.id]);
    expect((await reader.lexicalSearch(['gone'])).length).toBe(50);
    expect((await reader.getFile('src/gone7.py'))?.path).toBe('src/gone7.py');
    let streamed = 0;
    for await (const _ of reader.allNodes()) streamed++;
    expect(streamed).toBe(51);

    await blocker.query('COMMIT');
    const result = await batch;
    expect(result.nodesDeleted).toBe(50);

    // After the commit: all of the new graph at once.
    expect((await reader.counts()).nodes).toBe(1);
    expect(await reader.getNode(gone[0]!.id)).toBeUndefined();
    expect(await reader.search('disappears')).toEqual([]);
    expect((await reader.search('new graph')).map((h) => h.node.id)).toEqual([keep.id]);
    expect(await reader.lexicalSearch(['gone'])).toEqual([]);
    expect(await reader.currentSnapshot()).toEqual(result.snapshot);
  });

  it('an iteration begun before a batch sees the old graph to its end', async () => {
    const repository = freshRepository('stream');
    const writer = await open(repository);
    const reader = await open(repository);
    // More nodes than one page of the cursor (2000).
    const files = Array.from({ length: 60 }, (_, f) => write(`src/m${f}.py`, Array.from({ length: 50 }, (_, i) => node(`src/m${f}.py`, `f${f}_${i}`, ''))));
    await writer.applyBatch({ files });
    const iterator = reader.allEdges()[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    // Half the files go while the iteration is under way.
    await writer.applyBatch({ deleteFiles: files.slice(0, 30).map((w) => w.file.path) });
    let seen = 1;
    while (!(await iterator.next()).done) seen++;
    expect(seen).toBe(60 * 49);
    expect((await reader.counts()).edges).toBe(30 * 49);
  });

  it('a failed batch leaves nothing behind', async () => {
    const repository = freshRepository('rollback');
    const writer = await open(repository);
    const a = node('src/a.py', 'a', 'first');
    await writer.applyBatch({ files: [write('src/a.py', [a])] });
    const before = { counts: await writer.counts(), snapshot: await writer.currentSnapshot() };
    // The file passes validation but PostgreSQL refuses it after the deletions ran (a size
    // beyond bigint).
    const bad = write('src/b.py', [node('src/b.py', 'b', 'second')]);
    const broken = { ...bad, file: { ...bad.file, sizeBytes: 1e20 } };
    await expect(writer.applyBatch({ deleteFiles: ['src/a.py'], files: [broken] })).rejects.toMatchObject({ name: 'KnowingError' });
    expect(await writer.counts()).toEqual(before.counts);
    expect(await writer.currentSnapshot()).toEqual(before.snapshot);
    expect(await writer.getNode(a.id)).toEqual(a);
  });
});
