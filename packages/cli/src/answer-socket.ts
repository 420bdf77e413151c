/**
 * `knowing watch` answers `knowing context` for its repository over a local socket, so that a
 * query skips what a new process pays before it can answer (starting the runtime is cheap;
 * loading the engine, the store and the tokenizer tables, and running them with a cold JIT,
 * is most of a CLI query). The watcher runs the very command line the client was given, in
 * the client's working directory, through the same `run()`: the answer is the one the client
 * would have printed itself. Anything unusual (no watcher, another build, a refused or broken
 * connection) and the client answers by itself.
 *
 * This module is loaded before any command, so it imports only Node's own modules, repo.ts and
 * warm.ts (whose other imports are types).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INDEX_DIRECTORY, findGitRoot } from './repo.js';
import { startWarmPool } from './warm.js';
import type { IndexWriter } from './warm.js';

/** Unix socket paths are limited to ~104–108 bytes; a longer one is not used at all. */
const MAX_SOCKET_PATH = 100;
/** Longest the client waits for the watcher to accept the connection. */
const CONNECT_TIMEOUT_MS = 250;
/**
 * Longest the client waits for the answer before answering by itself: a watcher busy with a
 * long index run (a branch switch on a large repository) answers late, a wedged one never.
 */
const ANSWER_TIMEOUT_MS = 60_000;
/** The largest request a watcher reads (a command line with a long task). */
const MAX_REQUEST_BYTES = 1_048_576;

/** What a client sends: one JSON line. */
interface AnswerRequest {
  readonly build: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdoutTTY: boolean;
  readonly stderrTTY: boolean;
  readonly columns?: number;
}

/** What the watcher sends back: one JSON line; stdout in base64 (a binary format is bytes). */
interface AnswerReply {
  readonly code: number;
  readonly stdout?: string;
  readonly stderr?: string;
  /** Set instead of an answer when the watcher declines (another build). */
  readonly declined?: string;
  readonly pid?: number;
}

/** The answer a watcher gave, ready to print. */
export interface WatcherAnswer {
  readonly code: number;
  readonly stdout: Uint8Array;
  readonly stderr: string;
  /** Process id of the watcher that answered. */
  readonly pid: number;
}

/** Where the watcher of `root` listens; undefined where a socket cannot be used. */
export function answerSocketPath(root: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  const path = join(root, INDEX_DIRECTORY, 'cli.sock');
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : undefined;
}

/**
 * This build of the CLI: a watcher answers only clients of the same build, so that an upgrade
 * (or a rebuild) never mixes versions. The folder of this module (the bundler may put it in
 * any chunk of it) and the time its entry point was written.
 */
function buildStamp(): string {
  const folder = fileURLToPath(new URL('.', import.meta.url));
  try {
    return `${folder}@${statSync(join(folder, 'bin.js')).mtimeMs}`;
  } catch {
    return folder;
  }
}

/** The value of `--name VALUE` or `--name=VALUE` in a command line. */
function flagValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1];
    if (argv[i]!.startsWith(`${name}=`)) return argv[i]!.slice(name.length + 1);
  }
  return undefined;
}

/**
 * Whether a command line may be answered by a watcher: `context`, not told otherwise, and
 * not reading its task from this process's stdin.
 */
export function mayAskWatcher(argv: readonly string[]): boolean {
  if (argv[0] !== 'context' || argv.includes('--no-watcher') || argv.includes('--help') || argv.includes('-h')) return false;
  return flagValue(argv, '--task') !== '-' && flagValue(argv, '-t') !== '-' && flagValue(argv, '--task-file') !== '-';
}

/**
 * Ask the watcher of the repository a command line names (its --repo, else the enclosing git
 * root of `cwd`, else `cwd`) to run it. Undefined when there is none to ask, or it declined or
 * failed: the caller then runs the command itself.
 */
export async function askWatcher(
  argv: readonly string[],
  cwd: string,
  streams: { readonly stdoutTTY: boolean; readonly stderrTTY: boolean; readonly columns?: number; readonly env: Readonly<Record<string, string | undefined>> },
): Promise<WatcherAnswer | undefined> {
  const repo = flagValue(argv, '--repo');
  const root = repo !== undefined ? resolve(cwd, repo) : (findGitRoot(cwd) ?? resolve(cwd));
  const path = answerSocketPath(root);
  if (path === undefined || !existsSync(path)) return undefined;
  const request: AnswerRequest = {
    build: buildStamp(),
    argv,
    cwd,
    env: { NO_COLOR: streams.env['NO_COLOR'], KNOWING_DEBUG: streams.env['KNOWING_DEBUG'] },
    stdoutTTY: streams.stdoutTTY,
    stderrTTY: streams.stderrTTY,
    ...(streams.columns !== undefined ? { columns: streams.columns } : {}),
  };
  return new Promise((settle) => {
    const socket = createConnection(path);
    const chunks: Buffer[] = [];
    let done = false;
    let answering: NodeJS.Timeout | undefined;
    const finish = (answer: WatcherAnswer | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(connecting);
      clearTimeout(answering);
      socket.destroy();
      settle(answer);
    };
    const connecting = setTimeout(() => finish(undefined), CONNECT_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(connecting);
      answering = setTimeout(() => finish(undefined), ANSWER_TIMEOUT_MS);
      socket.end(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', () => finish(undefined));
    socket.once('close', () => {
      try {
        const reply = JSON.parse(Buffer.concat(chunks).toString('utf8')) as AnswerReply;
        if (reply.declined !== undefined || typeof reply.code !== 'number') return finish(undefined);
        finish({ code: reply.code, stdout: Buffer.from(reply.stdout ?? '', 'base64'), stderr: reply.stderr ?? '', pid: reply.pid ?? 0 });
      } catch {
        finish(undefined);
      }
    });
  });
}

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
  const build = buildStamp();
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
