/**
 * `knowing watch` as a person uses it: the real binary runs on a scratch copy of the bookshop
 * fixture while the test edits, creates, saves atomically, renames and deletes files and
 * switches branches; after each step the index (read with the store, as a query would) holds
 * what the working tree holds.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChangeBatcher } from '../src/change-batcher.js';
import { createSqliteStore } from '@knowing/store-sqlite';
import { run } from '../src/run.js';
import { BIN, fixtureRepo, git, knowing, removeScratch } from './helpers.js';

afterAll(removeScratch);

interface WatchEvent {
  readonly event: 'ready' | 'batch' | 'error' | 'stopped';
  readonly changed?: readonly string[];
  readonly parsed?: number;
  readonly deleted?: number;
  readonly files?: number;
}

/** A running `knowing watch --json`, its events as they come. */
class Watcher {
  readonly events: WatchEvent[] = [];
  stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<number>;
  private waiters: (() => void)[] = [];

  constructor(cwd: string, args: readonly string[]) {
    this.child = spawn(process.execPath, [BIN, 'watch', '--json', ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let buffer = '';
    this.child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.trim() !== '') this.events.push(JSON.parse(line) as WatchEvent);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.exited = new Promise((resolveExit) => this.child.on('close', (code) => resolveExit(code ?? -1)));
  }

  /** Wait until `test` holds for the events, or fail after `ms`. */
  async until(test: (events: readonly WatchEvent[]) => boolean, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!test(this.events)) {
      if (Date.now() > deadline) throw new Error(`timed out; events so far: ${JSON.stringify(this.events)}\nstderr: ${this.stderr}`);
      await new Promise<void>((wake) => {
        this.waiters.push(wake);
        setTimeout(wake, 200);
      });
    }
  }

  batches(): WatchEvent[] {
    return this.events.filter((e) => e.event === 'batch');
  }

  /** The next batch that names `path` among its changes, after the first `after` batches. */
  async batchWith(path: string, after: number): Promise<WatchEvent> {
    await this.until(() => this.batches().slice(after).some((b) => b.changed?.includes(path)));
    return this.batches().slice(after).find((b) => b.changed?.includes(path))!;
  }

  async interrupt(): Promise<number> {
    this.child.kill('SIGINT');
    return this.exited;
  }
}

async function symbolsIn(repo: string, file: string): Promise<string[]> {
  const store = await createSqliteStore({ path: join(repo, '.knowing', 'graph.db'), readonly: true });
  try {
    return (await store.nodesInFile(file)).filter((n) => n.kind !== 'file' && n.kind !== 'module').map((n) => n.name).sort();
  } finally {
    await store.close();
  }
}

/** Nodes and edges of an index, as sorted lines: two indexes of one tree compare equal. */
async function graphLines(dbPath: string): Promise<string[]> {
  const store = await createSqliteStore({ path: dbPath, readonly: true });
  try {
    const lines: string[] = [];
    for await (const n of store.allNodes()) lines.push(`N ${n.id} ${n.qualifiedName} ${n.kind} ${n.startLine}-${n.endLine} ${n.signature}`);
    for await (const e of store.allEdges()) lines.push(`E ${e.source} ${e.type} ${e.target} ${e.provenance} ${e.confidence}`);
    return lines.sort();
  } finally {
    await store.close();
  }
}

/** The watched index of `repo` holds the graph a full index of its tree builds from nothing. */
async function expectSameAsFreshIndex(repo: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'knowing-watch-fresh-'));
  try {
    const fresh = join(dir, 'graph.db');
    expect((await knowing(['index', repo, '--full', '--db', fresh, '-q'], { cwd: repo })).code).toBe(0);
    const [watched, rebuilt] = await Promise.all([graphLines(join(repo, '.knowing', 'graph.db')), graphLines(fresh)]);
    expect(watched.length).toBe(rebuilt.length);
    expect(watched).toEqual(rebuilt);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function fileCount(repo: string): Promise<number> {
  const result = await knowing(['stats', '--json'], { cwd: repo });
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { files: number }).files;
}

const HANDLERS = 250;

describe('knowing watch keeps the index fresh', () => {
  let repo: string;
  let watcher: Watcher;

  beforeAll(async () => {
    repo = fixtureRepo('knowing-watch-');
    // A branch that adds many files, for the branch switch below.
    git(repo, 'checkout', '-q', '-b', 'many-handlers');
    mkdirSync(join(repo, 'handlers'));
    for (let i = 0; i < HANDLERS; i++) {
      const n = String(i).padStart(3, '0');
      writeFileSync(join(repo, 'handlers', `h_${n}.py`), `def handle_event_${n}(event):\n    return event\n`);
    }
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'many handlers');
    git(repo, 'checkout', '-q', 'main');
    watcher = new Watcher(repo, ['--debounce', '150']);
    await watcher.until((events) => events.some((e) => e.event === 'ready'));
  });

  afterAll(async () => {
    await watcher?.interrupt();
  });

  it('indexes the repository when it starts', async () => {
    const ready = watcher.events.find((e) => e.event === 'ready')!;
    expect(ready.files).toBe(12);
    expect(await symbolsIn(repo, 'bookshop/cart.py')).toContain('Cart');
  });

  it('an edited file is re-indexed in one batch', async () => {
    const before = watcher.batches().length;
    appendFileSync(join(repo, 'bookshop', 'cart.py'), '\n\ndef cart_weight(cart):\n    return len(cart.items)\n');
    const batch = await watcher.batchWith('bookshop/cart.py', before);
    expect(batch.parsed).toBe(1);
    expect(await symbolsIn(repo, 'bookshop/cart.py')).toContain('cart_weight');
  });

  it('a new file is indexed', async () => {
    const before = watcher.batches().length;
    writeFileSync(join(repo, 'bookshop', 'gift.py'), 'def gift_wrap(order):\n    return order\n');
    await watcher.batchWith('bookshop/gift.py', before);
    expect(await symbolsIn(repo, 'bookshop/gift.py')).toEqual(['gift_wrap']);
  });

  it("an editor's atomic save (write a temporary file, rename it over the original) is seen as a change of the file", async () => {
    const before = watcher.batches().length;
    const temporary = join(repo, 'bookshop', '.gift.py.tmp');
    writeFileSync(temporary, 'def gift_wrap(order):\n    return order\n\n\ndef gift_card(amount):\n    return amount\n');
    renameSync(temporary, join(repo, 'bookshop', 'gift.py'));
    const batch = await watcher.batchWith('bookshop/gift.py', before);
    expect(batch.changed).not.toContain('bookshop/.gift.py.tmp');
    expect(await symbolsIn(repo, 'bookshop/gift.py')).toEqual(['gift_card', 'gift_wrap']);
  });

  it('a renamed file moves in the index', async () => {
    const before = watcher.batches().length;
    renameSync(join(repo, 'bookshop', 'gift.py'), join(repo, 'bookshop', 'present.py'));
    await watcher.batchWith('bookshop/present.py', before);
    await watcher.until(() => watcher.batches().slice(before).some((b) => b.changed?.includes('bookshop/gift.py')));
    expect(await symbolsIn(repo, 'bookshop/gift.py')).toEqual([]);
    expect(await symbolsIn(repo, 'bookshop/present.py')).toEqual(['gift_card', 'gift_wrap']);
  });

  it('a deleted file leaves the index', async () => {
    const before = watcher.batches().length;
    rmSync(join(repo, 'bookshop', 'present.py'));
    const batch = await watcher.batchWith('bookshop/present.py', before);
    expect(batch.deleted).toBe(1);
    expect(await symbolsIn(repo, 'bookshop/present.py')).toEqual([]);
    expect(await fileCount(repo)).toBe(12);
  });

  it('changes under .git/ and .knowing/, and editor swap files, start no batch', async () => {
    const before = watcher.batches().length;
    writeFileSync(join(repo, '.knowing', 'scratch.txt'), 'x');
    writeFileSync(join(repo, 'bookshop', '.cart.py.swp'), 'x');
    git(repo, 'update-ref', 'refs/heads/marker', 'HEAD');
    // Then a real change: the batch it starts must be the next one, naming only it.
    await new Promise((resolveWait) => setTimeout(resolveWait, 600));
    writeFileSync(join(repo, 'bookshop', 'wrapping.py'), 'def wrap_paper():\n    return 1\n');
    const batch = await watcher.batchWith('bookshop/wrapping.py', before);
    expect(watcher.batches().length).toBe(before + 1);
    expect(batch.changed).toEqual(['bookshop/wrapping.py']);
    rmSync(join(repo, 'bookshop', 'wrapping.py'));
    await watcher.batchWith('bookshop/wrapping.py', before + 1);
  });

  it('a directory that becomes ignored leaves the index and the watch; un-ignored, it comes back', async () => {
    const before = watcher.batches().length;
    mkdirSync(join(repo, 'scratch'));
    writeFileSync(join(repo, 'scratch', 'notes.py'), 'def note():\n    return 1\n');
    await watcher.batchWith('scratch/notes.py', before);
    expect(await symbolsIn(repo, 'scratch/notes.py')).toEqual(['note']);

    const ignoring = watcher.batches().length;
    appendFileSync(join(repo, '.gitignore'), 'scratch/\n');
    expect((await watcher.batchWith('.gitignore', ignoring)).deleted).toBe(1);
    expect(await symbolsIn(repo, 'scratch/notes.py')).toEqual([]);
    // Edits inside it start no batch: the next batch is the one of the next real change.
    const ignored = watcher.batches().length;
    appendFileSync(join(repo, 'scratch', 'notes.py'), '\n\ndef scribble():\n    return 2\n');
    await new Promise((resolveWait) => setTimeout(resolveWait, 600));
    writeFileSync(join(repo, 'bookshop', 'wrapping.py'), 'def wrap_paper():\n    return 1\n');
    await watcher.batchWith('bookshop/wrapping.py', ignored);
    expect(watcher.batches().slice(ignored).map((b) => b.changed)).toEqual([['bookshop/wrapping.py']]);

    // Un-ignored: the run after the .gitignore edit indexes the directory, and its later edits are seen.
    const freed = watcher.batches().length;
    rmSync(join(repo, '.gitignore')); // the fixture has none
    await watcher.batchWith('.gitignore', freed);
    expect(await symbolsIn(repo, 'scratch/notes.py')).toEqual(['note', 'scribble']);
    const edited = watcher.batches().length;
    appendFileSync(join(repo, 'scratch', 'notes.py'), '\n\ndef another_note():\n    return 3\n');
    await watcher.batchWith('scratch/notes.py', edited);
    expect(await symbolsIn(repo, 'scratch/notes.py')).toEqual(['another_note', 'note', 'scribble']);

    const cleanup = watcher.batches().length;
    rmSync(join(repo, 'scratch'), { recursive: true });
    rmSync(join(repo, 'bookshop', 'wrapping.py'));
    await watcher.until(() => watcher.batches().slice(cleanup).reduce((n, b) => n + (b.deleted ?? 0), 0) >= 2);
    expect(await fileCount(repo)).toBe(12);
  });

  it(`a branch switch that adds ${HANDLERS} files is indexed in one run (two at most), and switching back removes them`, async () => {
    const before = watcher.batches().length;
    git(repo, 'checkout', '-q', 'many-handlers');
    await watcher.until(() => watcher.batches().slice(before).reduce((n, b) => n + (b.parsed ?? 0), 0) >= HANDLERS);
    // Let a straggling event, if any, settle into its own batch before counting.
    await new Promise((resolveWait) => setTimeout(resolveWait, 800));
    const switched = watcher.batches().slice(before);
    expect(switched.length).toBeLessThanOrEqual(2);
    expect(switched.reduce((n, b) => n + (b.parsed ?? 0), 0)).toBe(HANDLERS);
    expect(await fileCount(repo)).toBe(12 + HANDLERS);
    expect(await symbolsIn(repo, 'handlers/h_249.py')).toEqual(['handle_event_249']);
    await expectSameAsFreshIndex(repo);

    const back = watcher.batches().length;
    git(repo, 'checkout', '-q', 'main');
    await watcher.until(() => watcher.batches().slice(back).reduce((n, b) => n + (b.deleted ?? 0), 0) >= HANDLERS);
    expect(watcher.batches().length - back).toBeLessThanOrEqual(2);
    expect(await fileCount(repo)).toBe(12);
    expect(await symbolsIn(repo, 'handlers/h_000.py')).toEqual([]);
    await expectSameAsFreshIndex(repo);
  });

  it('prints one line per batch on stderr without --json', async () => {
    const quiet = fixtureRepo('knowing-watch-lines-');
    const child = spawn(process.execPath, [BIN, 'watch', '--debounce', '100'], { cwd: quiet, env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const waitFor = async (text: string): Promise<void> => {
      const deadline = Date.now() + 30_000;
      while (!stderr.includes(text)) {
        if (Date.now() > deadline) throw new Error(`no "${text}" in: ${stderr}`);
        await new Promise((resolveWait) => setTimeout(resolveWait, 100));
      }
    };
    await waitFor('Ctrl-C to stop');
    writeFileSync(join(quiet, 'bookshop', 'gift.py'), 'def gift_wrap(order):\n    return order\n');
    await waitFor('gift.py');
    const code = await new Promise<number>((resolveExit) => {
      child.on('close', (c) => resolveExit(c ?? -1));
      child.kill('SIGINT');
    });
    expect(code).toBe(130);
    expect(stdout).toBe('');
    const batchLines = stderr.split('\n').filter((line) => line.includes('gift.py'));
    expect(batchLines).toHaveLength(1);
    expect(batchLines[0]).toMatch(/^knowing: \d\d:\d\d:\d\d {2}1 change \(bookshop\/gift\.py\) → 1 parsed; \d+ symbols, \d+ edges \(\d+ ms\)$/);
  });

  it('Ctrl-C ends it with exit 130 and leaves a complete index', async () => {
    const second = fixtureRepo('knowing-watch-stop-');
    const stopping = new Watcher(second, ['--debounce', '50']);
    await stopping.until((events) => events.some((e) => e.event === 'ready'));
    // Interrupt while a batch may be running: the index is the one before it or the one after.
    writeFileSync(join(second, 'bookshop', 'gift.py'), 'def gift_wrap(order):\n    return order\n');
    await new Promise((resolveWait) => setTimeout(resolveWait, 80));
    expect(await stopping.interrupt()).toBe(130);
    expect([12, 13]).toContain(await fileCount(second));
    const store = await createSqliteStore({ path: join(second, '.knowing', 'graph.db'), readonly: true });
    try {
      expect((await store.checkIntegrity({ full: true })).problems).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('knowing watch answers knowing context', () => {
  it('prints the answer the command prints by itself, says who answered, and stops answering when it stops', async () => {
    const repo = fixtureRepo('knowing-watch-answers-');
    const answering = new Watcher(repo, ['--debounce', '50']);
    await answering.until((events) => events.some((e) => e.event === 'ready'));
    const socket = join(repo, '.knowing', 'cli.sock');
    expect((answering.events.find((e) => e.event === 'ready') as { socket?: string }).socket).toBe(socket);
    // Only its owner may connect.
    expect(statSync(socket).mode & 0o777).toBe(0o600);

    const task = ['context', '--task', 'apply a discount code to the cart total', '--budget', '2000'];
    const viaWatcher = await knowing(task, { cwd: repo });
    const direct = await knowing([...task, '--no-watcher'], { cwd: repo });
    expect(viaWatcher.code).toBe(0);
    expect(direct.code).toBe(0);
    expect(viaWatcher.stdout).toBe(direct.stdout);
    expect(viaWatcher.stdout).toContain('bookshop/cart.py');
    expect(viaWatcher.stderr).toMatch(/answered by the running `knowing watch` \(pid \d+\)/);
    expect(direct.stderr).not.toContain('answered by');
    // Errors come back as they would: a bad flag value is still exit 2 with its message.
    const bad = await knowing(['context', '--task', 'x', '--budget', 'lots'], { cwd: repo });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--budget');

    expect(await answering.interrupt()).toBe(130);
    expect(existsSync(socket)).toBe(false);
    const after = await knowing(task, { cwd: repo });
    expect(after.code).toBe(0);
    expect(after.stdout).toBe(direct.stdout);
    expect(after.stderr).not.toContain('answered by');
  });

  it('keeps its index and engine between answers, yet answers as fresh as the command would', async () => {
    const repo = fixtureRepo('knowing-watch-warm-');
    const answering = new Watcher(repo, ['--debounce', '50']);
    await answering.until((events) => events.some((e) => e.event === 'ready'));
    const same = async (args: string[]): Promise<string> => {
      const viaWatcher = await knowing(args, { cwd: repo });
      const direct = await knowing([...args, '--no-watcher'], { cwd: repo });
      expect(viaWatcher.stderr).toMatch(/answered by the running `knowing watch`/);
      expect(viaWatcher.code).toBe(0);
      expect(viaWatcher.stdout).toBe(direct.stdout);
      return viaWatcher.stdout;
    };
    const task = ['context', '--task', 'apply a discount code to the cart total'];
    const first = await same(task);
    expect(await same(task)).toBe(first);

    // A config written after the first answer: the kept engine was built under the old one.
    writeFileSync(join(repo, 'knowing.config.json'), JSON.stringify({ engine: { rankingModel: 'formula', channels: { lexical: 0 } } }));
    expect(await same(task)).not.toBe(first);

    // An edit the watcher may not have indexed yet: the answer still has it.
    appendFileSync(join(repo, 'bookshop', 'cart.py'), '\n\ndef apply_loyalty_points(cart, points):\n    return cart.total() - points / 100\n');
    expect(await same(['context', '--task', 'apply loyalty points to the cart', '--budget', '2000'])).toContain('apply_loyalty_points');
    expect(await answering.interrupt()).toBe(130);
  });

  it('leaves a socket file no process listens on behind it: the command answers by itself', async () => {
    const repo = fixtureRepo('knowing-watch-stale-');
    expect((await knowing(['index', '-q'], { cwd: repo })).code).toBe(0);
    writeFileSync(join(repo, '.knowing', 'cli.sock'), '');
    const result = await knowing(['context', '--task', 'apply a discount code to the cart total'], { cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('bookshop/cart.py');
    expect(result.stderr).not.toContain('answered by');
  });
});

describe('knowing watch, in-process', () => {
  it('stops on the abort signal: closes the watcher, reports "stopped" and returns 130', async () => {
    const repo = fixtureRepo('knowing-watch-inproc-');
    const controller = new AbortController();
    const lines: string[] = [];
    const stdout = {
      write(chunk: string | Uint8Array): boolean {
        lines.push(...String(chunk).split('\n').filter((l) => l !== ''));
        return true;
      },
    };
    const stderr = { write: (): boolean => true };
    const running = run(['watch', '--json', '--debounce', '50', '--workers', '0'], { stdout, stderr, cwd: repo, signal: controller.signal });
    const deadline = Date.now() + 30_000;
    while (!lines.some((l) => l.includes('"ready"'))) {
      if (Date.now() > deadline) throw new Error(`not ready: ${lines.join('\n')}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    }
    controller.abort();
    expect(await running).toBe(130);
    expect(JSON.parse(lines[lines.length - 1]!)).toEqual({ event: 'stopped' });
  });

  it('refuses a bad --debounce with exit 2', async () => {
    const result = await knowing(['watch', '--debounce', 'soon'], { cwd: fixtureRepo('knowing-watch-bad-') });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--debounce must be a positive whole number');
  });
});

describe('the change batcher', () => {
  function batcher(busy = (): boolean => false) {
    const batches: string[][] = [];
    let release: (() => void) | undefined;
    const b = createChangeBatcher({
      debounceMs: 100,
      maxWaitMs: 1000,
      busy,
      handle: (paths) =>
        new Promise<void>((done) => {
          batches.push([...paths]);
          release = done;
        }),
    });
    return { b, batches, finish: () => release?.() };
  }

  it('hands over one batch once the events have been quiet for the debounce time', async () => {
    vi.useFakeTimers();
    try {
      const { b, batches } = batcher();
      for (const path of ['b.py', 'a.py', 'b.py']) {
        b.add(path);
        await vi.advanceTimersByTimeAsync(60);
      }
      expect(batches).toEqual([]);
      await vi.advanceTimersByTimeAsync(100);
      expect(batches).toEqual([['a.py', 'b.py']]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('under a steady stream of events, hands over a batch after the longest wait', async () => {
    vi.useFakeTimers();
    try {
      const { b, batches } = batcher();
      for (let i = 0; i < 30; i++) {
        b.add(`f${i}.py`);
        await vi.advanceTimersByTimeAsync(50);
      }
      expect(batches).toHaveLength(1);
      expect(batches[0]!.length).toBeGreaterThanOrEqual(19);
    } finally {
      vi.useRealTimers();
    }
  });

  it('for exclusive work, hands over the pending paths at once, waits for the batch in hand, and starts no batch until the work ends', async () => {
    vi.useFakeTimers();
    try {
      const { b, batches, finish } = batcher();
      b.add('a.py');
      const order: string[] = [];
      let endWork: (() => void) | undefined;
      const work = b.exclusive(async () => {
        order.push(`work after ${batches.length} batch(es)`);
        await new Promise<void>((done) => (endWork = done));
        return 'answered';
      });
      // No quiet time waited for: the batch is in hand at once, and the work waits for it.
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([['a.py']]);
      expect(order).toEqual([]);
      finish();
      await vi.advanceTimersByTimeAsync(0);
      expect(order).toEqual(['work after 1 batch(es)']);
      // An event during the work waits for it, then for its own quiet time.
      b.add('b.py');
      await vi.advanceTimersByTimeAsync(500);
      expect(batches).toHaveLength(1);
      endWork!();
      expect(await work).toBe('answered');
      await vi.advanceTimersByTimeAsync(99);
      expect(batches).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([['a.py'], ['b.py']]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('exclusive work that fails rejects with its error and leaves the batcher working', async () => {
    vi.useFakeTimers();
    try {
      const { b, batches } = batcher();
      await expect(b.exclusive(async () => Promise.reject(new Error('locked')))).rejects.toThrow('locked');
      b.add('a.py');
      await vi.advanceTimersByTimeAsync(100);
      expect(batches).toEqual([['a.py']]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('waits while busy (git holds its index lock), and collects what comes during a run into the next batch', async () => {
    vi.useFakeTimers();
    try {
      let locked = true;
      const { b, batches, finish } = batcher(() => locked);
      b.add('a.py');
      await vi.advanceTimersByTimeAsync(500);
      expect(batches).toEqual([]);
      b.add('b.py');
      locked = false;
      await vi.advanceTimersByTimeAsync(150);
      expect(batches).toEqual([['a.py', 'b.py']]);
      b.add('c.py');
      await vi.advanceTimersByTimeAsync(500);
      expect(batches).toHaveLength(1); // the first batch is still being handled
      finish();
      await vi.advanceTimersByTimeAsync(150);
      expect(batches).toEqual([['a.py', 'b.py'], ['c.py']]);
    } finally {
      vi.useRealTimers();
    }
  });
});
