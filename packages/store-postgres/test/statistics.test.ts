// The planner's statistics follow a batch that rewrote much of the graph (a first index).
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeId, type FileWrite, type GraphNode } from '@knowing/graph';
import { createPostgresStore, schemaNameOf, type PostgresGraphStore } from '../src/index.js';
import { POSTGRES_URL, freshRepository } from './support/db.js';

function write(path: string, count: number): FileWrite {
  const nodes: GraphNode[] = Array.from({ length: count }, (_, i) => {
    const qualifiedName = `${path}.f${i}`;
    return { id: nodeId('repo', qualifiedName, 'function'), name: `f${i}`, qualifiedName, kind: 'function', language: 'python', file: path, startLine: i + 1, endLine: i + 1, signature: `def f${i}():`, doc: '', isTest: false, external: false };
  });
  return {
    file: { path, language: 'python', contentHash: `${path}:${count}`, sizeBytes: 1, indexedAt: 0, syntaxErrors: 0 },
    nodes,
    edges: [],
    lexical: new Map(nodes.map((n) => [n.id, { name: n.name, path, signature: n.signature, doc: '', body: `return ${n.name} value`, members: '' }])),
  };
}

const stores: PostgresGraphStore[] = [];
const clients: pg.Client[] = [];
afterAll(async () => {
  for (const c of clients.splice(0)) await c.end().catch(() => {});
  for (const s of stores.splice(0)) await s.close();
});

describe.skipIf(POSTGRES_URL === null)('planner statistics', () => {
  it('a batch that rewrites much of the graph analyses its tables; a small one leaves them', async () => {
    const repository = freshRepository('statistics');
    const store = await createPostgresStore({ connectionString: POSTGRES_URL!, repository, maxConnections: 2 });
    stores.push(store);
    const client = new pg.Client({ connectionString: POSTGRES_URL! });
    clients.push(client);
    await client.connect();
    const analyzed = async (): Promise<number> => {
      const { rows } = await client.query<{ n: string }>(
        `SELECT coalesce(sum(analyze_count), 0)::text AS n FROM pg_stat_user_tables WHERE schemaname = $1 AND relname IN ('nodes', 'lexical_terms')`,
        [schemaNameOf(repository)],
      );
      return Number(rows[0]!.n);
    };
    // Statistics reach pg_stat_user_tables shortly after the statement that made them.
    const settled = async (expected: (n: number) => boolean): Promise<number> => {
      const deadline = Date.now() + 10_000;
      let n = await analyzed();
      while (!expected(n) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        n = await analyzed();
      }
      return n;
    };

    await store.applyBatch({ files: [write('src/a.py', 300)] });
    const afterFirst = await settled((n) => n >= 2);
    expect(afterFirst).toBeGreaterThanOrEqual(2);

    await store.applyBatch({ files: [write('src/b.py', 3)] });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await analyzed()).toBe(afterFirst);
  });
});

describe.skipIf(POSTGRES_URL === null)('reading the whole graph', () => {
  it('lists nodes in the order they were written, even after an update moved their rows', async () => {
    const repository = freshRepository('order');
    const store = await createPostgresStore({ connectionString: POSTGRES_URL!, repository, maxConnections: 2 });
    stores.push(store);
    const files = ['src/a.py', 'src/b.py', 'src/c.py'].map((path) => write(path, 3));
    await store.applyBatch({ files });
    const order = async (): Promise<string[]> => {
      const ids: string[] = [];
      for await (const node of store.allNodes()) ids.push(node.id);
      return ids;
    };
    const written = await order();
    // Rewriting a.py's nodes (a new doc comment) updates their rows: PostgreSQL puts the new
    // versions at the end of the table.
    const changed = write('src/a.py', 3);
    await store.applyBatch({
      files: [{ ...changed, file: { ...changed.file, contentHash: 'a:changed' }, nodes: changed.nodes.map((n) => ({ ...n, doc: 'Changed.' })) }],
    });
    expect(await order()).toEqual(written);
  });
});
