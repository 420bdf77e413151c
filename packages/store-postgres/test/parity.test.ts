// The PostgreSQL store ranks like the SQLite store: the same batch in both, the same queries,
// the same hits with the same BM25 scores (FTS5 computes them in SQLite; here tsquery finds
// the matches and the store scores them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeId, qualifiedName, type FileWrite, type GraphNode, type GraphStore, type LexicalDocument, type NodeKind, type TextHit, type WriteBatch } from '@knowing/graph';
import { createSqliteStore } from '@knowing/store-sqlite';
import { createPostgresStore } from '../src/index.js';
import { POSTGRES_URL, freshRepository } from './support/db.js';

const REPO = 'github.com/acme/flaskish';

function node(file: string, scopes: string[], name: string, kind: NodeKind, line: number, doc = '', signature = '', isTest = false): GraphNode {
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
    isTest,
    external: false,
  };
}

const lex = (fields: Partial<LexicalDocument>): LexicalDocument => ({ name: '', path: '', signature: '', doc: '', body: '', members: '', ...fields });

function write(path: string, nodes: GraphNode[], lexical?: Map<string, LexicalDocument>): FileWrite {
  return {
    file: { path, language: 'python', contentHash: `${path}:${nodes.length}`, sizeBytes: 1, indexedAt: 0, syntaxErrors: 0 },
    nodes,
    edges: [],
    ...(lexical ? { lexical } : {}),
  };
}

const APP = 'src/flask/app.py';
const STORE = 'src/storage/backends.py';
const AUTH = 'src/auth/OAuthHandler.py';
const TESTS = 'tests/test_app.py';
const n = {
  before_request: node(APP, ['Scaffold'], 'before_request', 'method', 10, 'Register a function to run before each request.'),
  preprocess: node(APP, ['Flask'], 'preprocess_request', 'method', 40, 'Called before the request is dispatched; runs the hooks.'),
  dispatch: node(APP, ['Flask'], 'dispatch_request', 'method', 60, 'Does the request dispatching. Calls before_request hooks first.'),
  flask: node(APP, [], 'Flask', 'class', 1, 'The flask object implements a WSGI application.', 'class Flask(Scaffold):'),
  sqlite: node(STORE, [], 'SQLiteStore', 'class', 1, 'Keeps sessions in a file. Café résumé naïve.'),
  http: node(STORE, [], 'HTTPServer', 'class', 30, 'Serves the admin pages over HTTP.'),
  config: node(STORE, [], 'load_config', 'function', 60, 'Read the configuration.', 'def load_config(path: str) -> Config:'),
  oauth: node(AUTH, [], 'OAuthHandler', 'class', 1, 'Handles the OAuth token refresh.'),
  refresh: node(AUTH, ['OAuthHandler'], 'refresh_token', 'method', 10, 'Refresh the access token when it expired; token token.'),
  test_dispatch: node(TESTS, [], 'test_dispatch_request', 'function', 3, 'The request dispatch runs hooks.', '', true),
};

const lexicalDocs = new Map<string, Map<string, LexicalDocument>>([
  [APP, new Map([
    [n.before_request.id, lex({ name: 'befor request', doc: 'regist function run befor each request', body: 'self befor request func append f return f' })],
    [n.preprocess.id, lex({ name: 'preprocess request', doc: 'call befor request dispatch', body: 'for func in self befor request func rv func if rv return rv' })],
    [n.dispatch.id, lex({ name: 'dispatch request', body: 'req request ctx rule url rule return view func req view arg' })],
    [n.flask.id, lex({ name: 'flask', doc: 'flask object wsgi applic', members: 'dispatch request befor request preprocess request' })],
  ])],
  [STORE, new Map([
    [n.sqlite.id, lex({ name: 'sqlite store', doc: 'keep session file', body: 'connect path session' })],
    [n.http.id, lex({ name: 'http server', doc: 'serv admin page http', body: 'listen port request handler' })],
    [n.config.id, lex({ name: 'load config', signature: 'load config path str config', body: 'open path read json config' })],
  ])],
  [AUTH, new Map([
    [n.oauth.id, lex({ name: 'oauth handler', doc: 'handl oauth token refresh', members: 'refresh token expir' })],
    [n.refresh.id, lex({ name: 'refresh token', doc: 'refresh access token expir token token', body: 'token expir refresh request' })],
  ])],
  [TESTS, new Map([[n.test_dispatch.id, lex({ name: 'test dispatch request', body: 'client get request dispatch hook' })]])],
]);

function batch(): WriteBatch {
  return {
    files: [
      write(APP, [n.before_request, n.preprocess, n.dispatch, n.flask], lexicalDocs.get(APP)),
      write(STORE, [n.sqlite, n.http, n.config], lexicalDocs.get(STORE)),
      write(AUTH, [n.oauth, n.refresh], lexicalDocs.get(AUTH)),
      write(TESTS, [n.test_dispatch], lexicalDocs.get(TESTS)),
    ],
  };
}

/** Hits as comparable rows: ties in any order, scores to 6 decimals. */
function rowsOf(hits: readonly TextHit[]): string[] {
  return hits.map((h) => `${h.score.toFixed(6)} ${h.node.qualifiedName}`).sort((a, b) => Number(b.split(' ')[0]) - Number(a.split(' ')[0]) || a.localeCompare(b));
}

const QUERIES = [
  'before_request',
  'request',
  'name:request',
  'name:before',
  '"before each request"',
  '"before request"',
  'dispatch*',
  'store OR server',
  'name:sqlite AND name:store',
  'concepts:backends AND name:config',
  'concepts:auth',
  'path:flask',
  'path:"src/flask"*',
  'path:"storage/back"*',
  'SQLite',
  'sqlitestore',
  'oauth',
  'request NOT dispatch',
  'request NOT (dispatch OR preprocess)',
  '{name doc}:request',
  '-doc:request',
  '- {name qualified_name} : request',
  'config',
  'load_config OR "load config"',
  'cafe OR resume OR naive',
  'token',
  '"token token"',
  'hooks AND (request OR flask)',
  'name:"before_request" OR "before request" OR path:before_request* OR path:hook*',
  'qualified_name:Scaffold OR signature:Config',
  'x"y" OR request',
];

const LEXICAL: { terms: string[]; options?: Parameters<GraphStore['lexicalSearch']>[1] }[] = [
  { terms: ['request'] },
  { terms: ['request', 'befor'] },
  { terms: ['token', 'expir'] },
  { terms: ['token'], options: { includeTests: true } },
  { terms: ['request'], options: { fieldWeights: { name: 10, doc: 3 } } },
  { terms: ['request', 'dispatch'], options: { fieldWeights: { name: 0, body: 5, members: 0.5 }, includeTests: true } },
  { terms: ['config', 'path'], options: { kinds: ['function'] } },
  { terms: ['nowher'] },
];

describe.skipIf(POSTGRES_URL === null)('ranking parity with store-sqlite', () => {
  let sqlite: GraphStore;
  let postgres: GraphStore;

  beforeAll(async () => {
    sqlite = await createSqliteStore({ path: ':memory:' });
    postgres = await createPostgresStore({ connectionString: POSTGRES_URL!, repository: freshRepository('parity'), maxConnections: 2 });
    for (const store of [sqlite, postgres]) await store.applyBatch(batch());
  });
  afterAll(async () => {
    await sqlite?.close();
    await postgres?.close();
  });

  it('search finds the same symbols with the same scores', async () => {
    for (const query of QUERIES) {
      const expected = rowsOf(await sqlite.search(query, { limit: 100 }));
      expect({ query, hits: rowsOf(await postgres.search(query, { limit: 100 })) }).toEqual({ query, hits: expected });
    }
  });

  it('search honours column weights, kinds and limits the same way', async () => {
    const weights = { name: 0, qualified_name: 0, signature: 0, doc: 10 };
    for (const query of ['before_request', 'request', 'token OR flask']) {
      expect(rowsOf(await postgres.search(query, { columnWeights: weights }))).toEqual(rowsOf(await sqlite.search(query, { columnWeights: weights })));
      expect(rowsOf(await postgres.search(query, { kinds: ['class', 'function'] }))).toEqual(rowsOf(await sqlite.search(query, { kinds: ['class', 'function'] })));
    }
    const top = await postgres.search('request', { limit: 2 });
    expect(top.map((h) => h.score.toFixed(6))).toEqual((await sqlite.search('request', { limit: 2 })).map((h) => h.score.toFixed(6)));
  });

  it('lexicalSearch returns the same hits, scores and order', async () => {
    for (const { terms, options } of LEXICAL) {
      const expected = (await sqlite.lexicalSearch(terms, options)).map((h) => `${h.score.toFixed(6)} ${h.node.qualifiedName}`);
      const actual = (await postgres.lexicalSearch(terms, options)).map((h) => `${h.score.toFixed(6)} ${h.node.qualifiedName}`);
      expect({ terms, options, actual }).toEqual({ terms, options, actual: expected });
    }
  });

  it('after a rewrite and a deletion, ranks as SQLite ranks the resulting graph indexed afresh', async () => {
    // FTS5 keeps deleted rows in the averages bm25() uses until the index is rebuilt, so the
    // SQLite store's scores drift with its history; PostgreSQL's statistics are exact, and
    // equal those of a SQLite index built from the resulting graph.
    const renamed = node(STORE, [], 'SQLiteBackend', 'class', 1, 'Keeps sessions in a file.');
    const store = write(STORE, [renamed, { ...n.http, doc: 'Serves the metrics endpoint.' }], new Map([[renamed.id, lex({ name: 'sqlite backend', body: 'session request' })]]));
    await postgres.applyBatch({ files: [store], deleteFiles: [AUTH] });
    const fresh = await createSqliteStore({ path: ':memory:' });
    await fresh.applyBatch({ files: batch().files!.filter((w) => w.file.path !== AUTH && w.file.path !== STORE).concat(store) });
    for (const query of ['store', 'backend', 'metrics', 'admin', 'request', 'token', 'sqlite', 'path:storage']) {
      expect({ query, hits: rowsOf(await postgres.search(query)) }).toEqual({ query, hits: rowsOf(await fresh.search(query)) });
    }
    for (const terms of [['session'], ['request'], ['token'], ['request', 'session']]) {
      const expected = (await fresh.lexicalSearch(terms)).map((h) => `${h.score.toFixed(6)} ${h.node.qualifiedName}`);
      expect((await postgres.lexicalSearch(terms)).map((h) => `${h.score.toFixed(6)} ${h.node.qualifiedName}`)).toEqual(expected);
    }
    await fresh.close();
  });

  it('rejects the queries FTS5 rejects, as INVALID_ARGUMENT', async () => {
    for (const query of ['foo.bar', 'nope:x', 'x OR', '(x', 'x)', '"unterminated']) {
      await expect(sqlite.search(query), query).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(postgres.search(query), query).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });
});
