// Fault injection against `knowing index` (issue 17): the real binary killed with SIGKILL at
// each phase of a run, interrupted with SIGINT, blocked by another writer's lock, and writing
// to a full disk. After each fault the database must open, pass `integrity_check`, and hold
// either the graph it held before the run or the graph an uninterrupted run produces (same
// snapshot root and counts); the next `knowing index` must produce the latter. How each point
// is hit: support-faults.ts. docs/reliability.md lists the cases.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, copyFileSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statfsSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDir, knowing, removeScratch } from './helpers.js';
import { FIRED, graphAt, knowingWithFault, startWithFault, whichGraph, type Fault, type GraphState } from './support-faults.js';

const PACKAGES = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The repository indexed: the sources of six of this monorepo's packages (about 65 TypeScript files). */
const CORPUS = ['graph', 'history', 'pack', 'rank', 'store-sqlite', 'walk'];

/** The repository as the runs under test see it (V2), in the folder where V1 was indexed into `v1Db`. */
let live: string;
let v1Db: string;
/** The graph of V1 (the database before each run) and of V2 indexed from scratch in another folder. */
let OLD: GraphState;
let NEW: GraphState;

afterAll(removeScratch);

function tsFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) out.push(relative(root, path));
    }
  };
  walk(root);
  return out.sort();
}

/**
 * The edit between the indexed version and the run under test: a new function in every sixth
 * file (the symbol tables change, so every file is resolved again), two files deleted, one
 * added. The same edit of the same tree gives the same bytes.
 */
function editToV2(root: string): void {
  const files = tsFiles(root);
  files.forEach((file, i) => {
    if (i % 6 === 0) appendFileSync(join(root, file), `\nexport function addedByFaultTest${i}(count: number): number {\n  return count + ${i};\n}\n`);
  });
  rmSync(join(root, files[1]!));
  rmSync(join(root, files[2]!));
  mkdirSync(join(root, 'added'), { recursive: true });
  writeFileSync(
    join(root, 'added', 'ledger.ts'),
    'export class Ledger {\n  private total = 0;\n\n  add(amount: number): number {\n    this.total += amount;\n    return this.total;\n  }\n}\n',
  );
}

/** A copy of the V1 database for one case. */
function v1Copy(): string {
  const db = join(emptyDir('knowing-faults-db-'), 'graph.db');
  copyFileSync(v1Db, db);
  if (existsSync(`${v1Db}-wal`)) copyFileSync(`${v1Db}-wal`, `${db}-wal`);
  return db;
}

beforeAll(async () => {
  // One copy of the sources, taken once: the checkout may change while the tests run.
  const pristine = join(emptyDir('knowing-faults-pristine-'), 'repo');
  for (const name of CORPUS) cpSync(join(PACKAGES, name, 'src'), join(pristine, name), { recursive: true });
  // Node ids embed the repository id, here the folder's name (no git remote): both copies are
  // called `repo`, so their graphs are comparable. The reference is built in another folder
  // from scratch; the cases run incrementally over V1 in `live`.
  live = join(emptyDir('knowing-faults-live-'), 'repo');
  const reference = join(emptyDir('knowing-faults-ref-'), 'repo');
  cpSync(pristine, live, { recursive: true });
  cpSync(pristine, reference, { recursive: true });
  editToV2(reference);
  v1Db = join(emptyDir('knowing-faults-v1-'), 'graph.db');
  const referenceDb = join(emptyDir('knowing-faults-ref-db-'), 'graph.db');
  const [v1, v2] = await Promise.all([knowing(['index', '--quiet', '--db', v1Db], { cwd: live }), knowing(['index', '--quiet', '--db', referenceDb], { cwd: reference })]);
  expect(v1.code, v1.stderr).toBe(0);
  expect(v2.code, v2.stderr).toBe(0);
  editToV2(live);
  OLD = (await graphAt(v1Db))!;
  NEW = (await graphAt(referenceDb))!;
  expect(OLD).not.toBeNull();
  expect(NEW.root).not.toBe(OLD.root);
}, 180_000);

/** `knowing index` to its end on `db`; the graph it leaves. */
async function indexToEnd(db: string): Promise<GraphState | null> {
  const result = await knowing(['index', '--quiet', '--db', db], { cwd: live });
  expect(result.code, result.stderr).toBe(0);
  return graphAt(db);
}

describe('the reference', () => {
  it('an uninterrupted incremental run over the old index gives the graph of a from-scratch index of a copy elsewhere', async () => {
    expect(await indexToEnd(v1Copy())).toEqual(NEW);
  });
});

describe('knowing index killed with SIGKILL', () => {
  const cases: { name: string; fault: Fault; expected: 'old' | 'new' }[] = [
    { name: 'while finding files', fault: { at: 'discover', signal: 'SIGKILL' }, expected: 'old' },
    { name: 'while parsing', fault: { at: 'parse', signal: 'SIGKILL' }, expected: 'old' },
    { name: 'while storing the parse results (the fifth of them)', fault: { at: 'extraction-note', signal: 'SIGKILL', n: 5 }, expected: 'old' },
    { name: 'while resolving references', fault: { at: 'resolve', signal: 'SIGKILL' }, expected: 'old' },
    { name: 'as the write phase starts, before the batch', fault: { at: 'write', signal: 'SIGKILL' }, expected: 'old' },
    { name: 'inside the batch transaction', fault: { at: 'batch', signal: 'SIGKILL', n: 5 }, expected: 'old' },
    { name: 'after the batch committed, before the indexer state was saved', fault: { at: 'committed', signal: 'SIGKILL' }, expected: 'new' },
  ];

  it.each(cases)('$name: the database is intact and holds the $expected graph; the next run completes the new one', async ({ fault, expected }) => {
    const db = v1Copy();
    const run = await knowingWithFault(['index', '--db', db], { cwd: live, fault });
    expect(run.fired, run.stderr).toBe(true);
    expect(run.signal).toBe('SIGKILL');
    const state = await graphAt(db);
    expect(whichGraph(state, { old: OLD, new: NEW })).toBe(expected);
    expect(await indexToEnd(db)).toEqual(NEW);
  });

  it('during the first index of a repository: no graph and no half-made file are left, and the next run builds it', async () => {
    const dir = emptyDir('knowing-faults-first-');
    const db = join(dir, 'graph.db');
    const run = await knowingWithFault(['index', '--db', db], { cwd: live, fault: { at: 'batch', signal: 'SIGKILL', n: 20 } });
    expect(run.fired, run.stderr).toBe(true);
    expect(run.signal).toBe('SIGKILL');
    expect(readdirSync(dir).filter((name) => !/^graph\.db(-wal|-shm)?$/.test(name))).toEqual([]);
    expect(await graphAt(db)).toBeNull();
    expect(await indexToEnd(db)).toEqual(NEW);
  });
});

describe('knowing index interrupted with SIGINT (Ctrl-C)', () => {
  // After parsing and while parsing with --workers 0: index-robustness.test.ts.
  it('while finding files: exits 130 and leaves the old graph', async () => {
    const db = v1Copy();
    const run = await knowingWithFault(['index', '--db', db], { cwd: live, fault: { at: 'discover', signal: 'SIGINT' } });
    expect(run.fired, run.stderr).toBe(true);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('interrupted; the index was left as it was');
    expect(whichGraph(await graphAt(db), { old: OLD, new: NEW })).toBe('old');
  });

  it.each([
    { name: 'as the write phase starts (after the last point to stop)', fault: { at: 'write', signal: 'SIGINT' } as Fault },
    { name: 'inside the batch transaction', fault: { at: 'batch', signal: 'SIGINT', n: 5 } as Fault },
  ])('$name: the write completes, and the new index is complete (the next run has nothing to do)', async ({ fault }) => {
    const db = v1Copy();
    const run = await knowingWithFault(['index', '--db', db], { cwd: live, fault });
    expect(run.fired, run.stderr).toBe(true);
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('interrupted after the new index was written; it is complete and in use');
    expect(whichGraph(await graphAt(db), { old: OLD, new: NEW })).toBe('new');
    const next = await knowing(['index', '--json', '--db', db], { cwd: live });
    expect(next.code, next.stderr).toBe(0);
    const summary = JSON.parse(next.stdout) as { files: { parsed: number }; write: unknown };
    expect(summary.files.parsed).toBe(0);
    expect(summary.write).toBeNull();
  });

  // From the write on, everything the run does is synchronous or settles in microtasks: the
  // command lets the event loop poll once before it decides, so the SIGINT is seen.
  it('inside the batch transaction: exits 130 saying the new index is complete', async () => {
    const run = await knowingWithFault(['index', '--db', v1Copy()], { cwd: live, fault: { at: 'batch', signal: 'SIGINT', n: 5 } });
    expect(run.fired, run.stderr).toBe(true);
    expect(run.stderr).toContain('interrupted after the new index was written; it is complete and in use');
    expect(run.code).toBe(130);
  });
});

// better-sqlite3 as the store package has it, for the lock holder.
const BETTER_SQLITE3 = createRequire(fileURLToPath(new URL('../../store-sqlite/package.json', import.meta.url))).resolve('better-sqlite3');

/** Another process holding the write lock (`BEGIN IMMEDIATE` plus a write) until it is told to release it. */
async function holdWriteLock(db: string): Promise<{ release(): Promise<void> }> {
  const script = `const D = require(${JSON.stringify(BETTER_SQLITE3)});
    const db = new D(process.argv[1]); db.exec('BEGIN IMMEDIATE');
    db.prepare("INSERT INTO notes (key, kind, value, updated_at) VALUES ('lock', 'test', x'00', 0)").run();
    process.stdout.write('LOCKED\\n');
    process.stdin.once('data', () => { db.exec('ROLLBACK'); db.close(); process.exit(0); });`;
  const holder: ChildProcess = spawn(process.execPath, ['-e', script, db], { stdio: ['pipe', 'pipe', 'inherit'] });
  holders.add(holder);
  const exited = new Promise<void>((resolvePromise) => holder.on('close', () => resolvePromise()));
  await new Promise<void>((resolvePromise, reject) => {
    holder.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('LOCKED') && resolvePromise());
    void exited.then(() => reject(new Error('the lock holder exited before it held the lock')));
  });
  return {
    async release() {
      holder.stdin!.write('release\n');
      await exited;
      holders.delete(holder);
    },
  };
}
const holders = new Set<ChildProcess>();
afterAll(() => {
  for (const holder of holders) holder.kill();
});

describe('knowing index while another process holds the write lock', () => {
  it('held past the 5 s busy timeout: exits 5 with STORE_LOCKED and the old graph; once released the run completes', async () => {
    const db = v1Copy();
    const lock = await holdWriteLock(db);
    const started = Date.now();
    const result = await knowing(['index', '--json', '--db', db], { cwd: live });
    const waited = Date.now() - started;
    await lock.release();
    expect(result.code, result.stderr).toBe(5);
    expect((JSON.parse(result.stdout) as { error: { code: string } }).error.code).toBe('STORE_LOCKED');
    expect(result.stderr).toContain('is locked by another writer');
    expect(waited).toBeGreaterThanOrEqual(5_000);
    expect(whichGraph(await graphAt(db), { old: OLD, new: NEW })).toBe('old');
    expect(await indexToEnd(db)).toEqual(NEW);
  });

  it('released while the run waits for it: the run completes with the new graph', async () => {
    const db = v1Copy();
    const lock = await holdWriteLock(db);
    // The preload announces the run's first statement (it then waits on the lock), without a signal.
    const run = startWithFault(['index', '--json', '--db', db], { cwd: live, fault: { at: 'first-statement' } });
    run.write('');
    await run.stderrIncludes(FIRED);
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 300));
    await lock.release();
    const result = await run.done;
    expect(result.code, result.stderr).toBe(0);
    expect(whichGraph(await graphAt(db), { old: OLD, new: NEW })).toBe('new');
  });
});

describe('knowing index with the database on a full disk (a tmpfs)', () => {
  /** Fill `dir` until at most `leaveBytes` are free. */
  function fill(dir: string, leaveBytes: number): void {
    const fd = openSync(join(dir, 'filler'), 'w');
    const chunk = Buffer.alloc(64 * 1024);
    try {
      for (;;) {
        const stats = statfsSync(dir);
        const free = stats.bavail * stats.bsize;
        if (free <= leaveBytes) break;
        writeSync(fd, chunk, 0, Math.min(chunk.length, free - leaveBytes));
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    } finally {
      closeSync(fd);
    }
  }

  it.for([
    { name: 'full before the run (opening fails: no room for the -shm file)', leave: 0, fault: undefined, failsIn: 'opening the database' },
    { name: '64 KiB free before the run (storing the first parse results fails)', leave: 64 * 1024, fault: undefined, failsIn: 'putNote' },
    { name: 'filled once the batch transaction has begun (its commit fails)', leave: undefined, fault: 'batch', failsIn: 'applyBatch' },
  ] as const)('$name: exits 1 saying the disk is full (not a bug), keeps the old graph, and completes once space is freed', async ({ leave, fault, failsIn }, { skip }) => {
    if (process.platform !== 'linux') return skip('a tmpfs mount needs Linux');
    const mount = emptyDir('knowing-faults-tmpfs-');
    const size = Math.ceil((statSync(v1Db).size + 4 * 1024 * 1024) / (1024 * 1024));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}m`, 'tmpfs', mount], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      const why = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim();
      return skip(`mounting a ${size} MiB tmpfs was refused (${why}): this test needs root and a container that allows mount(2)`);
    }
    try {
      const db = join(mount, 'graph.db');
      copyFileSync(v1Db, db);
      if (leave !== undefined) fill(mount, leave);
      const run = await knowingWithFault(['index', '--json', '--db', db], { cwd: live, ...(fault ? { fault: { at: fault, fill: mount } } : {}) });
      if (fault) expect(run.fired, run.stderr).toBe(true);
      expect(run.code, run.stderr).toBe(1);
      const error = (JSON.parse(run.stdout) as { error: { message: string; hint: string } }).error;
      // The step is the one this corpus meets first; any "disk full during …" is right.
      expect(error.message).toMatch(/disk full during /);
      expect(error.message).toContain(failsIn);
      expect(error.hint).toBe('free disk space and retry');
      expect(run.stderr).not.toContain('bug');
      rmSync(join(mount, 'filler'));
      expect(whichGraph(await graphAt(db), { old: OLD, new: NEW })).toBe('old');
      expect(await indexToEnd(db)).toEqual(NEW);
    } finally {
      execFileSync('umount', ['-l', mount]);
    }
  });
});

describe('knowing mcp stopped during a reindex', () => {
  /** One JSON-RPC line to the server. */
  const line = (message: object): string => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;

  it.each([
    { signal: 'SIGINT' as const, exit: { code: 130, signal: null } },
    { signal: 'SIGTERM' as const, exit: { code: null, signal: 'SIGTERM' } },
  ])('$signal inside the batch transaction: the server exits ($exit.code, $exit.signal) and the database is intact', async ({ signal, exit }) => {
    const db = v1Copy();
    const server = startWithFault(['mcp', '--db', db], { cwd: live, fault: { at: 'batch', signal, n: 5 } });
    server.write(line({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'knowing-faults', version: '0' } } }));
    server.write(line({ method: 'notifications/initialized' }));
    server.write(line({ id: 2, method: 'tools/call', params: { name: 'reindex', arguments: {} } }));
    const result = await server.done;
    expect(result.fired, result.stderr).toBe(true);
    expect({ code: result.code, signal: result.signal }).toEqual(exit);
    expect(['old', 'new']).toContain(whichGraph(await graphAt(db), { old: OLD, new: NEW }));
    expect(await indexToEnd(db)).toEqual(NEW);
  });
});

