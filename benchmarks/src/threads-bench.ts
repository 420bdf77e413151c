/**
 * Parser-thread benchmark: does a worker thread pay off for a full index on this machine?
 * For each repository, a full index into a new database with `knowing index --workers 1` and
 * `--workers 2`, alternating (1, 2, 1, 2, …), then one run with the setting left unset, which
 * says what the build would choose here. Prints the source bytes parsed, the median wall time of
 * each setting, their ratio, and the unset choice. The indexer's automatic choice on two cores
 * (indexer/src/threads.ts, TWO_CORE_WORKER_MIN_BYTES) is read from this table.
 *
 *   pnpm bench:threads --corpus <dir> [--repos flask,cargo] [--runs 5] [--json]
 *
 * Runs the built CLI (`pnpm build` first), one process per index as a user runs it. The corpus
 * is never written: the databases live in a temporary folder, removed at the end.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatTable, median } from './perf-lib.js';
import { corpusReposOrExit } from './perf-measure.js';

const CLI_BIN = fileURLToPath(new URL('../../packages/cli/dist/bin.cjs', import.meta.url));
const USAGE = 'usage: pnpm bench:threads --corpus <dir> [--repos flask,cargo] [--runs 5] [--json]';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    repos: { type: 'string' },
    runs: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help || !values.corpus) {
  (values.help ? process.stdout : process.stderr).write(`${USAGE}\n`);
  process.exit(values.help ? 0 : 2);
}
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write(`--runs must be a whole number ≥ 1, got ${values.runs}\n${USAGE}\n`);
  process.exit(2);
}
const { corpus, repos } = corpusReposOrExit(values.corpus, values.repos, USAGE);

interface Indexed {
  readonly ms: number;
  readonly bytes: number;
  readonly threads: number;
}

/** One full index of `root` into a new database, timed from process start to exit. */
function indexOnce(root: string, scratch: string, workers: string | undefined): Indexed {
  const db = join(scratch, `graph-${Math.random().toString(36).slice(2)}.db`);
  const args = [CLI_BIN, 'index', root, '--full', '--db', db, '-q', '--json', ...(workers === undefined ? [] : ['--workers', workers])];
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
  if (run.status !== 0) throw new Error(`knowing index ${root} failed (exit ${run.status}): ${run.stderr.trim().split('\n').pop()}`);
  const summary = JSON.parse(run.stdout) as { bytes: { parsed: number }; parser: { threads: number } };
  return { ms, bytes: summary.bytes.parsed, threads: summary.parser.threads };
}

const scratch = mkdtempSync(join(tmpdir(), 'knowing-threads-'));
const rows: { repo: string; mb: number; one: number[]; two: number[]; unset: number }[] = [];
try {
  for (const repo of repos) {
    const root = join(corpus, repo);
    const one: number[] = [];
    const two: number[] = [];
    let bytes = 0;
    for (let run = 0; run < runs; run++) {
      const single = indexOnce(root, scratch, '1');
      one.push(single.ms);
      bytes = single.bytes;
      two.push(indexOnce(root, scratch, '2').ms);
    }
    const unset = indexOnce(root, scratch, undefined).threads;
    rows.push({ repo, mb: bytes / 1e6, one, two, unset });
    if (!values.json) process.stderr.write(`${repo}: done\n`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (values.json) {
  process.stdout.write(`${JSON.stringify({ cores: availableParallelism(), runs, rows }, null, 2)}\n`);
} else {
  process.stdout.write(`${availableParallelism()} cores, ${runs} alternating runs per setting, medians (nearest rank)\n`);
  const table = formatTable(
    ['repository', 'MB parsed', '--workers 1 (ms)', '--workers 2 (ms)', '2 ÷ 1', 'unset: threads'],
    rows.map((row) => [
      row.repo,
      row.mb.toFixed(2),
      median(row.one).toFixed(0),
      median(row.two).toFixed(0),
      `${(median(row.two) / median(row.one)).toFixed(2)}×`,
      String(row.unset),
    ]),
    ['left', 'right', 'right', 'right', 'right', 'right'],
  );
  for (const line of table) process.stdout.write(`${line}\n`);
}
