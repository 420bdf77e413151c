// Faults of issue 17 on real SQLite files: damaged bytes, files that are not indexes, newer
// schemas, long write locks, unbounded caches, racing creators. docs/reliability.md lists them.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode, KnowingError } from '@knowing/graph';
import { DEFAULT_CACHE_NOTES, SCHEMA_VERSION, SQLITE_STORE_DEFAULTS, createSqliteStore } from '../src/index.js';
import { collect, runFixture, startFixture } from './support/child.js';
import { REPO, generate } from './support/graph-gen.js';

const dir = mkdtempSync(join(tmpdir(), 'knowing-robustness-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
/** A path in a fresh directory of its own, so that tests can list what was created beside it. */
const fresh = (name = 'graph.db'): string => {
  const caseDir = join(dir, `case-${n++}`);
  mkdirSync(caseDir);
  return join(caseDir, name);
};

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

async function failure(promise: Promise<unknown>): Promise<KnowingError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(KnowingError);
    return error as KnowingError;
  }
  throw new Error('expected a KnowingError, but the call succeeded');
}

async function seeded(path: string, files = 30) {
  const store = await createSqliteStore({ path });
  await store.applyBatch({ repo: REPO, files: generate(files, 8) });
  return store;
}

/** `length` deterministic pseudo-random bytes (a fixed seed: the same damage on every run). */
function noise(length: number, seed = 17): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

function overwrite(path: string, offset: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

/** Pages of one b-tree (dbstat numbers pages from 1). */
function pagesOf(path: string, table: string): number[] {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno').pluck().all(table) as number[]);
  } finally {
    db.close();
  }
}

describe('a damaged database (8 KB of random bytes written into it)', () => {
  it('is reported by checkIntegrity, quick and full, without throwing', async () => {
    const path = fresh();
    await (await seeded(path)).close();
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(64 * 1024);
    overwrite(path, Math.floor(size / 2 / 4096) * 4096, noise(8192));

    const store = await createSqliteStore({ path, readonly: true });
    const quick = await store.checkIntegrity();
    expect(quick).toMatchObject({ ok: false, check: 'quick_check' });
    expect(quick.problems.length).toBeGreaterThan(0);
    const full = await store.checkIntegrity({ full: true });
    expect(full).toMatchObject({ ok: false, check: 'integrity_check' });
    await store.close();
  });

  it('fails the reads that meet the damage with STORE_CORRUPT, naming the file and the fix', async () => {
    const path = fresh();
    await (await seeded(path)).close();
    const pages = pagesOf(path, 'nodes');
    expect(pages.length).toBeGreaterThan(2);
    // The middle pages of the nodes table: counts() (what `knowing stats` shows) reads them all.
    overwrite(path, (pages[Math.floor(pages.length / 2)]! - 1) * 4096, noise(8192));
    for (const readonly of [false, true]) {
      const store = await createSqliteStore({ path, readonly });
      const error = await failure(store.counts());
      expect(error.code).toBe(ErrorCode.Corrupt);
      expect(error.message).toContain(path);
      expect(error.hint).toContain('knowing doctor --fix');
      expect(error.hint).toContain(`rm -f ${path}`);
      await store.close();
    }
  });

  it('fails a write that meets the damage with STORE_CORRUPT, and leaves the file as damaged as it was', async () => {
    const path = fresh();
    await (await seeded(path)).close();
    const pages = pagesOf(path, 'nodes');
    overwrite(path, (pages[Math.floor(pages.length / 2)]! - 1) * 4096, noise(8192));
    const before = readFileSync(path);
    const store = await createSqliteStore({ path });
    const error = await failure(store.applyBatch({ files: generate(30, 8, 'v1') }));
    expect(error.code).toBe(ErrorCode.Corrupt);
    await store.close();
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('is not a knowing index any more when the header page is hit: STORE_NOT_A_DATABASE, and the file is left alone', async () => {
    const path = fresh();
    await (await seeded(path)).close();
    overwrite(path, 0, noise(8192));
    const before = readFileSync(path);
    for (const readonly of [false, true]) {
      const error = await failure(createSqliteStore({ path, readonly }));
      expect(error.code).toBe(ErrorCode.NotADatabase);
      expect(error.message).toContain(path);
    }
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe('paths that exist but are not indexes', () => {
  it('refuses an empty file, read-only or not, and writes nothing to it or beside it', async () => {
    const path = fresh('empty.db');
    writeFileSync(path, '');
    for (const readonly of [false, true]) {
      const error = await failure(createSqliteStore({ path, readonly }));
      expect(error.code).toBe(ErrorCode.NotADatabase);
      expect(error.message).toContain(`${path} is an empty file, not a knowing index`);
    }
    expect(statSync(path).size).toBe(0);
    expect(readdirSync(join(path, '..'))).toEqual(['empty.db']);
  });

  it.skipIf(process.platform === 'win32')('refuses a named pipe (as /dev/null, a device) before SQLite opens it', async () => {
    const path = fresh('pipe.db');
    execFileSync('mkfifo', [path]);
    for (const readonly of [false, true]) {
      const error = await failure(createSqliteStore({ path, readonly }));
      expect(error.code).toBe(ErrorCode.NotADatabase);
      expect(error.message).toContain('is a named pipe, not a knowing index');
    }
    expect(readdirSync(join(path, '..'))).toEqual(['pipe.db']);
  });

  it.skipIf(!existsSync('/dev/null'))('refuses /dev/null and creates no /dev/null-journal', async () => {
    const journalBefore = existsSync('/dev/null-journal');
    const error = await failure(createSqliteStore({ path: '/dev/null' }));
    expect(error.code).toBe(ErrorCode.NotADatabase);
    expect(error.message).toContain('/dev/null is a character device');
    expect(existsSync('/dev/null-journal')).toBe(journalBefore);
  });
});

describe('creating a new index', () => {
  it('appears whole: no temporary file is left, and the file records which knowing wrote it', async () => {
    const path = fresh();
    const store = await createSqliteStore({ path });
    expect(store.writtenBy).toBe(`knowing ${VERSION}`);
    await store.close();
    expect(readdirSync(join(path, '..')).filter((f) => f.includes('.creating'))).toEqual([]);
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.prepare(`SELECT value FROM knowing_meta WHERE key = 'written_by'`).pluck().get()).toBe(`knowing ${VERSION}`);
    raw.close();
  });

  it('by three processes at once gives one index that all of them open', async () => {
    const path = fresh();
    const results = await Promise.all([0, 1, 2].map(() => runFixture('open-store.ts', [JSON.stringify({ path })])));
    for (const result of results) {
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toMatchObject({ schemaVersion: SCHEMA_VERSION });
    }
    expect(readdirSync(join(path, '..')).filter((f) => f.includes('.creating'))).toEqual([]);
    const store = await createSqliteStore({ path });
    await store.applyBatch({ repo: REPO, files: generate(2, 2) });
    expect((await store.counts()).nodes).toBe(4);
    await store.close();
  }, 60_000);

  it('records the writer again when another knowing writes the graph', async () => {
    const path = fresh();
    await (await seeded(path)).close();
    const raw = new Database(path);
    raw.prepare(`UPDATE knowing_meta SET value = 'knowing 0.0.1' WHERE key = 'written_by'`).run();
    raw.close();
    const store = await createSqliteStore({ path });
    expect(store.writtenBy).toBe('knowing 0.0.1');
    await store.applyBatch({ files: generate(1, 1, 'v1') });
    expect(store.writtenBy).toBe(`knowing ${VERSION}`);
    await store.close();
  });
});

describe('a file written by a newer knowing', () => {
  it('names the version that wrote it and how to start over, instead of "re-index"', async () => {
    const path = fresh();
    await (await seeded(path)).close();
    const raw = new Database(path);
    raw.pragma('user_version = 99');
    raw.prepare(`UPDATE knowing_meta SET value = 'knowing 9.9.9' WHERE key = 'written_by'`).run();
    raw.close();
    for (const readonly of [false, true]) {
      const error = await failure(createSqliteStore({ path, readonly }));
      expect(error.code).toBe(ErrorCode.SchemaTooNew);
      expect(error.message).toContain(`${path} was written by knowing 9.9.9 (schema v99); this is knowing ${VERSION}, which reads up to schema v${SCHEMA_VERSION}`);
      expect(error.hint).toContain('upgrade knowing to 9.9.9 or later');
      expect(error.hint).toContain(`rm -f ${path}`);
      expect(error.hint).not.toContain('--full');
    }
  });

  it('in a .knowing folder: starting over removes the folder and indexes the repository', async () => {
    const root = join(dir, `repo-${n++}`);
    const path = join(root, '.knowing', 'graph.db');
    await (await seeded(path)).close();
    const raw = new Database(path);
    raw.pragma('user_version = 99');
    raw.close();
    const error = await failure(createSqliteStore({ path }));
    expect(error.message).toContain('written by knowing');
    expect(error.hint).toContain(`rm -rf ${join(root, '.knowing')} && knowing index ${root}`);
  });
});

describe('cache notes', () => {
  const bytes = (size: number): Uint8Array => new Uint8Array(size).fill(7);

  it('keep the newest maxCount of their kind, and leave other kinds alone', async () => {
    const store = await createSqliteStore({ path: fresh(), cacheNotes: { context_pack: { maxCount: 3 } } });
    await store.putNote('keep', 'communities', bytes(10));
    for (let i = 0; i < 6; i++) {
      await store.putNote(`pack:${i}`, 'context_pack', bytes(10));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const kept = [];
    for (let i = 0; i < 6; i++) if (await store.getNote(`pack:${i}`)) kept.push(i);
    expect(kept).toEqual([3, 4, 5]);
    expect(await store.getNote('keep')).toBeDefined();
    await store.close();
  });

  it('keep at most maxBytes of their kind, and always the note just written', async () => {
    const store = await createSqliteStore({ path: fresh(), cacheNotes: { context_pack: { maxBytes: 2500 } } });
    for (let i = 0; i < 5; i++) {
      await store.putNote(`pack:${i}`, 'context_pack', bytes(1000));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const usage = await store.usage();
    expect(usage.notes.find((u) => u.kind === 'context_pack')).toEqual({ kind: 'context_pack', count: 2, bytes: 2000 });
    // Rewriting an older key makes it the newest.
    await store.putNote('pack:3', 'context_pack', bytes(1000));
    expect(await store.getNote('pack:4')).toBeDefined();
    await store.putNote('big', 'context_pack', bytes(4000));
    expect(await store.getNote('big')).toBeDefined();
    expect((await store.usage()).notes.find((u) => u.kind === 'context_pack')?.count).toBe(1);
    await store.close();
  });

  it('are bounded by default (context_pack: 200 notes, 32 MiB), and pruneCacheNotes applies a smaller bound to what is stored', async () => {
    expect(SQLITE_STORE_DEFAULTS.cacheNotes).toBe(DEFAULT_CACHE_NOTES);
    expect(DEFAULT_CACHE_NOTES.context_pack).toEqual({ maxCount: 200, maxBytes: 32 * 1024 * 1024 });
    const path = fresh();
    const unbounded = await createSqliteStore({ path, cacheNotes: {} });
    for (let i = 0; i < 210; i++) await unbounded.putNote(`pack:${String(i).padStart(3, '0')}`, 'context_pack', bytes(10));
    await unbounded.close();
    const store = await createSqliteStore({ path });
    expect((await store.usage()).notes.find((u) => u.kind === 'context_pack')?.count).toBe(210);
    expect(await store.pruneCacheNotes()).toBe(10);
    expect((await store.usage()).notes.find((u) => u.kind === 'context_pack')?.count).toBe(200);
    await store.close();
  });

  it('reject a bad bound with INVALID_ARGUMENT', async () => {
    for (const cacheNotes of [{ context_pack: { maxCount: -1 } }, { context_pack: { maxBytes: 1.5 } }, { context_pack: null }]) {
      const error = await failure(createSqliteStore({ path: ':memory:', cacheNotes: cacheNotes as never }));
      expect(error.code).toBe(ErrorCode.InvalidArgument);
    }
  });
});

describe('another process holding the write lock for longer than busyTimeoutMs', () => {
  it('fails a cache write after cacheWriteTimeoutMs, not busyTimeoutMs; reads go on; close does not wait', async () => {
    const path = fresh();
    await (await seeded(path)).close();
    const holder = startFixture('hold-lock.ts', [path, '20000']);
    const done = collect(holder);
    await new Promise<void>((resolve) => holder.stdout!.on('data', (c: Buffer) => c.toString().includes('LOCKED') && resolve()));
    try {
      const store = await createSqliteStore({ path, busyTimeoutMs: 5000 });
      let started = Date.now();
      const error = await failure(store.putNote('pack:x', 'context_pack', new Uint8Array([1])));
      expect(error.code).toBe(ErrorCode.Locked);
      expect(error.message).toContain(`${SQLITE_STORE_DEFAULTS.cacheWriteTimeoutMs} ms`);
      expect(Date.now() - started).toBeLessThan(2000);
      expect((await store.counts()).nodes).toBe(240);
      expect(await store.checkIntegrity()).toMatchObject({ ok: true });
      started = Date.now();
      await store.close();
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      holder.kill();
      await done;
    }
  }, 60_000);
});

describe('usage', () => {
  it('reports the file, its log, free pages and notes by kind', async () => {
    const path = fresh();
    const store = await seeded(path);
    await store.putNote('a', 'x', new Uint8Array(100));
    await store.putNote('b', 'x', new Uint8Array(50));
    const usage = await store.usage();
    expect(usage.fileBytes + usage.walBytes).toBeGreaterThan(0);
    expect(usage.freeBytes).toBeGreaterThanOrEqual(0);
    expect(usage.notes).toContainEqual({ kind: 'x', count: 2, bytes: 150 });
    await store.close();
  });
});
