import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const REGISTER = fileURLToPath(new URL('./register-ts.mjs', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));

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

/**
 * Start `test/fixtures/<script>` (TypeScript) in a fresh node process. A child run as another
 * user runs from {@link readableCopy}: the checkout itself may be unreadable to that user (a
 * clone under /root, a private temporary folder).
 */
export function startFixture(script: string, args: readonly string[], options: ChildOptions = {}): ChildProcess {
  const imports = (options.imports ?? []).flatMap((module) => ['--import', module]);
  const command =
    options.as === undefined
      ? ['--conditions=@knowing/source', '--import', REGISTER, ...imports, FIXTURES + script, ...args]
      : [...imports, join(readableCopy(), 'test', 'fixtures', script.replace(/\.ts$/, '.js')), ...args];
  return spawn(process.execPath, command, {
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

let copy: string | undefined;

/**
 * A copy of what a fixture needs (this package's sources and fixtures and @knowing/graph's,
 * compiled to JavaScript; better-sqlite3 with its binding, and kysely) in a temporary folder
 * every user can read, made once per test process and removed when it exits.
 */
export function readableCopy(): string {
  if (copy !== undefined) return copy;
  const root = mkdtempSync(join(tmpdir(), 'knowing-child-'));
  process.on('exit', () => rmSync(root, { recursive: true, force: true }));
  const target = join(root, 'store-sqlite');
  compileTree(join(PACKAGE, 'src'), join(target, 'src'));
  compileTree(join(PACKAGE, 'test', 'fixtures'), join(target, 'test', 'fixtures'));
  writeFileSync(join(target, 'package.json'), JSON.stringify({ type: 'module' }));

  const modules = join(target, 'node_modules');
  const graph = realpathSync(join(PACKAGE, 'node_modules', '@knowing', 'graph'));
  compileTree(join(graph, 'src'), join(modules, '@knowing', 'graph', 'src'));
  writeFileSync(
    join(modules, '@knowing', 'graph', 'package.json'),
    JSON.stringify({ name: '@knowing/graph', type: 'module', exports: { '.': './src/index.js' } }),
  );
  const sqlite = packageDir(PACKAGE, 'better-sqlite3');
  const bindings = packageDir(sqlite, 'bindings');
  for (const [name, dir, parts] of [
    ['better-sqlite3', sqlite, ['package.json', 'lib', join('build', 'Release', 'better_sqlite3.node')]],
    ['bindings', bindings, ['']],
    ['file-uri-to-path', packageDir(bindings, 'file-uri-to-path'), ['']],
    ['kysely', packageDir(PACKAGE, 'kysely'), ['']],
  ] as const) {
    for (const part of parts) cpSync(join(dir, part), join(modules, name, part), { recursive: true, dereference: true });
  }
  openUp(root);
  copy = target;
  return copy;
}

/** Where node would find package `name` from `dir` (real path, as pnpm links it). */
function packageDir(dir: string, name: string): string {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    // pnpm puts a package's dependencies beside it: <store>/node_modules/<pkg> next to <dep>.
    if (basename(dirname(at)) === 'node_modules' || basename(at) === 'node_modules') {
      const sibling = join(basename(at) === 'node_modules' ? at : dirname(at), name);
      if (existsSync(join(sibling, 'package.json'))) return realpathSync(sibling);
    }
    if (dirname(at) === at) throw new Error(`${name} not found from ${dir}`);
  }
}

/** Every .ts file under `from`, compiled as the TypeScript hooks would, to .js under `to`. */
function compileTree(from: string, to: string): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) {
      compileTree(source, join(to, entry.name));
      continue;
    }
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
    const output = ts.transpileModule(readFileSync(source, 'utf8'), {
      fileName: source,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true, sourceMap: false },
    });
    mkdirSync(to, { recursive: true });
    writeFileSync(join(to, entry.name.replace(/\.ts$/, '.js')), output.outputText);
  }
}

/** Directories 0755, files 0644: readable (and the binding loadable) by every user. */
function openUp(path: string): void {
  const isDirectory = statSync(path).isDirectory();
  chmodSync(path, isDirectory ? 0o755 : 0o644);
  if (isDirectory) for (const name of readdirSync(path)) openUp(join(path, name));
}

/**
 * Why a child cannot run as `user` here, or undefined when it can: the temporary folder may
 * itself be closed to other users (TMPDIR inside a private home), or mounted noexec so that
 * the binding cannot load. Tests that need another user skip with this reason.
 */
export async function cannotRunAs(user: { readonly uid: number; readonly gid: number }): Promise<string | undefined> {
  const probe = await runFixture('try-open.ts', ['{}'], { as: user });
  if (probe.code === 0 && probe.stdout.includes('INVALID_ARGUMENT')) return undefined;
  const lines = (probe.stderr || probe.stdout).split('\n').map((line) => line.trim());
  const reason = lines.find((line) => /^\w*Error\b|EACCES|denied/.test(line)) ?? lines.find((line) => line !== '') ?? `exit ${probe.code}`;
  return `a child process running as uid ${user.uid} cannot run the copy of the store in ${readableCopy()} (is that folder readable by every user, and not on a noexec mount?): ${reason}`;
}
