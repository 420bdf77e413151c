/**
 * Where a cold `knowing context` spends its time: the command as `bench:peers` times it (its
 * own process, `--no-watcher --fresh --no-refresh`), taken apart phase by phase.
 *
 *   pnpm bench:cold --corpus <dir> [--repos caddy,cargo] [--runs 7] [--task "…"] [--budget 5000] [--json]
 *
 * Per repository of the corpus (a checkout with its index, `.knowing/graph.db`), each run
 * starts, in turn: `node -e 0` (Node alone), the built CLI answering the task (wall time, spawn
 * to exit), and cold-probe.mjs, a fresh process that does what the command does with the built
 * packages and times each phase from inside: Node's own start, each package's import (leaves
 * first), the tokenizer's start, opening the index, the engine, the graph state, every
 * stage of the query (the engine's trace) and the formatting with its token counts, each with
 * the minor page faults the phase took (a first touch of fresh memory; the query's stages
 * together). The CLI
 * runs `context` from its one bundle through a V8 code cache (cli/src/compile-cache.ts), which
 * the probe does not: its imports are what a start without that cache costs. Prints the median
 * of each over the runs. `--bin` adds other builds of the CLI (say, of the base branch), timed
 * in the same runs, so that a change is measured under the same load. The index is copied to a
 * temporary directory first (the corpus is never written). Needs the built packages: `pnpm build`.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fmtMs, formatTable, median } from './perf-lib.js';
import { taskFor } from './peers-lib.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILT_BIN = join(ROOT, 'packages/cli/dist/bin.cjs');
const PROBE = fileURLToPath(new URL('./cold-probe.mjs', import.meta.url));
const USAGE = 'usage: pnpm bench:cold --corpus <dir> [--repos caddy,cargo] [--runs 7] [--task "…"] [--budget 5000] [--bin FILE …] [--json]\n';

/**
 * The packages `knowing context` loads and their built entries, leaves first, in the command's
 * order: the formats and the store, then (after the tokenizer started) the engine's.
 */
const PACKAGES: Readonly<Record<string, string>> = {
  '@knowing/graph': 'graph/dist/index.js',
  '@knowing/pack': 'pack/dist/index.js',
  '@knowing/wire': 'wire/dist/index.js',
  '@knowing/store-sqlite': 'store-sqlite/dist/index.js',
  '@knowing/keywords': 'keywords/dist/index.js',
  '@knowing/equivalence': 'equivalence/dist/index.js',
  '@knowing/walk': 'walk/dist/index.js',
  '@knowing/rank': 'rank/dist/index.js',
  '@knowing/engine': 'engine/dist/index.js',
  '@knowing/history/model': 'history/dist/model.js',
};

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    repos: { type: 'string', default: 'caddy,cargo' },
    runs: { type: 'string', default: '7' },
    task: { type: 'string' },
    budget: { type: 'string', default: '5000' },
    bin: { type: 'string', multiple: true },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help || values.corpus === undefined) {
  process.stdout.write(USAGE);
  process.exit(values.help ? 0 : 2);
}
const cwd = process.env.INIT_CWD ?? process.cwd();
const corpus = resolve(cwd, values.corpus);
const runs = Number(values.runs);
const budget = Number(values.budget);
// Another build of the CLI (say, of the base branch) to time beside this one, run by run.
const bins = [BUILT_BIN, ...(values.bin ?? []).map((bin) => resolve(cwd, bin))];
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(budget) || budget < 1) {
  process.stderr.write(USAGE);
  process.exit(2);
}
const entries = Object.fromEntries(Object.entries(PACKAGES).map(([name, dist]) => [name, join(ROOT, 'packages', dist)]));
for (const file of [...bins, ...Object.values(entries)]) {
  if (!existsSync(file)) {
    process.stderr.write(`${file} is missing: build first (pnpm build in the repository root)\n`);
    process.exit(2);
  }
}

/** Runs a command to its end; wall time from spawn to exit, and its stdout. */
function timed(args: readonly string[]): Promise<{ ms: number; stdout: string }> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      if (code === 0) done({ ms, stdout });
      else fail(new Error(`${args.join(' ')} exited with ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}`));
    });
  });
}

interface RepoFigures {
  readonly repo: string;
  readonly task: string;
  readonly nodeMs: number[];
  /** Per CLI build (this checkout's first, then each --bin): its wall times. */
  readonly cliMs: number[][];
  /** Phase name → its samples, in the order the probe reports them. */
  readonly phases: Map<string, number[]>;
  /** Phase name → the minor page faults of each sample (phases the probe counts them for). */
  readonly faults: Map<string, number[]>;
  readonly probeMs: number[];
}

async function benchRepo(repo: string, work: string): Promise<RepoFigures> {
  const root = join(corpus, repo);
  const source = join(root, '.knowing', 'graph.db');
  if (!existsSync(source)) throw new Error(`${source} is missing: index ${root} first (knowing index)`);
  // Only the index is copied: the answer reads the checkout (its model file) but never writes it.
  const db = join(work, `${repo}.db`);
  copyFileSync(source, db);
  const task = taskFor(repo, values.task);
  const cli = (bin: string): string[] => [bin, 'context', '--task', task, '--repo', root, '--db', db, '--budget', String(budget), '--no-refresh', '--fresh', '--no-watcher'];
  const probe = [PROBE, JSON.stringify({ root, db, task, budget, format: 'xml', packages: entries })];
  // Warm-up, not counted: the files into the page cache.
  for (const bin of bins) await timed(cli(bin));
  const figures: RepoFigures = { repo, task, nodeMs: [], cliMs: bins.map(() => []), phases: new Map(), faults: new Map(), probeMs: [] };
  for (let run = 0; run < runs; run++) {
    figures.nodeMs.push((await timed(['-e', '0'])).ms);
    for (const [i, bin] of bins.entries()) figures.cliMs[i]!.push((await timed(cli(bin))).ms);
    const { stdout } = await timed(probe);
    const phases = JSON.parse(stdout) as [string, number, number | null][];
    for (const [name, ms, count] of phases) {
      figures.phases.set(name, [...(figures.phases.get(name) ?? []), ms]);
      if (count !== null) figures.faults.set(name, [...(figures.faults.get(name) ?? []), count]);
    }
    figures.probeMs.push(phases.reduce((sum, [, ms]) => sum + ms, 0));
    if (process.stderr.isTTY) process.stderr.write(`\r${repo}: run ${run + 1}/${runs}`);
  }
  if (process.stderr.isTTY) process.stderr.write('\r\u001b[2K');
  return figures;
}

const work = mkdtempSync(join(tmpdir(), 'knowing-cold-'));
const results: RepoFigures[] = [];
try {
  const repos = values.repos.split(',').map((r) => r.trim()).filter(Boolean);
  const known = new Set(readdirSync(corpus));
  for (const repo of repos) {
    if (!known.has(repo)) throw new Error(`${repo} is not in ${corpus}`);
    results.push(await benchRepo(repo, work));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (values.json) {
  process.stdout.write(`${JSON.stringify(results.map((r) => ({ ...r, phases: Object.fromEntries(r.phases) })), null, 2)}\n`);
} else {
  const lines = [
    `bench:cold — ${corpus}, ${runs} runs per figure (medians), budget ${budget}, node ${process.version}, ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)}`,
  ];
  for (const r of results) {
    lines.push('', `${r.repo}: "${r.task}"`);
    const faultsOf = (name: string): string => {
      const samples = r.faults.get(name);
      return samples ? String(Math.round(median(samples))) : '';
    };
    const rows = [
      ['node -e 0 (wall)', fmtMs(median(r.nodeMs)), ''],
      ...bins.map((bin, i) => [`knowing context, cold (wall)${i === 0 ? '' : ` — ${bin}`}`, fmtMs(median(r.cliMs[i]!)), '']),
      ['probe: sum of its phases', fmtMs(median(r.probeMs)), ''],
      ...[...r.phases].map(([name, samples]) => [`  ${name}`, name === 'query: all stages' ? '' : fmtMs(median(samples)), faultsOf(name)]),
    ];
    lines.push(...formatTable(['figure', 'ms', 'page faults'], rows, ['left', 'right', 'right']));
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
