import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isKnowingError, nodeId, type GraphNode } from '@knowing/graph';
import { SCHEMA_VERSION, createPostgresStore, schemaNameOf } from '../src/index.js';
import { POSTGRES_URL, freshRepository } from './support/db.js';

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 1));
    });
  });
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (!isKnowingError(error)) throw error;
    return { code: error.code, message: error.message };
  }
  throw new Error('expected a KnowingError');
}

describe('options', () => {
  it('refuse what cannot work, before connecting', async () => {
    expect((await failure(createPostgresStore({}))).code).toBe('INVALID_ARGUMENT');
    expect((await failure(createPostgresStore({ connectionString: 'postgres://x/y', repository: '' }))).code).toBe('INVALID_ARGUMENT');
    expect((await failure(createPostgresStore({ connectionString: 'postgres://x/y', schema: 'no-dashes' }))).code).toBe('INVALID_ARGUMENT');
    expect((await failure(createPostgresStore({ connectionString: 'postgres://x/y', columnWeights: { nope: 1 } as never }))).code).toBe('INVALID_ARGUMENT');
  });

  it('a refused connection names the host, the port and the fix', async () => {
    const port = await closedPort();
    const error = await failure(createPostgresStore({ connectionString: `postgres://knowing@127.0.0.1:${port}/knowing`, connectTimeoutMs: 5000 }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toContain('connection refused');
    expect(error.message).toMatch(/start the server/);
  });
});

describe.skipIf(POSTGRES_URL === null)('errors against a server', () => {
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: POSTGRES_URL! });
    await admin.connect();
  });
  afterAll(() => admin?.end());

  it('a missing database says how to create it', async () => {
    const url = new URL(POSTGRES_URL!);
    url.pathname = '/no_such_database';
    const error = await failure(createPostgresStore({ connectionString: url.toString() }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain("no database 'no_such_database'");
    expect(error.message).toContain('createdb');
  });

  it('a schema written by a newer knowing is refused, untouched', async () => {
    const repository = freshRepository('future');
    const store = await createPostgresStore({ connectionString: POSTGRES_URL!, repository });
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    await store.close();
    await admin.query(`INSERT INTO "${store.schema}".knowing_migration (name, timestamp) VALUES ('9999_future', now()::text)`);
    const error = await failure(createPostgresStore({ connectionString: POSTGRES_URL!, repository }));
    expect(error.code).toBe('STORE_SCHEMA_TOO_NEW');
    expect(error.message).toContain(`this build reads up to v${SCHEMA_VERSION}`);
  });

  it("another application's schema is left alone", async () => {
    const repository = freshRepository('foreign');
    await admin.query(`CREATE SCHEMA "${schemaNameOf(repository)}"; CREATE TABLE "${schemaNameOf(repository)}".accounts (id int)`);
    const error = await failure(createPostgresStore({ connectionString: POSTGRES_URL!, repository }));
    expect(error.code).toBe('STORE_NOT_A_DATABASE');
    const tables = await admin.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = $1`, [schemaNameOf(repository)]);
    expect(tables.rows[0].n).toBe(1);
  });

  it('a schema holding another repository is refused', async () => {
    const schema = schemaNameOf(freshRepository('held'));
    const first = await createPostgresStore({ connectionString: POSTGRES_URL!, repository: 'first', schema });
    await first.close();
    expect((await failure(createPostgresStore({ connectionString: POSTGRES_URL!, repository: 'second', schema }))).code).toBe('INVALID_ARGUMENT');
  });

  it('read-only: no index yet is NO_INDEX; writes are STORE_READ_ONLY; reads work', async () => {
    const repository = freshRepository('readonly');
    expect((await failure(createPostgresStore({ connectionString: POSTGRES_URL!, repository, readonly: true }))).code).toBe('NO_INDEX');
    const writer = await createPostgresStore({ connectionString: POSTGRES_URL!, repository });
    const node: GraphNode = { id: nodeId('r', 'a.py.f', 'function'), name: 'f', qualifiedName: 'a.py.f', kind: 'function', language: 'python', file: 'a.py', startLine: 1, endLine: 2, signature: '', doc: '', isTest: false, external: false };
    await writer.applyBatch({ files: [{ file: { path: 'a.py', language: 'python', contentHash: 'h', sizeBytes: 1, indexedAt: 0, syntaxErrors: 0 }, nodes: [node], edges: [] }] });
    await writer.close();
    const reader = await createPostgresStore({ connectionString: POSTGRES_URL!, repository, readonly: true });
    expect(await reader.getNode(node.id)).toEqual(node);
    expect((await failure(reader.applyBatch({ deleteFiles: ['a.py'] }))).code).toBe('STORE_READ_ONLY');
    expect((await failure(reader.putNote('k', 'x', new Uint8Array()))).code).toBe('STORE_READ_ONLY');
    await reader.close();
  });

  it('every call after close() is STORE_CLOSED', async () => {
    const store = await createPostgresStore({ connectionString: POSTGRES_URL!, repository: freshRepository('closed') });
    await store.close();
    await store.close();
    expect((await failure(store.counts())).code).toBe('STORE_CLOSED');
    expect((await failure(store.applyBatch({}))).code).toBe('STORE_CLOSED');
    await expect(async () => {
      for await (const _ of store.allNodes());
    }).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });

  it('a malformed batch names the item', async () => {
    const store = await createPostgresStore({ connectionString: POSTGRES_URL!, repository: freshRepository('malformed') });
    const error = await failure(store.applyBatch({ files: [{ file: { path: '/abs.py' } } as never] }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('batch.files[0].file.path');
    await store.close();
  });

  it('two stores opening a new repository at once both get it, migrated once', async () => {
    const repository = freshRepository('race');
    const stores = await Promise.all([1, 2, 3].map(() => createPostgresStore({ connectionString: POSTGRES_URL!, repository, maxConnections: 1 })));
    const applied = await admin.query(`SELECT count(*)::int AS n FROM "${stores[0]!.schema}".knowing_migration`);
    expect(applied.rows[0].n).toBe(SCHEMA_VERSION);
    for (const s of stores) await s.close();
  });

  it('cache notes stay within their bound', async () => {
    const store = await createPostgresStore({ connectionString: POSTGRES_URL!, repository: freshRepository('cache'), cacheNotes: { pack: { maxCount: 2 } } });
    for (const key of ['a', 'b', 'c']) await store.putNote(key, 'pack', new Uint8Array([1]));
    await store.putNote('other', 'adjacency', new Uint8Array([1]));
    expect(await store.getNote('a')).toBeUndefined();
    expect(await store.getNote('b')).toBeDefined();
    expect(await store.getNote('c')).toBeDefined();
    expect(await store.getNote('other')).toBeDefined();
    expect(await store.pruneCacheNotes()).toBe(0);
    await store.close();
  });
});
