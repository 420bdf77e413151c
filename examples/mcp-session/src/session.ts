import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** A connected MCP client talking to a knowing server over stdio. */
export interface KnowingSession {
  readonly client: Client;
  /** Call a tool and return its text. */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

/**
 * Start the knowing MCP server for `repoRoot` as a child process — as an agent client does with
 * `{ "command": "npx", "args": ["knowing", "mcp"] }` — and connect the SDK's client to it.
 */
export async function openSession(repoRoot: string, dbPath: string): Promise<KnowingSession> {
  const server = fileURLToPath(new URL('./server.ts', import.meta.url));
  const transport = new StdioClientTransport({
    command: process.execPath,
    // tsx runs the TypeScript server entry; with a published install this is just `knowing mcp`.
    args: ['--conditions=@knowing/source', '--import', import.meta.resolve('tsx'), server, repoRoot, dbPath],
    env: getDefaultEnvironment(),
    cwd: repoRoot,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'knowing-example', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as {
        content: { type: string; text?: string }[];
        isError?: boolean;
      };
      const text = result.content.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
      return { text, isError: result.isError === true };
    },
    close: () => client.close(),
  };
}

/** The pack root a context answer reports (`pack_root=<hex>`). */
export function packRootOf(text: string): string | undefined {
  return /pack_root=([0-9a-f]{64})/.exec(text)?.[1];
}
