/**
 * Index runs in the server's index worker: a thread of their own with a connection of its own
 * to the store, so that the server answers during the whole run. Real parts throughout: SQLite
 * files, tree-sitter, the SDK's client. (Holding a run inside its batch transaction, and
 * abandoning it when the client leaves, are in faults.test.ts.)
 */
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createPostgresStore } from '@knowing/store-postgres';
import { createSqliteStore } from '@knowing/store-sqlite';
import { startPostgresOrSkip } from '../../store-postgres/test/support/postgres.js';
import type { KnowingServerOptions } from '../src/index.js';
import { call, connectInProcess, FIXTURE, spawnServer, textOf } from './support/harness.js';

const PACKAGES = fileURLToPath(new URL('../../', import.meta.url));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'knowing-mcp-worker-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface Status {
  snapshot: string | null;
  nodes: number;
  edges: number;
  edges_by_type: Record<string, number>;
  indexing: { kind: string; phase: string | null } | null;
}

interface InProcess {
  readonly client: Client;
  /** What the server logged. */
  readonly logged: string[];
}

/** A server in this process over the SDK's in-memory transport; it refreshes only on `reindex`. */
async function inProcess(options: KnowingServerOptions): Promise<InProcess> {
  const logged: string[] = [];
  const connection = await connectInProcess({ refresh: false, indexOptions: { workers: 0 }, log: (line) => logged.push(line), ...options });
  cleanups.push(connection.close);
  return { client: connection.client, logged };
}

/** A copy of the notely fixture, in a folder named `repo` (the repository id, in every node id, is the folder's name). */
function fixtureCopy(): string {
  const root = path.join(scratchDir(), 'repo');
  cpSync(FIXTURE, root, { recursive: true });
  return root;
}

/**
 * The same repository served twice: from a store passed alone, which the server cannot open
 * again and so indexes in its own thread, and from a database file it opens (runs in the worker).
 */
async function bothWays(): Promise<{ inThread: InProcess & { root: string }; inWorker: InProcess & { root: string } }> {
  const [inThreadRoot, workerRoot] = [fixtureCopy(), fixtureCopy()];
  const dir = scratchDir();
  const store = await createSqliteStore({ path: path.join(dir, 'in-thread.db') });
  cleanups.push(() => store.close());
  const inThread = await inProcess({ repoRoot: inThreadRoot, store });
  const inWorker = await inProcess({ repoRoot: workerRoot, dbPath: path.join(dir, 'worker.db') });
  return { inThread: { ...inThread, root: inThreadRoot }, inWorker: { ...inWorker, root: workerRoot } };
}

/** For each finished run the server logged, whether it ran in the worker. */
const inWorkerRuns = (logged: string[]): boolean[] => logged.filter((line) => / index done in /.test(line)).map((line) => line.endsWith(', in a worker thread)'));

const TASKS = ['search notes by query and highlight the terms', 'save the notebook to a json file', 'archive old notes'];

/** What the index holds and how it answers, in terms that do not depend on where the copy is. */
async function answers(client: Client): Promise<{ status: Omit<Status, 'indexing'>; packs: unknown[] }> {
  const status = (await call(client, 'index_status')).structuredContent as unknown as Status;
  const packs = [];
  for (const task of TASKS) {
    const result = await call(client, 'context_for_task', { task_description: task, format: 'json', include_code: false });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    // Scores are left out: the session's boosts from earlier answers fade with the clock.
    const pack = JSON.parse(textOf(result).split('\n')[0]!) as { pack_root: string; symbols: { qualified_name: string }[] };
    packs.push({ root: pack.pack_root, symbols: pack.symbols.map((s) => s.qualified_name) });
  }
  return { status: { snapshot: status.snapshot, nodes: status.nodes, edges: status.edges, edges_by_type: status.edges_by_type }, packs };
}

describe('index runs in a worker thread', () => {
  it('give the same graph and the same answers as runs in the server thread, and the next answer sees each new graph', async () => {
    const { inThread, inWorker } = await bothWays();
    for (const server of [inThread, inWorker]) expect(textOf(await call(server.client, 'reindex', { full: true }))).toMatch(/\(full run\)/);
    const first = await answers(inWorker.client);
    expect(first.status.nodes).toBeGreaterThan(20);
    expect(first).toEqual(await answers(inThread.client));

    // The same edit in both copies, then an incremental run: the engine, its graph caches and
    // its answer cache must see the worker's commit as they see a commit of their own thread.
    for (const server of [inThread, inWorker]) {
      appendFileSync(path.join(server.root, 'notely', 'search.py'), '\n\ndef archive_stale_search_results(notes, query):\n    """Archive old notes that no longer match the query."""\n    return [note for note in notes if query not in note.text]\n');
      expect(textOf(await call(server.client, 'reindex'))).toMatch(/\(incremental run\)/);
    }
    const second = await answers(inWorker.client);
    expect(second.status.snapshot).not.toBe(first.status.snapshot);
    expect(JSON.stringify(second.packs)).toContain('notely/search.py.archive_stale_search_results');
    expect(second).toEqual(await answers(inThread.client));

    expect(inWorkerRuns(inWorker.logged)).toEqual([true, true]);
    expect(inWorkerRuns(inThread.logged)).toEqual([false, false]);
  });

  it('fail with the KnowingError a run in the server thread fails with: same code, message and hint', async () => {
    const { inThread, inWorker } = await bothWays();
    // The repository goes away under the server: the indexer refuses to index it.
    const failures = [];
    for (const server of [inThread, inWorker]) {
      rmSync(server.root, { recursive: true, force: true });
      const result = await call(server.client, 'reindex', { full: true });
      expect(result.isError).toBe(true);
      failures.push(textOf(result).replaceAll(server.root, '<root>'));
    }
    expect(failures[1]).toBe('[knowing:indexer] <root> does not exist or is not a directory — pass the root of the repository to index (PATH_NOT_FOUND)');
    expect(failures[1]).toBe(failures[0]);
  });
});

describe('a full reindex in the worker', () => {
  it('lets pings and index_status be answered while it runs, then answers from the new graph', async () => {
    // This checkout's TypeScript sources: a few hundred files, a full run of some seconds.
    const dir = scratchDir();
    const root = path.join(dir, 'sources');
    for (const name of readdirSync(PACKAGES)) {
      if (existsSync(path.join(PACKAGES, name, 'src'))) cpSync(path.join(PACKAGES, name, 'src'), path.join(root, name, 'src'), { recursive: true });
    }
    const server = await spawnServer(root, path.join(dir, 'db', 'graph.db'), { refresh: false });
    cleanups.push(() => server.close());
    expect(textOf(await call(server.client, 'reindex'))).toMatch(/\(initial run\)/);
    const before = (await call(server.client, 'index_status')).structuredContent as unknown as Status;
    // Seen only after a run: the server does not refresh before answers here.
    mkdirSync(path.join(root, 'ledger', 'src'), { recursive: true });
    writeFileSync(path.join(root, 'ledger', 'src', 'ledger.ts'), 'export function reconcileWorkerLedger(entries: number[]): number {\n  return entries.reduce((sum, entry) => sum + entry, 0);\n}\n');

    const arrivals: string[] = [];
    const statuses: Status[] = [];
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    let done = false;
    const reindex = server.client
      .callTool({ name: 'reindex', arguments: { full: true } }, undefined, { timeout: 300_000, onprogress: () => started() })
      .finally(() => {
        done = true;
        arrivals.push('reindex');
      });
    await running;
    while (!done) {
      await server.client.ping({ timeout: 60_000 });
      arrivals.push('ping');
      if (done) break;
      statuses.push((await call(server.client, 'index_status')).structuredContent as unknown as Status);
      arrivals.push('index_status');
    }
    const result = await reindex;
    expect(result.isError ?? false, textOf(result as never)).toBe(false);

    const beforeReindex = arrivals.slice(0, arrivals.indexOf('reindex'));
    expect(beforeReindex.filter((name) => name === 'ping').length).toBeGreaterThanOrEqual(3);
    expect(statuses.some((status) => status.indexing?.kind === 'full')).toBe(true);
    // On a busy machine the run can outlast the server's wait (25 s): the tool then says it goes
    // on in the background, and the status shows it until it ends.
    let after = (await call(server.client, 'index_status')).structuredContent as unknown as Status;
    for (const deadline = Date.now() + 300_000; after.indexing && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      after = (await call(server.client, 'index_status')).structuredContent as unknown as Status;
    }
    expect(after.indexing ?? null).toBeNull();
    expect(after.snapshot).not.toBe(before.snapshot);
    expect(after.nodes).toBeGreaterThan(before.nodes);
    expect(textOf(await call(server.client, 'context_for_task', { task_description: 'reconcile the worker ledger entries', include_code: false }))).toContain('ledger/src/ledger.ts.reconcileWorkerLedger');
  }, 600_000);
});

const { server: postgres, skipReason } = await startPostgresOrSkip('knowing_mcp_test', 'mcp postgres tests');
afterAll(() => postgres?.stop());

describe.skipIf(postgres === undefined)(`index runs in a worker thread over PostgreSQL${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  it('open the database named by the locator, and the server answers from what they wrote', async () => {
    const root = fixtureCopy();
    const locator = { kind: 'postgres', connectionString: postgres!.url, repository: 'notely' } as const;
    const store = await createPostgresStore({ connectionString: locator.connectionString, repository: locator.repository });
    cleanups.push(() => store.close());
    const server = await inProcess({ repoRoot: root, store, storeLocator: locator });
    expect(textOf(await call(server.client, 'reindex'))).toMatch(/\(initial run\)/);
    const first = await answers(server.client);
    expect(JSON.stringify(first.packs)).toContain('notely/search.py.search_notes');
    appendFileSync(path.join(root, 'notely', 'search.py'), '\n\ndef archive_stale_search_results(notes, query):\n    """Archive old notes that no longer match the query."""\n    return notes\n');
    expect(textOf(await call(server.client, 'reindex'))).toMatch(/\(incremental run\)/);
    const second = await answers(server.client);
    expect(second.status.snapshot).not.toBe(first.status.snapshot);
    expect(JSON.stringify(second.packs)).toContain('notely/search.py.archive_stale_search_results');
    expect(inWorkerRuns(server.logged)).toEqual([true, true]);
  });
});
