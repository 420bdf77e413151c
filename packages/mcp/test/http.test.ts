/**
 * The HTTP server (`startHttpServer`) as MCP clients see it: the SDK's Streamable HTTP client
 * against a real `node:http` server on a free port, two repositories with their own SQLite
 * index each.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { indexRepository } from '@knowing/indexer';
import { createSqliteStore } from '@knowing/store-sqlite';
import { FORBIDDEN_ERROR_CODE, startHttpServer, TOOL_NAMES } from '../src/index.js';
import type { HttpServerOptions, KnowingHttpServer } from '../src/index.js';
import { FIXTURE, textOf } from './support/harness.js';

const BOOKSHOP = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'cli', 'test', 'fixtures', 'bookshop');
const READ_TOKEN = 'read-token-0123456789abcdef';
const WRITE_TOKEN = 'write-token-0123456789abcdef';
const MAX_BODY = 64 * 1024;

let scratch: string;
const roots: Record<'notely' | 'bookshop', string> = { notely: '', bookshop: '' };

function options(overrides: Partial<HttpServerOptions> = {}): HttpServerOptions {
  return {
    repositories: [
      { name: 'notely', server: { repoRoot: roots.notely, dbPath: path.join(scratch, 'notely.db'), indexOptions: { workers: 0 } } },
      { name: 'acme/bookshop', server: { repoRoot: roots.bookshop, dbPath: path.join(scratch, 'bookshop.db'), indexOptions: { workers: 0 } } },
    ],
    tokens: [
      { token: READ_TOKEN, label: 'reader' },
      { token: WRITE_TOKEN, label: 'ci', write: true },
    ],
    port: 0,
    maxBodyBytes: MAX_BODY,
    ...overrides,
  };
}

const clients: Client[] = [];

async function connect(server: KnowingHttpServer, repository: string, token: string | undefined): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(server.endpoint(repository)), {
    requestInit: token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'knowing-http-test', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> =>
  (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;

/** A JSON-RPC POST without the SDK, to see status codes and headers. */
function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'knowing-http-'));
  roots.notely = path.join(scratch, 'notely');
  roots.bookshop = path.join(scratch, 'bookshop');
  cpSync(FIXTURE, roots.notely, { recursive: true });
  cpSync(BOOKSHOP, roots.bookshop, { recursive: true });
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

describe('startHttpServer', () => {
  let server: KnowingHttpServer;
  beforeAll(async () => {
    server = await startHttpServer(options());
  });
  afterAll(() => server.close());

  it('lists the knowing tools to the SDK client over Streamable HTTP', async () => {
    const client = await connect(server, 'notely', READ_TOKEN);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
  });

  it('answers context_for_task for each repository from its own index, the repository chosen by the URL path', async () => {
    const notely = await connect(server, 'notely', READ_TOKEN);
    const bookshop = await connect(server, 'acme/bookshop', READ_TOKEN);
    const [notes, books] = await Promise.all([
      call(notely, 'context_for_task', { task_description: 'search notes by query', format: 'json', include_code: false }),
      call(bookshop, 'context_for_task', { task_description: 'apply a discount code to the cart total', format: 'json', include_code: false }),
    ]);
    expect(notes.isError).toBeFalsy();
    expect(books.isError).toBeFalsy();
    expect(textOf(notes)).toContain('search_notes');
    expect(textOf(notes)).not.toContain('bookshop/cart.py');
    expect(textOf(books)).toContain('bookshop/cart.py');
    expect(textOf(books)).not.toContain('search_notes');
  });

  it('refuses a request without a token, or with an unknown one, with 401 and WWW-Authenticate', async () => {
    const missing = await post(server.endpoint('notely'), INITIALIZE);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="knowing"');
    const wrong = await post(server.endpoint('notely'), INITIALIZE, { authorization: `Bearer ${READ_TOKEN}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="knowing", error="invalid_token"');

    for (const token of [undefined, 'not-a-known-token-at-all']) {
      const error = await connect(server, 'notely', token).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StreamableHTTPError);
      expect((error as StreamableHTTPError).code).toBe(401);
    }
  });

  it('refuses reindex with a JSON-RPC error for a read-only token, and runs it for a token allowed to write', async () => {
    const reader = await connect(server, 'notely', READ_TOKEN);
    const refused = await call(reader, 'reindex').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(FORBIDDEN_ERROR_CODE);
    expect((refused as McpError).message).toMatch(/reindex needs a token allowed to write, and reader is read-only/);
    // The other tools stay open to it.
    expect((await call(reader, 'index_status')).isError).toBeFalsy();

    const writer = await connect(server, 'notely', WRITE_TOKEN);
    const result = await call(writer, 'reindex', { full: true });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/full/i);
  });

  it('keeps a session to the token and the repository that opened it', async () => {
    const opened = await post(server.endpoint('notely'), INITIALIZE, { authorization: `Bearer ${READ_TOKEN}` });
    expect(opened.status).toBe(200);
    const session = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const otherToken = await post(server.endpoint('notely'), list, { ...headers, authorization: `Bearer ${WRITE_TOKEN}` });
    expect(otherToken.status).toBe(404);
    const otherRepository = await post(server.endpoint('acme/bookshop'), list, { ...headers, authorization: `Bearer ${READ_TOKEN}` });
    expect(otherRepository.status).toBe(404);
    const same = await post(server.endpoint('notely'), list, { ...headers, authorization: `Bearer ${READ_TOKEN}` });
    expect(same.status).toBe(200);
    await same.body?.cancel();
  });

  it('answers a body over maxBodyBytes with 413, and the session goes on', async () => {
    const client = await connect(server, 'notely', READ_TOKEN);
    const error = await call(client, 'context_for_task', { task_description: 'x'.repeat(MAX_BODY * 2) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(413);
    expect((await call(client, 'context_for_task', { task_description: 'search notes by query', include_code: false })).isError).toBeFalsy();

    const raw = await post(server.endpoint('notely'), JSON.stringify({ padding: 'y'.repeat(MAX_BODY + 1) }), { authorization: `Bearer ${READ_TOKEN}` });
    expect(raw.status).toBe(413);
  });

  it('reports the repositories and versions on GET /healthz, without a token', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    const health = (await response.json()) as { status: string; server: { name: string; version: string }; protocol_version: string; repositories: { name: string; indexed: boolean; snapshot: string | null }[] };
    expect(health.status).toBe('ok');
    expect(health.server.name).toBe('knowing');
    expect(health.server.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(health.protocol_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(health.repositories.map((r) => r.name)).toEqual(['notely', 'acme/bookshop']);
    expect(health.repositories.every((r) => r.indexed && typeof r.snapshot === 'string')).toBe(true);
  });

  it('answers an unknown repository with 404 naming the ones served', async () => {
    const response = await post(`${server.url}/mcp/nope`, INITIALIZE, { authorization: `Bearer ${READ_TOKEN}` });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('/mcp/acme/bookshop');
  });
});

describe('startHttpServer without a checkout', () => {
  it('answers from a store another process indexed (indexing: false), and refuses reindex even to a write token', async () => {
    const db = path.join(scratch, 'ci.db');
    const ci = await createSqliteStore({ path: db });
    await indexRepository({ root: roots.bookshop, store: ci, workers: 0 });
    await ci.close();
    const empty = mkdtempSync(path.join(scratch, 'no-checkout-'));
    const server = await startHttpServer({
      ...options(),
      repositories: [{ name: 'bookshop', server: { repoRoot: empty, dbPath: db, indexing: false } }],
    });
    try {
      const writer = await connect(server, 'bookshop', WRITE_TOKEN);
      const answer = await call(writer, 'context_for_task', { task_description: 'apply a discount code to the cart total', format: 'json' });
      expect(answer.isError).toBeFalsy();
      expect(textOf(answer)).toContain('bookshop/cart.py');
      const status = (await call(writer, 'index_status')).structuredContent as { indexed: boolean; stale_files: number };
      expect(status).toMatchObject({ indexed: true, stale_files: 0 });
      const refused = await call(writer, 'reindex');
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/does not index the repository.*INVALID_ARGUMENT/s);
    } finally {
      await server.close();
    }
  });
});

describe('startHttpServer rate limit', () => {
  it('answers a token over its rate with 429 and Retry-After, per token', async () => {
    const server = await startHttpServer(options({ requestsPerMinute: 60, burst: 2 }));
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 3; i++) {
        const response = await post(server.endpoint('notely'), '{}', { authorization: `Bearer ${READ_TOKEN}` });
        statuses.push(response.status);
        if (response.status === 429) retryAfter = response.headers.get('retry-after');
        await response.body?.cancel();
      }
      expect(statuses).toEqual([400, 400, 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      // Another token has its own allowance; the SDK client sees the 429 as an error.
      const client = await connect(server, 'notely', WRITE_TOKEN).catch((e: unknown) => e);
      const error = client instanceof Client ? await client.listTools().then(() => client.listTools()).catch((e: unknown) => e) : client;
      expect(error).toBeInstanceOf(StreamableHTTPError);
      expect((error as StreamableHTTPError).code).toBe(429);
    } finally {
      await server.close();
    }
  });
});

describe('startHttpServer shutdown', () => {
  it('finishes a call in flight, then stops accepting and closes the stores it opened', async () => {
    // The index run of notely is held at its write until released: it is in flight for sure.
    const inner = await createSqliteStore({ path: path.join(scratch, 'held.db') });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let writing: () => void = () => {};
    const writeStarted = new Promise<void>((resolve) => (writing = resolve));
    const held = new Proxy(inner, {
      get(target, property, receiver) {
        if (property === 'applyBatch') {
          return async (...args: Parameters<typeof inner.applyBatch>) => {
            writing();
            await released;
            return target.applyBatch(...args);
          };
        }
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const ownedDb = path.join(scratch, 'owned.db');
    const server = await startHttpServer({
      ...options(),
      repositories: [
        { name: 'notely', server: { repoRoot: roots.notely, store: held, indexOptions: { workers: 0 } } },
        { name: 'bookshop', server: { repoRoot: roots.bookshop, dbPath: ownedDb, indexOptions: { workers: 0 } } },
      ],
    });
    const owned = await connect(server, 'bookshop', READ_TOKEN);
    expect((await call(owned, 'context_for_task', { task_description: 'cart total', include_code: false })).isError).toBeFalsy();
    expect(existsSync(`${ownedDb}-wal`)).toBe(true);

    const writer = await connect(server, 'notely', WRITE_TOKEN);
    let answered = false;
    const inFlight = call(writer, 'reindex', { full: true }).finally(() => (answered = true));
    await writeStarted;
    let stopped = false;
    const closed = server.close().then(() => (stopped = true));
    // New connections are refused at once; the call in flight goes on.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    release();
    const result = await inFlight;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/files/);
    await closed;
    expect(answered).toBe(true);
    // SQLite removes the write-ahead log when the last connection closes: the server closed the store it opened…
    expect(existsSync(`${ownedDb}-wal`)).toBe(false);
    // …and left open the one it was given.
    expect((await inner.counts()).files).toBeGreaterThan(0);
    await inner.close();
  });

  it('refuses options it cannot serve safely', async () => {
    await expect(startHttpServer({ ...options(), tokens: [] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(startHttpServer({ ...options(), tokens: [{ token: 'short' }] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(startHttpServer({ ...options(), repositories: [{ name: '../etc', server: { repoRoot: roots.notely } }] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
