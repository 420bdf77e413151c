/**
 * Peer benchmark: knowing against codegraph (npm `@colbymchenry/codegraph`, pinned to 1.6.1)
 * on the same checkouts, both run as a user runs them: one CLI process per command.
 *
 *   pnpm bench:peers --corpus <dir> [--repos flask,caddy] [--runs 3] [--scratch <dir>] [--task "…"] [--watch]
 *                    [--baseline <another build's bin.cjs, or its dist folder>] [--json]
 *
 * codegraph is installed into <scratch>/codegraph-1.6.1 (`npm install --prefix … --no-save`;
 * reused when already there; never a dependency of any package). Each repository is copied
 * once to <scratch>/work-XXXXXX/copies/<repo> without its .knowing/ and .codegraph/ (the corpus
 * is never written; the folder goes when the run ends), and both tools run on that copy. Then, run by run, alternating knowing and
 * codegraph (k, c, k, c, …) at every step:
 *   start   `--version`: process start alone;
 *   full    a full index from nothing (knowing: a new database, `index --full`; codegraph: its
 *           .codegraph/ removed, `init -y`): wall time, CPU time, peak RSS of the process tree;
 *   change  a comment line appended to one mid-sized source file, then the tool's update and a
 *           query (knowing: `context`, which re-indexes the changed file itself; codegraph:
 *           `sync`, then `context`); the file is restored afterwards (even on Ctrl-C) and the
 *           index brought back up to date, untimed;
 *   query   the same task on the up-to-date index (knowing: `context --no-refresh`; codegraph:
 *           `context`), process start included.
 * knowing's commands answer in their own process (`--no-watcher`) and never from its answer
 * cache (`--fresh`). With --watch, a third column set measures change and query again with a
 * `knowing watch` running for the copy (started untimed, asked once before the timed runs),
 * which answers the same commands; codegraph's daemon stays off (CODEGRAPH_NO_DAEMON).
 * With --baseline, another build of knowing's CLI (say the main branch's, copied aside before a
 * change) runs every figure too, in the same alternation and on its own index, and a second
 * table gives the ratios knowing/baseline: a change's effect with the noise of one run, where
 * two runs minutes apart differ by more than a small change does.
 * Peak RSS is the largest sum, over a command's process and its descendants, of their RSS,
 * sampled every 20 ms from /proc (codegraph's npm launcher starts its bundled Node, which starts
 * a watchdog process; knowing's parser threads are in its one process). CPU time comes from
 * /usr/bin/time when it is there. Prints one table per repository (medians, nearest rank: the
 * lower of two) with the ratio knowing/codegraph; --json prints every sample instead.
 *
 * Needs Linux (/proc), npm, and the built CLI: `pnpm build` in the repository root.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { editFile, journalFor, restoreOnExit } from './edit-journal.js';
import {
  CODEGRAPH_PACKAGE,
  CODEGRAPH_VERSION,
  codegraphIndexed,
  codegraphSynced,
  comparisonTable,
  failureLine,
  knowingFromCache,
  knowingIndexed,
  knowingReindexed,
  parseChildren,
  parsePeersArgs,
  parseStatParent,
  parseTimeUsage,
  parseVmRssKb,
  taskFor,
} from './peers-lib.js';
import type { Cell, IndexFacts, PeersArgs, RowSpec, Sample } from './peers-lib.js';
import { UsageError } from './perf-lib.js';
import { editComment, listRepos, staleBuilds } from './perf-measure.js';
import { copyCheckout, pickEditTarget, watchSession } from './watch-session.js';
import type { ToolSession } from './watch-session.js';

const CLI_BIN = fileURLToPath(new URL('../../packages/cli/dist/bin.cjs', import.meta.url));
const TIME_BIN = '/usr/bin/time';
const SAMPLE_EVERY_MS = 20;
/** Token budget of every knowing answer. codegraph's `context` has no budget; it prints its default answer. */
const BUDGET = 5000;

type Figure = 'start' | 'full' | 'change' | 'query';
const FIGURES: readonly Figure[] = ['start', 'full', 'change', 'query'];

/** One command line. */
interface Invocation {
  readonly command: string;
  readonly args: readonly string[];
}

/** What one process did, as measured from outside. */
interface ProcessRun {
  readonly ms: number;
  readonly cpuMs: number | null;
  readonly systemMs: number | null;
  readonly minorFaults: number | null;
  /** Peak of the summed RSS of the process and its descendants. */
  readonly peakRssKb: number;
  /** Peak RSS of the largest single process among them. */
  readonly peakLargestKb: number;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * A tool under test, as command lines for each step on one copy. `facts` and `notes` read the
 * tool's own output: what it indexed, and whether a step did what it must (a warning when not).
 */
interface PeerTool {
  readonly name: string;
  readonly version: string;
  readonly env: NodeJS.ProcessEnv;
  /** Removes the tool's index of the copy, so the next full index starts from nothing. */
  clean(): void;
  steps(figure: Figure, task: string): readonly Invocation[];
  /** Brings the index back up to date after the edit was undone (untimed). */
  resync(): readonly Invocation[];
  facts(full: readonly ProcessRun[]): IndexFacts | null;
  notes(figure: Figure, runs: readonly ProcessRun[]): string[];
  /** The figures this tool is measured on; all when unset. */
  readonly figures?: readonly Figure[];
  /** A process the tool keeps running while its figures are measured (started untimed). */
  readonly session?: ToolSession;
}

// ---------------------------------------------------------------- processes

const procChildrenFiles = existsSync(`/proc/self/task/${process.pid}/children`);

/** Child pids of `pid`: from /proc/<pid>/task/<tid>/children, or a scan of every /proc/<n>/stat where the kernel has no such file. */
function childrenOf(pid: number): number[] {
  try {
    if (procChildrenFiles) return readdirSync(`/proc/${pid}/task`).flatMap((tid) => parseChildren(readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8')));
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((name) => {
        try {
          return parseStatParent(readFileSync(`/proc/${name}/stat`, 'utf8')) === pid;
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return []; // the process is gone
  }
}

function rssKb(pid: number): number {
  try {
    return parseVmRssKb(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return 0;
  }
}

/**
 * RSS of `root`'s descendants, and of `root` itself unless it is only a wrapper (/usr/bin/time):
 * their sum, and the largest one.
 */
function treeRssKb(root: number, includeRoot: boolean): { total: number; largest: number } {
  const first = includeRoot ? rssKb(root) : 0;
  let total = first;
  let largest = first;
  const pending = childrenOf(root);
  const seen = new Set<number>([root]);
  while (pending.length > 0) {
    const pid = pending.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const rss = rssKb(pid);
    total += rss;
    largest = Math.max(largest, rss);
    pending.push(...childrenOf(pid));
  }
  return { total, largest };
}

/**
 * Runs one command to its end with stdio piped, measuring wall time (spawn to exit), peak RSS
 * of its process tree (sampled every 20 ms) and, through /usr/bin/time when present, the CPU
 * time of the processes it waited for.
 */
function runMeasured(inv: Invocation, cwd: string, env: NodeJS.ProcessEnv, timeFile: string): Promise<ProcessRun> {
  const timed = existsSync(TIME_BIN);
  if (timed) writeFileSync(timeFile, '');
  const [command, args] = timed ? [TIME_BIN, ['-f', '%U %S %R', '-o', timeFile, inv.command, ...inv.args]] : [inv.command, [...inv.args]];
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let peakRssKb = 0;
    let peakLargestKb = 0;
    const sample = (): void => {
      if (child.pid === undefined) return;
      const rss = treeRssKb(child.pid, !timed);
      peakRssKb = Math.max(peakRssKb, rss.total);
      peakLargestKb = Math.max(peakLargestKb, rss.largest);
    };
    sample();
    const sampler = setInterval(sample, SAMPLE_EVERY_MS);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearInterval(sampler);
      reject(error);
    });
    child.on('close', (code, signal) => {
      const ms = performance.now() - started;
      clearInterval(sampler);
      const usage = timed ? parseTimeUsage(readFileSync(timeFile, 'utf8')) : null;
      resolvePromise({
        ms,
        cpuMs: usage?.cpuMs ?? null,
        systemMs: usage?.systemMs ?? null,
        minorFaults: usage?.minorFaults ?? null,
        peakRssKb,
        peakLargestKb,
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

function shown(inv: Invocation): string {
  return [inv.command, ...inv.args].map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(' ');
}

/** Runs the command lines one after the other; a non-zero exit is an error naming the command and what it printed. */
async function runAll(invocations: readonly Invocation[], cwd: string, env: NodeJS.ProcessEnv, timeFile: string): Promise<ProcessRun[]> {
  const runs: ProcessRun[] = [];
  for (const inv of invocations) {
    const run = await runMeasured(inv, cwd, env, timeFile);
    if (run.code !== 0) {
      const output = `${run.stdout}\n${run.stderr}`;
      const said = output.trim().split('\n').slice(-12).join('\n');
      // First line: what the tool said went wrong (it goes into the table cell); then the command and its output.
      throw new Error(`exit ${run.code ?? run.signal}: ${failureLine(output)}\n\`${shown(inv)}\` printed:\n${said}`);
    }
    runs.push(run);
  }
  return runs;
}

// ---------------------------------------------------------------- the two tools

/** The built knowing CLI, or an error saying how to build it. */
function knowingBin(): string {
  if (!existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing — build knowing first: \`pnpm build\` in the repository root`);
  return CLI_BIN;
}

/**
 * knowing's command lines. Plain, every command answers in its own process (`--no-watcher`);
 * `watched`, a `knowing watch` runs for the copy and the same `context` commands are answered
 * by it — only the change and query figures, on the plain tool's index.
 */
function knowingTool(bin: string, root: string, dbPath: string, watched = false, name = watched ? WATCHED : 'knowing'): PeerTool {
  const node = (...args: string[]): Invocation => ({ command: process.execPath, args: [bin, ...args] });
  const where = ['--repo', root, '--db', dbPath, ...(watched ? [] : ['--no-watcher'])];
  // NODE_OPTIONS cleared: the benchmark's own --import/--conditions must not reach the CLI.
  const env = { ...process.env, NODE_OPTIONS: '' };
  const version = spawnSync(process.execPath, [bin, '--version'], { env, encoding: 'utf8' }).stdout.trim();
  return {
    name,
    version,
    env,
    ...(watched ? { figures: ['change', 'query'] as const, session: watchSession(bin, root, dbPath, env, BUDGET) } : {}),
    clean: () => {
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${dbPath}${suffix}`, { force: true });
    },
    steps: (figure, task) => {
      switch (figure) {
        case 'start':
          return [node('--version')];
        case 'full':
          return [node('index', root, '--full', '--db', dbPath, '-q', '--json')];
        // Without -q: the note on stderr says what was re-indexed, and whether the answer was cached.
        // --fresh: both knowing tools ask the same question, and answers are cached in the index.
        case 'change':
          return [node('context', '--task', task, ...where, '--budget', String(BUDGET), '--fresh')];
        case 'query':
          return [node('context', '--task', task, ...where, '--budget', String(BUDGET), '--no-refresh', '--fresh')];
      }
    },
    resync: () => [node('index', root, '--db', dbPath, '-q')],
    facts: (runs) => knowingIndexed(runs.at(-1)?.stdout ?? ''),
    notes: (figure, runs) => {
      const stderr = runs.at(-1)?.stderr ?? '';
      const notes: string[] = [];
      // Through a watcher, its own run may have indexed the edit before the command looked.
      if (figure === 'change' && !watched) {
        const files = knowingReindexed(stderr);
        notes.push(files === 1 ? 're-indexed 1 file' : `warning: context re-indexed ${files ?? 'no'} files, not the 1 edited`);
      }
      if ((figure === 'change' || figure === 'query') && knowingFromCache(stderr)) notes.push('warning: answer from the answer cache');
      if (watched && (figure === 'change' || figure === 'query') && !stderr.includes('answered by the running')) notes.push('warning: not answered by the watcher');
      return notes;
    },
  };
}

const WATCHED = 'knowing (watch)';
const BASELINE = 'knowing (baseline)';

/** codegraph's npm launcher in the scratch install, installing it there first when it is not. */
function ensureCodegraph(scratch: string): string {
  const prefix = join(scratch, `codegraph-${CODEGRAPH_VERSION}`);
  const bin = join(prefix, 'node_modules', '.bin', 'codegraph');
  const manifest = join(prefix, 'node_modules', ...CODEGRAPH_PACKAGE.split('/'), 'package.json');
  const installed = existsSync(bin) && existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version === CODEGRAPH_VERSION;
  if (!installed) {
    mkdirSync(prefix, { recursive: true });
    process.stderr.write(`installing ${CODEGRAPH_PACKAGE}@${CODEGRAPH_VERSION} into ${prefix}\n`);
    // Without the npm_config_* that pnpm sets for its scripts (npm warns about each): npm reads its own config.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_config_')));
    const npm = spawnSync('npm', ['install', '--prefix', prefix, `${CODEGRAPH_PACKAGE}@${CODEGRAPH_VERSION}`, '--no-save', '--no-audit', '--no-fund'], {
      env,
      stdio: ['ignore', process.stderr, process.stderr],
    });
    if (npm.status !== 0) throw new Error(`npm install of ${CODEGRAPH_PACKAGE}@${CODEGRAPH_VERSION} into ${prefix} failed (${npm.error?.message ?? `exit ${npm.status}`})`);
  }
  return bin;
}

/** Set for every codegraph command (and shown in the report). */
const CODEGRAPH_ENV: Readonly<Record<string, string>> = { CODEGRAPH_TELEMETRY: '0', DO_NOT_TRACK: '1', CODEGRAPH_NO_DAEMON: '1', NO_COLOR: '1' };

function codegraphTool(bin: string, root: string): PeerTool {
  const run = (...args: string[]): Invocation => ({ command: bin, args });
  // Its defaults, whatever CODEGRAPH_* this shell sets (CODEGRAPH_DIR would move the index away
  // from the .codegraph/ that clean() removes); no telemetry, no colours; no background daemon
  // (a CLI run then works in its own process and leaves nothing running behind).
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CODEGRAPH_')));
  const env = { ...inherited, NODE_OPTIONS: '', ...CODEGRAPH_ENV };
  const version = spawnSync(bin, ['--version'], { env, encoding: 'utf8' }).stdout.trim();
  if (version !== CODEGRAPH_VERSION) throw new Error(`${bin} --version says "${version}", expected ${CODEGRAPH_VERSION}`);
  return {
    name: 'codegraph',
    version,
    env,
    clean: () => rmSync(join(root, '.codegraph'), { recursive: true, force: true }),
    steps: (figure, task) => {
      switch (figure) {
        case 'start':
          return [run('--version')];
        case 'full':
          return [run('init', '-y', root)];
        // `codegraph context` answers from the index as it is: it does not look for changed files.
        case 'change':
          return [run('sync', root), run('context', '-p', root, task)];
        case 'query':
          return [run('context', '-p', root, task)];
      }
    },
    resync: () => [run('sync', '-q', root)],
    facts: (runs) => codegraphIndexed(runs.map((r) => r.stdout + r.stderr).join('\n')),
    notes: (figure, runs) => {
      if (figure !== 'change') return [];
      const files = codegraphSynced(`${runs[0]?.stdout ?? ''}\n${runs[0]?.stderr ?? ''}`);
      return [files === 1 ? 'synced 1 file' : `warning: sync synced ${files ?? 'no'} files, not the 1 edited`];
    },
  };
}

// ---------------------------------------------------------------- one repository

interface ToolFigures {
  readonly version: string;
  readonly indexed: IndexFacts | null;
  readonly figures: Record<Figure, Cell>;
}

interface RepoResult {
  readonly repo: string;
  readonly task: string;
  /** Repo-relative file the one-file change appended a comment to. */
  readonly editedFile: string | null;
  /** Commands of each step on this repository, per tool. */
  readonly commands: Record<string, Record<Figure | 'resync', string[]>>;
  readonly tools: Record<string, ToolFigures>;
}

function sample(runs: readonly ProcessRun[], notes: readonly string[]): Sample {
  const total = (values: readonly (number | null)[]): number | null => (values.every((v): v is number => v !== null) ? values.reduce((sum, v) => sum + v, 0) : null);
  return {
    ms: runs.reduce((sum, r) => sum + r.ms, 0),
    cpuMs: total(runs.map((r) => r.cpuMs)),
    systemMs: total(runs.map((r) => r.systemMs)),
    minorFaults: total(runs.map((r) => r.minorFaults)),
    peakRssMb: Math.max(...runs.map((r) => r.peakRssKb)) / 1024,
    peakLargestMb: Math.max(...runs.map((r) => r.peakLargestKb)) / 1024,
    stdoutBytes: Buffer.byteLength(runs.at(-1)?.stdout ?? ''),
    notes,
  };
}

function emptyFigures(): Record<Figure, { samples: Sample[]; error?: string }> {
  return { start: { samples: [] }, full: { samples: [] }, change: { samples: [] }, query: { samples: [] } };
}

/** A status line on a terminal, rewritten in place; nothing when stderr goes to a file. */
function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\u001b[2K${text}`);
}

async function benchRepo(args: PeersArgs, work: string, repo: string, codegraphBin: string, journal: string): Promise<RepoResult> {
  const root = join(work, 'copies', repo);
  const dbPath = join(work, 'dbs', repo, 'graph.db');
  const timeFile = join(work, 'time.txt');
  mkdirSync(join(work, 'dbs', repo), { recursive: true });
  progress(`${repo}: copying the checkout to ${root}`);
  const copied = performance.now();
  copyCheckout(join(args.corpus, repo), root);
  const task = taskFor(repo, args.task);
  const baselineDb = join(work, 'dbs', `${repo}-baseline`, 'graph.db');
  if (args.baseline) mkdirSync(join(work, 'dbs', `${repo}-baseline`), { recursive: true });
  const tools = [
    knowingTool(knowingBin(), root, dbPath),
    codegraphTool(codegraphBin, root),
    ...(args.watch ? [knowingTool(knowingBin(), root, dbPath, true)] : []),
    ...(args.baseline ? [knowingTool(args.baseline, root, baselineDb, false, BASELINE)] : []),
  ];
  const figures = new Map(tools.map((t) => [t.name, emptyFigures()]));
  const indexed = new Map<string, IndexFacts | null>(tools.map((t) => [t.name, null]));
  /** Why a tool has no index to update or query (its last full index failed). */
  const noIndex = new Map<string, string>();

  // A directory written in the last 2 s is listed again by every knowing walk (its mtime could
  // still move unseen): let the copy settle, as a checkout that is not being copied has.
  await new Promise((wait) => setTimeout(wait, Math.max(0, 2_100 - (performance.now() - copied))));
  // Warm-up, not counted: both programs' files into the page cache.
  for (const tool of tools) await runAll(tool.steps('start', task), root, tool.env, timeFile).catch(() => []);

  let editedFile: string | null = null;
  const measure = async (tool: PeerTool, figure: Figure, run: number): Promise<void> => {
    const cell = figures.get(tool.name)![figure];
    if (cell.error) return; // failed once: the figure would fail again
    if (tool.figures && !tool.figures.includes(figure)) return;
    // A full index starts from a new database: no helper process may hold the old one open.
    if (figure === 'full') for (const t of tools) await t.session?.close();
    if (figure !== 'start' && figure !== 'full' && noIndex.has(tool.name)) {
      cell.error = `no index: ${noIndex.get(tool.name)!.split('\n')[0]!}`;
      return;
    }
    if (figure === 'change' && editedFile === null) {
      cell.error = 'no file to edit (knowing\'s full index failed or holds no file)';
      return;
    }
    progress(`${repo} run ${run}/${args.runs}: ${figure} ${tool.name}`);
    if (figure === 'full') tool.clean();
    try {
      await tool.session?.open();
    } catch (error) {
      cell.error = (error as Error).message;
      return;
    }
    const edit = figure === 'change' ? editFile(join(root, editedFile!), editComment(editedFile!, `${tool.name} ${run}`), journal) : null;
    try {
      const runs = await runAll(tool.steps(figure, task), root, tool.env, timeFile);
      cell.samples.push(sample(runs, tool.notes(figure, runs)));
      if (figure === 'full') {
        indexed.set(tool.name, tool.facts(runs));
        noIndex.delete(tool.name);
      }
    } catch (error) {
      cell.error = (error as Error).message;
      if (figure === 'full') noIndex.set(tool.name, cell.error);
    } finally {
      edit?.restore();
    }
    if (edit && !noIndex.has(tool.name)) {
      await runAll(tool.resync(), root, tool.env, timeFile).catch((error: Error) => noIndex.set(tool.name, `re-index after the edit failed: ${error.message}`));
    }
  };

  for (let run = 1; run <= args.runs; run++) {
    for (const figure of FIGURES) {
      for (const tool of tools) {
        await measure(tool, figure, run);
        if (figure === 'full' && tool.name === 'knowing' && editedFile === null && !noIndex.has('knowing')) editedFile = await pickEditTarget(root, dbPath);
      }
    }
  }
  progress('');
  for (const tool of tools) await tool.session?.close();

  const commands: RepoResult['commands'] = {};
  for (const tool of tools) {
    const lines = (invs: readonly Invocation[]): string[] => invs.map(shown);
    const measured = (figure: Figure): string[] => (tool.figures && !tool.figures.includes(figure) ? [] : lines(tool.steps(figure, task)));
    commands[tool.name] = {
      start: measured('start'),
      full: measured('full'),
      change: measured('change'),
      resync: lines(tool.resync()),
      query: measured('query'),
    };
  }
  return {
    repo,
    task,
    editedFile,
    commands,
    tools: Object.fromEntries(tools.map((t) => [t.name, { version: t.version, indexed: indexed.get(t.name) ?? null, figures: figures.get(t.name)! }])),
  };
}

// ---------------------------------------------------------------- report

const ROWS: readonly RowSpec[] = [
  { label: 'process start (--version)', figure: 'start', unit: 'ms', pick: (s) => s.ms },
  { label: 'full index, wall', figure: 'full', unit: 'ms', pick: (s) => s.ms },
  { label: 'full index, CPU user+sys', figure: 'full', unit: 'ms', pick: (s) => s.cpuMs },
  { label: 'full index, CPU sys', figure: 'full', unit: 'ms', pick: (s) => s.systemMs },
  { label: 'full index, minor page faults', figure: 'full', unit: 'faults', pick: (s) => s.minorFaults },
  { label: 'full index, peak RSS of the process tree', figure: 'full', unit: 'MB', pick: (s) => s.peakRssMb },
  { label: 'full index, peak RSS of the largest process', figure: 'full', unit: 'MB', pick: (s) => s.peakLargestMb },
  { label: 'one-file change + query, wall', figure: 'change', unit: 'ms', pick: (s) => s.ms },
  { label: 'CLI query, wall', figure: 'query', unit: 'ms', pick: (s) => s.ms },
  { label: 'CLI query, peak RSS', figure: 'query', unit: 'MB', pick: (s) => s.peakRssMb },
  { label: 'CLI query, minor page faults', figure: 'query', unit: 'faults', pick: (s) => s.minorFaults },
  { label: 'CLI query, answer size', figure: 'query', unit: 'bytes', pick: (s) => s.stdoutBytes },
];

/** Wall times only: the watcher's memory is not in the command's process tree, so its RSS would flatter it. */
const WATCHED_ROWS: readonly RowSpec[] = ROWS.filter((row) => (row.figure === 'change' || row.figure === 'query') && row.unit === 'ms');

function describeIndexed(facts: IndexFacts | null): string {
  if (!facts) return '?';
  return `${facts.files.toLocaleString('en-US')} files, ${facts.nodes.toLocaleString('en-US')} nodes, ${facts.edges.toLocaleString('en-US')} edges`;
}

function report(args: PeersArgs, results: readonly RepoResult[], load: readonly [number, number]): string[] {
  const first = results[0];
  const lines = [
    `peers benchmark — knowing ${first?.tools.knowing?.version ?? '?'} vs codegraph ${CODEGRAPH_VERSION}, corpus ${args.corpus}, ${args.runs} run${args.runs === 1 ? '' : 's'} of each figure per tool, alternating`,
    `${cpus().length} cores, node ${process.version}, load average ${load[0].toFixed(1)} → ${load[1].toFixed(1)}; medians (nearest rank: the lower of two); ratio < 1: knowing faster or smaller`,
  ];
  for (const r of results) {
    const k = r.tools.knowing!;
    const c = r.tools.codegraph!;
    lines.push('', `${r.repo} — task "${r.task}"; edited ${r.editedFile ?? '(none)'}`);
    lines.push(`  indexed: knowing ${describeIndexed(k.indexed)}; codegraph ${describeIndexed(c.indexed)}`);
    lines.push(...comparisonTable(ROWS, k.figures, c.figures, 'codegraph').map((l) => `  ${l}`));
    const w = r.tools[WATCHED];
    if (w) {
      lines.push(`  with a running \`knowing watch\` answering knowing's commands (codegraph as above):`);
      lines.push(...comparisonTable(WATCHED_ROWS, w.figures, c.figures, 'codegraph').map((l) => `  ${l}`));
    }
    const b = r.tools[BASELINE];
    if (b) {
      lines.push(`  knowing against the baseline build (${args.baseline}, ${b.version}; indexed ${describeIndexed(b.indexed)}), same runs:`);
      lines.push(...comparisonTable(ROWS, k.figures, b.figures, 'baseline').map((l) => `  ${l}`));
    }
    for (const [name, tool] of Object.entries(r.tools)) {
      for (const figure of FIGURES) {
        const cell = tool.figures[figure];
        if (cell.error) lines.push(`  ${name} ${figure} failed: ${cell.error.split('\n').join('\n    ')}`);
        const warnings = [...new Set(cell.samples.flatMap((s) => s.notes.filter((n) => n.startsWith('warning'))))];
        for (const warning of warnings) lines.push(`  ${name} ${figure}: ${warning}`);
      }
    }
  }
  if (first) {
    lines.push('', `commands, as run on the copy of ${first.repo} (codegraph's with ${Object.entries(CODEGRAPH_ENV).map(([k, v]) => `${k}=${v}`).join(' ')}):`);
    for (const [name, steps] of Object.entries(first.commands)) {
      for (const [step, commands] of Object.entries(steps)) if (commands.length > 0) lines.push(`  ${name} ${step}: ${commands.join(' && ')}`);
    }
  }
  return lines;
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  let args: PeersArgs;
  try {
    args = parsePeersArgs(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd(), tmpdir());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  if (!existsSync('/proc/self/status')) throw new Error('bench:peers reads process memory from /proc: it runs on Linux only');
  knowingBin();
  if (args.baseline && !existsSync(args.baseline)) {
    process.stderr.write(`--baseline: ${args.baseline} does not exist (give the bin.cjs, or bin.js, of another knowing build, or its dist folder)\n`);
    process.exitCode = 2;
    return;
  }
  const stale = staleBuilds(['indexer', 'cli', 'engine', 'store-sqlite']);
  if (stale.length > 0) process.stderr.write(`warning: sources newer than the build in ${stale.join(', ')}: the figures may not be this tree's (pnpm build)\n`);
  const repos = listRepos(args.corpus, args.repos);
  const codegraphBin = ensureCodegraph(args.scratch);

  // A folder of this run's own, so removing it can only remove what this run made.
  const work = mkdtempSync(join(args.scratch, 'work-'));
  const journal = journalFor(work);
  restoreOnExit(journal);
  // The copies and databases go when the process does, Ctrl-C included (after the edit is restored).
  process.on('exit', () => rmSync(work, { recursive: true, force: true }));

  const loadBefore = loadavg()[0]!;
  const results: RepoResult[] = [];
  for (const repo of repos) {
    results.push(await benchRepo(args, work, repo, codegraphBin, journal));
    rmSync(join(work, 'copies', repo), { recursive: true, force: true });
  }
  const load: [number, number] = [loadBefore, loadavg()[0]!];
  if (args.json) {
    const machine = { cores: cpus().length, node: process.version, loadAverage: load };
    process.stdout.write(`${JSON.stringify({ corpus: args.corpus, runs: args.runs, budget: BUDGET, codegraph: { package: CODEGRAPH_PACKAGE, version: CODEGRAPH_VERSION, bin: codegraphBin }, knowing: { bin: CLI_BIN, ...(args.baseline ? { baseline: args.baseline } : {}) }, machine, repos: results }, null, 2)}\n`);
  } else {
    process.stdout.write(`${report(args, results, load).join('\n')}\n`);
  }
}

await main();
