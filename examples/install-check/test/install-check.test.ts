/**
 * The release check a user would do by hand: pack every public package with `pnpm pack` (which
 * applies `publishConfig`, so the `@knowing/source` condition is gone), install the tarballs in
 * a scratch project outside the workspace, import the public API and run the installed CLI.
 *
 * Third-party dependencies come from the local pnpm store and metadata cache
 * (`pnpm install --offline --store-dir <pnpm store path>`), so the check is fast and downloads
 * nothing; better-sqlite3's native build comes from the store's side-effects cache instead of a
 * compile. On a machine whose store lacks a dependency the install is retried with
 * `--prefer-offline`, which fetches only the missing packages from the npm registry.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import type { SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURES = resolve(HERE, '../fixtures');
const WORKSPACE = resolve(HERE, '../../..');
const PACKAGES = join(WORKSPACE, 'packages');

/** Every public package directory, in dependency order (each after everything it imports). */
const PUBLIC = ['graph', 'keywords', 'equivalence', 'walk', 'rank', 'pack', 'store-sqlite', 'store-postgres', 'wire', 'indexer', 'engine', 'history', 'mcp', 'cli'] as const;

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  exports?: unknown;
  bin?: Record<string, string>;
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/**
 * Child processes must not inherit the `npm_*` variables `pnpm test` sets (they carry the
 * workspace's config into the scratch project).
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_)/i.test(key) || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', CI: 'true' };
}

function run(command: string, args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function mustRun(command: string, args: readonly string[], cwd: string): string {
  const result = run(command, args, cwd);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited with ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

// Same staleness rule as packages/cli/test/global-setup.ts: a dist older than any of its inputs
// is rebuilt, so the tarballs never ship yesterday's code.
function newestMtime(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function isStale(dir: string): boolean {
  const dist = join(dir, 'dist');
  if (!existsSync(join(dist, 'index.js'))) return true;
  const outputs = readdirSync(dist).filter((f) => f.endsWith('.js'));
  const oldestOutput = Math.min(...outputs.map((f) => statSync(join(dist, f)).mtimeMs));
  const inputs = ['src', 'package.json', 'tsup.config.ts'].map((f) => join(dir, f)).filter((f) => existsSync(f));
  return oldestOutput < Math.max(...inputs.map(newestMtime));
}

function buildStalePackages(): void {
  const tsup = join(WORKSPACE, 'node_modules', '.bin', 'tsup');
  for (const name of PUBLIC) {
    const dir = join(PACKAGES, name);
    if (!isStale(dir)) continue;
    const started = Date.now();
    execFileSync(tsup, [], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    process.stdout.write(`[install-check] built ${readManifest(dir).name} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
}

const KEEP = process.env.KNOWING_KEEP_SCRATCH === '1';
let scratch = '';
let app = '';
let repo = '';
const manifests = new Map<string, Manifest>();
const timings: string[] = [];

function timed<T>(label: string, step: () => T): T {
  const started = Date.now();
  const result = step();
  timings.push(`${label} ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

beforeAll(() => {
  timed('build', buildStalePackages);

  scratch = mkdtempSync(join(tmpdir(), 'knowing-install-check-'));
  const tarballs = join(scratch, 'tarballs');
  app = join(scratch, 'app');
  repo = join(scratch, 'invoicing');
  mkdirSync(tarballs);
  mkdirSync(app);
  cpSync(join(FIXTURES, 'invoicing'), repo, { recursive: true });
  cpSync(join(FIXTURES, 'smoke.mjs'), join(app, 'smoke.mjs'));

  const tarballOf = new Map<string, string>();
  timed('pack', () => {
    for (const name of PUBLIC) {
      const dir = join(PACKAGES, name);
      const manifest = readManifest(dir);
      expect(manifest.private, `${manifest.name} must be publishable`).not.toBe(true);
      manifests.set(manifest.name, manifest);
      const before = new Set(readdirSync(tarballs));
      mustRun('pnpm', ['pack', '--pack-destination', tarballs], dir);
      const created = readdirSync(tarballs).filter((f) => !before.has(f));
      expect(created, `pnpm pack of ${manifest.name}`).toHaveLength(1);
      tarballOf.set(manifest.name, `file:${join(tarballs, created[0]!)}`);
    }
  });

  // The tarballs depend on each other by version (0.0.0 before the first release), which no
  // registry has: overrides point those edges at the local tarballs too.
  const dependencies = Object.fromEntries(tarballOf);
  const overrides = Object.fromEntries([...tarballOf].filter(([name]) => name !== 'knowing'));
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify(
      {
        name: 'knowing-install-check-scratch',
        private: true,
        type: 'module',
        dependencies,
        pnpm: { overrides, onlyBuiltDependencies: ['better-sqlite3'] },
      },
      null,
      2,
    )}\n`,
  );

  const store = mustRun('pnpm', ['store', 'path'], WORKSPACE).trim();
  timed('install', () => {
    const offline = run('pnpm', ['install', '--offline', '--store-dir', store], app);
    if (offline.status === 0) return;
    process.stdout.write(`[install-check] offline install failed, retrying with --prefer-offline:\n${offline.stderr}\n`);
    mustRun('pnpm', ['install', '--prefer-offline', '--store-dir', store], app);
  });
}, 10 * 60_000);

afterAll(() => {
  process.stdout.write(`[install-check] ${timings.join(', ')}${KEEP ? `; scratch kept at ${scratch}` : ''}\n`);
  if (scratch && !KEEP) rmSync(scratch, { recursive: true, force: true });
});

describe('the packed tarballs, installed outside the workspace', () => {
  it('publish without the workspace-only @knowing/source condition', () => {
    for (const name of manifests.keys()) {
      const installed = readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8');
      expect(installed, name).not.toContain('@knowing/source');
      expect(installed, name).not.toContain('workspace:');
      expect(existsSync(join(app, 'node_modules', name, 'dist', 'index.d.ts')), `${name} ships its types`).toBe(true);
      expect(existsSync(join(app, 'node_modules', name, 'src')), `${name} ships no sources`).toBe(false);
    }
  });

  it('import the public API and index, rank and format a small Python project', () => {
    const output = timed('smoke script', () => mustRun(process.execPath, ['smoke.mjs', repo], app));
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as { ok: boolean; nodes: number; symbols: string[] };
    expect(result.ok).toBe(true);
    expect(result.nodes).toBeGreaterThan(0);
    expect(result.symbols).toContain('discounts.py.apply_discount');
  });

  it('install a working `knowing` binary: --help, --version and index', () => {
    const bin = join(app, 'node_modules', '.bin', 'knowing');
    expect(existsSync(bin)).toBe(true);

    const help = run(bin, ['--help'], app);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: knowing <command> [options]');
    expect(help.stdout).toMatch(/^\s+index\s/m);

    const version = run(bin, ['--version'], app);
    expect(version.status).toBe(0);
    expect(version.stdout).toContain(manifests.get('knowing')!.version);

    const db = join(scratch, 'cli-index.db');
    const index = timed('knowing index', () => run(bin, ['index', repo, '--db', db, '--workers', '0', '--json'], app));
    expect(index.status, index.stderr).toBe(0);
    expect(existsSync(db)).toBe(true);
    const summary = JSON.parse(index.stdout) as { files: { parsed: number }; nodes: number };
    expect(summary.files.parsed).toBe(2);
    expect(summary.nodes).toBeGreaterThan(0);
    // An unknown command is a usage error (exit 2), reported on stderr.
    const unknown = run(bin, ['no-such-command'], app);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('knowing:');
  });
});
