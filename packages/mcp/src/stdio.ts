import { ErrorCode, KnowingError } from '@knowing/graph';
import { createKnowingServer } from './server.js';
import { LineTransport } from './stdio-transport.js';
import type { KnowingServer, StdioServerOptions } from './types.js';

/**
 * Defaults of {@link StdioServerOptions} beyond the server's own (`DEFAULT_SERVER_OPTIONS`).
 *
 * @example
 * ```ts
 * await runStdioServer({ repoRoot: '.', maxMessageBytes: DEFAULT_STDIO_OPTIONS.maxMessageBytes * 4 });
 * ```
 */
export const DEFAULT_STDIO_OPTIONS = Object.freeze({
  /** 10 MiB, the MCP SDK's own limit. */
  maxMessageBytes: 10 * 1024 * 1024,
});

/**
 * Serve one repository over stdio until the client disconnects (stdin ends), then close the
 * store. Diagnostics go to `log` — stderr by default, never stdout, which carries the protocol.
 * A line that is not JSON, not JSON-RPC, a batch or too long is answered with a JSON-RPC error
 * (-32700, -32600) and the server goes on serving.
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
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_STDIO_OPTIONS.maxMessageBytes;
  if (!Number.isInteger(maxMessageBytes) || maxMessageBytes < 1) {
    throw new KnowingError(ErrorCode.InvalidArgument, `maxMessageBytes must be a whole number ≥ 1, got ${maxMessageBytes}`, { source: 'mcp' });
  }
  const server: KnowingServer = await createKnowingServer({ ...options, log });
  const transport = new LineTransport(stdin, stdout, maxMessageBytes);
  const closed = new Promise<void>((resolve) => {
    let done = false;
    // The transport closes when stdin ends (the client went away) or stdout fails; connect()
    // chains the SDK's own handler after this one.
    transport.onclose = (): void => {
      if (done) return;
      done = true;
      server.close().then(resolve, (error: unknown) => {
        log(`knowing: closing failed: ${(error as Error).message}`);
        resolve();
      });
    };
  });
  await server.connect(transport);
  log(`knowing: MCP server for ${server.repoRoot} on stdio (database ${server.dbPath ?? 'custom store'})`);
  await closed;
}
