import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixtureRepo, knowing, removeScratch } from './helpers.js';

afterAll(removeScratch);

const MCP_BUILT = existsSync(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'mcp', 'dist', 'index.js'));

/** Talk newline-delimited JSON-RPC to `knowing mcp`, as an MCP client does. */
function startServer(cwd: string) {
  const child = spawn(process.execPath, [BIN, 'mcp'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let buffer = '';
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line) continue;
      const message = JSON.parse(line) as Record<string, unknown>;
      const id = message['id'];
      if (typeof id === 'number') waiting.get(id)?.(message);
    }
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number>((resolvePromise) => child.on('close', (code) => resolvePromise(code ?? -1)));
  return {
    request(id: number, method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
      return new Promise((resolvePromise) => {
        waiting.set(id, resolvePromise);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    },
    notify(method: string): void {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
    },
    async stop(): Promise<number> {
      child.stdin.end();
      return exited;
    },
    stderr: () => stderr,
  };
}

describe.skipIf(!MCP_BUILT)('knowing mcp', () => {
  let repo: string;
  beforeAll(async () => {
    repo = fixtureRepo();
    expect((await knowing(['index', '--quiet'], { cwd: repo })).code).toBe(0);
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('serves the knowing tools over stdio and exits 0 when the client disconnects', async () => {
    const server = startServer(repo);
    const init = await server.request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'knowing-cli-test', version: '0' },
    });
    expect((init['result'] as { serverInfo: { name: string } }).serverInfo.name).toBe('knowing');
    server.notify('notifications/initialized');
    const list = await server.request(2, 'tools/list');
    const tools = (list['result'] as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools).toContain('context_for_task');
    expect(await server.stop()).toBe(0);
    expect(server.stderr()).toContain(`MCP server for ${repo}`);
  });
});
