// Fault injection against the MCP server (issue 17): the real server, spawned over stdio and
// driven by the SDK's client, killed with SIGKILL during a `reindex` call and during the first
// index, and stopped with SIGINT and SIGTERM during a reindex. Afterwards the database must
// pass `integrity_check` and hold either the graph it held before (same snapshot root and
// counts) or the graph an uninterrupted index produces; a server restarted on it must answer,
// `index_status` must describe that graph, and a reindex must produce the new one. And a run
// held inside its batch transaction: the server answers meanwhile, from the old graph.
//
// The points are hit from inside the server process: a preloaded module wraps better-sqlite3's
// Statement#run (the prototype every statement of a thread shares) in every thread — the index
// runs in the server's index worker, which inherits the preload — and, just before the chosen
// statement, sends the signal to its own process or holds the thread. See
// packages/cli/test/support-faults.ts for the same technique against `knowing index`;
// docs/reliability.md lists the cases.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { appendFileSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { indexRepository } from '@knowing/indexer';
import { createSqliteStore } from '@knowing/store-sqlite';
import { FIXTURE, textOf, tsxLoader } from './support/harness.js';

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support', 'server-entry.ts');
const fromStore = createRequire(fileURLToPath(new URL('../../store-sqlite/package.json', import.meta.url)));
const SQLITE_MODULE = fromStore.resolve('better-sqlite3');
const Database = fromStore('better-sqlite3') as new (file: string) => { pragma(sql: string, options: { simple: boolean }): unknown; close(): void };

/** Where the fault fires: the statement the server is about to run. */
interface Fault {
  readonly at: 'extraction-note' | 'batch' | 'committed';
  /** Sent to the server's process there. */
  readonly signal?: NodeJS.Signals;
  /** Instead of a signal: the thread waits there until this file exists. */
  readonly hold?: string;
  /** For `extraction-note` and `batch`: which statement of that kind. @default 1 */
  readonly n?: number;
}

const FIRED = 'KNOWING-FAULT-FIRED';

// extraction-note: the n-th parse result stored (parsing is under way).
// batch: the n-th INSERT, UPDATE or DELETE on nodes or edges inside a transaction (the batch,
// uncommitted; creating a database runs only DDL).
// committed: the first statement outside a transaction after the snapshot row was written.
const PRELOAD = `data:text/javascript,${encodeURIComponent(`
import { createRequire } from 'node:module';
import { existsSync, writeSync } from 'node:fs';
const spec = JSON.parse(process.env.KNOWING_FAULT ?? 'null');
if (spec) {
  const Database = createRequire(spec.sqlite)(spec.sqlite);
  const scratch = new Database(':memory:');
  const proto = Object.getPrototypeOf(scratch.prepare('SELECT 1'));
  scratch.close();
  const run = proto.run;
  let fired = false;
  let count = 0;
  let snapshotWritten = false;
  proto.run = function (...args) {
    const sql = this.source;
    const inTransaction = this.database.inTransaction;
    const hit =
      (spec.at === 'extraction-note' && /^\\s*INSERT INTO notes/i.test(sql) && args[1] === 'extraction' && ++count === (spec.n ?? 1)) ||
      (spec.at === 'batch' && inTransaction && /^\\s*(INSERT|UPDATE|DELETE)\\b.*\\b(nodes|edges)\\b/is.test(sql) && ++count === (spec.n ?? 1)) ||
      (spec.at === 'committed' && snapshotWritten && !inTransaction);
    if (hit && !fired) {
      fired = true;
      writeSync(2, '${FIRED} ' + spec.at + ': ' + sql.slice(0, 40) + '\\n');
      if (spec.hold) {
        const nap = new Int32Array(new SharedArrayBuffer(4));
        while (!existsSync(spec.hold)) Atomics.wait(nap, 0, 0, 20);
      } else process.kill(process.pid, spec.signal);
    }
    if (/^\\s*INSERT INTO snapshots/i.test(sql)) snapshotWritten = true;
    return run.apply(this, args);
  };
}
`)}`;

/** The SDK's client over a child process this test owns, so that it sees how the process ended. */
class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly child: ChildProcessWithoutNullStreams) {}

  async start(): Promise<void> {
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) this.onmessage?.(message);
    });
    // Writing to a killed server fails with EPIPE: the closed connection reports it.
    this.child.stdin.on('error', () => undefined);
    this.child.on('close', () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.child.stdin.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.child.stdin.end();
  }
}

interface Server {
  readonly client: Client;
  stderr(): string;
  /** How the process ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Disconnect (the server then exits 0) and wait for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const servers = new Set<ChildProcessWithoutNullStreams>();

async function startServer(root: string, db: string, fault?: Fault): Promise<Server> {
  const child = spawn(process.execPath, ['--conditions=@knowing/source', '--import', tsxLoader(), '--import', PRELOAD, ENTRY, root, db], {
    cwd: root,
    env: { ...process.env, ...(fault ? { KNOWING_FAULT: JSON.stringify({ ...fault, sqlite: SQLITE_MODULE }) } : {}) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  servers.add(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      servers.delete(child);
      resolve({ code, signal });
    }),
  );
  const client = new Client({ name: 'knowing-mcp-faults', version: '0.0.0' });
  await client.connect(new ChildTransport(child)).catch((error: unknown) => {
    throw new Error(`the server ended before it answered the handshake (${(error as Error).message}); its stderr:\n${stderr}`);
  });
  return {
    client,
    stderr: () => stderr,
    exited,
    async stop() {
      await client.close();
      return exited;
    },
  };
}

afterAll(() => {
  for (const child of servers) child.kill('SIGKILL');
});

interface GraphState {
  readonly id: string;
  readonly root: string;
  readonly nodes: number;
  readonly edges: number;
}

/** What a database holds, read as the next server would: SQLite recovers its log first. */
async function graphAt(db: string): Promise<GraphState | null> {
  const raw = new Database(db);
  try {
    expect(raw.pragma('integrity_check', { simple: true }), `integrity_check of ${db}`).toBe('ok');
  } finally {
    raw.close();
  }
  const store = await createSqliteStore({ path: db });
  try {
    const snapshot = await store.currentSnapshot();
    return snapshot ? { id: snapshot.id, root: snapshot.root, nodes: snapshot.nodeCount, edges: snapshot.edgeCount } : null;
  } finally {
    await store.close();
  }
}

/** Index `root` into a new database at `db` in this process, as the server does (parsing in this thread). */
async function indexInto(root: string, db: string): Promise<GraphState> {
  const store = await createSqliteStore({ path: db });
  try {
    await indexRepository({ root, store, workers: 0 });
  } finally {
    await store.close();
  }
  return (await graphAt(db))!;
}

const scratch = mkdtempSync(path.join(tmpdir(), 'knowing-mcp-faults-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;
const freshDir = (): string => {
  const dir = path.join(scratch, `case-${++counter}`);
  mkdirSync(dir);
  return dir;
};

/** The repository: four copies of the notely fixture (24 Python files). */
function writeV1(root: string): void {
  for (let i = 0; i < 4; i++) cpSync(FIXTURE, path.join(root, `app${i}`), { recursive: true });
}

/** The change a reindex picks up: new functions in two files, one file deleted, one added. */
function editToV2(root: string): void {
  for (const app of ['app0', 'app2']) {
    appendFileSync(path.join(root, app, 'notely', 'search.py'), '\n\ndef count_matches(notes, query):\n    return len(search_notes(notes, query))\n');
  }
  rmSync(path.join(root, 'app3', 'tests', 'test_search.py'));
  writeFileSync(path.join(root, 'app1', 'notely', 'archive.py'), 'class Archive:\n    def __init__(self):\n        self.items = []\n\n    def add(self, note):\n        self.items.append(note)\n        return len(self.items)\n');
}

/** The repository (V2) in the folder where V1 was indexed into `v1Db`. */
let live: string;
let v1Db: string;
let OLD: GraphState;
let NEW: GraphState;

beforeAll(async () => {
  // Node ids embed the repository id, the folder's name here: every copy is called `repo`.
  live = path.join(freshDir(), 'repo');
  writeV1(live);
  v1Db = path.join(freshDir(), 'graph.db');
  OLD = await indexInto(live, v1Db);
  editToV2(live);
  const reference = path.join(freshDir(), 'repo');
  writeV1(reference);
  editToV2(reference);
  NEW = await indexInto(reference, path.join(freshDir(), 'graph.db'));
  expect(NEW.root).not.toBe(OLD.root);
}, 120_000);

function v1Copy(): string {
  const db = path.join(freshDir(), 'graph.db');
  copyFileSync(v1Db, db);
  return db;
}

function which(state: GraphState | null, old: GraphState | null): string {
  if (JSON.stringify(state) === JSON.stringify(old)) return 'old';
  if (JSON.stringify(state) === JSON.stringify(NEW)) return 'new';
  return `neither: ${JSON.stringify(state)}`;
}

interface Status {
  indexed: boolean;
  snapshot: string | null;
  files: number;
  nodes: number;
  edges: number;
  stale_files: number;
  indexing: unknown;
}

async function indexStatus(client: Client): Promise<Status> {
  const result = await client.callTool({ name: 'index_status', arguments: {} }, undefined, { timeout: 60_000 });
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent as unknown as Status;
}

/** Resolves once the server's stderr holds `text` (the fault fired, a line was logged). */
async function stderrShows(server: Server, text: string): Promise<void> {
  while (!server.stderr().includes(text)) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A reindex call that the fault ends: the call fails with the connection, the process ends. */
async function reindexUntilStopped(server: Server, tool = 'reindex', args: Record<string, unknown> = {}): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const call = server.client.callTool({ name: tool, arguments: args }, undefined, { timeout: 60_000 });
  await expect(call).rejects.toThrow(/closed/i);
  const exit = await server.exited;
  expect(server.stderr()).toContain(FIRED);
  return exit;
}

/**
 * Restart the server on `db`: it answers, `index_status` describes the graph the database holds
 * (`state`), and a reindex brings it to the new graph.
 */
async function restartAndReindex(root: string, db: string, state: GraphState | null): Promise<void> {
  const server = await startServer(root, db);
  try {
    const status = await indexStatus(server.client);
    expect(status.indexing).toBeNull();
    expect(status.snapshot).toBe(state?.id ?? null);
    expect(status.indexed).toBe(state !== null);
    expect({ nodes: status.nodes, edges: status.edges }).toEqual({ nodes: state?.nodes ?? 0, edges: state?.edges ?? 0 });
    // The old graph is behind the working tree; the new one is not.
    if (state?.root === OLD.root) expect(status.stale_files).toBeGreaterThan(0);
    if (state?.root === NEW.root) expect(status.stale_files).toBe(0);
    const reindex = await server.client.callTool({ name: 'reindex', arguments: {} }, undefined, { timeout: 60_000 });
    expect(reindex.isError ?? false, textOf(reindex as never)).toBe(false);
    const after = await indexStatus(server.client);
    expect(after.snapshot).toBe(NEW.id);
    expect(after.stale_files).toBe(0);
  } finally {
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  }
  expect(await graphAt(db)).toEqual(NEW);
}

describe('the reference', () => {
  it('a reindex through the server over the old database gives the graph of a from-scratch index of a copy elsewhere', async () => {
    await restartAndReindex(live, v1Copy(), OLD);
  });
});

describe('the MCP server killed with SIGKILL', () => {
  it.each([
    { name: 'while parsing (the second parse result stored)', fault: { at: 'extraction-note', signal: 'SIGKILL', n: 2 } as Fault, expected: 'old' },
    { name: 'inside the batch transaction', fault: { at: 'batch', signal: 'SIGKILL', n: 5 } as Fault, expected: 'old' },
    { name: 'after the batch committed, before the indexer state was saved', fault: { at: 'committed', signal: 'SIGKILL' } as Fault, expected: 'new' },
  ])('during a reindex call, $name: the database holds the $expected graph; restarted, the server reports it and reindexes to the new one', async ({ fault, expected }) => {
    const db = v1Copy();
    const server = await startServer(live, db, fault);
    expect(await reindexUntilStopped(server)).toEqual({ code: null, signal: 'SIGKILL' });
    const state = await graphAt(db);
    expect(which(state, OLD)).toBe(expected);
    await restartAndReindex(live, db, state);
  });

  it('during the first index (started by a context call): no graph is left; restarted, the server says so and indexes', async () => {
    const dir = freshDir();
    const db = path.join(dir, 'graph.db');
    const server = await startServer(live, db, { at: 'batch', signal: 'SIGKILL', n: 5 });
    expect(await reindexUntilStopped(server, 'context_for_task', { task_description: 'search notes by query' })).toEqual({ code: null, signal: 'SIGKILL' });
    // No half-made file beside the database.
    expect(readdirSync(dir).filter((name) => !/^graph\.db(-wal|-shm)?$/.test(name))).toEqual([]);
    expect(existsSync(db)).toBe(true);
    expect(await graphAt(db)).toBeNull();
    await restartAndReindex(live, db, null);
  });
});

describe('the MCP server stopped by a signal during a reindex', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s inside the batch transaction: the server exits and the database holds the old or the new graph', async (signal) => {
    const db = v1Copy();
    const server = await startServer(live, db, { at: 'batch', signal, n: 5 });
    const exit = await reindexUntilStopped(server);
    // The stdio server installs no handler: the signal's default action ends it at once.
    expect(exit).toEqual({ code: null, signal });
    const state = await graphAt(db);
    expect(['old', 'new']).toContain(which(state, OLD));
    await restartAndReindex(live, db, state);
  });
});

/** A server on a copy of the old database, its reindex call held at `at` (the thread there waits) until `release()`. */
async function heldReindex(at: Fault['at'], n: number): Promise<{ db: string; server: Server; reindex: ReturnType<Client['callTool']>; release(): void }> {
  const db = v1Copy();
  const file = path.join(freshDir(), 'release');
  const server = await startServer(live, db, { at, n, hold: file });
  const reindex = server.client.callTool({ name: 'reindex', arguments: {} }, undefined, { timeout: 120_000 });
  reindex.catch(() => undefined);
  await stderrShows(server, FIRED);
  return { db, server, reindex, release: () => writeFileSync(file, '') };
}

describe('the MCP server while its index run is held inside the batch transaction', () => {
  it('answers pings and index_status from the old graph meanwhile; released, the reindex completes with the new graph', async () => {
    const { db, server, reindex, release } = await heldReindex('batch', 5);
    try {
      let answered = false;
      reindex.then(
        () => (answered = true),
        () => (answered = true),
      );
      // The thread writing the batch waits until released. Were it the server's own thread,
      // none of these would be answered before that.
      for (let i = 0; i < 5; i++) await server.client.ping({ timeout: 30_000 });
      const during = (await server.client.callTool({ name: 'index_status', arguments: {} })).structuredContent as unknown as Status & { indexing: { kind: string; phase: string } | null };
      expect(during.snapshot).toBe(OLD.id);
      expect({ nodes: during.nodes, edges: during.edges }).toEqual({ nodes: OLD.nodes, edges: OLD.edges });
      expect(during.indexing).toMatchObject({ kind: 'incremental', phase: 'write' });
      expect(answered).toBe(false);
      release();
      const result = await reindex;
      expect(result.isError ?? false, textOf(result as never)).toBe(false);
      const after = await indexStatus(server.client);
      expect({ snapshot: after.snapshot, nodes: after.nodes, edges: after.edges }).toEqual({ snapshot: NEW.id, nodes: NEW.nodes, edges: NEW.edges });
    } finally {
      release();
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
    expect(await graphAt(db)).toEqual(NEW);
  });
});

describe('the MCP server whose client leaves during a reindex', () => {
  it('abandons the run in its worker and exits 0; the database keeps the old graph', async () => {
    // Held while parsing: the client is gone before the run could reach its write.
    const { db, server, release } = await heldReindex('extraction-note', 2);
    try {
      const exit = server.stop();
      await stderrShows(server, 'the index run in progress is abandoned');
      release();
      // No thread left to keep the process alive.
      expect(await exit).toEqual({ code: 0, signal: null });
    } finally {
      release();
    }
    expect(server.stderr()).toMatch(/index failed: \[knowing:mcp\] the index run was abandoned: the server is closing/);
    expect(await graphAt(db)).toEqual(OLD);
    await restartAndReindex(live, db, OLD);
  });
});
