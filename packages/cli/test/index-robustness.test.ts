import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURE, emptyDir, fixtureRepo, git, knowing, removeScratch } from './helpers.js';

afterAll(removeScratch);

async function stats(cwd: string): Promise<{ repository: { id: string }; snapshot: { id: string }; files: number }> {
  const result = await knowing(['stats', '--json'], { cwd });
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as { repository: { id: string }; snapshot: { id: string }; files: number };
}

async function indexJson(cwd: string, ...args: string[]): Promise<{ files: { discovered: number }; warnings: string[] }> {
  const result = await knowing(['index', '--json', ...args], { cwd });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as { files: { discovered: number }; warnings: string[] };
}

describe('knowing index: one odd file or setting never fails a run', () => {
  it.skipIf(process.platform === 'win32')('indexes a file whose name holds a backslash, on this run and the next', async () => {
    const repo = fixtureRepo();
    writeFileSync(join(repo, 'a\\b.py'), 'def lonely_function():\n    return 1\n');
    expect((await indexJson(repo)).files.discovered).toBe(13);
    appendFileSync(join(repo, 'a\\b.py'), '\n\ndef second_function():\n    return 2\n');
    expect((await indexJson(repo)).files.discovered).toBe(13);
    const context = await knowing(['context', '--task', 'second_function', '--format', 'json'], { cwd: repo });
    expect(context.code).toBe(0);
    expect(context.stdout).toContain('second_function');
  });

  it('skips a 100,000-character .gitignore line with a one-line warning, and keeps the other patterns', async () => {
    const repo = fixtureRepo();
    writeFileSync(join(repo, '.gitignore'), `${'x'.repeat(100_000)}\ninventory/\n`);
    const result = await knowing(['index'], { cwd: repo });
    expect(result.code).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.includes('warning'));
    expect(warnings).toEqual(['knowing: warning: .gitignore:1: ignore pattern of 100000 characters skipped (the limit is 4096)']);
    expect(result.stderr.length).toBeLessThan(1_000);
    // inventory/ (the Go files) is still ignored.
    expect(result.stdout).toMatch(/files\s+10 indexed/);
  });

  it('rebuilds under the new identity when the folder is renamed and when the git origin changes', async () => {
    const repo = fixtureRepo();
    expect((await knowing(['index'], { cwd: repo })).code).toBe(0);
    const moved = `${repo}-moved`;
    renameSync(repo, moved);

    const renamed = await knowing(['index'], { cwd: moved });
    expect(renamed.code).toBe(0);
    expect(renamed.stderr).toContain(`the index held repository '${basename(repo)}' but ${moved} is '${basename(moved)}'`);
    expect(renamed.stderr).toContain('rebuilt it under the new identity');
    expect((await stats(moved)).repository.id).toBe(basename(moved));

    git(moved, 'remote', 'add', 'origin', 'git@github.com:example/bookshop.git');
    const full = await knowing(['index', '--full'], { cwd: moved });
    expect(full.code).toBe(0);
    expect(full.stderr).toContain('rebuilt it under the new identity');
    const after = await stats(moved);
    expect(after.repository.id).toBe('github.com/example/bookshop');
    expect(after.files).toBe(12);

    // Settled: the next run has nothing to say, and queries read the rebuilt graph.
    const again = await knowing(['index'], { cwd: moved });
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('warning');
    const context = await knowing(['context', '--task', 'apply a discount code to the cart total', '--format', 'json'], { cwd: moved });
    expect(context.code).toBe(0);
    expect(context.stdout).toContain('bookshop/cart.py');
  });

  it('refuses the file system root and the home directory without --force', async () => {
    const root = await knowing(['index', '--repo', '/'], { cwd: emptyDir() });
    expect(root.code).toBe(2);
    expect(root.stderr).toContain('/ is the root of the file system, not a repository');
    expect(root.stderr).toContain('--force');
    expect((await knowing(['index', '/'], { cwd: emptyDir() })).code).toBe(2);

    const home = emptyDir('knowing-cli-home-');
    writeFileSync(join(home, 'notes.py'), 'def remember():\n    return 1\n');
    const env = { HOME: home, USERPROFILE: home };
    const refused = await knowing(['index'], { cwd: home, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is your home directory');
    expect(existsSync(join(home, '.knowing'))).toBe(false);
    const forced = await knowing(['index', '--force'], { cwd: home, env });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/files\s+1 indexed/);
  });
});

/** Preloaded: stderr passes for a terminal, so the progress names each phase as it starts. */
const TTY_STDERR = `data:text/javascript,${encodeURIComponent("Object.defineProperty(process.stderr, 'isTTY', { value: true });")}`;

/** Run the CLI and press Ctrl-C (SIGINT) once its progress on stderr matches `when`. */
function interruptWhen(args: readonly string[], cwd: string, when: RegExp): Promise<{ code: number | null; stderr: string; msAfterSignal: number }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', TTY_STDERR, BIN, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let signalledAt: number | undefined;
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (signalledAt === undefined && when.test(stderr)) {
        signalledAt = performance.now();
        child.kill('SIGINT');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stderr, msAfterSignal: signalledAt === undefined ? Number.NaN : performance.now() - signalledAt }));
  });
}

describe('Ctrl-C while indexing', () => {
  let repo: string;

  beforeAll(async () => {
    // Forty copies of the fixture (480 source files): long enough phases to press Ctrl-C in.
    repo = emptyDir('knowing-cli-interrupt-');
    for (let i = 0; i < 40; i++) cpSync(FIXTURE, join(repo, `shop${i}`), { recursive: true });
    expect((await knowing(['index', '--quiet'], { cwd: repo })).code).toBe(0);
  });

  it('after parsing: exits 130 within a second and leaves the index as it was', async () => {
    const before = await stats(repo);
    // A new definition changes a symbol table: every file is resolved again, after one parse.
    appendFileSync(join(repo, 'shop0', 'bookshop', 'cart.py'), '\n\ndef added_after_indexing():\n    return 1\n');
    const run = await interruptWhen(['index'], repo, /resolving references/);
    expect(run.stderr).toContain('interrupted; the index was left as it was');
    expect(run.code).toBe(130);
    expect(run.msAfterSignal).toBeLessThan(1_500);
    expect((await stats(repo)).snapshot.id).toBe(before.snapshot.id);
  });

  it('with --workers 0: exits 130 while parsing and leaves the index as it was', async () => {
    const before = await stats(repo);
    const run = await interruptWhen(['index', '--full', '--workers', '0'], repo, /\] \d+\/\d+ files/);
    expect(run.stderr).toContain('interrupted; the index was left as it was');
    expect(run.code).toBe(130);
    expect(run.msAfterSignal).toBeLessThan(1_500);
    expect((await stats(repo)).snapshot.id).toBe(before.snapshot.id);
  });
});

describe('knowing index: parser threads', () => {
  /** Every node and edge of an index, as sorted lines, so two indexes compare as text. */
  async function graphOf(db: string): Promise<string[]> {
    const { createSqliteStore } = await import('@knowing/store-sqlite');
    const store = await createSqliteStore({ path: db, readonly: true });
    try {
      const lines: string[] = [];
      for await (const n of store.allNodes()) lines.push(`node ${n.id} ${n.kind} ${n.file}:${n.startLine}-${n.endLine} ${n.signature ?? ''} ${n.isTest ? 'test' : ''}`);
      for await (const e of store.allEdges()) lines.push(`edge ${e.source} ${e.type} ${e.target} ${e.confidence} ${e.line ?? ''}`);
      return lines.sort();
    } finally {
      await store.close();
    }
  }

  it('writes the same graph whether the main thread parses alone or beside a worker', async () => {
    const root = join(emptyDir('knowing-threads-'), 'fixtures');
    cpSync(join(BIN, '..', '..', '..', 'indexer', 'test', 'fixtures'), root, { recursive: true });
    const alone = join(root, '..', 'alone.db');
    const shared = join(root, '..', 'shared.db');
    const first = await knowing(['index', root, '--db', alone, '--workers', '0', '--json'], { cwd: root });
    const second = await knowing(['index', root, '--db', shared, '--workers', '2', '--json'], { cwd: root });
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    const parsedAlone = JSON.parse(first.stdout) as { files: { parsed: number }; parser: { threads: number } };
    const parsedShared = JSON.parse(second.stdout) as { files: { parsed: number }; parser: { threads: number; inWorkers: boolean } };
    expect(parsedAlone.parser.threads).toBe(1);
    // Enough files that workers pay off (the indexer parses a handful in-thread regardless).
    expect(parsedShared.files.parsed).toBeGreaterThan(40);
    expect(parsedShared.parser).toEqual({ threads: Math.min(2, availableParallelism()), inWorkers: availableParallelism() > 1 });
    const graph = await graphOf(alone);
    expect(graph.length).toBeGreaterThan(500);
    expect(await graphOf(shared)).toEqual(graph);
    // The worker built the lexical documents while the main thread resolved: they score alike.
    const lexical = await lexicalScoresOf(alone);
    expect(lexical.length).toBeGreaterThan(500);
    expect(await lexicalScoresOf(shared)).toEqual(lexical);
  });

  /**
   * Every symbol's lexical score, alone and per field, for the words of every symbol name
   * (those the stemmer leaves alone find hits): a document that differs in any field scores
   * differently for some word (BM25 normalises by the whole document's length).
   */
  async function lexicalScoresOf(db: string): Promise<string[]> {
    const { createSqliteStore } = await import('@knowing/store-sqlite');
    const store = await createSqliteStore({ path: db, readonly: true });
    try {
      const terms = new Set<string>();
      for await (const n of store.allNodes()) {
        for (const word of n.name.split(/[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])/)) if (word.length > 2) terms.add(word.toLowerCase());
      }
      const lines: string[] = [];
      for (const term of [...terms].sort()) {
        for (const hit of await store.lexicalSearch([term], { limit: 100_000, includeTests: true, perField: true })) {
          lines.push(`${term} ${hit.node.id} ${hit.score} ${JSON.stringify(hit.fields)}`);
        }
      }
      return lines.sort();
    } finally {
      await store.close();
    }
  }
});
