/**
 * The watcher's half of the answer socket (the client's is answer-socket.ts): `knowing watch`
 * listens at the repository's socket and runs each client's `knowing context` command line in
 * its own process, through the same `run()`.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, renameSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { CONNECT_TIMEOUT_MS, MAX_REQUEST_BYTES, answerSocketPath, buildStamp, mayAskWatcher } from './answer-socket.js';
import type { AnswerReply, AnswerRequest } from './answer-socket.js';
import { startWarmPool } from './warm.js';
import type { IndexWriter } from './warm.js';

/** A watcher's listening socket; `close()` stops it and removes the file. */
export interface AnswerServer {
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Answer `knowing context` command lines for a repository at its socket, until closed. A
 * socket file left by a watcher that died is replaced; one a live watcher holds is left alone
 * (undefined is returned: that watcher answers). The file is readable by its owner only.
 * `writer`: the serving process's own index runs, which answers take turns with (see warm.ts).
 */
export async function serveAnswers(root: string, options: { readonly writer?: IndexWriter } = {}): Promise<AnswerServer | undefined> {
  const path = answerSocketPath(root);
  if (path === undefined) return undefined;
  if (existsSync(path)) {
    if (await listening(path)) return undefined;
    rmSync(path, { force: true });
  }
  const build = buildStamp(fileURLToPath(new URL('.', import.meta.url)));
  const sockets = new Set<Socket>();
  // Half-open: the client ends its side when the request is sent; the reply follows.
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('error', () => socket.destroy());
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (received.length > MAX_REQUEST_BYTES) socket.destroy();
    });
    socket.once('end', () => {
      void answer(received, build).then(
        (reply) => socket.end(`${JSON.stringify(reply)}\n`),
        () => socket.destroy(),
      );
    });
  });
  // Created under a private name and renamed into place: a client never connects to a socket
  // whose permissions are not yet set.
  const temporary = `${path}.${randomBytes(4).toString('hex')}`;
  try {
    await new Promise<void>((ready, fail) => {
      server.once('error', fail);
      server.listen(temporary, () => ready());
    });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } catch {
    // No socket here (a read-only folder, no .knowing folder): clients answer by themselves.
    server.close();
    rmSync(temporary, { force: true });
    return undefined;
  }
  server.unref();
  // The index, engine and tokenizer stay open between answers (see warm.ts).
  const warm = startWarmPool(options);
  return {
    path,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((closed) => server.close(() => closed()));
      rmSync(path, { force: true });
      await warm.close();
    },
  };
}

/** Whether a live process accepts connections at a socket path. */
function listening(path: string): Promise<boolean> {
  return new Promise((settle) => {
    const socket = createConnection(path);
    const timer = setTimeout(() => {
      socket.destroy();
      settle(false);
    }, CONNECT_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      settle(true);
    });
    socket.once('error', () => {
      clearTimeout(timer);
      settle(false);
    });
  });
}

/** Run one request's command line in this process, capturing what it prints. */
async function answer(received: string, build: string): Promise<AnswerReply> {
  const request = JSON.parse(received) as AnswerRequest;
  if (request.build !== build) return { code: 0, declined: 'another build of knowing' };
  if (!Array.isArray(request.argv) || !mayAskWatcher(request.argv)) return { code: 0, declined: 'not a command a watcher answers' };
  const stdout: Uint8Array[] = [];
  let stderr = '';
  const { run } = await import('./run.js');
  const code = await run(request.argv, {
    stdout: {
      write: (chunk: string | Uint8Array) => stdout.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk),
      isTTY: request.stdoutTTY,
      ...(request.columns !== undefined ? { columns: request.columns } : {}),
    },
    stderr: {
      write: (chunk: string | Uint8Array) => (stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')),
      isTTY: request.stderrTTY,
      ...(request.columns !== undefined ? { columns: request.columns } : {}),
    },
    cwd: request.cwd,
    env: request.env,
  });
  return { code, stdout: Buffer.concat(stdout).toString('base64'), stderr, pid: process.pid };
}
