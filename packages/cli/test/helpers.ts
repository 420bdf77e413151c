import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The built binary under test (global-setup.ts builds it). */
export const BIN = resolve(HERE, '..', 'dist', 'bin.cjs');
export const FIXTURE = join(HERE, 'fixtures', 'bookshop');

/** Every scratch directory of this test process lives under one root, removed at exit. */
const SCRATCH = mkdtempSync(join(tmpdir(), 'knowing-cli-tests-'));
/** Remove every scratch directory; call it in a file-level afterAll. */
export function removeScratch(): void {
  rmSync(SCRATCH, { recursive: true, force: true });
}
process.on('exit', removeScratch);

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout as bytes, for binary formats. */
  readonly bytes: Buffer;
}

/** Run `node dist/bin.cjs …args` in `cwd`, optionally feeding stdin, optionally as another user (root only). */
export function knowing(
  args: readonly string[],
  options: { cwd: string; input?: string; env?: NodeJS.ProcessEnv; nodeArgs?: readonly string[]; user?: { readonly uid: number; readonly gid: number } },
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
      cwd: options.cwd,
      // The code cache of `context` goes to this run's scratch directory, not the user's.
      env: { ...process.env, NO_COLOR: '1', XDG_CACHE_HOME: join(SCRATCH, 'cache'), ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.user ?? {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const bytes = Buffer.concat(out);
      resolvePromise({ code: code ?? -1, stdout: bytes.toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), bytes });
    });
    child.stdin.end(options.input ?? '');
  });
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=knowing tests', '-c', 'user.email=tests@knowing.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A scratch copy of the fixture repository, committed to a fresh git repository. */
export function fixtureRepo(prefix = 'knowing-cli-'): string {
  const dir = mkdtempSync(join(SCRATCH, prefix));
  cpSync(FIXTURE, dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'bookshop');
  return dir;
}

/** An empty scratch directory (no git, no index). */
export function emptyDir(prefix = 'knowing-cli-empty-'): string {
  return mkdtempSync(join(SCRATCH, prefix));
}

const LOAD_TRACE = resolve(HERE, 'load-trace.mjs');

/**
 * The packages a run of the binary loads (module URLs mapped to package names: `knowing` for
 * the CLI itself, `@knowing/<dir>` for a workspace package, else the name under node_modules;
 * node builtins left out; a file of the CLI's build also stands for the packages bundled in it),
 * the files themselves, how many worker threads it started, the WebAssembly files it read (the
 * parser runtime, the grammars: their names), and the run's result.
 */
export async function packagesLoaded(
  args: readonly string[],
  options: { cwd: string; nodeArgs?: readonly string[] },
): Promise<{ packages: Set<string>; files: string[]; workers: number; wasm: string[]; result: CliResult }> {
  const trace = join(SCRATCH, `load-trace-${process.pid}-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(trace, '');
  const result = await knowing(args, { cwd: options.cwd, env: { KNOWING_LOAD_TRACE: trace }, nodeArgs: [...(options.nodeArgs ?? []), '--import', pathToFileURL(LOAD_TRACE).href] });
  const packages = new Set<string>();
  const files: string[] = [];
  let workers = 0;
  const wasm = new Set<string>();
  for (const url of readFileSync(trace, 'utf8').split('\n')) {
    if (url === 'worker:') workers++;
    if (url.startsWith('read:')) wasm.add(url.slice('read:'.length).split('/').pop()!);
    if (!url.startsWith('file:')) continue;
    const path = fileURLToPath(url);
    if (path === LOAD_TRACE) continue;
    files.push(path);
    const inNodeModules = /.*node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(path);
    const inWorkspace = /[\\/]packages[\\/]([^\\/]+)[\\/]dist[\\/]/.exec(path);
    if (inNodeModules) packages.add(inNodeModules[1]!.replace(/\\/g, '/'));
    else if (inWorkspace) packages.add(inWorkspace[1] === 'cli' ? 'knowing' : `@knowing/${inWorkspace[1]}`);
    else packages.add(path);
    if (inWorkspace?.[1] === 'cli') for (const name of bundledPackages(path)) packages.add(name);
  }
  return { packages, files, workers, wasm: [...wasm].sort(), result };
}

/**
 * The packages whose code a file of the CLI's build holds: the bin bundles the packages a query
 * loads (tsup.config.ts), so a chunk stands for them. Its source map names their sources
 * (`../../engine/src/…`, `…/node_modules/kysely/…`).
 */
function bundledPackages(file: string): string[] {
  let sources: string[];
  try {
    sources = (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources;
  } catch {
    return [];
  }
  const names = new Set<string>();
  for (const source of sources) {
    const inNodeModules = /.*node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(source);
    const inWorkspace = /^(?:\.\.[\\/])+([^\\/.][^\\/]*)[\\/]src[\\/]/.exec(source);
    if (inNodeModules) names.add(inNodeModules[1]!.replace(/\\/g, '/'));
    else if (inWorkspace) names.add(`@knowing/${inWorkspace[1]}`);
  }
  return [...names];
}

/** A user without privileges, for tests of read-only indexes (they run only as root). */
export const NOBODY = { uid: 65534, gid: 65534 } as const;
export const RUNNING_AS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;

/** Run the CLI as another user (root only), with HOME in `cwd`. */
export function knowingAs(user: { readonly uid: number; readonly gid: number }, args: readonly string[], cwd: string): Promise<CliResult> {
  return knowing(args, { cwd, env: { HOME: cwd }, user });
}

/** Folders 0755 and files 0644, below and at `path` (a fixture copy is private to this user). */
export function openUp(path: string): void {
  const isDirectory = statSync(path).isDirectory();
  chmodSync(path, isDirectory ? 0o755 : 0o644);
  if (isDirectory) for (const name of readdirSync(path)) openUp(join(path, name));
}
