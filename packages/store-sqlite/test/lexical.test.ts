import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeId, type FileWrite, type GraphNode, type LexicalDocument } from '@knowing/graph';
import { createSqliteStore } from '../src/index.js';

function node(file: string, name: string): GraphNode {
  const qualifiedName = `${file}.${name}`;
  return { id: nodeId('repo', qualifiedName, 'function'), name, qualifiedName, kind: 'function', language: 'python', file, startLine: 1, endLine: 3, signature: '', doc: '', isTest: false, external: false };
}

const doc = (body: string): LexicalDocument => ({ name: '', path: '', signature: '', doc: '', body, members: '' });

function write(file: string, nodes: GraphNode[], body: string): FileWrite {
  return {
    file: { path: file, language: 'python', contentHash: file, sizeBytes: 1, indexedAt: 0, syntaxErrors: 0 },
    nodes,
    edges: [],
    lexical: new Map(nodes.map((n) => [n.id, doc(body)])),
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function storeWith(order: readonly FileWrite[]) {
  const dir = mkdtempSync(join(tmpdir(), 'knowing-lexical-'));
  dirs.push(dir);
  const store = await createSqliteStore({ path: join(dir, 'graph.db') });
  // One file per batch, in the given order: row numbers follow the order of writing.
  for (const w of order) await store.applyBatch({ files: [w] });
  return store;
}

describe('lexicalSearch', () => {
  it('breaks ties by name, not by the order the index was written in', async () => {
    const a = write('a.py', [node('a.py', 'parse_header')], 'pars header token');
    const b = write('b.py', [node('b.py', 'parse_header')], 'pars header token');
    const other = write('c.py', [node('c.py', 'render')], 'render templat');
    const forward = await storeWith([a, b, other]);
    const backward = await storeWith([other, b, a]);
    const names = async (store: typeof forward, limit: number) => (await store.lexicalSearch(['header'], { limit })).map((h) => h.node.qualifiedName);
    expect(await names(forward, 1)).toEqual(['a.py.parse_header']);
    expect(await names(backward, 1)).toEqual(['a.py.parse_header']);
    expect(await names(backward, 5)).toEqual(['a.py.parse_header', 'b.py.parse_header']);
    await forward.close();
    await backward.close();
  });
});

describe('lexical scores over the life of an index', () => {
  it('are the same after files are rewritten as in a fresh index (FTS5 keeps counting deleted rows)', async () => {
    const files = [
      write('a.py', [node('a.py', 'parse_header'), node('a.py', 'read')], 'pars header token read'),
      write('b.py', [node('b.py', 'render')], 'render templat header'),
      write('c.py', [node('c.py', 'route'), node('c.py', 'match')], 'rout match url'),
      write('d.py', [node('d.py', 'close')], 'close connect'),
    ];
    const scores = async (store: Awaited<ReturnType<typeof storeWith>>) =>
      (await store.lexicalSearch(['header', 'rout', 'close'], { limit: 10 })).map((h) => [h.node.qualifiedName, h.score]);
    const fresh = await storeWith(files);
    const rewritten = await storeWith(files);
    // Each file written again three times (a full re-index, or edits that keep the text).
    for (let round = 0; round < 3; round++) for (const w of files) await rewritten.applyBatch({ files: [w] });
    expect(await scores(rewritten)).toEqual(await scores(fresh));
    expect((await scores(fresh)).length).toBeGreaterThan(2);
    await fresh.close();
    await rewritten.close();
  });
});
