/**
 * In-process tests of behaviour that is awkward to reach through a child process: slow first
 * index, progress notifications, the bounded pack history, option checks, closing.
 */
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, KnowingError } from '@knowing/graph';
import { createKnowingServer, DEFAULT_SERVER_OPTIONS } from '../src/index.js';
import type { KnowingServer, KnowingServerOptions } from '../src/index.js';
import { call, connectInProcess, FIXTURE, packRootOf, scratchRepo, textOf } from './support/harness.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connected(options: Partial<KnowingServerOptions> & { repoRoot: string }): Promise<{ server: KnowingServer; client: Client }> {
  const connection = await connectInProcess({ indexOptions: { workers: 0 }, ...options });
  cleanups.push(connection.close);
  return connection;
}

function plainCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'knowing-mcp-plain-'));
  cpSync(FIXTURE, path.join(dir, 'repo'), { recursive: true });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'repo');
}

function gitCopy(): ReturnType<typeof scratchRepo> {
  const repo = scratchRepo();
  cleanups.push(repo.cleanup);
  return repo;
}

describe('createKnowingServer', () => {
  it("uses the repository's own model (.knowing/model.json), and says in one line why not when it does not fit", async () => {
    const root = plainCopy();
    mkdirSync(path.join(root, '.knowing'), { recursive: true });
    writeFileSync(path.join(root, '.knowing', 'model.json'), JSON.stringify({ version: 1, features: ['lexical'], mean: [0], scale: [1], weights: [1] }));
    const logged: string[] = [];
    const { client } = await connected({ repoRoot: root, log: (message) => logged.push(message) });
    const warnings = logged.filter((line) => line.includes('model.json'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^ignoring .*model\.json \(learned model does not fit this version\); using the shipped model/);
    expect(textOf(await call(client, 'context_for_task', { task_description: 'search notes by query' }))).toContain('search_notes');
  });

  it('keeps its database in <repo>/.knowing/graph.db by default, and does not index it', async () => {
    const root = plainCopy();
    const { server, client } = await connected({ repoRoot: root });
    expect(server.dbPath).toBe(path.join(server.repoRoot, DEFAULT_SERVER_OPTIONS.dbPath));
    await call(client, 'reindex');
    expect(existsSync(path.join(root, '.knowing', 'graph.db'))).toBe(true);
    expect(readFileSync(path.join(root, '.knowing', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    const status = (await call(client, 'index_status')).structuredContent as { files: number; stale_files: number };
    expect(status).toMatchObject({ files: 6, stale_files: 0 });
  });

  it('rejects a repository root that does not exist', async () => {
    const error = await createKnowingServer({ repoRoot: path.join(tmpdir(), 'no-such-knowing-repo') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KnowingError);
    expect((error as KnowingError).code).toBe(ErrorCode.PathNotFound);
  });

  it('rejects an unknown language when created, not on the first call', async () => {
    const error = await createKnowingServer({ repoRoot: plainCopy(), dbPath: ':memory:', indexOptions: { languages: ['cobol'] } }).catch((e: unknown) => e);
    expect((error as KnowingError).code).toBe(ErrorCode.UnknownLanguage);
  });

  it('rejects a storeLocator without the store it locates, or naming an in-memory database', async () => {
    const alone = await createKnowingServer({ repoRoot: plainCopy(), storeLocator: { kind: 'sqlite', path: 'graph.db' } }).catch((e: unknown) => e);
    expect(alone).toMatchObject({ code: ErrorCode.InvalidArgument, message: expect.stringContaining('no store was passed') });
    const { createSqliteStore } = await import('@knowing/store-sqlite');
    const store = await createSqliteStore({ path: ':memory:' });
    cleanups.push(() => store.close());
    const memory = await createKnowingServer({ repoRoot: plainCopy(), store, storeLocator: { kind: 'sqlite', path: ':memory:' } }).catch((e: unknown) => e);
    expect(memory).toMatchObject({ code: ErrorCode.InvalidArgument, message: expect.stringContaining('an in-memory database cannot be opened twice') });
  });

  it('rejects a pack history that is not a positive whole number', async () => {
    const error = await createKnowingServer({ repoRoot: plainCopy(), packHistory: 0 }).catch((e: unknown) => e);
    expect((error as KnowingError).code).toBe(ErrorCode.InvalidArgument);
  });
});

describe('first index', () => {
  it('answers "indexing" instead of timing out when the first index outlasts the wait, then answers', async () => {
    const { client } = await connected({ repoRoot: plainCopy(), dbPath: ':memory:', indexWaitMs: 0 });
    const first = await call(client, 'context_for_task', { task_description: 'search notes' });
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toMatch(/^knowing is indexing this repository for the first time \(.*\)\. On a large repository this may take a while/);
    const during = (await call(client, 'index_status')).structuredContent as { indexing: { kind: string } | null };
    // The run may have finished by now on a fast machine; if not, status shows it.
    if (during.indexing) expect(during.indexing.kind).toBe('initial');
    let answer = first;
    for (let i = 0; i < 100 && /indexing this repository/.test(textOf(answer)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await call(client, 'context_for_task', { task_description: 'search notes' });
    }
    expect(textOf(answer)).toContain('notely/search.py.search_notes');
  });

  it('reports indexing progress to a client that asks for it', async () => {
    const { client } = await connected({ repoRoot: plainCopy(), dbPath: ':memory:' });
    const messages: string[] = [];
    const result = await client.callTool({ name: 'context_for_task', arguments: { task_description: 'search notes' } }, undefined, {
      onprogress: (progress) => messages.push(progress.message ?? ''),
    });
    expect(result.isError).toBeFalsy();
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.at(-1)).toMatch(/^indexing: done \d+\/\d+$/);
  });
});

describe('pack history', () => {
  it('remembers only the most recent packs', async () => {
    const { client } = await connected({ repoRoot: plainCopy(), dbPath: ':memory:', packHistory: 1 });
    const a = await call(client, 'context_for_task', { task_description: 'search notes by query' });
    await call(client, 'context_for_task', { task_description: 'save the notebook as json' });
    const again = await call(client, 'context_for_task', { task_description: 'add a tag to a note', pack_root: packRootOf(a) });
    expect(textOf(again)).toContain('is not among the last 1 packs this server sent, so this is the full pack');
  });
});

describe('context_for_pr without files', () => {
  it('says so when the working tree has no changes (its own index directory is git-ignored)', async () => {
    const repo = gitCopy();
    const { client } = await connected({ repoRoot: repo.root });
    await call(client, 'reindex');
    const result = await call(client, 'context_for_pr');
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/^No changed files: `git diff HEAD` is empty/);
  });

  it('asks for files outside a git repository', async () => {
    const { client } = await connected({ repoRoot: plainCopy(), dbPath: ':memory:' });
    const result = await call(client, 'context_for_pr');
    // The temp directory might sit inside some git work tree; then the diff is simply empty.
    if (result.isError) expect(textOf(result)).toMatch(/is not inside a git repository.*pass the changed files as `files` \(INVALID_ARGUMENT\)/);
    else expect(textOf(result)).toMatch(/^No changed files/);
  });
});

describe('context_for_pr without files: the index is not a change', () => {
  it('leaves out a database inside the repository that git does not ignore, and its -wal, -shm and -journal files', async () => {
    const repo = gitCopy();
    // An explicit dbPath inside the repository: nothing writes a .gitignore for it.
    const { client } = await connected({ repoRoot: repo.root, dbPath: 'knowing-index.db' });
    await call(client, 'reindex');
    writeFileSync(path.join(repo.root, 'knowing-index.db-journal'), '');
    mkdirSync(path.join(repo.root, '.knowing'), { recursive: true });
    writeFileSync(path.join(repo.root, '.knowing', 'graph.db'), '');
    writeFileSync(path.join(repo.root, '.knowing', 'model.json'), '{}');
    expect(readdirSync(repo.root).filter((f) => f.startsWith('knowing-index.db')).sort()).toEqual(
      expect.arrayContaining(['knowing-index.db', 'knowing-index.db-journal']),
    );
    const clean = await call(client, 'context_for_pr');
    expect(clean.isError, textOf(clean)).toBeFalsy();
    expect(textOf(clean)).toMatch(/^No changed files: `git diff HEAD` is empty/);
    // A real change still shows, alone.
    appendFileSync(path.join(repo.root, 'notely', 'models.py'), '\n\ndef archive(notebook):\n    return list(notebook.notes)\n');
    const changed = await call(client, 'context_for_pr', { format: 'markdown' });
    expect(textOf(changed)).toContain('# Context: changes: notely/models.py\n');
    const status = (await call(client, 'index_status')).structuredContent as { stale: { added: string[] } };
    expect(status.stale.added).toEqual([]);
  });

  it('leaves out the default .knowing directory even when its .gitignore is gone', async () => {
    const repo = gitCopy();
    const { client } = await connected({ repoRoot: repo.root });
    await call(client, 'reindex');
    rmSync(path.join(repo.root, '.knowing', '.gitignore'));
    const result = await call(client, 'context_for_pr');
    expect(textOf(result)).toMatch(/^No changed files/);
  });
});

describe('long work', () => {
  /** Hold the thread, as a query on a large index does. */
  const busy = (ms: number): void => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };

  it('lets a request that arrives during an answer be served before the answer is done', async () => {
    const { createSqliteStore } = await import('@knowing/store-sqlite');
    const sqlite = await createSqliteStore({ path: ':memory:' });
    cleanups.push(() => sqlite.close());
    // Every store call takes 3 ms of the thread: an answer made of many calls is long, and
    // without turns of the event loop between them nothing else would be read meanwhile.
    const slow = new Proxy(sqlite, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          busy(3);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const { client } = await connected({ repoRoot: plainCopy(), store: slow, refresh: false });
    await call(client, 'reindex');
    const order: string[] = [];
    const answer = call(client, 'context_for_task', { task_description: 'search notes by query and highlight the terms' }).then((result) => {
      order.push('answer');
      return result;
    });
    // A timer fires only when the event loop turns: the ping is sent while the answer is being worked out.
    const ping = new Promise<void>((resolve) => setTimeout(() => void client.ping().then(() => resolve(void order.push('ping'))), 0));
    const result = await answer;
    await ping;
    expect(textOf(result)).toContain('notely/search.py.search_notes');
    expect(order).toEqual(['ping', 'answer']);
  });
});

describe('tool annotations', () => {
  it('marks the read tools read-only, and reindex and feedback as the ones that write, none destructive or open-world', async () => {
    const { client } = await connected({ repoRoot: plainCopy(), dbPath: ':memory:' });
    const { tools } = await client.listTools();
    const annotations = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    const read = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
    expect(annotations).toEqual({
      context_for_task: { ...read, idempotentHint: false },
      context_for_files: { ...read, idempotentHint: true },
      context_for_pr: { ...read, idempotentHint: true },
      explain_symbol: { ...read, idempotentHint: true },
      feedback: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      index_status: { ...read, idempotentHint: true },
      reindex: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    });
  });
});

describe('malformed requests over any transport', () => {
  it('answers params: null and arguments as a string with -32602 naming the parameter, in process too', async () => {
    const server = await createKnowingServer({ repoRoot: plainCopy(), dbPath: ':memory:', indexOptions: { workers: 0 } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const replies: unknown[] = [];
    clientSide.onmessage = (message) => void replies.push(message);
    await server.connect(serverSide);
    await clientSide.start();
    cleanups.push(async () => {
      await clientSide.close();
      await server.close();
    });
    await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: null } as never);
    await clientSide.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'index_status', arguments: 'full' } } as never);
    await clientSide.send([{ jsonrpc: '2.0', id: 3, method: 'ping' }] as never);
    await clientSide.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(replies).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params for tools/call: params must be an object, got null' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid params for tools/call: params.arguments: expected an object, got "full"' } },
      [{ jsonrpc: '2.0', id: 3, error: { code: -32600, message: expect.stringContaining('batches are not supported') } }],
      { jsonrpc: '2.0', id: 4, result: {} },
    ]);
  });
});

describe('close', () => {
  it('closes a store it opened, and leaves a store it was given open', async () => {
    const { createSqliteStore } = await import('@knowing/store-sqlite');
    const store = await createSqliteStore({ path: ':memory:' });
    const server = await createKnowingServer({ repoRoot: plainCopy(), store, indexOptions: { workers: 0 } });
    await server.close();
    await expect(store.counts()).resolves.toMatchObject({ nodes: 0 });
    await store.close();
    const own = await createKnowingServer({ repoRoot: plainCopy(), dbPath: ':memory:' });
    await own.close();
    await own.close();
  });
});
