import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { GraphEdge } from '@knowing/graph';
import { createSqliteStore, type SqliteGraphStore } from '../src/index.js';
import { collect, startFixture } from './support/child.js';
import { REPO, generate } from './support/graph-gen.js';

/**
 * The uncommitted batch must have written this much to the log before the kill: well inside
 * the one big transaction (it spills tens of MB), and past the point where a writer that
 * committed in slices would already have committed some of them.
 */
const KILL_AFTER_WAL_BYTES = 8 * 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'knowing-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function allEdges(store: SqliteGraphStore): Promise<string[]> {
  const out: string[] = [];
  for await (const e of store.allEdges()) out.push(key(e));
  return out.sort();
}

function key(e: GraphEdge): string {
  return `${e.source} ${e.type} ${e.target} ${e.confidence} ${e.line}`;
}

async function stateOf(store: SqliteGraphStore) {
  return {
    counts: await store.counts(),
    snapshot: await store.currentSnapshot(),
    roots: await store.packageRoots(),
    edges: await allEdges(store),
    files: await store.fileHashes(),
    search: (await store.search('handle_v0_3_2')).map((h) => h.node.id),
    newNames: (await store.findNodesByName('handle_v1_0_0')).length,
  };
}

function sizeOf(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

/**
 * Run the kill-writer fixture on `path` and SIGKILL it once its uncommitted batch has
 * visibly spilled into the log: the process is then provably inside the write transaction.
 */
async function killMidBatch(path: string): Promise<void> {
  const child = startFixture('kill-writer.ts', [path, '1500']);
  const done = collect(child);
  const wal = `${path}-wal`;
  const killed = await new Promise<{ walBytes: number }>((resolve, reject) => {
    let writing = false;
    let baseline = 0;
    const deadline = Date.now() + 60_000;
    child.stdout!.on('data', (chunk: Buffer) => {
      if (!writing && chunk.toString().includes('WRITING')) {
        writing = true;
        baseline = sizeOf(wal);
      }
    });
    const timer = setInterval(() => {
      const walBytes = sizeOf(wal);
      if (writing && walBytes > baseline + KILL_AFTER_WAL_BYTES) {
        clearInterval(timer);
        child.kill('SIGKILL');
        resolve({ walBytes });
      } else if (child.exitCode !== null || Date.now() > deadline) {
        clearInterval(timer);
        reject(new Error(`writer ended before it could be killed mid-write (exit ${child.exitCode})`));
      }
    }, 5);
  });
  const result = await done;
  expect(result.signal).toBe('SIGKILL');
  expect(result.stdout).toContain('WRITING');
  expect(result.stdout).not.toContain('COMMITTED');
  expect(killed.walBytes).toBeGreaterThan(KILL_AFTER_WAL_BYTES);
}

/** SQLite-level consistency of what a crash left behind, the full-text index included. */
function checkIntegrity(path: string): void {
  const raw = new Database(path);
  expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
  expect(raw.pragma('foreign_key_check')).toEqual([]);
  raw.exec(`INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('integrity-check', 0)`);
  raw.close();
}

function schemaOf(path: string): unknown[] {
  const raw = new Database(path, { readonly: true });
  const rows = raw.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name').all();
  raw.close();
  return rows;
}

describe('a writer killed mid-batch', () => {
  it('leaves the previous state intact and consistent', async () => {
    const path = join(dir, 'graph.db');
    const store = await createSqliteStore({ path });
    await store.applyBatch({ repo: REPO, files: generate(60, 8, 'v0') });
    const before = await stateOf(store);
    expect(before.counts.nodes).toBe(480);
    expect(before.search.length).toBeGreaterThan(0);
    await store.close();

    await killMidBatch(path);

    checkIntegrity(path);

    const reopened = await createSqliteStore({ path });
    const after = await stateOf(reopened);
    expect(after).toEqual(before);
    // And it keeps working: the next batch lands on top of the old state.
    const next = await reopened.applyBatch({ files: generate(2, 3, 'v2') });
    expect(next.snapshot.generation).toBe(before.snapshot!.generation + 1);
    await reopened.close();
  }, 120_000);
});

describe('a writer killed during the first index (bulk load into an empty graph)', () => {
  it('leaves the empty graph with its schema and indexes, and the next first index succeeds', async () => {
    const path = join(dir, 'first.db');
    const store = await createSqliteStore({ path });
    await store.applyBatch({ repo: REPO });
    const before = await stateOf(store);
    expect(before.counts.nodes).toBe(0);
    await store.close();
    const schema = schemaOf(path);
    expect(schema.filter((row) => (row as { type: string }).type === 'index').length).toBeGreaterThan(5);

    await killMidBatch(path);

    checkIntegrity(path);
    // The secondary indexes the load dropped inside its transaction are all there.
    expect(schemaOf(path)).toEqual(schema);
    const reopened = await createSqliteStore({ path });
    expect(await stateOf(reopened)).toEqual(before);
    const next = await reopened.applyBatch({ files: generate(40, 5, 'v2') });
    expect(next.snapshot.nodeCount).toBe(200);
    expect(next.snapshot.generation).toBe(before.snapshot!.generation + 1);
    await reopened.close();
    checkIntegrity(path);
  }, 120_000);
});
