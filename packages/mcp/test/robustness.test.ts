/**
 * What the stdio server does with input a well-behaved client never sends: every line that
 * asks for an answer gets one (a JSON-RPC error when it cannot be served), and the server goes
 * on serving. Talks to a real server process line by line (support/raw.ts).
 */
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SERVER_OPTIONS } from '../src/index.js';
import { call, scratchRepo, spawnServer, textOf } from './support/harness.js';
import { spawnRaw } from './support/raw.js';
import type { RawServer } from './support/raw.js';

/** The error of a single (non-batch) reply. */
function errorOf(reply: unknown): { code: number; message: string } {
  expect(Array.isArray(reply), JSON.stringify(reply)).toBe(false);
  const error = (reply as { error?: { code: number; message: string } }).error;
  expect(error, JSON.stringify(reply)).toBeDefined();
  return error!;
}

describe('malformed input over stdio', () => {
  let repo: ReturnType<typeof scratchRepo>;
  let server: RawServer;

  beforeAll(async () => {
    repo = scratchRepo();
    // A small line limit, to reach the oversized-line case without sending megabytes.
    server = spawnRaw(repo.root, repo.db, { maxMessageBytes: 64 * 1024 });
    await server.initialize();
  }, 60_000);

  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
    repo?.cleanup();
  });

  /** The server still answers a well-formed request after whatever came before. */
  async function stillServing(id: string): Promise<void> {
    expect(await server.request(id, 'ping')).toEqual({ jsonrpc: '2.0', id, result: {} });
  }

  it('answers a line that is not JSON with -32700 (id null) and goes on serving', async () => {
    server.line('{"jsonrpc": "2.0", "id": 1, "method": "ping"');
    const reply = await server.next();
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: null });
    expect(errorOf(reply).code).toBe(-32700);
    expect(errorOf(reply).message).toMatch(/^Parse error: /);
    server.line(Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22]));
    expect(errorOf(await server.next()).code).toBe(-32700);
    await stillServing('after-parse-errors');
  });

  it('answers JSON that is not JSON-RPC with -32600, with the id when it can be read', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['42', null, /expected a JSON-RPC 2\.0 message \(an object\), got number 42/],
      ['"ping"', null, /got "ping"/],
      ['null', null, /got null/],
      ['{"hello":"world"}', null, /"jsonrpc" must be "2\.0", got nothing/],
      ['{"jsonrpc":"1.0","id":7,"method":"ping"}', 7, /"jsonrpc" must be "2\.0", got "1\.0"/],
      ['{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', null, /"id" must be a string or a whole number, got an object/],
      ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', null, /"id" must be a string or a whole number, got number 1\.5/],
      ['{"jsonrpc":"2.0","id":"m","method":42}', 'm', /"method" must be a string, got number 42/],
      ['{"jsonrpc":"2.0","id":"x","method":"ping","extra":true}', 'x', /unknown key extra/],
    ];
    for (const [line, id, message] of cases) {
      server.line(line);
      const reply = await server.next();
      expect(reply, line).toMatchObject({ jsonrpc: '2.0', id });
      expect(errorOf(reply).code, line).toBe(-32600);
      expect(errorOf(reply).message, line).toMatch(message);
    }
    await stillServing('after-invalid-requests');
  });

  it('refuses a batch as a whole: one -32600 per element, each with its id (batching left MCP in 2025-06-18)', async () => {
    server.line(JSON.stringify([{ jsonrpc: '2.0', id: 'b1', method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]));
    const reply = await server.next();
    expect(Array.isArray(reply)).toBe(true);
    expect((reply as { id: unknown }[]).map((r) => r.id)).toEqual(['b1', null, 2]);
    for (const element of reply as { error: { code: number; message: string } }[]) {
      expect(element.error.code).toBe(-32600);
      expect(element.error.message).toContain('batches are not supported');
    }
    server.line('[]');
    const empty = await server.next();
    expect(errorOf(empty)).toEqual({ code: -32600, message: 'Invalid Request: an empty batch' });
    // Nothing in the batch ran: its ids got no other answer.
    await stillServing('after-batches');
  });

  it('answers `arguments` as a string and `params: null` with -32602 naming the parameter', async () => {
    const asString = await server.request(10, 'tools/call', { name: 'index_status', arguments: '{}' });
    expect(errorOf(asString)).toEqual({ code: -32602, message: 'Invalid params for tools/call: params.arguments: expected an object, got "{}"' });
    const nullParams = await server.request(11, 'tools/call', null);
    expect(errorOf(nullParams)).toEqual({ code: -32602, message: 'Invalid params for tools/call: params must be an object, got null' });
    const noParams = await server.request(12, 'tools/call');
    expect(errorOf(noParams)).toEqual({ code: -32602, message: 'Invalid params for tools/call: params: expected an object, got nothing' });
    const noName = await server.request(13, 'tools/call', { arguments: {} });
    expect(errorOf(noName)).toEqual({ code: -32602, message: 'Invalid params for tools/call: params.name: expected a string, got nothing' });
    const pingNull = await server.request(14, 'ping', null);
    expect(errorOf(pingNull)).toEqual({ code: -32602, message: 'Invalid params for ping: params must be an object, got null' });
    const arrayParams = await server.request(15, 'tools/list', [1, 2]);
    expect(errorOf(arrayParams)).toEqual({ code: -32602, message: 'Invalid params for tools/list: params must be an object, got an array' });
    // No schema dumps: the messages are one line each.
    for (const reply of [asString, nullParams, noParams, noName, pingNull, arrayParams]) expect(errorOf(reply).message).not.toContain('\n');
    await stillServing('after-invalid-params');
  });

  it('skips a line longer than maxMessageBytes with -32600, without closing the connection', async () => {
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 'huge', method: 'tools/call', params: { name: 'context_for_task', arguments: { task_description: 'x'.repeat(200_000) } } });
    // In pieces, as a pipe delivers it.
    for (let i = 0; i < huge.length; i += 10_000) server.write(huge.slice(i, i + 10_000));
    server.write('\n');
    const reply = await server.next();
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: null });
    expect(errorOf(reply)).toEqual({ code: -32600, message: `Invalid Request: a message longer than ${64 * 1024} bytes was skipped` });
    await stillServing('after-oversized-line');
  });

  it('answers an unknown method with -32601 and a malformed response to nothing', async () => {
    expect(errorOf(await server.request('u', 'no/such/method')).code).toBe(-32601);
    // A response (to a request the server never sent) is not answered, whatever its shape.
    server.line('{"jsonrpc":"2.0","id":"r","result":5}');
    server.line('{"jsonrpc":"2.0","id":"r2","result":{}}');
    await stillServing('after-responses');
    expect(await server.stderrContaining('ignored a malformed response')).toContain('ignored a malformed response (result: expected an object, got number 5)');
  });

  it('writes only JSON lines to stdout', () => {
    expect(server.garbage).toEqual([]);
    expect(server.alive()).toBe(true);
  });
});

describe('task length', () => {
  let repo: ReturnType<typeof scratchRepo>;

  beforeAll(() => {
    repo = scratchRepo();
  });
  afterAll(() => repo?.cleanup());

  it('refuses a 1.9 MB task at once with -32602 naming task_description and the limit, and keeps answering', async () => {
    const server = await spawnServer(repo.root, repo.db);
    try {
      const task = 'search the notes for a query and highlight the terms; '.repeat(36_000);
      expect(task.length).toBeGreaterThan(1_900_000);
      const started = performance.now();
      const [refused] = await Promise.all([call(server.client, 'context_for_task', { task_description: task }), server.client.ping()]);
      const elapsed = performance.now() - started;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(
        new RegExp(
          `^MCP error -32602: Input validation error: Invalid arguments for tool context_for_task: expected a task description .* of at most ${DEFAULT_SERVER_OPTIONS.maxTaskChars} characters, got ${task.trim().length}; describe the task in a few sentences .* at task_description$`,
        ),
      );
      // It took 19.5 s of a blocked server before the cap; the refusal costs a JSON parse.
      expect(elapsed).toBeLessThan(5_000);
      const explain = await call(server.client, 'explain_symbol', { task_description: task, symbol: 'search_notes' });
      expect(textOf(explain)).toMatch(/of at most 20000 characters, got \d+;.* at task_description$/);
      const answer = await call(server.client, 'context_for_task', { task_description: 'search notes by query' });
      expect(answer.isError).toBeFalsy();
      expect(textOf(answer)).toContain('notely/search.py.search_notes');
    } finally {
      await server.close();
    }
  });

  it('takes its limit from maxTaskChars, which the schema shows', async () => {
    const server = await spawnServer(repo.root, repo.db, { maxTaskChars: 40 });
    try {
      const { tools } = await server.client.listTools();
      const property = (tools.find((t) => t.name === 'context_for_task')!.inputSchema.properties as Record<string, { maxLength?: number; description?: string }>)
        .task_description!;
      expect(property.maxLength).toBe(40);
      expect(property.description).toContain('at most 40 characters');
      const atLimit = await call(server.client, 'context_for_task', { task_description: `  ${'search notes by query '.repeat(2).slice(0, 40)}  ` });
      expect(atLimit.isError).toBeFalsy();
      const over = await call(server.client, 'context_for_task', { task_description: 'x'.repeat(41) });
      expect(textOf(over)).toMatch(/of at most 40 characters, got 41;/);
    } finally {
      await server.close();
    }
  });
});

describe('paths', () => {
  it('accepts an in-repository file named ..dotdot.py: only a path segment equal to .. leaves the root', async () => {
    const repo = scratchRepo();
    try {
      writeFileSync(path.join(repo.root, '..dotdot.py'), 'def dotted_helper(value):\n    """Strip the dots of a value."""\n    return value.strip(".")\n');
      cpSync(path.join(repo.root, 'notely', 'search.py'), path.join(repo.root, 'notely', '..finder.py'));
      const server = await spawnServer(repo.root, repo.db);
      try {
        const result = await call(server.client, 'context_for_files', { files: ['..dotdot.py', 'notely/..finder.py'], format: 'markdown' });
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(textOf(result)).toContain('`..dotdot.py.dotted_helper`');
        expect(textOf(result)).toContain('`notely/..finder.py.search_notes`');
        const pr = await call(server.client, 'context_for_pr', { format: 'markdown' });
        expect(textOf(pr)).toContain('# Context: changes: ..dotdot.py, notely/..finder.py');
        const escape = await call(server.client, 'context_for_files', { files: ['../..dotdot.py'] });
        expect(textOf(escape)).toMatch(/outside the repository root/);
      } finally {
        await server.close();
      }
    } finally {
      repo.cleanup();
    }
  });
});

describe('long work', () => {
  it('answers a ping that arrives during a long re-index before the re-index ends', async () => {
    const repo = scratchRepo();
    try {
      // Forty copies of the fixture package: a re-index long enough to send a ping into.
      for (let i = 0; i < 40; i++) cpSync(path.join(repo.root, 'notely'), path.join(repo.root, `copy${i}`, 'notely'), { recursive: true });
      const server = await spawnServer(repo.root, repo.db);
      try {
        const order: string[] = [];
        let ping: Promise<void> | undefined;
        const reindex = server.client
          .callTool({ name: 'reindex', arguments: { full: true } }, undefined, {
            timeout: 120_000,
            // The first progress notification: the run is under way. Ask the server something.
            onprogress: () => {
              ping ??= server.client.ping().then(() => void order.push('ping'));
            },
          })
          .then(() => void order.push('reindex'));
        await reindex;
        await ping;
        expect(ping).toBeDefined();
        expect(order).toEqual(['ping', 'reindex']);
      } finally {
        await server.close();
      }
    } finally {
      repo.cleanup();
    }
  }, 120_000);
});
