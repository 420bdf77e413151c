// `knowing doctor`, and the faults of issue 17 as the real CLI meets them on real SQLite files:
// damaged bytes, an empty file or /dev/null as --db, a newer schema, a write lock held for
// longer than the busy timeout, a read-only index. docs/reliability.md lists them.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, closeSync, cpSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '@knowing/store-sqlite';
import { NOBODY, RUNNING_AS_ROOT, emptyDir, fixtureRepo, knowing, knowingAs, openUp, removeScratch, type CliResult } from './helpers.js';

afterAll(removeScratch);

// better-sqlite3 as the store package has it: to damage, lock and inspect files from outside.
const fromStore = createRequire(fileURLToPath(new URL('../../store-sqlite/package.json', import.meta.url)));
/** The part of better-sqlite3 these tests use (the CLI package does not depend on it). */
interface Statement {
  run(...params: unknown[]): unknown;
  pluck(): { all(...params: unknown[]): unknown[] };
}
interface RawDatabase {
  prepare(sql: string): Statement;
  pragma(sql: string, options?: { simple: boolean }): unknown;
  close(): void;
}
const Database = fromStore('better-sqlite3') as new (path: string, options?: { readonly?: boolean }) => RawDatabase;

const TASK = 'apply a discount code to the cart total';

/** A fixture repository with a fresh index. */
async function indexedRepo(): Promise<string> {
  const repo = fixtureRepo('knowing-doctor-');
  const result = await knowing(['index', '--quiet'], { cwd: repo });
  expect(result.code, result.stderr).toBe(0);
  return repo;
}

const dbOf = (repo: string): string => join(repo, '.knowing', 'graph.db');

async function doctor(repo: string, ...flags: string[]): Promise<{ result: CliResult; report: Record<string, any> }> {
  const result = await knowing(['doctor', '--json', ...flags], { cwd: repo });
  return { result, report: JSON.parse(result.stdout) as Record<string, any> };
}

const finding = (report: Record<string, any>, check: string): Record<string, any> | undefined =>
  (report['findings'] as Record<string, any>[]).find((f) => f['check'] === check);

/** 8 KB of pseudo-random bytes (fixed seed) written at `offset`. */
function damage(path: string, offset: number): void {
  const bytes = Buffer.alloc(8192);
  let x = 17;
  for (let i = 0; i < bytes.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

/** First page of the middle of a b-tree (dbstat numbers pages from 1; 4 KB pages). */
function middlePageOffset(path: string, table: string): number {
  const db = new Database(path, { readonly: true });
  try {
    const pages = db.prepare('SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno').pluck().all(table) as number[];
    expect(pages.length).toBeGreaterThan(1);
    return (pages[Math.floor(pages.length / 2)]! - 1) * (db.pragma('page_size', { simple: true }) as number);
  } finally {
    db.close();
  }
}

describe('knowing doctor on a healthy index', () => {
  let repo: string;
  beforeAll(async () => {
    repo = await indexedRepo();
  });

  it('reports every check ok and exits 0, without writing to the index', async () => {
    const before = statSync(dbOf(repo)).mtimeMs;
    const { result, report } = await doctor(repo);
    expect(result.code).toBe(0);
    expect(report['healthy']).toBe(true);
    for (const check of ['schema', 'integrity', 'repository', 'files', 'caches', 'size']) expect(finding(report, check)?.['status'], check).toBe('ok');
    expect(finding(report, 'schema')?.['message']).toMatch(/written by knowing \d+\.\d+\.\d+/);
    expect(finding(report, 'integrity')?.['message']).toContain('quick_check ok');
    expect(statSync(dbOf(repo)).mtimeMs).toBe(before);

    const text = await knowing(['doctor', '--full'], { cwd: repo });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/ok\s+integrity\s+integrity_check ok/);
    expect(text.stderr).toContain('healthy');
  });

  it('warns about files changed since indexing (exit 0), and --fix re-indexes them', async () => {
    appendFileSync(join(repo, 'bookshop', 'cart.py'), '\n\ndef doctor_added():\n    return 1\n');
    const { result, report } = await doctor(repo);
    expect(result.code).toBe(0);
    expect(finding(report, 'files')).toMatchObject({ status: 'warn', repair: 'index' });
    expect(finding(report, 'files')?.['message']).toContain('bookshop/cart.py');

    const fixed = await doctor(repo, '--fix');
    expect(fixed.result.code).toBe(0);
    expect(fixed.report['fixed'][0]).toMatch(/^indexed .*1 file parsed/);
    expect(finding(fixed.report, 'files')?.['status']).toBe('ok');
  });

  it('warns about an answer cache over its bound, and --fix prunes it', async () => {
    // As an older knowing left it: cached answers that were never pruned.
    const store = await createSqliteStore({ path: dbOf(repo), cacheNotes: {} });
    for (let i = 0; i < 205; i++) await store.putNote(`pack:old-${i}`, 'context_pack', new Uint8Array(64));
    await store.close();
    const { result, report } = await doctor(repo);
    expect(result.code).toBe(0);
    expect(finding(report, 'caches')).toMatchObject({ status: 'warn', repair: 'prune' });
    const fixed = await doctor(repo, '--fix');
    expect(fixed.report['fixed']).toContain('deleted 5 cached answers beyond the bound');
    expect(finding(fixed.report, 'caches')?.['status']).toBe('ok');
  });

  it('is listed in the help with its flags', async () => {
    const help = await knowing(['doctor', '--help'], { cwd: repo });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--fix');
    expect(help.stdout).toContain('integrity_check');
    expect((await knowing(['--help'], { cwd: repo })).stdout).toMatch(/doctor\s+check the index/);
  });
});

describe('a damaged index (8 KB of random bytes written into it)', () => {
  it('in the middle of the file: doctor finds it (exit 5) and --fix moves it aside and rebuilds it', async () => {
    const repo = await indexedRepo();
    // An answer in the cache, as after a day of use: it must not hide the damage from doctor.
    expect((await knowing(['context', '--task', TASK], { cwd: repo })).code).toBe(0);
    const size = statSync(dbOf(repo)).size;
    damage(dbOf(repo), Math.floor(size / 2 / 4096) * 4096);

    const { result, report } = await doctor(repo);
    expect(result.code).toBe(5);
    expect(report['healthy']).toBe(false);
    expect(finding(report, 'integrity')).toMatchObject({ status: 'problem', repair: 'rebuild' });
    const text = await knowing(['doctor'], { cwd: repo });
    expect(text.stdout).toMatch(/PROBLEM\s+integrity\s+quick_check found/);
    expect(text.stdout).toContain('fix: `knowing doctor --fix` (moves the damaged file aside and re-indexes)');

    // Commands that read the damaged pages say so with the fix; none calls it a bug.
    const stats = await knowing(['stats'], { cwd: repo });
    expect([0, 5]).toContain(stats.code);
    if (stats.code === 5) expect(stats.stderr).toContain('knowing doctor --fix');
    expect(stats.stderr).not.toContain('bug');

    const fixed = await doctor(repo, '--fix');
    expect(fixed.result.code).toBe(0);
    expect(fixed.report['fixed'][0]).toMatch(/^moved the damaged index to \.knowing\/graph\.db\.damaged-\d{8}-\d{6}/);
    expect(fixed.report['healthy']).toBe(true);
    expect(readdirSync(join(repo, '.knowing')).some((f) => /^graph\.db\.damaged-\d{8}-\d{6}$/.test(f))).toBe(true);
    expect((await knowing(['stats'], { cwd: repo })).code).toBe(0);
    expect((await knowing(['context', '--task', TASK], { cwd: repo })).code).toBe(0);
  });

  it('in the symbols table: stats and an incremental index fail with STORE_CORRUPT and the fix, not "a bug"', async () => {
    const repo = await indexedRepo();
    damage(dbOf(repo), middlePageOffset(dbOf(repo), 'nodes'));
    const stats = await knowing(['stats', '--json'], { cwd: repo });
    expect(stats.code).toBe(5);
    const error = JSON.parse(stats.stdout) as { error: { code: string; message: string; hint: string } };
    expect(error.error.code).toBe('STORE_CORRUPT');
    expect(error.error.hint).toContain('knowing doctor --fix');
    expect(error.error.hint).toContain(`rm -rf ${join(repo, '.knowing')} && knowing index ${repo}`);

    appendFileSync(join(repo, 'bookshop', 'cart.py'), '\n\ndef after_damage():\n    return 2\n');
    const index = await knowing(['index'], { cwd: repo });
    expect(index.code).toBe(5);
    expect(index.stderr).toContain('is corrupt');
    expect(index.stderr).toContain('knowing doctor --fix');
  });
});

describe('--db pointing at something that is not an index', () => {
  it('an empty file: "not a knowing index", exit 5, and nothing is written to it or beside it', async () => {
    const dir = emptyDir();
    const file = join(dir, 'empty.db');
    writeFileSync(file, '');
    for (const command of [['stats'], ['index'], ['context', '--task', TASK], ['doctor']]) {
      const result = await knowing([...command, '--db', file], { cwd: await fixtureRepoOnce() });
      expect(result.code, command.join(' ')).toBe(5);
      expect(result.stderr + result.stdout).toContain(`${file} is an empty file, not a knowing index`);
    }
    expect(statSync(file).size).toBe(0);
    expect(readdirSync(dir)).toEqual(['empty.db']);
  });

  it.skipIf(!existsSync('/dev/null'))('/dev/null: "not a knowing index", exit 5, no /dev/null-journal', async () => {
    const journalBefore = existsSync('/dev/null-journal');
    for (const command of [['stats'], ['index']]) {
      const result = await knowing([...command, '--db', '/dev/null'], { cwd: await fixtureRepoOnce() });
      expect(result.code, command.join(' ')).toBe(5);
      expect(result.stderr).toContain('/dev/null is a character device, not a knowing index');
      expect(result.stderr).not.toContain('bug');
    }
    expect(existsSync('/dev/null-journal')).toBe(journalBefore);
  });
});

let sharedRepo: Promise<string> | undefined;
/** One indexed repository for tests that only need a working directory. */
const fixtureRepoOnce = (): Promise<string> => (sharedRepo ??= indexedRepo());

describe('an index written by a newer knowing (schema v99)', () => {
  it('says which version wrote it and how to start over; --full cannot help and is not suggested', async () => {
    const repo = await indexedRepo();
    const db = new Database(dbOf(repo));
    db.pragma('user_version = 99');
    db.prepare(`UPDATE knowing_meta SET value = 'knowing 9.9.9' WHERE key = 'written_by'`).run();
    db.close();
    for (const command of [['stats'], ['index', '--full'], ['context', '--task', TASK]]) {
      const result = await knowing(command, { cwd: repo });
      expect(result.code, command.join(' ')).toBe(5);
      expect(result.stderr).toMatch(/was written by knowing 9\.9\.9 \(schema v99\); this is knowing \d+\.\d+\.\d+, which reads up to schema v\d+/);
      expect(result.stderr).toContain('upgrade knowing to 9.9.9 or later');
      expect(result.stderr).toContain(`rm -rf ${join(repo, '.knowing')} && knowing index ${repo}`);
      expect(result.stderr).not.toContain('--full');
    }
    const { result, report } = await doctor(repo);
    expect(result.code).toBe(5);
    expect(finding(report, 'database')?.['message']).toContain('written by knowing 9.9.9');
  });
});

describe('another process holding the write lock for longer than the 5 s busy timeout', () => {
  let holder: ChildProcess | undefined;
  afterAll(() => holder?.kill());

  it('stats, context and doctor answer without waiting for it', async () => {
    const repo = await indexedRepo();
    const script = `const D = require(${JSON.stringify(fromStore.resolve('better-sqlite3'))});
      const db = new D(process.argv[1]); db.exec('BEGIN IMMEDIATE');
      db.prepare("INSERT INTO notes (key, kind, value, updated_at) VALUES ('lock', 'test', x'00', 0)").run();
      process.stdout.write('LOCKED\\n'); setTimeout(() => db.exec('ROLLBACK'), 30000);`;
    holder = spawn(process.execPath, ['-e', script, dbOf(repo)], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder!.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('LOCKED') && resolve()));
    for (const command of [['stats'], ['context', '--task', TASK], ['context', '--task', TASK], ['doctor']]) {
      const started = Date.now();
      const result = await knowing(command, { cwd: repo });
      expect(result.code, `${command.join(' ')}: ${result.stderr}`).toBe(0);
      expect(Date.now() - started, command.join(' ')).toBeLessThan(4500);
    }
    holder.kill();
  }, 120_000);
});


describe('a read-only index (file and folder), as a user who cannot write them', () => {
  it('stats, context and doctor answer, and nothing is written beside the index', async ({ skip }) => {
    const source = await indexedRepo();
    // Outside the scratch root (private to this user): the other user must reach the files.
    const parent = mkdtempSync(join(tmpdir(), 'knowing-doctor-ro-'));
    try {
      chmodSync(parent, 0o755);
      const repo = join(parent, 'repo');
      cpSync(source, repo, { recursive: true });
      openUp(repo);
      chmodSync(join(repo, '.knowing', 'graph.db'), 0o444);
      chmodSync(join(repo, '.knowing'), 0o555);
      const run = RUNNING_AS_ROOT ? (args: readonly string[]) => knowingAs(NOBODY, args, repo) : (args: readonly string[]) => knowing(args, { cwd: repo });
      if (RUNNING_AS_ROOT) {
        const probe = await run(['--version']);
        if (probe.code !== 0) skip(`the CLI cannot run as uid ${NOBODY.uid} from this checkout (is it readable by every user?): ${probe.stderr.split('\n')[0]}`);
      }
      const listing = readdirSync(join(repo, '.knowing')).sort();
      const stats = await run(['stats']);
      expect(stats.code, stats.stderr).toBe(0);
      for (let i = 0; i < 2; i++) {
        const context = await run(['context', '--task', TASK]);
        expect(context.code, context.stderr).toBe(0);
        expect(context.stderr).not.toContain('from cache');
      }
      const report = await run(['doctor', '--json']);
      expect(JSON.parse(report.stdout)['findings']).toContainEqual(expect.objectContaining({ check: 'access', status: 'ok' }));
      expect(readdirSync(join(repo, '.knowing')).sort()).toEqual(listing);
    } finally {
      chmodSync(join(parent, 'repo', '.knowing'), 0o755);
      rmSync(parent, { recursive: true, force: true });
    }
  }, 120_000);
});
