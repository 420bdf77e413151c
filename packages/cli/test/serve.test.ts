/**
 * `knowing serve` over SQLite indexes: two checkouts, tokens from a file and from
 * KNOWING_TOKENS, read-only and write tokens, SIGTERM. (PostgreSQL: postgres.test.ts.)
 */
import { appendFileSync, chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDir, fixtureRepo, knowing, removeScratch } from './helpers.js';
import { McpHttpSession, post, serve } from './serve-client.js';
import type { Serving } from './serve-client.js';

afterAll(removeScratch);

const READ = 'reader-0123456789abcdef0123';
const WRITE = 'writer-0123456789abcdef0123';

describe('knowing serve', () => {
  let shop: string;
  let books: string;
  let tokens: string;
  let server: Serving;

  beforeAll(async () => {
    shop = fixtureRepo('knowing-serve-shop-');
    books = fixtureRepo('knowing-serve-books-');
    // The two checkouts differ, so that each answer shows which index it came from.
    appendFileSync(join(books, 'bookshop', 'cart.py'), '\n\ndef gift_wrap_the_order(cart):\n    """Wrap every book of the cart as a gift."""\n    return cart\n');
    for (const repo of [shop, books]) expect((await knowing(['index', '--quiet'], { cwd: repo })).code).toBe(0);
    tokens = join(emptyDir(), 'tokens');
    writeFileSync(tokens, `# who may call\n${READ}   # agents\n${WRITE} write # ci\n`);
    chmodSync(tokens, 0o600);
    server = await serve(['--checkout', `shop=${shop}`, '--checkout', `books=${books}`, '--tokens', tokens], { cwd: shop });
  });

  afterAll(async () => {
    server?.child.kill('SIGKILL');
  });

  it('lists one endpoint per checkout, each with its own SQLite index', () => {
    expect(server.listening.repositories.map((r) => [r.name, r.endpoint.endsWith(`/mcp/${r.name}`), r.store])).toEqual([
      ['shop', true, join(shop, '.knowing', 'graph.db').replace(`${shop}/`, '')],
      ['books', true, join(books, '.knowing', 'graph.db')],
    ]);
  });

  it('answers context_for_task for the repository the URL names', async () => {
    const [shopSession, booksSession] = await Promise.all([
      McpHttpSession.open(server.listening.repositories[0]!.endpoint, READ),
      McpHttpSession.open(server.listening.repositories[1]!.endpoint, READ),
    ]);
    const task = { task_description: 'gift wrap the order', format: 'json', include_code: false };
    const [fromShop, fromBooks] = await Promise.all([shopSession.callTool('context_for_task', task), booksSession.callTool('context_for_task', task)]);
    expect(fromShop.isError).toBe(false);
    expect(fromShop.text).not.toContain('gift_wrap_the_order');
    expect(fromBooks.text).toContain('bookshop/cart.py.gift_wrap_the_order');
  });

  it('refuses a request without a token with 401 and WWW-Authenticate', async () => {
    const response = await post(server.listening.repositories[0]!.endpoint, undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="knowing"');
  });

  it('refuses reindex to the read-only token with a JSON-RPC error naming its label, and runs it for the write token', async () => {
    const reader = await McpHttpSession.open(server.listening.repositories[0]!.endpoint, READ);
    const refused = await reader.callTool('reindex');
    expect(refused.error?.code).toBe(-32003);
    expect(refused.error?.message).toContain('agents is read-only');
    const writer = await McpHttpSession.open(server.listening.repositories[0]!.endpoint, WRITE);
    const done = await writer.callTool('reindex');
    expect(done.isError).toBe(false);
    expect(done.text).toMatch(/files/);
  });

  it('reports both repositories on /healthz', async () => {
    const health = (await (await fetch(`${server.listening.url}/healthz`)).json()) as { status: string; repositories: { name: string; indexed: boolean }[] };
    expect(health.status).toBe('ok');
    expect(health.repositories.map((r) => [r.name, r.indexed])).toEqual([
      ['shop', true],
      ['books', true],
    ]);
  });

  it('stops on SIGTERM after the call in flight, exit 0', async () => {
    const writer = await McpHttpSession.open(server.listening.repositories[1]!.endpoint, WRITE);
    const inFlight = writer.callTool('reindex', { full: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.child.kill('SIGTERM');
    const result = await inFlight;
    expect(result.isError).toBe(false);
    expect(await server.exited).toBe(0);
    expect(server.stdout()).toContain('{"event":"stopped"}');
    await expect(fetch(`${server.listening.url}/healthz`)).rejects.toThrow();
  });
});

describe('knowing serve tokens', () => {
  it('takes tokens from KNOWING_TOKENS (comma-separated) when --tokens is not given', async () => {
    const repo = fixtureRepo('knowing-serve-env-');
    expect((await knowing(['index', '--quiet'], { cwd: repo })).code).toBe(0);
    const server = await serve([], { cwd: repo, env: { KNOWING_TOKENS: `${READ},${WRITE} write` } });
    try {
      const [repository] = server.listening.repositories;
      const session = await McpHttpSession.open(repository!.endpoint, WRITE);
      expect((await session.callTool('index_status')).isError).toBe(false);
      expect((await post(repository!.endpoint, 'not-a-token-of-this-server', {})).status).toBe(401);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });

  it('refuses to start without a token, with a short token, or with --repository but no --store (exit 2)', async () => {
    const repo = fixtureRepo('knowing-serve-usage-');
    const none = await knowing(['serve', '--port', '0'], { cwd: repo, env: { KNOWING_TOKENS: '' } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('needs at least one token');
    const short = await knowing(['serve', '--port', '0'], { cwd: repo, env: { KNOWING_TOKENS: 'shorty9 write' } });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('KNOWING_TOKENS entry 1: the token is shorter than 16 characters');
    expect(short.stderr).not.toContain('shorty9');
    const storeOnly = await knowing(['serve', '--port', '0', '--repository', 'shop'], { cwd: repo, env: { KNOWING_TOKENS: READ } });
    expect(storeOnly.code).toBe(2);
    expect(storeOnly.stderr).toContain('--repository serves a repository from a PostgreSQL store alone');
  });
});
