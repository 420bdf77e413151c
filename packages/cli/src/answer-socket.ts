/**
 * `knowing watch` answers `knowing context` for its repository over a local socket, so that a
 * query skips what a new process pays before it can answer (starting the runtime is cheap;
 * loading the engine, the store and the tokenizer tables, and running them with a cold JIT,
 * is most of a CLI query). The watcher runs the very command line the client was given, in
 * the client's working directory, through the same `run()`: the answer is the one the client
 * would have printed itself. Anything unusual (no watcher, another build, a refused or broken
 * connection) and the client answers by itself.
 *
 * This module is the client's half, loaded before any command: it imports only Node's file and
 * path modules and repo.ts, and the socket module only when there is a watcher to ask. The
 * watcher's half is answer-server.ts.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { INDEX_DIRECTORY, findGitRoot } from './repo.js';

/** Unix socket paths are limited to ~104–108 bytes; a longer one is not used at all. */
const MAX_SOCKET_PATH = 100;
/** Longest the client waits for the watcher to accept the connection. */
export const CONNECT_TIMEOUT_MS = 250;
/**
 * Longest the client waits for the answer before answering by itself: a watcher busy with a
 * long index run (a branch switch on a large repository) answers late, a wedged one never.
 */
const ANSWER_TIMEOUT_MS = 60_000;
/** The largest request a watcher reads (a command line with a long task). */
export const MAX_REQUEST_BYTES = 1_048_576;

/** What a client sends: one JSON line. */
export interface AnswerRequest {
  readonly build: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdoutTTY: boolean;
  readonly stderrTTY: boolean;
  readonly columns?: number;
}

/** What the watcher sends back: one JSON line; stdout in base64 (a binary format is bytes). */
export interface AnswerReply {
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
 * (or a rebuild) never mixes versions. The build's folder (`dist`, where both the entry and
 * the watcher's chunk are) and the time its entry point was written.
 */
export function buildStamp(buildFolder: string): string {
  // The same folder as a URL's directory ("…/dist/") or a module's __dirname ("…/dist").
  const folder = resolve(buildFolder);
  try {
    return `${folder}@${statSync(join(folder, 'bin.cjs')).mtimeMs}`;
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
  buildFolder: string,
): Promise<WatcherAnswer | undefined> {
  const repo = flagValue(argv, '--repo');
  const root = repo !== undefined ? resolve(cwd, repo) : (findGitRoot(cwd) ?? resolve(cwd));
  const path = answerSocketPath(root);
  if (path === undefined || !existsSync(path)) return undefined;
  const request: AnswerRequest = {
    build: buildStamp(buildFolder),
    argv,
    cwd,
    env: { NO_COLOR: streams.env['NO_COLOR'], KNOWING_DEBUG: streams.env['KNOWING_DEBUG'] },
    stdoutTTY: streams.stdoutTTY,
    stderrTTY: streams.stderrTTY,
    ...(streams.columns !== undefined ? { columns: streams.columns } : {}),
  };
  const { createConnection } = await import('node:net');
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
