/**
 * Pure pieces shared by the benchmark scripts: statistics over timings, number and table
 * formatting, and the argument parsing of `bench:perf`. Nothing here touches the disk.
 */
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * The p-th percentile (0 < p ≤ 1) by the nearest-rank method: the smallest sample with at
 * least p of the samples at or below it. Always one of the samples, never interpolated; NaN
 * for no samples. (p50 of 4 samples is the 2nd, p95 of 20 is the 19th.)
 */
export function percentile(values: readonly number[], p: number): number {
  if (!(p > 0 && p <= 1)) throw new RangeError(`percentile: p must be in (0, 1], got ${p}`);
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil(p * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** The middle sample (the lower of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

export interface Distribution {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly min: number;
  readonly max: number;
}

export function distribution(values: readonly number[]): Distribution {
  return {
    n: values.length,
    p50: percentile(values, 0.5),
    p95: percentile(values, 0.95),
    min: values.length ? Math.min(...values) : Number.NaN,
    max: values.length ? Math.max(...values) : Number.NaN,
  };
}

/**
 * `count` items spread evenly over the list (first one included), so a sample of tasks mixes
 * the tiers the task files are sorted by. Order is kept; all items when count ≥ length.
 */
export function sampleEvenly<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items];
  if (count <= 0) return [];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!);
}

/** A number with thousands separators and fixed decimals; "–" for NaN, null or undefined. */
export function fmt(n: number | null | undefined, digits = 0): string {
  if (n === null || n === undefined || Number.isNaN(n)) return '–';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Milliseconds at a precision that suits their size: 0.42, 7.3, 128, 12,345. */
export function fmtMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '–';
  const abs = Math.abs(ms);
  return fmt(ms, abs < 1 ? 2 : abs < 10 ? 1 : 0);
}

/** "p50/p95" of a distribution, in milliseconds. */
export function fmtP(d: Distribution | null | undefined): string {
  return d && d.n > 0 ? `${fmtMs(d.p50)}/${fmtMs(d.p95)}` : '–';
}

export type Align = 'left' | 'right';

/**
 * Rows as aligned text columns separated by two spaces. Columns are left-aligned unless
 * `align` says otherwise; trailing spaces are trimmed. Rows shorter than the header get empty
 * cells.
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly Align[] = []): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((row) => [...(row[c] ?? '')].length)));
  const line = (row: readonly string[]): string =>
    header
      .map((_, c) => {
        const cell = row[c] ?? '';
        const pad = ' '.repeat(widths[c]! - [...cell].length);
        return align[c] === 'right' ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

/** A command-line mistake: the message says what was wrong and how to call the script. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const PERF_USAGE =
  'usage: pnpm bench:perf --corpus <dir> [--repos a,b] [--json] [--out file] [--bench <dir>] [--budget 4000] ' +
  '[--cli-tasks 8] [--edits 3] [--workers N] [--keep]';

export interface PerfArgs {
  /** Absolute path of the directory holding one checkout per repository. */
  readonly corpus: string;
  /** Repositories to run, in the order given; undefined means every directory of the corpus. */
  readonly repos: readonly string[] | undefined;
  /** Print the JSON instead of the table. */
  readonly json: boolean;
  /** Where the JSON goes; undefined means benchmarks/results/perf-latest.json. */
  readonly out: string | undefined;
  /** The benchmark corpus (its tasks/<repo>/ directories). */
  readonly bench: string | undefined;
  /** Token budget of every forTask / `knowing context` call. */
  readonly budget: number;
  /** How many tasks per repository go through the CLI (each twice: cold, then cached). */
  readonly cliTasks: number;
  /** Edit/restore cycles for the one-file re-index figures (in-process and CLI). */
  readonly edits: number;
  /** Parser threads for the indexer; undefined means its default. */
  readonly workers: number | undefined;
  /** Keep the databases (their paths are in the JSON). */
  readonly keep: boolean;
  /** Internal: run one repository in this process (the parent forks one child per repo). */
  readonly child: string | undefined;
}

function count(raw: string | undefined, flag: string, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min) throw new UsageError(`${flag} must be a whole number ≥ ${min}, got "${raw}"\n${PERF_USAGE}`);
  return Number(raw);
}

/**
 * The arguments of `bench:perf`. Relative paths resolve against `cwd` (pass INIT_CWD, the
 * directory pnpm was called from). Throws UsageError for unknown flags, missing values, a
 * missing --corpus, or counts that are not whole numbers.
 */
export function parsePerfArgs(argv: readonly string[], cwd: string): PerfArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        corpus: { type: 'string' },
        repos: { type: 'string' },
        json: { type: 'boolean' },
        out: { type: 'string' },
        bench: { type: 'string' },
        budget: { type: 'string' },
        'cli-tasks': { type: 'string' },
        edits: { type: 'string' },
        workers: { type: 'string' },
        keep: { type: 'boolean' },
        child: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${PERF_USAGE}`);
  }
  const str = (name: string): string | undefined => {
    const v = values[name];
    return typeof v === 'string' ? v : undefined;
  };
  const corpus = str('corpus');
  if (!corpus?.trim()) throw new UsageError(`--corpus <dir> is required\n${PERF_USAGE}`);
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(cwd, p));
  const reposRaw = str('repos');
  const repos = reposRaw === undefined ? undefined : [...new Set(reposRaw.split(',').map((r) => r.trim()).filter(Boolean))];
  if (repos !== undefined && repos.length === 0) throw new UsageError(`--repos is empty; name at least one repository, e.g. --repos flask\n${PERF_USAGE}`);
  const out = str('out');
  const bench = str('bench');
  const workers = str('workers');
  return {
    corpus: abs(corpus),
    repos,
    json: values.json === true,
    out: out === undefined ? undefined : abs(out),
    bench: bench === undefined ? undefined : abs(bench),
    budget: count(str('budget'), '--budget', 4000, 1),
    cliTasks: count(str('cli-tasks'), '--cli-tasks', 8, 0),
    edits: count(str('edits'), '--edits', 3, 1),
    workers: workers === undefined ? undefined : count(workers, '--workers', 0, 0),
    keep: values.keep === true,
    child: str('child'),
  };
}
