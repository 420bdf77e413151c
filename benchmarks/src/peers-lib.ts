/**
 * Pure pieces of `bench:peers` (knowing against a peer tool on the same checkouts): argument
 * parsing, the task each repository is asked, reading what the tools and /proc print, and the
 * per-repository table. Nothing here touches the disk or starts a process.
 */
import { existsSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fmt, fmtMs, formatTable, median, UsageError } from './perf-lib.js';

export const PEERS_USAGE = 'usage: pnpm bench:peers --corpus <dir> [--repos flask,caddy] [--runs 3] [--scratch <dir>] [--task "…"] [--watch] [--baseline <bin.cjs or its dist folder>] [--json]';

/** The peer the benchmark installs: pinned, so figures taken on different days compare. */
export const CODEGRAPH_PACKAGE = '@colbymchenry/codegraph';
export const CODEGRAPH_VERSION = '1.6.1';

export interface PeersArgs {
  /** Absolute path of the directory holding one checkout per repository. */
  readonly corpus: string;
  /** Repositories to run, in the order given; undefined means every directory of the corpus. */
  readonly repos: readonly string[] | undefined;
  /** Measured runs of each figure, per tool. */
  readonly runs: number;
  /** Where the peer is installed and the checkouts are copied (absolute). */
  readonly scratch: string;
  /** One task for every repository instead of the built-in one per repository. */
  readonly task: string | undefined;
  /** Print the raw numbers as JSON instead of the tables. */
  readonly json: boolean;
  /**
   * Also measure knowing's change and query figures through a running `knowing watch` (the
   * command hands its command line to the watcher, which keeps the index and engine open).
   */
  readonly watch: boolean;
  /**
   * Another build of knowing's CLI (its `bin.cjs` or older `bin.js`, absolute), measured in the same alternation
   * on its own index: the figures of a change before and after, with the noise of one run.
   */
  readonly baseline: string | undefined;
}

/**
 * The arguments of `bench:peers`. Relative paths resolve against `cwd` (pass INIT_CWD, the
 * directory pnpm was called from); the scratch directory defaults to `<tmpdir>/knowing-peers`.
 * Throws UsageError for unknown flags, a missing --corpus, an empty --repos or a bad --runs.
 */
export function parsePeersArgs(argv: readonly string[], cwd: string, tmpdir: string, exists: (path: string) => boolean = existsSync): PeersArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        corpus: { type: 'string' },
        repos: { type: 'string' },
        runs: { type: 'string' },
        scratch: { type: 'string' },
        task: { type: 'string' },
        json: { type: 'boolean' },
        watch: { type: 'boolean' },
        baseline: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${PEERS_USAGE}`);
  }
  const str = (name: string): string | undefined => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(cwd, p));
  const corpus = str('corpus');
  if (!corpus?.trim()) throw new UsageError(`--corpus <dir> is required\n${PEERS_USAGE}`);
  const reposRaw = str('repos');
  const repos = reposRaw === undefined ? undefined : [...new Set(reposRaw.split(',').map((r) => r.trim()).filter(Boolean))];
  if (repos !== undefined && repos.length === 0) throw new UsageError(`--repos is empty; name at least one repository, e.g. --repos flask\n${PEERS_USAGE}`);
  const runsRaw = str('runs');
  if (runsRaw !== undefined && !(/^\d+$/.test(runsRaw.trim()) && Number(runsRaw) >= 1)) throw new UsageError(`--runs must be a whole number ≥ 1, got "${runsRaw}"\n${PEERS_USAGE}`);
  const task = str('task');
  if (task !== undefined && !task.trim()) throw new UsageError(`--task is empty\n${PEERS_USAGE}`);
  const scratch = str('scratch');
  const baselineRaw = str('baseline');
  if (baselineRaw !== undefined && !baselineRaw.trim()) throw new UsageError(`--baseline is empty; give the bin.cjs (bin.js before session 21) of another build, or its dist folder\n${PEERS_USAGE}`);
  const baseline = baselineRaw === undefined ? undefined : abs(baselineRaw.trim());
  return {
    corpus: abs(corpus),
    repos,
    runs: runsRaw === undefined ? 3 : Number(runsRaw),
    scratch: scratch === undefined ? join(tmpdir, 'knowing-peers') : abs(scratch),
    task: task?.trim(),
    json: values.json === true,
    watch: values.watch === true,
    baseline: baseline === undefined || /\.c?js$/.test(baseline) ? baseline : binIn(baseline, exists),
  };
}

/** The CLI's entry in a build's dist folder: bin.cjs, or bin.js in builds made before it was CommonJS. */
export function binIn(dist: string, exists: (path: string) => boolean): string {
  const current = join(dist, 'bin.cjs');
  return exists(current) || !exists(join(dist, 'bin.js')) ? current : join(dist, 'bin.js');
}

/**
 * Generic tasks, one per corpus repository, worded as a user would (no symbol names), so
 * neither tool is favoured by an exact identifier. Both tools get the same string.
 */
const TASKS: Readonly<Record<string, string>> = {
  flask: 'fix the error when the config file is missing',
  fastapi: 'return a clear error when a required field is missing from the request body',
  caddy: 'fix the error when the config file is missing',
  'spark-java': 'return a custom error page when a route throws an exception',
  ripgrep: 'skip hidden files unless the user asks to search them',
  jekyll: 'fix the error when the config file is missing',
  ocelot: 'retry the downstream request when it times out',
  cargo: 'report a clear error when the manifest file is missing',
};
export const DEFAULT_TASK = 'fix the error when the config file is missing';

/** The task a repository is asked: --task if given, else its built-in one, else the default. */
export function taskFor(repo: string, override?: string): string {
  return override ?? TASKS[repo] ?? DEFAULT_TASK;
}

/** Directories the copy of a checkout leaves out: each tool's index (the corpus's may be a symlink elsewhere). */
export const COPY_EXCLUDES: ReadonlySet<string> = new Set(['.knowing', '.codegraph']);

/** Whether a path's last segment is one the copy leaves out. */
export function excludedFromCopy(path: string): boolean {
  return COPY_EXCLUDES.has(basename(path));
}

/** The pids in a /proc/<pid>/task/<tid>/children file ("123 456 "). */
export function parseChildren(text: string): number[] {
  return text
    .split(/\s+/)
    .filter((s) => /^\d+$/.test(s))
    .map(Number);
}

/** VmRSS of a /proc/<pid>/status file, in kB; 0 when absent (a zombie, a kernel thread). */
export function parseVmRssKb(status: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match ? Number(match[1]) : 0;
}

/** The parent pid in a /proc/<pid>/stat line (the command may hold spaces and parentheses). */
export function parseStatParent(stat: string): number | null {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) ? ppid : null;
}

/** What `/usr/bin/time` says about the processes a command ran (those it waited for). */
export interface TimeUsage {
  /** User + system CPU milliseconds. */
  readonly cpuMs: number;
  /** System CPU milliseconds alone: the kernel's share, page faults included. */
  readonly systemMs: number;
  /** Minor page faults: pages first touched (or mapped in from the page cache). Null when not asked for. */
  readonly minorFaults: number | null;
}

/**
 * The usage `/usr/bin/time -f '%U %S %R' -o FILE` wrote (or `-f '%U %S'`): the last line (the
 * lines before it say how the command ended). Null when it does not hold those numbers.
 *
 * @example
 * ```ts
 * parseTimeUsage('1.49 0.36 52011\n'); // { cpuMs: 1850, systemMs: 360, minorFaults: 52011 }
 * ```
 */
export function parseTimeUsage(text: string): TimeUsage | null {
  const last = text.trim().split('\n').at(-1)?.trim() ?? '';
  const match = /^(\d+(?:\.\d+)?) (\d+(?:\.\d+)?)(?: (\d+))?$/.exec(last);
  if (!match) return null;
  return {
    cpuMs: Math.round((Number(match[1]) + Number(match[2])) * 1000),
    systemMs: Math.round(Number(match[2]) * 1000),
    minorFaults: match[3] === undefined ? null : Number(match[3]),
  };
}

/** Colour and cursor escapes, which a tool may print even to a pipe. */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '');
}

/**
 * The line of a failed command's output that says what went wrong: its last line with words,
 * without the box-drawing and bullet characters a progress UI puts in front ("│  ■  Failed: …").
 */
export function failureLine(output: string): string {
  const lines = stripAnsi(output)
    .split('\n')
    .map((line) => line.replace(/^[^\p{L}\p{N}`'"(\[]+/u, '').trim())
    .filter(Boolean);
  return lines.at(-1) ?? 'no output';
}

/** How many files `knowing context` says it re-indexed before answering (its note on stderr), or null. */
export function knowingReindexed(stderr: string): number | null {
  const match = /re-indexed (\d+) changed files?\b/.exec(stripAnsi(stderr));
  return match ? Number(match[1]) : null;
}

/** Whether `knowing context` says its answer came from its answer cache (its note on stderr). */
export function knowingFromCache(stderr: string): boolean {
  return /\bfrom cache\b/.test(stripAnsi(stderr));
}

/**
 * How many files `codegraph sync` says it synced: "Synced N changed files", 0 for "Already up
 * to date"; null when it says neither.
 */
export function codegraphSynced(output: string): number | null {
  const text = stripAnsi(output);
  const match = /Synced (\d+) changed files?/.exec(text);
  if (match) return Number(match[1]);
  return /Already up to date/i.test(text) ? 0 : null;
}

/** A number with its unit as printed in the tables. */
export type Unit = 'ms' | 'MB' | 'bytes' | 'faults';

/** What one measured run of one figure gave (for one tool). */
export interface Sample {
  /** Wall time from spawn to the exit of the last process of the step. */
  readonly ms: number;
  /** User + system CPU time of the processes the step ran (those waited for), or null where unmeasured. */
  readonly cpuMs: number | null;
  /** System CPU time alone of the same processes, or null where unmeasured. */
  readonly systemMs: number | null;
  /**
   * Minor page faults of the same processes, or null where unmeasured. Where touching a fresh
   * page is dear (a virtual machine's page tables), they are a large share of a process's time.
   */
  readonly minorFaults: number | null;
  /** Peak of the summed RSS of each process's tree, sampled every ~20 ms; the largest over the step's processes. */
  readonly peakRssMb: number;
  /** Peak RSS of the largest single process of the step (what `/usr/bin/time` would call max RSS). */
  readonly peakLargestMb: number;
  /** Bytes the step's last process wrote to stdout (the answer, for a query). */
  readonly stdoutBytes: number;
  /** What the step's output said that bears on the figure (files re-indexed, answer cached…). */
  readonly notes: readonly string[];
}

/** A figure for one tool: its samples, or why there are none. */
export interface Cell {
  readonly samples: readonly Sample[];
  readonly error?: string;
}

/** The median of the values a figure's samples hold (nearest rank: the lower of two); NaN for none. */
export function medianOf(cell: Cell | undefined, pick: (s: Sample) => number | null): number {
  const values = (cell?.samples ?? []).map(pick).filter((v): v is number => v !== null && Number.isFinite(v));
  return values.length > 0 ? median(values) : Number.NaN;
}

/** knowing's figure over the peer's: below 1 means knowing is faster or smaller. NaN when either is missing or the peer's is 0. */
export function ratio(knowing: number, peer: number): number {
  return Number.isFinite(knowing) && Number.isFinite(peer) && peer !== 0 ? knowing / peer : Number.NaN;
}

/**
 * The ratio of each run's pair: the tools run alternately, so knowing's i-th sample and the
 * peer's i-th ran under the same load. Their spread says how far one median ratio can be trusted.
 */
export function runRatios(knowing: Cell | undefined, peer: Cell | undefined, pick: (s: Sample) => number | null): number[] {
  const ks = knowing?.samples ?? [];
  const ps = peer?.samples ?? [];
  const out: number[] = [];
  for (let i = 0; i < Math.min(ks.length, ps.length); i++) {
    const r = ratio(pick(ks[i]!) ?? Number.NaN, pick(ps[i]!) ?? Number.NaN);
    if (Number.isFinite(r)) out.push(r);
  }
  return out;
}

/** The lowest and highest of some ratios as "0.48–0.61×"; "–" for fewer than two. */
export function fmtRatioRange(ratios: readonly number[]): string {
  if (ratios.length < 2) return '–';
  return `${Math.min(...ratios).toFixed(2)}–${fmtRatio(Math.max(...ratios))}`;
}

/** A ratio as "0.62×"; "–" when there is none. */
export function fmtRatio(r: number): string {
  return Number.isFinite(r) ? `${r.toFixed(r < 10 ? 2 : 1)}×` : '–';
}

function fmtValue(value: number, unit: Unit): string {
  if (unit === 'ms') return fmtMs(value);
  return fmt(value, 0);
}

/** One row of a repository's table: which figure, and how to read it from a sample. */
export interface RowSpec {
  readonly label: string;
  /** Key of the figure in each tool's cells. */
  readonly figure: string;
  readonly unit: Unit;
  readonly pick: (s: Sample) => number | null;
}

/** An error shortened to fit a table cell: its first non-empty line, at most `width` characters. */
export function errorCell(error: string, width = 48): string {
  const line = stripAnsi(error).split('\n').map((l) => l.trim()).find(Boolean) ?? 'failed';
  return `error: ${line.length > width ? `${line.slice(0, width - 1)}…` : line}`;
}

/**
 * The table of one repository: figure | knowing median | peer median | ratio knowing/peer. A
 * figure a tool failed on shows that tool's error in its cell (and no ratio).
 */
export function comparisonTable(rows: readonly RowSpec[], knowing: Readonly<Record<string, Cell>>, peer: Readonly<Record<string, Cell>>, peerName: string): string[] {
  const cell = (c: Cell | undefined, spec: RowSpec): string => {
    if (c?.error) return errorCell(c.error);
    const value = medianOf(c, spec.pick);
    return Number.isFinite(value) ? fmtValue(value, spec.unit) : '–';
  };
  const body = rows.map((spec) => {
    const k = knowing[spec.figure];
    const p = peer[spec.figure];
    const failed = Boolean(k?.error || p?.error);
    const r = failed ? Number.NaN : ratio(medianOf(k, spec.pick), medianOf(p, spec.pick));
    return [`${spec.label} (${spec.unit})`, cell(k, spec), cell(p, spec), fmtRatio(r), failed ? '–' : fmtRatioRange(runRatios(k, p, spec.pick))];
  });
  return formatTable(['figure', 'knowing median', `${peerName} median`, `ratio knowing/${peerName}`, 'run by run'], body, ['left', 'right', 'right', 'right', 'right']);
}

/** What a full index holds, as the tool reports it (each tool counts in its own way). */
export interface IndexFacts {
  readonly files: number;
  readonly nodes: number;
  readonly edges: number;
}

/** Files, nodes and edges of `knowing index --json`'s summary; null when it is not one. */
export function knowingIndexed(json: string): IndexFacts | null {
  try {
    const summary = JSON.parse(json) as { files?: { discovered?: unknown }; nodes?: unknown; edges?: unknown };
    const { files, nodes, edges } = { files: summary.files?.discovered, nodes: summary.nodes, edges: summary.edges };
    return typeof files === 'number' && typeof nodes === 'number' && typeof edges === 'number' ? { files, nodes, edges } : null;
  } catch {
    return null;
  }
}

/** Files, nodes and edges from what `codegraph init`/`index` prints ("Indexed 90 files", "2,661 nodes, 5,213 edges"); null when it does not say. */
export function codegraphIndexed(output: string): IndexFacts | null {
  const text = stripAnsi(output);
  const number = (s: string | undefined): number => Number((s ?? '').replace(/,/g, ''));
  const files = /Indexed ([\d,]+) files?/.exec(text);
  const graph = /([\d,]+) nodes, ([\d,]+) edges/.exec(text);
  return files && graph ? { files: number(files[1]), nodes: number(graph[1]), edges: number(graph[2]) } : null;
}
