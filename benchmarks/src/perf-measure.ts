/**
 * Measurements shared by bench:index, bench:query and bench:perf: indexing a repository
 * (full, no change, one file edited), adjacency build/load, forTask latency, running one
 * repository per child process, and timing a whole CLI process.
 */
import { fork, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Engine, ContextResult } from '@knowing/engine';
import type { IndexOptions, IndexSummary } from '@knowing/indexer';
import type { SqliteGraphStore } from '@knowing/store-sqlite';
import { forgetAdjacency, loadAdjacency } from '@knowing/walk';
import { editFile } from './edit-journal.js';

const PACKAGES = fileURLToPath(new URL('../../packages', import.meta.url));

/** Repositories of a corpus: the named ones (checked to exist) or every non-dot directory, sorted. */
export function listRepos(corpus: string, repos: readonly string[] | undefined): string[] {
  if (!existsSync(corpus)) throw new Error(`corpus ${corpus} does not exist`);
  if (repos) {
    for (const repo of repos) if (!existsSync(join(corpus, repo))) throw new Error(`${join(corpus, repo)} does not exist`);
    return [...repos];
  }
  // Dot-directories are scratch space (other tools' caches), not repositories.
  return readdirSync(corpus)
    .filter((name) => !name.startsWith('.') && statSync(join(corpus, name)).isDirectory())
    .sort();
}

/**
 * A benchmark's corpus (relative to the folder pnpm was called from) and its repositories, as
 * {@link listRepos} reads them; a corpus or repository that does not exist is a usage error:
 * its message and `usage` on stderr, exit 2.
 */
export function corpusReposOrExit(corpus: string, repos: string | undefined, usage: string): { corpus: string; repos: string[] } {
  const root = resolve(process.env.INIT_CWD ?? process.cwd(), corpus);
  try {
    return { corpus: root, repos: listRepos(root, repos?.split(',').filter(Boolean)) };
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}\n`);
    process.exit(2);
  }
}

export function headCommit(dir: string): string | null {
  try {
    const head = readFileSync(join(dir, '.git', 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    const ref = /^ref:\s*(.+)$/.exec(head)?.[1];
    return ref ? readFileSync(join(dir, '.git', ref), 'utf8').trim() : null;
  } catch {
    return null;
  }
}

/** Size in MB of a SQLite database with its write-ahead log. */
export function databaseMb(dbPath: string): number {
  const size = (p: string): number => (existsSync(p) ? statSync(p).size : 0);
  return (size(dbPath) + size(`${dbPath}-wal`)) / 1e6;
}

export type IndexerModule = typeof import('@knowing/indexer');

/** packages/indexer/dist/index.js, or an error saying how to build it (worker.js must be there too). */
export function builtIndexerDist(packages = PACKAGES): string {
  const dist = join(packages, 'indexer/dist/index.js');
  for (const file of [dist, join(packages, 'indexer/dist/worker.js')]) {
    if (!existsSync(file)) throw new Error(`${file} is missing — build the indexer first: \`pnpm --filter @knowing/indexer build\` (in ${dirname(packages)})`);
  }
  return dist;
}

/**
 * The built indexer (packages/indexer/dist), which parses in worker threads; from sources the
 * workers cannot start (they need dist/worker.js) and parsing runs in the calling thread.
 */
export async function loadBuiltIndexer(): Promise<IndexerModule> {
  return (await import(pathToFileURL(builtIndexerDist()).href)) as IndexerModule;
}

/** The `knowing` CLI's bin file (packages/cli/dist/bin.cjs), or an error saying how to build it. */
export function builtCliBin(packages = PACKAGES): string {
  const bin = join(packages, 'cli/dist/bin.cjs');
  if (!existsSync(bin)) throw new Error(`${bin} is missing — build the CLI and its dependencies first: \`pnpm --filter knowing... build\` (in ${dirname(packages)})`);
  return bin;
}

/** Source files newer than the package's dist/ — the build is stale, the figures may not be this tree's. */
export function staleBuilds(packages: readonly string[]): string[] {
  const newest = (dir: string): number => {
    let max = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      max = Math.max(max, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
    }
    return max;
  };
  const stale: string[] = [];
  for (const name of packages) {
    const src = join(PACKAGES, name, 'src');
    const dist = join(PACKAGES, name, 'dist');
    if (existsSync(src) && existsSync(dist) && newest(src) > newest(dist)) stale.push(name);
  }
  return stale;
}

/** A mid-sized source file the index holds: deterministic, typical of the repository. */
export async function pickFile(store: SqliteGraphStore): Promise<string | null> {
  return (await filesFromMiddle(store))[0] ?? null;
}

/** The indexed files without syntax errors, the median by size first, then outwards from it (smaller, larger, smaller, …). */
export async function filesFromMiddle(store: SqliteGraphStore): Promise<string[]> {
  const files = (await store.listFiles()).filter((f) => f.syntaxErrors === 0).sort((a, b) => a.sizeBytes - b.sizeBytes || (a.path < b.path ? -1 : 1));
  const middle = Math.floor(files.length / 2);
  const order: string[] = [];
  for (let step = 0; order.length < files.length; step++) {
    const below = middle - step;
    const above = middle + step;
    if (step > 0 && below >= 0) order.push(files[below]!.path);
    if (above < files.length) order.push(files[above]!.path);
  }
  return order;
}

const COMMENT_BY_EXTENSION: Record<string, string> = { '.py': '#', '.pyi': '#', '.rb': '#' };

/** A line that changes a source file without changing its symbols: a comment in its language. */
export function editComment(path: string, tag: string): string {
  const marker = COMMENT_BY_EXTENSION[path.slice(path.lastIndexOf('.'))] ?? '//';
  return `\n${marker} knowing benchmark edit ${tag}\n`;
}

export interface TimedRun {
  readonly ms: number;
  readonly summary: IndexSummary;
}

export interface IndexingFigures {
  readonly full: IndexSummary;
  readonly fullMs: number;
  /** Peak RSS of this process before indexing (modules loaded, nothing indexed). */
  readonly baselineRssMb: number;
  /** Peak RSS of this process right after the full index (nothing else ran before it). */
  readonly fullPeakRssMb: number;
  /** Database and WAL size right after the full index. */
  readonly dbMb: number;
  readonly noChange: TimedRun;
  /** Repo-relative path of the file edited for the one-file re-index, or null if there was none. */
  readonly touchedFile: string | null;
  /** One run per edit cycle, in order: the first runs cold code paths. */
  readonly oneFile: readonly TimedRun[];
  /** Peak RSS of this process after every indexing run. */
  readonly peakRssMb: number;
}

export interface IndexingOptions {
  readonly indexRepository: IndexerModule['indexRepository'];
  readonly root: string;
  readonly store: SqliteGraphStore;
  readonly dbPath: string;
  /** Journal of the edit in progress (see edit-journal.ts). */
  readonly journal: string;
  readonly edits: number;
  readonly workers?: number | undefined;
  readonly languages?: readonly string[] | undefined;
}

const peakRssMb = (): number => process.resourceUsage().maxRSS / 1024;

/**
 * A full index into the (fresh) store, a re-index with nothing changed, then `edits` cycles
 * of: append a comment to one mid-sized file, re-index (timed), restore it, re-index.
 */
export async function measureIndexing(o: IndexingOptions): Promise<IndexingFigures> {
  const options: IndexOptions = {
    root: o.root,
    store: o.store,
    ...(o.workers !== undefined ? { workers: o.workers } : {}),
    ...(o.languages ? { languages: [...o.languages] } : {}),
  };
  const baselineRssMb = peakRssMb();
  let started = performance.now();
  const full = await o.indexRepository(options);
  const fullMs = performance.now() - started;
  const fullPeakRssMb = peakRssMb();
  const dbMb = databaseMb(o.dbPath);

  started = performance.now();
  const again = await o.indexRepository(options);
  const noChange = { ms: performance.now() - started, summary: again };

  const touchedFile = await pickFile(o.store);
  const oneFile: TimedRun[] = [];
  if (touchedFile) {
    for (let cycle = 0; cycle < o.edits; cycle++) {
      const edit = editFile(join(o.root, touchedFile), editComment(touchedFile, `in-process ${cycle}`), o.journal);
      try {
        started = performance.now();
        const summary = await o.indexRepository(options);
        oneFile.push({ ms: performance.now() - started, summary });
      } finally {
        edit.restore();
      }
      await o.indexRepository(options);
    }
  }
  return { full, fullMs, baselineRssMb, fullPeakRssMb, dbMb, noChange, touchedFile, oneFile, peakRssMb: peakRssMb() };
}

export interface AdjacencyFigures {
  /** Building the adjacency from the store's edges (its note deleted first). */
  readonly buildMs: number;
  readonly buildSource: string;
  /** Loading it again from the note the build left. */
  readonly loadMs: number;
  readonly loadSource: string;
}

/** Adjacency build time (from the store) and load time (from its note), on a store no engine uses yet. */
export async function measureAdjacency(store: SqliteGraphStore): Promise<AdjacencyFigures> {
  const snapshot = await store.currentSnapshot();
  const options = { notes: store, snapshotId: snapshot?.id ?? null };
  forgetAdjacency(store);
  await store.deleteNote('adjacency');
  let started = performance.now();
  const built = await loadAdjacency(store, options);
  const buildMs = performance.now() - started;
  forgetAdjacency(store);
  started = performance.now();
  const loaded = await loadAdjacency(store, options);
  const loadMs = performance.now() - started;
  return { buildMs, buildSource: built.source, loadMs, loadSource: loaded.source };
}

export interface ForTaskTimes {
  /** The pipeline runs (answer cache bypassed; adjacency already loaded). */
  readonly cold: number[];
  /** The same task again, answered from the answer cache. */
  readonly warm: number[];
}

/** forTask latency per task, cold then warm; `onAnswer` sees each cold answer (e.g. to count tokens). */
export async function measureForTask(
  engine: Engine,
  tasks: readonly string[],
  budget: number,
  onAnswer?: (task: string, answer: ContextResult) => void,
): Promise<ForTaskTimes> {
  const cold: number[] = [];
  const warm: number[] = [];
  for (const task of tasks) {
    let started = performance.now();
    const answer = await engine.forTask(task, { budget, fresh: true });
    cold.push(performance.now() - started);
    await engine.forTask(task, { budget }); // fills the answer cache
    started = performance.now();
    await engine.forTask(task, { budget });
    warm.push(performance.now() - started);
    onAnswer?.(task, answer);
  }
  return { cold, warm };
}

export interface ProcessRun {
  readonly ms: number;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node <args>` as a fresh process (no inherited --import/--conditions) and measures its
 * wall time from spawn to exit, stdout and stderr piped.
 */
export function timeNode(args: readonly string[], options: { cwd?: string; keepStdout?: boolean } = {}): Promise<ProcessRun> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...args], { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (options.keepStdout) out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const ms = performance.now() - started;
      resolvePromise({
        ms,
        code,
        signal,
        stdout: options.keepStdout ? Buffer.concat(out).toString('utf8') : `${outBytes} bytes`,
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

/** Like timeNode, but a non-zero exit is an error that shows the command and its stderr. */
export async function timeNodeOk(args: readonly string[], options: { cwd?: string; keepStdout?: boolean } = {}): Promise<ProcessRun> {
  const run = await timeNode(args, options);
  if (run.code !== 0) {
    throw new Error(`\`node ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}\` exited with ${run.code ?? run.signal}:\n${run.stderr.trim()}`);
  }
  return run;
}

/**
 * Runs `script` again in a child process for one repository (`--child <repo>` appended) and
 * resolves with what the child sends over IPC. Each repository in its own process keeps peak
 * RSS that repository's own. `afterExit` runs however the child ended (cleanup).
 */
export function runRepoInChild<T>(script: string, argv: readonly string[], repo: string, afterExit?: () => void): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const child = fork(script, [...argv, '--child', repo], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: T | undefined;
    let failure: string | undefined;
    // Ctrl-C reaches the child too (same process group); it restores its edit and exits, and
    // this process waits for that instead of dying first.
    const onSignal = (signal: NodeJS.Signals): void => {
      failure = `interrupted (${signal})`;
      child.kill(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    child.on('message', (message: { ok: true; result: T } | { ok: false; error: string }) => {
      if (message.ok) result = message.result;
      else failure = message.error;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      afterExit?.();
      if (failure) reject(new Error(`${repo}: ${failure}`));
      else if (result !== undefined) resolvePromise(result);
      else reject(new Error(`${repo}: benchmark process exited with ${code ?? signal} before sending its figures`));
    });
  });
}

/** The child side of runRepoInChild: sends the figures (or the error) to the parent, then exits. */
export async function reportToParent<T>(work: () => Promise<T>): Promise<void> {
  let message: { ok: true; result: T } | { ok: false; error: string };
  try {
    message = { ok: true, result: await work() };
  } catch (error) {
    message = { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  // Exit once the message is out: nothing the indexer or engine left behind may keep us alive.
  process.send!(message, () => process.exit(message.ok ? 0 : 1));
}
