import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { watch as watchFiles } from 'chokidar';
import type { FSWatcher } from 'chokidar';
import { DEFAULT_SKIP_DIRECTORIES, warmParsers } from '@knowing/indexer';
import { createSqliteStore } from '@knowing/store-sqlite';
import type { IndexSummary } from '@knowing/indexer';
import { booleanValue, positiveInteger, stringValue } from '../args.js';
import { createChangeBatcher } from '../change-batcher.js';
import type { ChangeBatcher } from '../change-batcher.js';
import type { CommandContext } from '../command.js';
import { CliError, ExitCode, toFailure, usageError } from '../errors.js';
import type { Output } from '../io.js';
import { serveAnswers } from '../answer-server.js';
import type { AnswerServer } from '../answer-server.js';
import { createRefresher, refreshSettings, describeRefresh } from '../refresh.js';
import type { RefreshSettings } from '../refresh.js';
import { INDEX_DIRECTORY, displayPath, existingDirectory, refuseBroadRoot, resolveRepoRoot } from '../repo.js';
import { locate } from '../session.js';
import type { Location } from '../session.js';
import { formatMs, plural } from '../text.js';

/** Quiet time after the last file event before the batch is indexed. */
const DEFAULT_DEBOUNCE_MS = 300;
/** Under a steady stream of events, index at least this often. */
const MAX_WAIT_FACTOR = 10;
/** How many changed paths a batch line names before "+N more". */
const NAMED_PATHS = 3;
/**
 * What the watcher asks itself once it serves (see {@link warmUp}): words found in most code
 * bases, so that every stage of an answer runs.
 */
const REHEARSAL_TASK = 'handle the error when reading the file fails, and test it';
/** Answers the watcher gives itself: the engine's code runs at full speed only after the second. */
const REHEARSALS = 2;

/**
 * Names of files that editors write beside the real one and remove again (swap files, backups,
 * lock files, vim's write test): they never hold code, and an editor writes them on every
 * keystroke pause. An atomic save (write a temporary file, rename it over the original) is seen
 * through its final rename, which names the real file.
 */
const EDITOR_NOISE = [/\.sw[a-p]x?$/, /~$/, /^\.#/, /^#.*#$/, /^4913$/, /\.(?:tmp|temp|bak|orig)$/i, /^\.DS_Store$/, /^Thumbs\.db$/i];

/** The git directory of a working tree (`.git`, or where a worktree's `.git` file points). */
function gitDirectoryOf(root: string): string | undefined {
  const dotGit = join(root, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    return pointer ? resolve(root, pointer) : undefined;
  } catch {
    return undefined;
  }
}

function delayValue(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = positiveInteger(raw, '--debounce');
  if (value !== undefined && value > 60_000) throw usageError(`--debounce ${raw} is longer than a minute`, 'use a few hundred milliseconds, e.g. --debounce 500');
  return value;
}

function workersValue(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim())) throw usageError(`--workers must be a whole number ≥ 0, got "${raw}"`, 'for example --workers 2, or 0 to parse in the main thread');
  return Number(raw.trim());
}

function clock(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function namedPaths(paths: readonly string[]): string {
  const shown = paths.slice(0, NAMED_PATHS).join(', ');
  return paths.length > NAMED_PATHS ? `${shown}, +${paths.length - NAMED_PATHS} more` : shown;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** What a watch run says: lines for a person on stderr, or one JSON event a line on stdout. */
interface WatchReport {
  readonly say: (text: string) => void;
  readonly event: (value: Record<string, unknown>) => void;
}

function watchReport(ctx: CommandContext): WatchReport {
  const { out } = ctx;
  const human = !out.quiet && !out.json;
  return {
    say: (text) => {
      if (human) ctx.io.stderr.write(`knowing: ${text}\n`);
    },
    event: (value) => {
      if (out.json) ctx.io.stdout.write(`${JSON.stringify(value)}\n`);
    },
  };
}

interface WatchSetup {
  readonly root: string;
  readonly location: Location;
  readonly settings: RefreshSettings;
  readonly debounceMs: number;
  readonly poll: boolean;
}

async function watchSetup(ctx: CommandContext): Promise<WatchSetup> {
  const path = ctx.positionals[0];
  const root = path !== undefined ? existingDirectory(path, ctx.cwd, 'repository') : resolveRepoRoot(ctx.repo, ctx.cwd);
  refuseBroadRoot(root, booleanValue(ctx.values, 'force'));
  const location = await locate(ctx, root);
  const settings = refreshSettings(ctx, location, workersValue(stringValue(ctx.values, 'workers')));
  const debounceMs = delayValue(stringValue(ctx.values, 'debounce')) ?? DEFAULT_DEBOUNCE_MS;
  return { root, location, settings, debounceMs, poll: booleanValue(ctx.values, 'poll') };
}

/** Which paths the watch leaves alone, kept in step with what the index run skips. */
interface WatchFilter {
  /** Paths the watcher neither descends into nor reports. */
  readonly ignored: (absolute: string) => boolean;
  /** Follow the index's view of skipped directories: stop watching new ones, watch again freed ones. */
  readonly followSkipped: (summary: IndexSummary, watcher: FSWatcher) => void;
}

function createWatchFilter(root: string, dbPath: string): WatchFilter {
  const dbFiles = new Set(['', '-wal', '-shm', '-journal'].map((suffix) => `${dbPath}${suffix}`));
  const indexDirectory = join(root, INDEX_DIRECTORY);
  const skipNames = new Set(DEFAULT_SKIP_DIRECTORIES);
  /**
   * Directories the last index run skipped (ignored by .gitignore or .knowingignore, dot
   * directories, node_modules and the like), repo-relative: their changes cannot change the
   * index, and not watching them spares the system's watch handles.
   */
  let skippedDirectories = new Set<string>();

  const ignored = (absolute: string): boolean => {
    if (dbFiles.has(absolute)) return true;
    const rel = relative(root, absolute);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
    if (absolute === indexDirectory || absolute.startsWith(indexDirectory + sep)) return true;
    const segments = rel.split(sep);
    if (segments.some((segment) => skipNames.has(segment))) return true;
    let prefix = '';
    for (const segment of segments) {
      prefix = prefix === '' ? segment : `${prefix}/${segment}`;
      if (skippedDirectories.has(prefix)) return true;
    }
    const name = basename(absolute);
    return EDITOR_NOISE.some((pattern) => pattern.test(name));
  };

  const followSkipped = (summary: IndexSummary, watcher: FSWatcher): void => {
    const next = new Set(
      summary.skipped.filter((s) => s.path.endsWith('/') && (s.reason === 'ignored' || s.reason === 'skipped_directory')).map((s) => s.path.slice(0, -1)),
    );
    const toAbsolute = (dir: string): string => join(root, ...dir.split('/'));
    const freed = [...skippedDirectories].filter((dir) => !next.has(dir));
    const added = [...next].filter((dir) => !skippedDirectories.has(dir));
    skippedDirectories = next;
    if (added.length > 0) watcher.unwatch(added.map(toAbsolute));
    if (freed.length > 0) watcher.add(freed.map(toAbsolute));
  };

  return { ignored, followSkipped };
}

/**
 * The batcher's handler: index, then report the batch. A failed batch (the database locked by
 * another writer, say) is handed to `retry` once; after that, the next change tries again.
 */
function batchHandler(
  ctx: CommandContext,
  report: WatchReport,
  indexOnce: (paths: readonly string[]) => Promise<IndexSummary>,
  retry: (paths: readonly string[]) => void,
): (paths: readonly string[]) => Promise<void> {
  const { out } = ctx;
  const signal = ctx.io.signal;
  let retried = false;
  return async (paths) => {
    const started = ctx.now();
    try {
      const summary = await indexOnce(paths);
      retried = false;
      const ms = ctx.now() - started;
      report.say(`${clock(started)}  ${plural(paths.length, 'change')} (${namedPaths(paths)}) → ${describeRefresh(summary)} (${formatMs(ms)})`);
      for (const warning of summary.warnings.slice(0, 3)) out.warn(warning);
      report.event({
        event: 'batch',
        changed: paths,
        parsed: summary.files.parsed,
        deleted: summary.files.deleted,
        files: summary.files.discovered,
        nodes: summary.nodes,
        edges: summary.edges,
        ms,
      });
    } catch (error) {
      if (isAbortError(error) || signal?.aborted) return;
      const failure = toFailure(error);
      out.warn(`indexing ${plural(paths.length, 'change')} failed: ${failure.message}${retried ? '; the next change tries again' : '; trying again shortly'}`);
      report.event({ event: 'error', changed: paths, code: failure.code, message: failure.message });
      if (!retried) {
        retried = true;
        retry(paths);
      }
    }
  };
}

/** Watch the tree and hand every change the filter lets through to the batcher, repo-relative. */
function watchTree(
  root: string,
  setup: Pick<WatchSetup, 'debounceMs' | 'poll'>,
  ignored: WatchFilter['ignored'],
  batcher: ChangeBatcher,
  out: Output,
): { readonly watcher: FSWatcher; readonly ready: Promise<void> } {
  const { debounceMs, poll } = setup;
  const watcher: FSWatcher = watchFiles(root, {
    ignored,
    ignoreInitial: true,
    followSymlinks: false,
    usePolling: poll,
    ...(poll ? { interval: Math.max(100, debounceMs) } : {}),
  });
  const ready = new Promise<void>((resolveReady) => watcher.once('ready', () => resolveReady()));
  let watchErrors = 0;
  watcher.on('all', (kind, absolute) => {
    // Checked again here: a directory skipped since it was taken into the watch still reports
    // its files' changes through their own watchers.
    if (ignored(absolute)) return;
    const rel = relative(root, absolute).split(sep).join('/');
    if (rel === '') return;
    // A new directory counts too: the events of files written into it while it was being
    // taken into the watch can be lost, and the index run walks it anyway.
    batcher.add(kind === 'addDir' || kind === 'unlinkDir' ? `${rel}/` : rel);
  });
  watcher.on('error', (error) => {
    // Reported once: an exhausted inotify limit repeats for every directory.
    if (watchErrors++ > 0) return;
    const code = (error as { code?: string }).code;
    const hint =
      code === 'ENOSPC' || code === 'EMFILE'
        ? 'the system limit on watched files is reached: raise it (Linux: sysctl fs.inotify.max_user_watches=524288) or run `knowing watch --poll`'
        : 'changes there may be missed; `knowing watch --poll` watches by polling instead';
    out.warn(`watching files failed: ${(error as Error).message ?? String(error)} — ${hint}`);
  });
  return { watcher, ready };
}

/** The first index run, once the watcher is ready too; an interrupt before it ends is an interrupt of the command. */
async function firstIndex(indexOnce: () => Promise<IndexSummary>, ready: Promise<void>, signal: AbortSignal | undefined): Promise<IndexSummary> {
  try {
    const [first] = await Promise.all([indexOnce(), ready]);
    return first;
  } catch (error) {
    if (isAbortError(error) || signal?.aborted) {
      throw new CliError(ExitCode.Interrupted, 'INTERRUPTED', 'interrupted before the first index was written; the index was left as it was');
    }
    throw error;
  }
}

function announceReady(ctx: CommandContext, report: WatchReport, setup: WatchSetup, first: IndexSummary, ms: number, answers: AnswerServer | undefined): void {
  const { root, location } = setup;
  report.say(
    `watching ${displayPath(root, ctx.cwd)} (index ${displayPath(location.dbPath, ctx.cwd)}: ${plural(first.files.discovered, 'file')}, ` +
      `${plural(first.nodes, 'symbol')}, brought up to date in ${formatMs(ms)}); one line per batch of changes — Ctrl-C to stop`,
  );
  if (answers) report.say(`answering \`knowing context\` for this repository at ${displayPath(answers.path, ctx.cwd)}`);
  report.event({
    event: 'ready',
    root,
    database: location.dbPath,
    files: first.files.discovered,
    nodes: first.nodes,
    edges: first.edges,
    parsed: first.files.parsed,
    ms,
    ...(answers ? { socket: answers.path } : {}),
  });
}

/**
 * Ready the watcher for the first edit and the first answer, once it serves and before it says
 * it is ready: a process pays once for compiling the grammars and for running the parser, the
 * engine and the formatter cold — more than the edit's own re-index and answer. It parses a file of each
 * language (nothing is written) and answers a query to itself (nothing printed or cached, no
 * index run). Failures are ignored: they cost only speed.
 */
async function warmUp(ctx: CommandContext, setup: WatchSetup): Promise<void> {
  const { root, location, settings } = setup;
  const store = await createSqliteStore({ path: location.dbPath, readonly: true });
  try {
    await warmParsers({ root, store, ...(settings.languages ? { languages: settings.languages } : {}), ...(ctx.io.signal ? { signal: ctx.io.signal } : {}) });
  } finally {
    await store.close();
  }
  const { run } = await import('../run.js');
  const sink = { write: (): boolean => true };
  const argv = ['context', '--task', REHEARSAL_TASK, '--repo', root, '--db', location.dbPath, '--fresh', '--no-refresh', '--quiet'];
  if (ctx.config !== undefined) argv.push('--config', ctx.config);
  for (let i = 0; i < REHEARSALS && !ctx.io.signal?.aborted; i++) {
    await run(argv, { stdout: sink, stderr: sink, cwd: ctx.cwd, env: {} });
  }
}

async function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  if (signal) {
    await new Promise<void>((resolveStop) => {
      if (signal.aborted) resolveStop();
      else signal.addEventListener('abort', () => resolveStop(), { once: true });
    });
  } else {
    await new Promise<never>(() => {}); // no way to stop it but ending the process
  }
}

export async function runWatch(ctx: CommandContext): Promise<ExitCode> {
  const setup = await watchSetup(ctx);
  const { root, location, settings, debounceMs } = setup;
  const signal = ctx.io.signal;
  const report = watchReport(ctx);
  const filter = createWatchFilter(root, location.dbPath);
  const gitDirectory = gitDirectoryOf(root);
  const gitLock = gitDirectory ? join(gitDirectory, 'index.lock') : undefined;

  let runs = 0;
  const refresher = createRefresher(settings);
  // The first run also prepares the walk's adjacency when nothing changed (a fresh index from
  // an older knowing may lack it), as `knowing index` does. A batch names what changed: edits
  // of indexed files are then looked at alone, without walking the tree (an answer's freshness
  // check still walks, and catches what the events missed).
  const indexOnce = async (changedPaths?: readonly string[]): Promise<IndexSummary> => {
    const summary = await refresher.run({ ...(signal ? { signal } : {}), warm: runs++ === 0, ...(changedPaths ? { changedPaths } : {}) });
    // Without a walk the summary names no skipped directory: the watch stays as it is.
    if (summary.walked) filter.followSkipped(summary, watcher);
    return summary;
  };

  const batcher = createChangeBatcher({
    debounceMs,
    maxWaitMs: debounceMs * MAX_WAIT_FACTOR,
    // git writes index.lock for the length of a checkout, merge or rebase step: wait for it, so
    // that a branch switch is indexed once, with every file in place.
    busy: gitLock ? () => existsSync(gitLock) : undefined,
    handle: batchHandler(ctx, report, indexOnce, (paths) => {
      for (const p of paths) batcher.add(p);
    }),
    now: ctx.now,
  });

  // Watch first, then index: a change made during the first run is not lost.
  const { watcher, ready } = watchTree(root, setup, filter.ignored, batcher, ctx.out);

  let answers: AnswerServer | undefined;
  const finish = async (): Promise<void> => {
    await answers?.close();
    await batcher.close();
    await refresher.close();
    await watcher.close();
  };

  try {
    const started = ctx.now();
    const first = await firstIndex(indexOnce, ready, signal);
    const ms = ctx.now() - started;
    // From now on `knowing context` in this repository is answered here (see answer-socket.ts).
    answers = await serveAnswers(root, { writer: { dbPath: location.dbPath, exclusive: (work) => batcher.exclusive(work) } });
    // Ready means ready to answer at full speed: warmed before it says so, so that the first
    // edit and answer do not run beside the warm-up, which would slow all three.
    if (answers) await warmUp(ctx, setup).catch(() => {});
    announceReady(ctx, report, setup, first, ms, answers);
    await untilStopped(signal);
  } catch (error) {
    await finish();
    throw error;
  }
  // Ctrl-C: an index run in flight stops before its write, so the index stays as the last
  // finished batch left it.
  await finish();
  report.say('stopped; the index is complete and up to date with the last batch');
  report.event({ event: 'stopped' });
  return ExitCode.Interrupted;
}
