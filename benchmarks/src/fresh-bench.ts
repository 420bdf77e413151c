/**
 * Freshness benchmark: what the CLI's refresh before an answer adds to `knowing context`.
 *
 *   pnpm bench:fresh --repo <checkout> [--runs 15] [--task "…"] [--budget N] [--keep] [--json]
 *
 * Copies the checkout to a temporary directory (without its .knowing/: the checkout itself is
 * never written), indexes the copy with the built CLI, then runs `knowing context --task …
 * --format gcf` as fresh processes, round after round, alternating:
 *   A. --no-refresh: no check at all (the baseline);
 *   B. the default, with nothing changed: the check finds nothing;
 *   C. the default, after a one-file edit: a comment line with a new word put into the body of
 *      a mid-sized function (the check finds the file, the indexer re-indexes it). The answer
 *      must rank that function: its rank is reported.
 * Every run's task is the base task plus a word of its own (in C, the word of the edit), so no
 * answer comes from the answer cache. A first round warms the file cache and is not counted.
 * Prints the median and p95 wall time and the median CPU time (every thread of the process) of
 * each, the time B and C add to A (the median over rounds of each round's difference: the runs
 * of a round share the machine's load), the refresh time C's note on stderr reports, and the
 * check alone: importing @knowing/indexer/fresh and running checkFreshness once in a fresh process.
 *
 * Needs the built CLI and indexer: `pnpm --filter knowing... build` in the repository root. With
 * other work going on in the tree, run a copy of the built packages instead (--bin <copy>/packages/cli/dist/bin.cjs).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createSqliteStore } from '@knowing/store-sqlite';
import { distribution, fmtMs, formatTable, UsageError } from './perf-lib.js';
import type { Distribution } from './perf-lib.js';
import { builtCliBin, filesFromMiddle, staleBuilds } from './perf-measure.js';

const USAGE = 'usage: pnpm bench:fresh --repo <checkout> [--runs 15] [--task "…"] [--budget N] [--bin <knowing bin.cjs>] [--keep] [--json]';
const DEFAULT_TASK = 'handle the request and report an error when the configuration is invalid';

interface Args {
  readonly repo: string;
  readonly runs: number;
  readonly task: string;
  readonly budget: number | undefined;
  /** The CLI to run (`packages/cli/dist/bin.cjs`); the indexer and store next to it are used for the check alone. */
  readonly bin: string | undefined;
  readonly keep: boolean;
  readonly json: boolean;
}

function parse(argv: readonly string[]): Args {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      repo: { type: 'string' },
      runs: { type: 'string' },
      task: { type: 'string' },
      budget: { type: 'string' },
      bin: { type: 'string' },
      keep: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    strict: true,
  });
  if (!values.repo) throw new UsageError(`--repo is required\n${USAGE}`);
  const runs = values.runs === undefined ? 15 : Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new UsageError(`--runs must be a positive whole number\n${USAGE}`);
  const budget = values.budget === undefined ? undefined : Number(values.budget);
  if (budget !== undefined && !(Number.isInteger(budget) && budget > 0)) throw new UsageError(`--budget must be a positive whole number\n${USAGE}`);
  return { repo: resolve(values.repo), runs, task: values.task ?? DEFAULT_TASK, budget, bin: values.bin && resolve(values.bin), keep: values.keep ?? false, json: values.json ?? false };
}

/**
 * Preloaded into every measured process: writes the process's CPU time (user + system, every
 * thread) to the file named by KNOWING_BENCH_CPU as it exits. Wall time is what a user waits,
 * but on a busy machine it swells with other processes' load; CPU time much less so.
 */
const CPU_PRELOAD = `
import { writeFileSync } from 'node:fs';
const out = process.env.KNOWING_BENCH_CPU;
if (out) process.on('exit', () => { const u = process.cpuUsage(); writeFileSync(out, String((u.user + u.system) / 1000)); });
`;

interface Run {
  /** Wall time from spawn to exit. */
  readonly ms: number;
  /** CPU time of the process (every thread). */
  readonly cpuMs: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <args>` as a fresh process in `cwd`; a non-zero exit is an error showing its stderr. */
function runNode(args: readonly string[], cwd: string, scratch: string): Promise<Run> {
  const cpuFile = join(scratch, 'cpu.txt');
  writeFileSync(cpuFile, '');
  const preload = join(scratch, 'cpu-preload.mjs');
  writeFileSync(preload, CPU_PRELOAD);
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', pathToFileURL(preload).href, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '', KNOWING_BENCH_CPU: cpuFile },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const ms = performance.now() - started;
      const stderr = Buffer.concat(err).toString('utf8');
      if (code !== 0) {
        reject(new Error(`\`node ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}\` exited with ${code ?? signal}:\n${stderr.trim()}`));
        return;
      }
      resolvePromise({ ms, cpuMs: Number(readFileSync(cpuFile, 'utf8')), stdout: Buffer.concat(out).toString('utf8'), stderr });
    });
  });
}

/** `a`, `b`, …, `z`, `ba`, …: letters only, so the tokenizer keeps the word whole. */
function letters(n: number): string {
  let text = '';
  do {
    text = String.fromCharCode(97 + (n % 26)) + text;
    n = Math.floor(n / 26);
  } while (n > 0);
  return text;
}

/** A word no source file holds, distinct per run and per kind of run. */
function word(kind: 'a' | 'b' | 'c', run: number): string {
  return `zqfresh${kind}${letters(run)}`;
}

const COMMENT_BY_EXTENSION: Readonly<Record<string, string>> = { '.py': '#', '.pyi': '#', '.rb': '#', '.rake': '#', '.gemspec': '#', '.ru': '#' };

interface EditTarget {
  /** Repo-relative file. */
  readonly file: string;
  /** Qualified name of the function whose body the edit goes into. */
  readonly symbol: string;
  /** The file's lines as indexed. */
  readonly lines: readonly string[];
  /** 0-based index of the function's last line: the comment goes just above it. */
  readonly before: number;
  readonly comment: string;
}

/**
 * A mid-sized function (at least three lines) in a mid-sized file of the index: the median
 * file by size, or the nearest to it that has such a function.
 */
async function pickTarget(root: string, dbPath: string): Promise<EditTarget> {
  const store = await createSqliteStore({ path: dbPath, readonly: true });
  try {
    for (const file of await filesFromMiddle(store)) {
      const functions = (await store.nodesInFile(file))
        .filter((node) => (node.kind === 'function' || node.kind === 'method') && !node.isTest && node.endLine - node.startLine >= 2)
        .sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine) || a.startLine - b.startLine);
      const node = functions[Math.floor(functions.length / 2)];
      if (!node) continue;
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      const extension = file.slice(file.lastIndexOf('.'));
      return { file, symbol: node.qualifiedName, lines, before: node.endLine - 1, comment: COMMENT_BY_EXTENSION[extension] ?? '//' };
    }
    throw new Error(`${root}: the index holds no function of three lines or more to edit`);
  } finally {
    await store.close();
  }
}

/** Put `text` into the target function's body, as a comment line above its last line (indented like it). */
function edit(root: string, target: EditTarget, text: string): void {
  const last = target.lines[target.before]!;
  const indent = /^\s*/.exec(last)![0];
  const lines = [...target.lines.slice(0, target.before), `${indent}${target.comment} ${text}`, ...target.lines.slice(target.before)];
  writeFileSync(join(root, target.file), lines.join('\n'));
}

/** Rank (0-based) of `symbol` in a gcf answer, or -1. */
function rankIn(gcf: string, symbol: string): number {
  const symbols = gcf
    .split('\n')
    .filter((line) => /^@\d+ /.test(line))
    .map((line) => line.split(' ')[2]);
  return symbols.indexOf(symbol);
}

/**
 * The check alone, in a fresh process: import @knowing/indexer/fresh, run it once. The store
 * and the engine are loaded first, as in the CLI by then (with them @knowing/graph and
 * @knowing/keywords, which the check shares).
 */
const CHECK_SCRIPT = `
const [storeUrl, engineUrl, freshUrl, root, dbPath] = process.argv.slice(1);
const { createSqliteStore } = await import(storeUrl);
await import(engineUrl);
const store = await createSqliteStore({ path: dbPath, readonly: true });
const started = performance.now();
const { checkFreshness, staleFileCount } = await import(freshUrl);
const imported = performance.now();
const report = await checkFreshness({ root, store });
const done = performance.now();
await store.close();
process.stdout.write(JSON.stringify({ importMs: imported - started, checkMs: done - imported, discovered: report.discovered, stale: staleFileCount(report), hashed: report.hashed }));
`;

/** Wall and CPU time of one kind of run, and what it added to the --no-refresh run of the same round. */
interface Timing {
  readonly wall: Distribution;
  readonly cpu: Distribution;
  /** Per round, this run's time minus the --no-refresh run's (paired: both ran under the same load). */
  readonly addedWall: Distribution;
  readonly addedCpu: Distribution;
}

interface Figures {
  readonly repo: string;
  /** The CLI that ran. */
  readonly bin: string;
  readonly files: number;
  readonly target: { readonly file: string; readonly symbol: string };
  readonly runs: number;
  /** Load average over the last minute when the runs started and ended (other work on the machine swells wall times). */
  readonly loadAverage: readonly [number, number];
  readonly noRefresh: Timing;
  readonly noChange: Timing;
  readonly oneFile: Timing;
  /** What the CLI's note said the refresh took (check, indexer import, re-index), per C run. */
  readonly refreshNoteMs: Distribution;
  /** Rank of the edited function in each C answer (0 = first; -1 = missing). */
  readonly ranks: readonly number[];
  /** The check alone in a fresh process (store open, engine loaded): the import of @knowing/indexer/fresh and one checkFreshness. */
  readonly checkAlone: { readonly importMs: Distribution; readonly checkMs: Distribution; readonly hashed: number; readonly stale: number };
}

function timing(runs: readonly Run[], baseline: readonly Run[]): Timing {
  return {
    wall: distribution(runs.map((r) => r.ms)),
    cpu: distribution(runs.map((r) => r.cpuMs)),
    addedWall: distribution(runs.map((r, i) => r.ms - baseline[i]!.ms)),
    addedCpu: distribution(runs.map((r, i) => r.cpuMs - baseline[i]!.cpuMs)),
  };
}

async function measure(args: Args): Promise<Figures> {
  // A copy of the built packages (--bin) keeps the figures apart from builds going on in the tree.
  const bin = args.bin ?? builtCliBin();
  const packages = resolve(bin, '..', '..', '..');
  const stale = args.bin ? [] : staleBuilds(['indexer', 'cli', 'engine', 'store-sqlite']);
  if (stale.length > 0) process.stderr.write(`warning: sources newer than the build in ${stale.join(', ')}: the figures may not be this tree's (pnpm --filter knowing... build)\n`);
  const scratch = mkdtempSync(join(tmpdir(), 'knowing-fresh-bench-'));
  const root = join(scratch, basename(args.repo));
  cpSync(args.repo, root, { recursive: true, filter: (source) => basename(source) !== '.knowing' });
  try {
    const dbPath = join(root, '.knowing', 'graph.db');
    const cli = (extra: readonly string[]): Promise<Run> => runNode([bin, ...extra], root, scratch);
    await cli(['index', '--quiet']);
    // Directories written within the last 2 s are listed again by every walk (their mtime could
    // still move unseen): wait, and index again, as in a checkout that is not being copied.
    await new Promise((wait) => setTimeout(wait, 2_100));
    const indexed = JSON.parse((await cli(['index', '--json'])).stdout) as { files: { discovered: number } };
    const target = await pickTarget(root, dbPath);
    const context = (task: string, extra: readonly string[] = []): Promise<Run> =>
      cli(['context', '--task', task, '--format', 'gcf', ...(args.budget !== undefined ? ['--budget', String(args.budget)] : []), ...extra]);

    const a: Run[] = [];
    const b: Run[] = [];
    const c: Run[] = [];
    const notes: number[] = [];
    const ranks: number[] = [];
    const importMs: number[] = [];
    const checkMs: number[] = [];
    let checkStale = 0;
    let checkHashed = 0;
    const storeUrl = pathToFileURL(join(packages, 'store-sqlite', 'dist', 'index.js')).href;
    const engineUrl = pathToFileURL(join(packages, 'engine', 'dist', 'index.js')).href;
    const freshUrl = pathToFileURL(join(packages, 'indexer', 'dist', 'fresh.js')).href;
    const loadBefore = loadavg()[0]!;
    // Round 0 warms the caches and is not counted.
    for (let round = 0; round <= args.runs; round++) {
      const counted = round > 0;
      const noRefresh = await context(`${args.task} ${word('a', round)}`, ['--no-refresh']);
      const noChange = await context(`${args.task} ${word('b', round)}`);
      if (noChange.stderr.includes('re-indexed')) throw new Error(`nothing changed, yet the CLI re-indexed:\n${noChange.stderr}`);
      const check = JSON.parse((await runNode(['--input-type=module', '-e', CHECK_SCRIPT, storeUrl, engineUrl, freshUrl, root, dbPath], root, scratch)).stdout) as {
        importMs: number;
        checkMs: number;
        stale: number;
        hashed: number;
      };
      const newWord = word('c', round);
      edit(root, target, `${newWord} marks this function for the freshness benchmark`);
      const oneFile = await context(`${args.task} ${newWord}`);
      const note = /re-indexed 1 changed file in (\d+(?:\.\d+)?) (ms|s)\b/.exec(oneFile.stderr);
      if (!note) throw new Error(`the edit of ${target.file} was not re-indexed:\n${oneFile.stderr}`);
      if (!counted) continue;
      a.push(noRefresh);
      b.push(noChange);
      c.push(oneFile);
      notes.push(Number(note[1]) * (note[2] === 's' ? 1000 : 1));
      ranks.push(rankIn(oneFile.stdout, target.symbol));
      importMs.push(check.importMs);
      checkMs.push(check.checkMs);
      checkStale = Math.max(checkStale, check.stale);
      checkHashed = Math.max(checkHashed, check.hashed);
      process.stderr.write(`round ${round}/${args.runs}: ${fmtMs(noRefresh.ms)} / ${fmtMs(noChange.ms)} / ${fmtMs(oneFile.ms)} ms  \r`);
    }
    process.stderr.write('\n');
    return {
      repo: args.repo,
      bin,
      files: indexed.files.discovered,
      target: { file: target.file, symbol: target.symbol },
      runs: args.runs,
      loadAverage: [loadBefore, loadavg()[0]!],
      noRefresh: timing(a, a),
      noChange: timing(b, a),
      oneFile: timing(c, a),
      refreshNoteMs: distribution(notes),
      ranks,
      checkAlone: { importMs: distribution(importMs), checkMs: distribution(checkMs), hashed: checkHashed, stale: checkStale },
    };
  } finally {
    if (args.keep) process.stderr.write(`kept the copy at ${root}\n`);
    else rmSync(scratch, { recursive: true, force: true });
  }
}

function report(f: Figures): string[] {
  const added = (t: Timing, key: 'addedWall' | 'addedCpu'): string => {
    const ms = t[key].p50;
    return `${ms >= 0 ? '+' : ''}${fmtMs(ms)}`;
  };
  const row = (label: string, t: Timing, baseline = false): string[] => [
    label,
    fmtMs(t.wall.p50),
    fmtMs(t.wall.p95),
    baseline ? '' : added(t, 'addedWall'),
    fmtMs(t.cpu.p50),
    baseline ? '' : added(t, 'addedCpu'),
  ];
  const rows = [
    row('knowing context --no-refresh', f.noRefresh, true),
    row('knowing context, nothing changed (check)', f.noChange),
    row('knowing context, one file edited (check + re-index)', f.oneFile),
  ];
  const first = f.ranks.filter((rank) => rank === 0).length;
  const missing = f.ranks.filter((rank) => rank < 0).length;
  return [
    `fresh-bench: ${f.repo} (${f.files} files), ${f.runs} rounds of fresh processes through ${f.bin}, alternating`,
    `load average ${f.loadAverage[0].toFixed(1)} → ${f.loadAverage[1].toFixed(1)} on ${cpus().length} cores (wall times swell with it; CPU times much less)`,
    '',
    ...formatTable(['run', 'wall p50', 'wall p95', 'added', 'cpu p50', 'added'], rows, ['left', 'right', 'right', 'right', 'right', 'right']),
    '',
    `added: the median over rounds of the difference from that round's --no-refresh run, in ms. One-file edit: a comment line in the body of ${f.target.symbol}`,
    `  the CLI's note: re-indexed in ${fmtMs(f.refreshNoteMs.p50)} ms p50, ${fmtMs(f.refreshNoteMs.p95)} ms p95 (check, indexer import, re-index)`,
    `  the edited function ranked first in ${first} of ${f.ranks.length} answers${missing > 0 ? `, missing from ${missing}` : ''}`,
    `the check alone, in a fresh process with the store and the engine loaded: import @knowing/indexer/fresh ${fmtMs(f.checkAlone.importMs.p50)} ms p50, checkFreshness ${fmtMs(f.checkAlone.checkMs.p50)} ms p50 (${fmtMs(f.checkAlone.checkMs.p95)} p95; ${fmtMs(f.checkAlone.checkMs.min)} min), ${f.checkAlone.hashed} files hashed, ${f.checkAlone.stale} stale`,
  ];
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parse(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const figures = await measure(args);
  if (args.json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  else process.stdout.write(`${report(figures).join('\n')}\n`);
}

await main();
