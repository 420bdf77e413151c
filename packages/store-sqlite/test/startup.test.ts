import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, createSqliteStore } from '../src/index.js';
import { runFixture } from './support/child.js';
import { REPO, generate } from './support/graph-gen.js';

const LOAD_TRACE = fileURLToPath(new URL('./support/load-trace.mjs', import.meta.url));
/** Any module of the kysely package, however pnpm lays it out. */
const KYSELY = /[/\\]node_modules[/\\]kysely[/\\]/;

const dir = mkdtempSync(join(tmpdir(), 'knowing-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

interface Opened {
  readonly result: {
    schemaVersion: number;
    counts: { nodes: number; edges: number; files: number };
    packageRoots: Record<string, string>;
    files: string[];
  };
  /** URLs of every module the child resolved. */
  readonly modules: readonly string[];
}

/** Open a store in a fresh node process that records every module it resolves. */
async function openTraced(options: Record<string, unknown>): Promise<Opened> {
  const trace = join(dir, `trace-${n++}.txt`);
  const child = await runFixture('open-store.ts', [JSON.stringify(options)], {
    imports: [LOAD_TRACE],
    env: { KNOWING_LOAD_TRACE: trace },
  });
  expect(child.stderr).toBe('');
  expect(child.code).toBe(0);
  const modules = existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter(Boolean) : [];
  // The trace must see the modules the store does load, or "no kysely" would prove nothing.
  expect(modules.some((url) => url.includes('better-sqlite3'))).toBe(true);
  return { result: JSON.parse(child.stdout), modules };
}

describe('opening a store', () => {
  const current = join(dir, 'current.db');
  let expected: { counts: unknown; packageRoots: Record<string, string>; files: string[] };

  beforeAll(async () => {
    const store = await createSqliteStore({ path: current });
    await store.applyBatch({ repo: REPO, files: generate(6, 3, 'v0', 2) });
    expected = {
      counts: await store.counts(),
      packageRoots: Object.fromEntries(await store.packageRoots()),
      files: (await store.listFiles()).map((f) => f.path),
    };
    await store.close();
    expect(Object.keys(expected.packageRoots).length).toBeGreaterThan(0);
  });

  it('does not load kysely when the database is current (read-write)', async () => {
    const { result, modules } = await openTraced({ path: current });
    expect(modules.filter((url) => KYSELY.test(url))).toEqual([]);
    expect(result).toEqual({ schemaVersion: SCHEMA_VERSION, ...expected });
  });

  it('does not load kysely when the database is current (read-only)', async () => {
    const { result, modules } = await openTraced({ path: current, readonly: true });
    expect(modules.filter((url) => KYSELY.test(url))).toEqual([]);
    expect(result).toEqual({ schemaVersion: SCHEMA_VERSION, ...expected });
  });

  it('does not load kysely to create a fresh database, which then works', async () => {
    const path = join(dir, 'fresh.db');
    const { result, modules } = await openTraced({ path });
    expect(modules.filter((url) => KYSELY.test(url))).toEqual([]);
    expect(result).toMatchObject({ schemaVersion: SCHEMA_VERSION, counts: { nodes: 0, edges: 0, files: 0 }, packageRoots: {}, files: [] });
    // The file it created is current: the next process opens it without kysely.
    const again = await openTraced({ path });
    expect(again.modules.filter((url) => KYSELY.test(url))).toEqual([]);
    expect(again.result.schemaVersion).toBe(SCHEMA_VERSION);
  });
});
