import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, KnowingError } from '@knowing/graph';
import { SCHEMA_VERSION, createSqliteStore } from '../src/index.js';
import { NOBODY, RUNNING_AS_ROOT, cannotRunAs, collect, runFixture, startFixture } from './support/child.js';
import { REPO, generate } from './support/graph-gen.js';

const dir = mkdtempSync(join(tmpdir(), 'knowing-errors-'));
// Readable by every user: some tests open files here as another user.
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (name = 'graph.db'): string => join(dir, `case-${n++}`, name);

/** The KnowingError a promise rejects with (fails the test if it resolves or throws otherwise). */
async function failure(promise: Promise<unknown>): Promise<KnowingError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(KnowingError);
    return error as KnowingError;
  }
  throw new Error('expected a KnowingError, but the call succeeded');
}

async function seeded(path: string) {
  const store = await createSqliteStore({ path });
  await store.applyBatch({ repo: REPO, files: generate(3, 2) });
  return store;
}

describe('files that are not knowing indexes', () => {
  it('refuses random bytes with STORE_NOT_A_DATABASE, naming the file', async () => {
    const path = fresh();
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, randomBytes(8192));
    const error = await failure(createSqliteStore({ path }));
    expect(error.code).toBe(ErrorCode.NotADatabase);
    expect(error.message).toContain(path);
    expect((await failure(createSqliteStore({ path, readonly: true }))).code).toBe(ErrorCode.NotADatabase);
  });

  it("refuses another application's SQLite database and leaves it byte-for-byte alone", async () => {
    const path = fresh('app.sqlite');
    mkdirSync(join(path, '..'), { recursive: true });
    const other = new Database(path);
    other.exec(`CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT); INSERT INTO users (email) VALUES ('a@b.c')`);
    other.close();
    const bytes = readFileSync(path);
    const error = await failure(createSqliteStore({ path }));
    expect(error.code).toBe(ErrorCode.NotADatabase);
    expect(error.message).toContain('users');
    expect(error.message).toContain(path);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('refuses a path that is a directory', async () => {
    const path = fresh();
    mkdirSync(path, { recursive: true });
    expect((await failure(createSqliteStore({ path }))).code).toBe(ErrorCode.NotADatabase);
  });
});

describe('schema versions', () => {
  it('refuses a file written by a newer schema with STORE_SCHEMA_TOO_NEW, saying what to do', async () => {
    const path = fresh();
    await (await seeded(path)).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 3}`);
    raw.close();
    const error = await failure(createSqliteStore({ path }));
    expect(error.code).toBe(ErrorCode.SchemaTooNew);
    expect(error.message).toContain(`schema v${SCHEMA_VERSION + 3}`);
    expect(error.message).toContain(`up to schema v${SCHEMA_VERSION}`);
    expect(error.message).toContain('upgrade knowing');
    expect(error.message).toContain(path);
    expect((await failure(createSqliteStore({ path, readonly: true }))).code).toBe(ErrorCode.SchemaTooNew);
  });
});

describe('read-only locations', () => {
  // Root may write anywhere, so as root the attempt runs in a child process as nobody (from a
  // copy every user can read: the checkout may not be). Where even that copy cannot run as
  // nobody, the tests that need it skip and say why.
  let noChild: string | undefined;
  beforeAll(async () => {
    if (RUNNING_AS_ROOT) noChild = await cannotRunAs(NOBODY);
  }, 120_000);

  async function tryOpen(options: object): Promise<Record<string, unknown>> {
    if (RUNNING_AS_ROOT) {
      const result = await runFixture('try-open.ts', [JSON.stringify(options)], { as: NOBODY });
      expect(result.stderr).toBe('');
      return JSON.parse(result.stdout) as Record<string, unknown>;
    }
    try {
      const store = await createSqliteStore(options as { path: string });
      await store.close();
      return { opened: true };
    } catch (error) {
      return { openError: (error as KnowingError).code };
    }
  }

  it('refuses to open a read-only file for writing with STORE_READ_ONLY', async ({ skip }) => {
    if (noChild) skip(noChild);
    const path = fresh();
    await (await seeded(path)).close();
    chmodSync(join(path, '..'), 0o755);
    chmodSync(path, 0o444);
    expect(await tryOpen({ path })).toMatchObject({ openError: ErrorCode.ReadOnly });
  }, 30_000);

  it('refuses to create a store in a read-only directory with STORE_READ_ONLY', async ({ skip }) => {
    if (noChild) skip(noChild);
    const parent = join(dir, `ro-${n++}`);
    mkdirSync(parent);
    chmodSync(parent, 0o555);
    expect(await tryOpen({ path: join(parent, 'graph.db') })).toMatchObject({ openError: ErrorCode.ReadOnly });
  }, 30_000);

  it('opens a read-only file with readonly: true, and writes then fail with STORE_READ_ONLY', async ({ skip }) => {
    if (noChild) skip(noChild);
    const path = fresh();
    await (await seeded(path)).close();
    // The directory stays writable: reading a WAL database creates <db>-shm beside it.
    chmodSync(join(path, '..'), 0o777);
    chmodSync(path, 0o444);
    const result = await tryOpen({ path, readonly: true });
    if (RUNNING_AS_ROOT) expect(result).toMatchObject({ opened: true, nodes: 6, writeError: ErrorCode.ReadOnly });
    else expect(result).toMatchObject({ opened: true });
  }, 30_000);

  it('reads an index in a read-only directory (a private copy: WAL cannot create -shm there)', async ({ skip }) => {
    if (noChild) skip(noChild);
    const path = fresh();
    await (await seeded(path)).close();
    chmodSync(join(path, '..'), 0o555);
    chmodSync(path, 0o444);
    const result = await tryOpen({ path, readonly: true });
    if (RUNNING_AS_ROOT) expect(result).toMatchObject({ opened: true, nodes: 6, writeError: ErrorCode.ReadOnly });
    expect(existsSync(`${path}-shm`)).toBe(false);
  }, 30_000);

  it("reads an index in a read-only directory while a writer's log holds data (through the writer's -shm)", async ({ skip }) => {
    if (noChild) skip(noChild);
    const path = fresh();
    await (await seeded(path)).close();
    const writer = await createSqliteStore({ path });
    const raw = new Database(path);
    raw.pragma('wal_autocheckpoint = 0');
    await writer.applyBatch({ files: generate(4, 2) });
    chmodSync(join(path, '..'), 0o555);
    try {
      const result = await tryOpen({ path, readonly: true });
      if (RUNNING_AS_ROOT) expect(result).toMatchObject({ opened: true, nodes: 8 });
    } finally {
      chmodSync(join(path, '..'), 0o755);
      raw.close();
      await writer.close();
    }
  }, 30_000);

  it('explains why readonly: true fails in a read-only directory when the log holds data but -shm is gone', async ({ skip }) => {
    if (noChild) skip(noChild);
    const source = fresh();
    await (await seeded(source)).close();
    const writer = new Database(source);
    writer.pragma('wal_autocheckpoint = 0');
    writer.prepare(`INSERT INTO notes (key, kind, value, updated_at) VALUES ('k', 'test', x'01', 0)`).run();
    // A copy of the file and its log without the shared-memory index, as a backup tool makes.
    const path = fresh();
    mkdirSync(join(path, '..'), { recursive: true });
    copyFileSync(source, path);
    copyFileSync(`${source}-wal`, `${path}-wal`);
    writer.close();
    chmodSync(join(path, '..'), 0o555);
    const result = await tryOpen({ path, readonly: true });
    if (RUNNING_AS_ROOT) {
      expect(result).toMatchObject({ openError: ErrorCode.ReadOnly });
      expect(result.message).toContain(`${path}-shm`);
    }
  }, 30_000);

  it('a readonly store refuses every kind of write', async () => {
    const path = fresh();
    await (await seeded(path)).close();
    const store = await createSqliteStore({ path, readonly: true });
    expect(store.readonly).toBe(true);
    expect((await store.counts()).nodes).toBe(6);
    for (const attempt of [
      store.applyBatch({ files: generate(1, 1) }),
      store.putNote('k', 'x', new Uint8Array([1])),
      store.deleteNote('k'),
      store.deleteNotes({ kind: 'x' }),
      store.recordFeedback([{ symbol: 'a', useful: true, session: 's' }]),
      store.recordVocab([{ keyword: 'k', symbol: 'a', symbolName: 'a' }]),
      store.vacuum(),
    ]) {
      expect((await failure(attempt)).code).toBe(ErrorCode.ReadOnly);
    }
    await store.close();
  });
});

describe('missing files and directories', () => {
  it('creates a missing parent directory', async () => {
    const path = join(dir, `deep-${n++}`, 'a', 'b', 'graph.db');
    const store = await createSqliteStore({ path });
    expect(store.path).toBe(path);
    await store.applyBatch({ files: generate(1, 1) });
    await store.close();
    expect((await createSqliteStore({ path, readonly: true })).schemaVersion).toBe(SCHEMA_VERSION);
  });

  it('fails with PATH_NOT_FOUND when the parent directory cannot be created', async () => {
    const blocker = join(dir, `file-${n++}`);
    writeFileSync(blocker, 'not a directory');
    const error = await failure(createSqliteStore({ path: join(blocker, 'sub', 'graph.db') }));
    expect(error.code).toBe(ErrorCode.PathNotFound);
    expect(error.message).toContain(blocker);
  });

  it('readonly: true on a missing file fails with NO_INDEX and creates nothing', async () => {
    const path = fresh();
    const error = await failure(createSqliteStore({ path, readonly: true }));
    expect(error.code).toBe(ErrorCode.NoIndex);
    expect(error.message).toContain(path);
    expect(() => readFileSync(path)).toThrow();
  });

  it('readonly: true on an empty SQLite database fails with NO_INDEX', async () => {
    const path = fresh();
    mkdirSync(join(path, '..'), { recursive: true });
    new Database(path).exec('VACUUM');
    expect((await failure(createSqliteStore({ path, readonly: true }))).code).toBe(ErrorCode.NoIndex);
  });
});

describe('locks held by another writer', () => {
  it('waits at most busyTimeoutMs, then fails with STORE_LOCKED and keeps working afterwards', async () => {
    const path = fresh();
    const store = await createSqliteStore({ path, busyTimeoutMs: 150 });
    await store.applyBatch({ files: generate(2, 2) });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    const error = await failure(store.applyBatch({ files: generate(3, 2, 'v1') }));
    const waited = Date.now() - started;
    expect(error.code).toBe(ErrorCode.Locked);
    expect(error.message).toContain(path);
    expect(error.message).toContain('busyTimeoutMs');
    expect(waited).toBeGreaterThanOrEqual(100);
    expect(waited).toBeLessThan(5_000);
    // Reads are not blocked by a writer (WAL), and neither is opening an existing index.
    expect((await store.counts()).nodes).toBe(4);
    const second = await createSqliteStore({ path, busyTimeoutMs: 150 });
    expect((await second.search('handle_v0_1_1')).length).toBe(1);
    await second.close();
    other.exec('ROLLBACK');
    other.close();
    // The retried batch rewrites the two existing files and adds a third.
    await store.applyBatch({ files: generate(3, 2, 'v1') });
    expect((await store.counts()).nodes).toBe(6);
    expect((await store.findNodesByName('handle_v1_2_1')).length).toBe(1);
    await store.close();
  });

  it('retries until the other writer lets go, within the wait', async () => {
    const path = fresh();
    const store = await createSqliteStore({ path, busyTimeoutMs: 20_000 });
    await store.applyBatch({ files: generate(1, 1) });
    const holder = startFixture('hold-lock.ts', [path, '400']);
    const done = collect(holder);
    await new Promise<void>((resolve) => holder.stdout!.on('data', (c: Buffer) => c.toString().includes('LOCKED') && resolve()));
    const started = Date.now();
    const result = await store.applyBatch({ files: generate(2, 1, 'v1') });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(result.nodesWritten).toBe(2);
    expect((await done).stdout).toContain('RELEASED');
    await store.close();
  }, 30_000);
});

describe('closed stores', () => {
  it('every call after close fails with STORE_CLOSED; close itself is idempotent', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    await store.applyBatch({ files: generate(2, 2) });
    const iterator = store.allNodes()[Symbol.asyncIterator]();
    await store.close();
    await store.close();
    for (const attempt of [
      store.getNode('x'),
      store.findNodesByName('x'),
      store.search('x'),
      store.counts(),
      store.listFiles(),
      store.applyBatch({}),
      store.getNote('x'),
      store.currentSnapshot(),
      store.packageRoots(),
      store.fileHashes(),
      iterator.next(),
    ]) {
      const error = await failure(attempt);
      expect(error.code).toBe(ErrorCode.StoreClosed);
      expect(error.message).toContain(':memory:');
    }
  });
});

describe('invalid arguments', () => {
  it('rejects bad options with INVALID_ARGUMENT', async () => {
    for (const options of [
      { path: '' },
      { path: ':memory:', readonly: true },
      { path: ':memory:', busyTimeoutMs: -1 },
      { path: ':memory:', columnWeights: { name: Number.NaN } },
      { path: ':memory:', columnWeights: { title: 3 } as object },
    ]) {
      expect((await failure(createSqliteStore(options as { path: string }))).code).toBe(ErrorCode.InvalidArgument);
    }
  });

  it('rejects a malformed batch with INVALID_ARGUMENT naming the item, and applies none of it', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    await store.applyBatch({ files: generate(2, 2) });
    const before = await store.currentSnapshot();
    const [good, bad] = generate(2, 2, 'v1');
    const wrongFile = { ...bad!, nodes: [{ ...bad!.nodes[0]!, file: 'elsewhere.py' }] };
    const error = await failure(store.applyBatch({ files: [good!, wrongFile] }));
    expect(error.code).toBe(ErrorCode.InvalidArgument);
    expect(error.message).toContain('batch.files[1].nodes[0]');
    expect(error.message).toContain('elsewhere.py');
    const badEdge = { ...good!, edges: [good!.edges[0]!, { ...good!.edges[0]!, confidence: 2 }] };
    const edgeError = await failure(store.applyBatch({ files: [badEdge] }));
    expect(edgeError.code).toBe(ErrorCode.InvalidArgument);
    expect(edgeError.message).toContain('batch.files[0].edges[1].confidence (2) is not a number in 0..1');
    const badOwned = await failure(store.applyBatch({ ownedEdges: [{ owner: 'pass:x', edges: [{ ...good!.edges[0]!, type: '' }] }] }));
    expect(badOwned.message).toContain('batch.ownedEdges[0].edges[0].type is not a non-empty string');
    const badNode = await failure(store.applyBatch({ files: [{ ...good!, nodes: [good!.nodes[0]!, { ...good!.nodes[1]!, startLine: -1 }] }] }));
    expect(badNode.message).toContain(`batch.files[0].nodes[1] (${good!.nodes[1]!.qualifiedName}) has lines that are not non-negative integers`);
    expect((await failure(store.applyBatch({ externalNodes: [good!.nodes[0]!] }))).code).toBe(ErrorCode.InvalidArgument);
    const absolute = { ...good!, file: { ...good!.file, path: '/abs/path.py' }, nodes: [] };
    expect((await failure(store.applyBatch({ files: [absolute] }))).code).toBe(ErrorCode.InvalidArgument);
    expect(await store.currentSnapshot()).toEqual(before);
    expect((await store.counts()).nodes).toBe(4);
    await store.close();
  });

  it('rejects a batch for another repository', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    await store.applyBatch({ repo: REPO, files: generate(1, 1) });
    const error = await failure(store.applyBatch({ repo: { ...REPO, id: 'github.com/other/repo' }, files: generate(1, 1, 'v1') }));
    expect(error.code).toBe(ErrorCode.InvalidArgument);
    expect(error.message).toContain('github.com/other/repo');
    expect((await store.repo())?.id).toBe(REPO.id);
    expect((await store.findNodesByName('handle_v1_0_0')).length).toBe(0);
    await store.close();
  });

  it('reports a malformed full-text query as INVALID_ARGUMENT, not a SQLite error', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    await store.applyBatch({ files: generate(2, 2) });
    for (const query of ['"unterminated', 'handle AND', 'title:handle', 'AND', '(handle', 'name:']) {
      const error = await failure(store.search(query));
      expect(error.code).toBe(ErrorCode.InvalidArgument);
      expect(error.message).toContain(JSON.stringify(query));
    }
    expect(await store.search('   ')).toEqual([]);
    expect((await failure(store.search('handle', { limit: -1 }))).code).toBe(ErrorCode.InvalidArgument);
    expect((await failure(store.search('handle', { columnWeights: { doc: Infinity } }))).code).toBe(ErrorCode.InvalidArgument);
    await store.close();
  });
});
