import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createKnowingServer } from '../../src/index.js';
import type { KnowingServer, KnowingServerOptions } from '../../src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURE = path.join(here, '..', 'fixtures', 'notely');
const ENTRY = path.join(here, 'server-entry.ts');

/** tsx's ESM loader, found by walking up from this file to a node_modules that has tsx (pnpm keeps it under .pnpm/node_modules). */
export function tsxLoader(): string {
  let dir = here;
  for (;;) {
    for (const candidate of [path.join(dir, 'node_modules', 'tsx'), path.join(dir, 'node_modules', '.pnpm', 'node_modules', 'tsx')]) {
      const manifest = path.join(candidate, 'package.json');
      if (!existsSync(manifest)) continue;
      const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown> }).exports ?? {};
      const esm = exports['./esm'];
      const target = typeof esm === 'string' ? esm : (esm as { import?: string; default?: string } | undefined)?.import;
      if (target) return pathToFileURL(path.join(candidate, target)).href;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('tsx is not installed in this workspace; the MCP tests run the server from its TypeScript sources with it');
    dir = parent;
  }
}

/** A scratch copy of the fixture repository (a git repository with one commit) and a place for its database. */
export function scratchRepo(): { dir: string; root: string; db: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'knowing-mcp-'));
  const root = path.join(dir, 'repo');
  cpSync(FIXTURE, root, { recursive: true });
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=knowing', '-c', 'user.email=knowing@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: root, stdio: 'ignore' });
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  return { dir, root, db: path.join(dir, 'db', 'graph.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Connected {
  readonly client: Client;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** Spawn the server as a child process and connect the SDK's real client to it over stdio. */
export async function spawnServer(root: string, db: string, extra?: object): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--conditions=@knowing/source', '--import', tsxLoader(), ENTRY, root, db, ...(extra ? [JSON.stringify(extra)] : [])],
    env: getDefaultEnvironment(),
    cwd: root,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'knowing-mcp-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** A server in this process, and the SDK's client connected to it over the in-memory transport. */
export async function connectInProcess(options: KnowingServerOptions): Promise<{ server: KnowingServer; client: Client; close(): Promise<void> }> {
  const server = await createKnowingServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'knowing-mcp-test', version: '0.0.0' });
  await client.connect(clientSide);
  return {
    server,
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** Call a tool and return its result (the SDK client's result type, narrowed to a tool result). */
export async function call(client: Client, name: string, args?: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args ?? {} }, undefined, { timeout: 120_000 })) as CallToolResult;
}

/** The text of every text content item, joined. */
export function textOf(result: CallToolResult): string {
  return result.content
    .filter((item): item is Extract<CallToolResult['content'][number], { type: 'text' }> => item.type === 'text')
    .map((item) => item.text)
    .join('\n');
}

/** The pack root a context answer names (gcf header or delta `new_root`, xml attribute, markdown header, unchanged line). */
export function packRootOf(result: CallToolResult): string {
  const match = /(?:pack_root=|new_root=|pack_root="|pack root `|pack_root )([0-9a-f]{64})/.exec(textOf(result));
  if (!match) throw new Error(`no pack root in: ${textOf(result).slice(0, 300)}`);
  return match[1]!;
}
