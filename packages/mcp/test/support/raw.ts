/**
 * A line-level client for the stdio server: it writes exactly the bytes a test gives it (broken
 * JSON, batches, oversized lines) and reads every line the server writes, which the SDK's
 * client cannot do — it only sends well-formed messages and drops replies it cannot parse.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsxLoader } from './harness.js';

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server-entry.ts');

/** One JSON-RPC message the server wrote (an array answers a batch). */
export type Reply = Record<string, unknown> | Record<string, unknown>[];

export interface RawServer {
  /** Write one line (a newline is added). */
  line(text: string | Buffer): void;
  /** Write raw bytes as they are. */
  write(bytes: string | Buffer): void;
  /** The next reply the server writes, in order (progress notifications and log messages included). */
  next(timeoutMs?: number): Promise<Reply>;
  /** The response carrying this id (waits for it; other replies stay readable with next()). */
  response(id: string | number, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Send a request and wait for its response. */
  request(id: string | number, method: string, params?: unknown, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Complete the MCP handshake. */
  initialize(): Promise<void>;
  /** Every stdout line that was not JSON (must stay empty: stdout carries only the protocol). */
  readonly garbage: string[];
  stderr(): string;
  /** Everything on stderr so far, once it contains `text`: stderr is a pipe of its own, and may trail the replies. */
  stderrContaining(text: string, timeoutMs?: number): Promise<string>;
  /** Whether the process is still running. */
  alive(): boolean;
  /** End stdin and wait for the process to exit; its exit code. */
  stop(): Promise<number>;
}

export function spawnRaw(root: string, db: string, extra?: object): RawServer {
  const child = spawn(
    process.execPath,
    ['--conditions=@knowing/source', '--import', tsxLoader(), ENTRY, root, db, ...(extra ? [JSON.stringify(extra)] : [])],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const queue: Reply[] = [];
  const byId = new Map<string, Record<string, unknown>>();
  const waiters = new Set<() => void>();
  const garbage: string[] = [];
  let stderr = '';
  let exitCode: number | null = null;
  let buffer = '';
  const wake = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const text = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      let reply: Reply;
      try {
        reply = JSON.parse(text) as Reply;
      } catch {
        garbage.push(text);
        continue;
      }
      queue.push(reply);
      for (const message of Array.isArray(reply) ? reply : [reply]) {
        const id = message['id'];
        if ((typeof id === 'string' || typeof id === 'number') && ('result' in message || 'error' in message)) byId.set(`${typeof id}:${id}`, message);
      }
    }
    wake();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    wake();
  });
  const exited = new Promise<number>((resolve) =>
    child.on('close', (code) => {
      exitCode = code ?? -1;
      wake();
      resolve(exitCode);
    }),
  );
  child.stdin.on('error', () => undefined);

  function waitFor<T>(take: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const value = take();
        if (value !== undefined) {
          cleanup();
          resolve(value);
        } else if (exitCode !== null) {
          cleanup();
          reject(new Error(`the server exited (code ${exitCode}) while a test waited for ${what}; stderr:\n${stderr}`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${what} within ${timeoutMs} ms; stderr:\n${stderr.slice(-2000)}`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  }

  const server: RawServer = {
    line: (text) => void child.stdin.write(Buffer.concat([Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), Buffer.from('\n')])),
    write: (bytes) => void child.stdin.write(bytes),
    next: (timeoutMs = 30_000) => waitFor(() => queue.shift(), 'reply', timeoutMs),
    async response(id, timeoutMs = 30_000) {
      const message = await waitFor(() => byId.get(`${typeof id}:${id}`), `response to id ${JSON.stringify(id)}`, timeoutMs);
      // Taken: next() does not return it again.
      const index = queue.indexOf(message);
      if (index >= 0) queue.splice(index, 1);
      return message;
    },
    async request(id, method, params, timeoutMs) {
      server.line(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
      return server.response(id, timeoutMs);
    },
    async initialize() {
      await server.request('init', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'knowing-raw-test', version: '0' } });
      server.line(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      queue.length = 0;
    },
    garbage,
    stderr: () => stderr,
    stderrContaining: (text, timeoutMs = 30_000) => waitFor(() => (stderr.includes(text) ? stderr : undefined), `stderr containing ${JSON.stringify(text)}`, timeoutMs),
    alive: () => exitCode === null,
    async stop() {
      child.stdin.end();
      return exited;
    },
  };
  return server;
}
