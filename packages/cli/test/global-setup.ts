/**
 * The CLI tests run the built binary, and Node resolves the workspace packages it imports from
 * their built dist/. Build every package the CLI needs, in dependency order, skipping those
 * whose dist is newer than their sources, then build the CLI itself.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = resolve(CLI, '..');

/** Dependency order: each package is built after everything it imports. */
const ORDER = ['graph', 'keywords', 'equivalence', 'walk', 'rank', 'pack', 'store-sqlite', 'store-postgres', 'wire', 'indexer', 'engine', 'history', 'mcp'] as const;
/** Packages the CLI can work without (the mcp command reports a missing server clearly). */
const OPTIONAL = new Set<string>(['mcp']);

function newestMtime(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function oldestOutput(dist: string): number {
  if (!existsSync(dist)) return -Infinity;
  const outputs = readdirSync(dist).filter((f) => f.endsWith('.js'));
  if (!outputs.includes('index.js')) return -Infinity;
  return Math.min(...outputs.map((f) => statSync(join(dist, f)).mtimeMs));
}

function isStale(dir: string): boolean {
  const inputs = ['src', 'package.json', 'tsup.config.ts'].map((f) => join(dir, f)).filter((f) => existsSync(f));
  const newestInput = Math.max(...inputs.map(newestMtime));
  return oldestOutput(join(dir, 'dist')) < newestInput;
}

function build(dir: string, label: string): void {
  const started = Date.now();
  process.stdout.write(`[cli tests] building ${label} … `);
  execFileSync('npx', ['--no-install', 'tsup'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  process.stdout.write(`done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

export default function setup(): void {
  for (const name of ORDER) {
    const dir = join(PACKAGES, name);
    if (!existsSync(join(dir, 'src', 'index.ts'))) {
      process.stdout.write(`[cli tests] ${name}: no sources yet, skipped\n`);
      continue;
    }
    if (!isStale(dir)) continue;
    try {
      build(dir, `@knowing/${name}`);
    } catch (error) {
      const output = `${(error as { stdout?: Buffer }).stdout ?? ''}${(error as { stderr?: Buffer }).stderr ?? ''}`;
      if (!OPTIONAL.has(name)) throw new Error(`building @knowing/${name} failed:\n${output}`);
      process.stdout.write(`failed; the mcp test will expect the "cannot be loaded" error\n`);
    }
  }
  if (isStale(CLI)) build(CLI, 'knowing (the CLI)');
}
