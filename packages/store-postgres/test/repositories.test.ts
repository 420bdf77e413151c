import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeId, type FileWrite, type GraphNode, type GraphStore } from '@knowing/graph';
import { createPostgresStore, schemaNameOf, type PostgresGraphStore } from '../src/index.js';
import { POSTGRES_URL, freshRepository } from './support/db.js';

function node(repo: string, file: string, name: string, doc = ''): GraphNode {
  const qualifiedName = `${file}.${name}`;
  return { id: nodeId(repo, qualifiedName, 'function'), name, qualifiedName, kind: 'function', language: 'python', file, startLine: 1, endLine: 3, signature: `def ${name}():`, doc, isTest: false, external: false };
}

function write(path: string, nodes: GraphNode[], edges: FileWrite['edges'] = []): FileWrite {
  return { file: { path, language: 'python', contentHash: `${path}:${nodes.length}`, sizeBytes: 1, indexedAt: 0, syntaxErrors: 0 }, nodes, edges };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const open: GraphStore[] = [];
async function store(repository: string, extra: Record<string, unknown> = {}): Promise<PostgresGraphStore> {
  const s = await createPostgresStore({ connectionString: POSTGRES_URL!, repository, maxConnections: 3, ...extra });
  open.push(s);
  return s;
}
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

describe.skipIf(POSTGRES_URL === null)('many repositories in one database', () => {
  it('each repository has its own schema, named after it', () => {
    const a = schemaNameOf('github.com/acme/shop');
    expect(a).toMatch(/^knowing_github_com_acme_shop_[0-9a-f]{8}$/);
    expect(schemaNameOf('github.com/acme/shop')).toBe(a);
    expect(schemaNameOf('github.com/acme/Shop')).not.toBe(a);
    expect(schemaNameOf('x'.repeat(200)).length).toBeLessThanOrEqual(63);
    expect(schemaNameOf('日本')).toMatch(/^knowing_[0-9a-f]{8}$/);
  });

  it('repositories never see each other: nodes, edges, files, search, notes, feedback, vocabulary, snapshots', async () => {
    const nameA = freshRepository('iso-a');
    const nameB = freshRepository('iso-b');
    const a = await store(nameA);
    const b = await store(nameB);
    expect(a.schema).not.toBe(b.schema);
    // The same file and symbol in both: same ids, different graphs.
    const shared = node('repo', 'src/app.py', 'handle', 'Handle the request.');
    const onlyA = node('repo', 'src/app.py', 'render', 'Render the page.');
    const onlyB = node('repo', 'src/db.py', 'connect', 'Connect to the database.');
    await a.applyBatch({
      repo: { id: 'github.com/acme/a', root: '/a', commit: null, indexedAt: 1 },
      files: [write('src/app.py', [shared, onlyA], [{ source: shared.id, target: onlyA.id, type: 'calls', confidence: 1, provenance: 'ast_resolved' }])],
    });
    const before = await b.currentSnapshot();
    await b.applyBatch({ repo: { id: 'github.com/acme/b', root: '/b', commit: null, indexedAt: 2 }, files: [write('src/app.py', [shared]), write('src/db.py', [onlyB])] });
    expect(before).toBeNull();

    expect((await a.repo())?.id).toBe('github.com/acme/a');
    expect((await b.repo())?.id).toBe('github.com/acme/b');
    expect((await a.counts()).nodes).toBe(2);
    expect((await b.counts()).nodes).toBe(2);
    expect(await a.getNode(onlyB.id)).toBeUndefined();
    expect(await b.getNode(onlyA.id)).toBeUndefined();
    expect((await a.edgesFrom(shared.id)).map((e) => e.target)).toEqual([onlyA.id]);
    expect(await b.edgesFrom(shared.id)).toEqual([]);
    expect((await collect(b.allNodes())).map((n) => n.name).sort()).toEqual(['connect', 'handle']);
    expect(await a.listFiles()).toHaveLength(1);
    expect((await a.search('database')).length).toBe(0);
    expect((await b.search('database')).map((h) => h.node.id)).toEqual([onlyB.id]);
    expect((await a.packageRoots()).size).toBe(1);
    expect((await b.packageRoots()).size).toBe(0);
    expect((await a.currentSnapshot())?.id).not.toBe((await b.currentSnapshot())?.id);

    await a.putNote('k', 'kind', new Uint8Array([1]));
    expect(await b.getNote('k')).toBeUndefined();
    await a.recordFeedback([{ symbol: shared.id, useful: true, session: 's' }]);
    expect((await b.feedbackFor([shared.id])).get(shared.id)).toBeUndefined();
    await a.recordVocab([{ keyword: 'k', symbol: shared.id, symbolName: 'handle' }, { keyword: 'k', symbol: shared.id, symbolName: 'handle' }]);
    expect(await b.vocabFor(['k'])).toEqual([]);

    // A write to one repository leaves the other's snapshot alone.
    const bSnapshot = await b.currentSnapshot();
    await a.applyBatch({ deleteFiles: ['src/app.py'] });
    expect(await b.currentSnapshot()).toEqual(bSnapshot);
    expect((await b.counts()).nodes).toBe(2);
  });

  it('two stores of one repository share it, and their writers take turns', async () => {
    const name = freshRepository('shared');
    const [first, second] = await Promise.all([store(name), store(name)]);
    expect(first.schema).toBe(second.schema);
    const files = (tag: string) => Array.from({ length: 20 }, (_, i) => write(`src/${tag}${i}.py`, [node('r', `src/${tag}${i}.py`, `${tag}${i}`)]));
    const [r1, r2] = await Promise.all([first.applyBatch({ files: files('a') }), second.applyBatch({ files: files('b') })]);
    expect(r1.snapshot.generation + r2.snapshot.generation).toBe(3);
    expect((await first.counts()).nodes).toBe(40);
    expect((await second.currentSnapshot())?.nodeCount).toBe(40);
  });

  it('a batch for another repository identity is refused unless it replaces every file', async () => {
    const s = await store(freshRepository('identity'));
    const n1 = node('r', 'a.py', 'f');
    await s.applyBatch({ repo: { id: 'one', root: '/x', commit: null, indexedAt: null }, files: [write('a.py', [n1])] });
    await expect(s.applyBatch({ repo: { id: 'two', root: '/x', commit: null, indexedAt: null }, files: [write('b.py', [])] })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect((await s.repo())?.id).toBe('one');
    await s.applyBatch({ repo: { id: 'two', root: '/y', commit: null, indexedAt: null }, deleteFiles: ['a.py'], files: [write('b.py', [])] });
    expect((await s.repo())?.id).toBe('two');
  });

  it('a pool passed in is shared and left open by close()', async () => {
    const pool = new pg.Pool({ connectionString: POSTGRES_URL!, max: 2 });
    try {
      const s = await createPostgresStore({ pool, repository: freshRepository('pool') });
      await s.applyBatch({ files: [write('a.py', [node('r', 'a.py', 'f')])] });
      await s.close();
      expect((await pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
