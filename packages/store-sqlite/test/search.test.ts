import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeId, qualifiedName, type FileWrite, type GraphNode, type NodeKind } from '@knowing/graph';
import { createSqliteStore, type SqliteGraphStore } from '../src/index.js';

const REPO = 'github.com/acme/flaskish';

function node(file: string, scopes: string[], name: string, kind: NodeKind, line: number, doc = '', signature = ''): GraphNode {
  const qn = qualifiedName(file, scopes, name);
  return {
    id: nodeId(REPO, qn, kind),
    name,
    qualifiedName: qn,
    kind,
    language: 'python',
    file,
    startLine: line,
    endLine: line + 5,
    signature: signature || `def ${name}():`,
    doc,
    isTest: false,
    external: false,
  };
}

function write(path: string, nodes: GraphNode[]): FileWrite {
  return {
    file: { path, language: 'python', contentHash: `${path}:${nodes.length}`, sizeBytes: 1, indexedAt: 0, syntaxErrors: 0 },
    nodes,
    edges: [],
  };
}

const APP = 'src/flask/app.py';
const STORE = 'src/storage/backends.py';
const n = {
  before_request: node(APP, ['Scaffold'], 'before_request', 'method', 10, 'Register a function to run before each request.'),
  preprocess: node(APP, ['Flask'], 'preprocess_request', 'method', 40, 'Called before the request is dispatched; runs the hooks.'),
  dispatch: node(APP, ['Flask'], 'dispatch_request', 'method', 60, 'Does the request dispatching. Calls before_request hooks first.'),
  sqlite: node(STORE, [], 'SQLiteStore', 'class', 1, 'Keeps sessions in a file.'),
  http: node(STORE, [], 'HTTPServer', 'class', 30, 'Serves the admin pages.'),
  config: node(STORE, [], 'load_config', 'function', 60, 'Read the configuration.', 'def load_config(path: str) -> Config:'),
};

let store: SqliteGraphStore;
beforeEach(async () => {
  store = await createSqliteStore({ path: ':memory:' });
  await store.applyBatch({
    files: [write(APP, [n.before_request, n.preprocess, n.dispatch]), write(STORE, [n.sqlite, n.http, n.config])],
  });
});
afterEach(() => store.close());

const idsOf = async (query: string, options?: Parameters<SqliteGraphStore['search']>[1]): Promise<string[]> =>
  (await store.search(query, options)).map((h) => h.node.id);

describe('ranking', () => {
  it('ranks a symbol-name hit above a doc-only hit', async () => {
    const hits = await store.search('before_request');
    expect(hits[0]!.node.id).toBe(n.before_request.id);
    // dispatch_request mentions before_request only in its doc.
    expect(hits.map((h) => h.node.id)).toContain(n.dispatch.id);
    expect(hits[0]!.score).toBeGreaterThan(hits.find((h) => h.node.id === n.dispatch.id)!.score);
    expect(hits[0]!.score).toBeGreaterThan(0);
  });

  it('honours column weights passed to search', async () => {
    // With the name ignored and doc weighted, the doc mention wins.
    const ids = await idsOf('before_request', { columnWeights: { name: 0, qualified_name: 0, signature: 0, doc: 10 } });
    expect(ids[0]).toBe(n.dispatch.id);
  });

  it('honours column weights given at open', async () => {
    const other = await createSqliteStore({ path: ':memory:', columnWeights: { name: 0, qualified_name: 0, signature: 0, doc: 10 } });
    await other.applyBatch({ files: [write(APP, [n.before_request, n.preprocess, n.dispatch])] });
    expect((await other.search('before_request'))[0]!.node.id).toBe(n.dispatch.id);
    await other.close();
  });

  it('filters kinds before applying the limit', async () => {
    expect(await idsOf('request', { kinds: ['class'] })).toEqual([]);
    expect(await idsOf('store OR server', { kinds: ['class'], limit: 1 })).toHaveLength(1);
  });
});

describe('identifier-aware tokens', () => {
  it('keeps before_request one token, and also finds it by its parts', async () => {
    expect(await idsOf('name:before_request')).toEqual([n.before_request.id]);
    expect(await idsOf('name:"before_request" OR config')).toContain(n.before_request.id);
    expect(await idsOf('name:before')).toEqual([n.before_request.id]);
    expect(await idsOf('before')).toContain(n.before_request.id);
    // "request" alone is a part of three names.
    expect((await idsOf('name:request')).sort()).toEqual([n.before_request.id, n.preprocess.id, n.dispatch.id].sort());
  });

  it('finds SQLiteStore by store, by SQLite and by its full name, case-insensitively', async () => {
    expect(await idsOf('store')).toContain(n.sqlite.id);
    expect(await idsOf('SQLite')).toEqual([n.sqlite.id]);
    expect(await idsOf('sqlitestore')).toEqual([n.sqlite.id]);
    expect(await idsOf('name:sqlite AND name:store')).toEqual([n.sqlite.id]);
  });

  it('finds HTTPServer by http and by server', async () => {
    expect(await idsOf('name:http')).toEqual([n.http.id]);
    expect(await idsOf('name:server')).toEqual([n.http.id]);
  });

  it('indexes the path, its concepts and the signature', async () => {
    expect((await idsOf('path:flask')).sort()).toEqual([n.before_request.id, n.preprocess.id, n.dispatch.id].sort());
    expect(await idsOf('concepts:backends AND name:config')).toEqual([n.config.id]);
    // src is not a concept, but it is part of the path.
    expect(await idsOf('concepts:src')).toEqual([]);
    expect((await idsOf('path:src')).length).toBe(6);
    expect(await idsOf('signature:Config')).toEqual([n.config.id]);
    expect(await idsOf('qualified_name:Scaffold')).toEqual([n.before_request.id]);
  });

  it('supports phrases and prefixes', async () => {
    expect(await idsOf('"before each request"')).toEqual([n.before_request.id]);
    expect((await idsOf('dispatch*')).sort()).toEqual([n.preprocess.id, n.dispatch.id].sort());
  });
});

describe('incremental maintenance', () => {
  it('follows renames, doc changes and deletions without a rebuild', async () => {
    const renamed = node(STORE, [], 'SQLiteBackend', 'class', 1, 'Keeps sessions in a file.');
    const newDoc = { ...n.http, doc: 'Serves the metrics endpoint.' };
    await store.applyBatch({ files: [write(STORE, [renamed, newDoc])] });
    expect(await idsOf('store')).toEqual([]);
    expect(await idsOf('backend')).toEqual([renamed.id]);
    expect(await idsOf('admin')).toEqual([]);
    expect(await idsOf('metrics')).toEqual([n.http.id]);
    expect(await idsOf('load_config')).toEqual([]);
    await store.applyBatch({ deleteFiles: [APP] });
    expect(await idsOf('request')).toEqual([]);
  });

  it('a moved or shifted node keeps exactly one index entry', async () => {
    const shifted = { ...n.sqlite, startLine: 100, endLine: 140 };
    await store.applyBatch({ files: [write(STORE, [shifted, n.http, n.config])] });
    expect(await idsOf('SQLite')).toEqual([n.sqlite.id]);
    const hits = await store.search('SQLite');
    expect(hits[0]!.node.startLine).toBe(100);
  });

  it('indexes a placeholder once it is resolved to a real symbol, and never placeholders', async () => {
    const ext: GraphNode = { ...node('', [], 'Mailer', 'external', 0), file: '', qualifiedName: 'external://Mailer', language: '', external: true, kind: 'external' };
    const real = { ...node('src/mail.py', [], 'Mailer', 'class', 1, 'Sends mail.') };
    const user = node('src/mail_user.py', [], 'notify', 'function', 1);
    await store.applyBatch({
      files: [{ ...write('src/mail_user.py', [user]), edges: [{ source: user.id, target: ext.id, type: 'calls', confidence: 0.5, provenance: 'ast_inferred' }] }],
      externalNodes: [ext],
    });
    expect(await store.getNode(ext.id)).toBeDefined();
    expect(await idsOf('mailer')).toEqual([]);
    // The indexer resolves the placeholder: same id, now a real symbol of src/mail.py.
    await store.applyBatch({ files: [write('src/mail.py', [{ ...real, id: ext.id }])] });
    expect(await idsOf('mailer')).toEqual([ext.id]);
    expect((await store.edgesTo(ext.id)).map((e) => e.source)).toEqual([user.id]);
  });

  it('reusing the row of a deleted node does not resurrect its text', async () => {
    // The newest node is deleted, so the next insert may reuse its row number.
    await store.applyBatch({ files: [write(STORE, [n.sqlite, n.http])] });
    const fresh = node(STORE, [], 'brand_new', 'function', 80, 'Entirely different.');
    await store.applyBatch({ files: [write(STORE, [n.sqlite, n.http, fresh])] });
    expect(await idsOf('load_config')).toEqual([]);
    expect(await idsOf('configuration')).toEqual([]);
    expect(await idsOf('brand_new')).toEqual([fresh.id]);
  });
});
