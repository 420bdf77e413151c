import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createKnowingServer } from './server.js';
import type { KnowingServer, StdioServerOptions } from './types.js';

/**
 * Serve one repository over stdio until the client disconnects (stdin ends), then close the
 * store. Diagnostics go to `log` — stderr by default, never stdout, which carries the protocol.
 *
 * @example
 * ```ts
 * // what `knowing mcp` does
 * await runStdioServer({ repoRoot: process.cwd() });
 * ```
 */
export async function runStdioServer(options: StdioServerOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = options.log ?? ((message: string) => void process.stderr.write(`${message}\n`));
  const server: KnowingServer = await createKnowingServer({ ...options, log });
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      server.close().then(resolve, (error: unknown) => {
        log(`knowing: closing failed: ${(error as Error).message}`);
        resolve();
      });
    };
    // The SDK's stdio transport does not notice the end of stdin: the client going away.
    stdin.once('end', finish);
    stdin.once('close', finish);
    // connect() chains the SDK's own handler after this one.
    transport.onclose = finish;
  });
  await server.connect(transport);
  log(`knowing: MCP server for ${server.repoRoot} on stdio (database ${server.dbPath ?? 'custom store'})`);
  await closed;
}
