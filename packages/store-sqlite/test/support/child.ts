import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REGISTER = fileURLToPath(new URL('./register-ts.mjs', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Root can write anything; tests of "cannot write" run their child as nobody instead. */
export const RUNNING_AS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;
export const NOBODY = { uid: 65534, gid: 65534 };

export interface ChildOptions {
  /** Run as another user (only possible as root). */
  readonly as?: { readonly uid: number; readonly gid: number };
  /** More modules to preload with `--import`, after the TypeScript hooks. */
  readonly imports?: readonly string[];
  /** Variables added to the child's environment. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Start `test/fixtures/<script>` (TypeScript) in a fresh node process. */
export function startFixture(script: string, args: readonly string[], options: ChildOptions = {}): ChildProcess {
  const imports = (options.imports ?? []).flatMap((module) => ['--import', module]);
  return spawn(process.execPath, ['--conditions=@knowing/source', '--import', REGISTER, ...imports, FIXTURES + script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.env === undefined ? {} : { env: { ...process.env, ...options.env } }),
    ...(options.as ?? {}),
  });
}

export interface ChildResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run a fixture to completion and collect its output. */
export function runFixture(script: string, args: readonly string[], options: ChildOptions = {}): Promise<ChildResult> {
  const child = startFixture(script, args, options);
  return collect(child);
}

export function collect(child: ChildProcess): Promise<ChildResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
