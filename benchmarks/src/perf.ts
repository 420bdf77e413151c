/**
 * Performance benchmark, one command for every figure of a repository:
 *
 *   pnpm bench:perf --corpus <dir> [--repos flask,spark-java] [--json] [--out file]
 *     [--bench <knowing-corpus dir>] [--budget 4000] [--cli-tasks 8] [--edits 3] [--workers N] [--keep]
 *
 * For each repository (the directories of the corpus, or --repos), in a child process of its
 * own so that peak RSS is that repository's:
 *   1. full index into a fresh database with the built indexer (worker threads): files, MB,
 *      wall time, MB/s, files/s, peak RSS, database size;
 *   2. re-index with nothing changed, then `--edits` cycles of appending a comment to one
 *      mid-sized file, re-indexing, restoring it: first and median time in-process;
 *   3. the same edit cycles through `knowing index <repo> --db <db>` as a fresh process each
 *      time (wall time; the indexer's own time comes from its --json summary);
 *   4. on that database, with the repository's tasks from <bench>/tasks/<repo>/: adjacency
 *      build (from the edges) and load (from its note) time, forTask p50/p95 cold (pipeline,
 *      answer cache bypassed) and warm (answer cache) in-process;
 *   5. `knowing context --task … --db <db> --budget N` as a fresh process over --cli-tasks
 *      tasks spread over the task list: first run (pipeline) and repeated (the answer cache
 *      the first run left in the database), wall time p50/p95.
 * Prints a table and a details block, and writes everything as JSON to
 * benchmarks/results/perf-latest.json (or --out). Edited corpus files are journalled and
 * restored even when a run is interrupted or killed (see edit-journal.ts).
 *
 * Needs the built CLI and indexer: `pnpm --filter knowing... build` in the repository root.
 * The in-process engine and store run from TypeScript sources, as in the other benchmarks.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '@knowing/engine';
import { createSqliteStore } from '@knowing/store-sqlite';
import { readManifest, readTasks } from './corpus.js';
import { editFile, journalFor, restoreOnExit, restorePendingEdit } from './edit-journal.js';
import { distribution, fmt, fmtMs, fmtP, formatTable, median, parsePerfArgs, sampleEvenly, UsageError } from './perf-lib.js';
import type { Distribution, PerfArgs } from './perf-lib.js';
import {
  builtCliBin,
  builtIndexerDist,
  editComment,
  headCommit,
  listRepos,
  loadBuiltIndexer,
  measureAdjacency,
  measureForTask,
  measureIndexing,
  reportToParent,
  runRepoInChild,
  staleBuilds,
  timeNodeOk,
} from './perf-measure.js';
import type { ProcessRun } from './perf-measure.js';

const HERE = import.meta.dirname ?? dirname(fileURLToPath(import.meta.url));
const DEFAULT_OUT = resolve(HERE, '../results/perf-latest.json');
const DEFAULT_BENCH = resolve(HERE, '../../../shared/bench/knowing-corpus');
const MONOREPO = resolve(HERE, '../..');
const PACK_NOTE_KIND = 'context_pack'; // the engine's answer cache notes (engine.ts)
const STARTUP_RUNS = 5;

interface CliIndexRun {
  /** Wall time of the whole `knowing index` process. */
  readonly ms: number;
  /** The indexer's own time (timings.totalMs of its --json summary). */
  readonly indexerMs: number;
  readonly parsed: number;
}

interface CliContextRun {
  readonly task: string;
  readonly run: 'first' | 'repeated';
  readonly ms: number;
  /** Whether the CLI said the pack came from the answer cache. */
  readonly cached: boolean;
}

interface RepoPerf {
  readonly repo: string;
  /** HEAD of the checkout, else the commit the benchmark corpus manifest names. */
  readonly commit: string | null;
  readonly commitFrom: 'checkout' | 'manifest' | null;
  readonly database: string | null;
  readonly index: {
    readonly files: number;
    readonly mb: number;
    readonly nodes: number;
    readonly edges: number;
    readonly fullMs: number;
    readonly mbPerSecond: number;
    readonly filesPerSecond: number;
    readonly phases: { discoverMs: number; parseMs: number; resolveMs: number; writeMs: number };
    readonly parser: string;
    readonly baselineRssMb: number;
    readonly fullPeakRssMb: number;
    readonly peakRssMb: number;
    readonly dbMb: number;
  };
  readonly reindex: {
    readonly noChangeMs: number;
    readonly touchedFile: string | null;
    readonly oneFileMs: readonly number[];
    readonly oneFileMedianMs: number;
    readonly oneFileFirstMs: number;
    readonly oneFileParsed: number | null;
    readonly cliNoChange: CliIndexRun;
    readonly cliOneFile: readonly CliIndexRun[];
    readonly cliOneFileMedianMs: number;
  };
  readonly query: {
    readonly tasks: number;
    readonly budget: number;
    readonly adjacencyBuildMs: number;
    readonly adjacencyLoadMs: number;
    readonly adjacencyLoadSource: string;
    readonly cold: Distribution;
    readonly warm: Distribution;
    readonly cli: {
      readonly tasks: number;
      /** `knowing --version`, run before each task's pair: start-up under the same load. */
      readonly startup: Distribution;
      readonly first: Distribution;
      readonly repeated: Distribution;
      readonly runs: readonly CliContextRun[];
    };
  };
}

interface PerfReport {
  readonly benchmark: 'perf';
  readonly date: string;
  readonly corpus: string;
  readonly bench: string;
  readonly knowingCommit: string | null;
  readonly staleBuilds: readonly string[];
  readonly machine: { readonly cores: number; readonly cpu: string; readonly node: string };
  readonly startup: { readonly runs: number; readonly nodeBare: Distribution; readonly knowingVersion: Distribution };
  readonly repos: readonly RepoPerf[];
}

const round = (ms: number): number => Math.round(ms * 100) / 100;

function cliIndexRun(run: ProcessRun): CliIndexRun {
  const summary = JSON.parse(run.stdout) as { timings: { totalMs: number }; files: { parsed: number } };
  return { ms: round(run.ms), indexerMs: round(summary.timings.totalMs), parsed: summary.files.parsed };
}

/** Everything for one repository; runs in the child process. */
async function perfRepo(args: PerfArgs, repo: string): Promise<RepoPerf> {
  const bin = builtCliBin();
  const { indexRepository } = await loadBuiltIndexer();
  const root = join(args.corpus, repo);
  const tasks = (readTasks(args.bench ?? DEFAULT_BENCH).get(repo) ?? []).map((t) => t.description);
  const journal = journalFor(root);
  restoreOnExit(journal);
  const dbDir = mkdtempSync(join(tmpdir(), `knowing-perf-${repo}-`));
  const dbPath = join(dbDir, 'graph.db');
  // Also on Ctrl-C, which ends this process without running the finally below.
  if (!args.keep) process.on('exit', () => rmSync(dbDir, { recursive: true, force: true }));
  const cli = (...rest: string[]): string[] => [bin, ...rest, '--db', dbPath, '--repo', root];
  try {
    // 1–2. In-process indexing.
    let store = await createSqliteStore({ path: dbPath });
    const f = await measureIndexing({ indexRepository, root, store, dbPath, journal, edits: args.edits, workers: args.workers });
    // The adjacency and communities `knowing index` leaves behind, so that the CLI's no-change
    // run below finds them as it would after any earlier `knowing index`.
    await createEngine({ store }).warm();
    await store.close();

    // 3. The CLI as a fresh process.
    const indexArgs = cli('index', root, '--json', ...(args.workers !== undefined ? ['--workers', String(args.workers)] : []));
    const cliNoChange = cliIndexRun(await timeNodeOk(indexArgs, { cwd: root, keepStdout: true }));
    const cliOneFile: CliIndexRun[] = [];
    if (f.touchedFile) {
      for (let cycle = 0; cycle < args.edits; cycle++) {
        const edit = editFile(join(root, f.touchedFile), editComment(f.touchedFile, `cli ${cycle}`), journal);
        try {
          cliOneFile.push(cliIndexRun(await timeNodeOk(indexArgs, { cwd: root, keepStdout: true })));
        } finally {
          edit.restore();
        }
        await timeNodeOk(indexArgs, { cwd: root, keepStdout: true });
      }
    }

    // 4. Queries in-process, on a store no engine has touched yet.
    store = await createSqliteStore({ path: dbPath });
    const adjacency = await measureAdjacency(store);
    const engine = createEngine({ store });
    await engine.warm();
    const times = await measureForTask(engine, tasks, args.budget);
    // The CLI's first run per task must run the pipeline, not find this run's answers.
    await store.deleteNotes({ kind: PACK_NOTE_KIND });
    await store.close();

    // 5. `knowing context` as a fresh process: first run, then the same task again.
    const runs: CliContextRun[] = [];
    const first: number[] = [];
    const repeated: number[] = [];
    const startup: number[] = [];
    for (const task of sampleEvenly(tasks, args.cliTasks)) {
      startup.push((await timeNodeOk([bin, '--version'])).ms);
      const contextArgs = cli('context', '--task', task, '--budget', String(args.budget));
      for (const [kind, into] of [['first', first], ['repeated', repeated]] as const) {
        const run = await timeNodeOk(contextArgs, { cwd: root });
        into.push(run.ms);
        runs.push({ task, run: kind, ms: round(run.ms), cached: run.stderr.includes('from cache') });
      }
    }

    const head = headCommit(root);
    const pinned = head ? null : (readManifest(args.bench ?? DEFAULT_BENCH).find((m) => m.name === repo)?.commit ?? null);
    const { full } = f;
    const oneFileMs = f.oneFile.map((r) => r.ms);
    const mid = f.oneFile.find((r) => r.ms === median(oneFileMs));
    const mb = full.bytes.total / 1e6;
    const seconds = f.fullMs / 1000;
    return {
      repo,
      commit: head ?? pinned,
      commitFrom: head ? 'checkout' : pinned ? 'manifest' : null,
      database: args.keep ? dbPath : null,
      index: {
        files: full.files.discovered,
        mb,
        nodes: full.nodes,
        edges: full.edges,
        fullMs: round(f.fullMs),
        mbPerSecond: mb / seconds,
        filesPerSecond: full.files.discovered / seconds,
        phases: { discoverMs: full.timings.discoverMs, parseMs: full.timings.parseMs, resolveMs: full.timings.resolveMs, writeMs: full.timings.writeMs },
        parser: full.parser.inWorkers ? `${full.parser.threads} workers` : 'in-thread',
        baselineRssMb: f.baselineRssMb,
        fullPeakRssMb: f.fullPeakRssMb,
        peakRssMb: f.peakRssMb,
        dbMb: f.dbMb,
      },
      reindex: {
        noChangeMs: round(f.noChange.ms),
        touchedFile: f.touchedFile,
        oneFileMs: oneFileMs.map(round),
        oneFileMedianMs: round(median(oneFileMs)),
        oneFileFirstMs: round(oneFileMs[0] ?? Number.NaN),
        oneFileParsed: mid?.summary.files.parsed ?? null,
        cliNoChange,
        cliOneFile,
        cliOneFileMedianMs: median(cliOneFile.map((r) => r.ms)),
      },
      query: {
        tasks: tasks.length,
        budget: args.budget,
        adjacencyBuildMs: round(adjacency.buildMs),
        adjacencyLoadMs: round(adjacency.loadMs),
        adjacencyLoadSource: adjacency.loadSource,
        cold: distribution(times.cold),
        warm: distribution(times.warm),
        cli: { tasks: first.length, startup: distribution(startup), first: distribution(first), repeated: distribution(repeated), runs },
      },
    };
  } finally {
    if (!args.keep) rmSync(dbDir, { recursive: true, force: true });
  }
}

/** Start-up cost of a bare node and of the CLI (`knowing --version` loads every module). */
async function measureStartup(bin: string): Promise<PerfReport['startup']> {
  const bare: number[] = [];
  const version: number[] = [];
  for (let i = 0; i < STARTUP_RUNS; i++) {
    bare.push((await timeNodeOk(['-e', '0'])).ms);
    version.push((await timeNodeOk([bin, '--version'])).ms);
  }
  return { runs: STARTUP_RUNS, nodeBare: distribution(bare), knowingVersion: distribution(version) };
}

function knowingCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: MONOREPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return headCommit(MONOREPO);
  }
}

function summaryTable(repos: readonly RepoPerf[]): string[] {
  const header = ['repo', 'files', 'MB', 'index s', 'MB/s', 'files/s', 'RSS MB', 'db MB', 'no-change', '1 file', 'CLI 1 file', 'adj build/load', 'forTask cold', 'warm', 'CLI context'];
  const rows = repos.map((r) => [
    r.repo,
    fmt(r.index.files),
    fmt(r.index.mb, 1),
    fmt(r.index.fullMs / 1000, 1),
    fmt(r.index.mbPerSecond, 2),
    fmt(r.index.filesPerSecond),
    fmt(r.index.peakRssMb),
    fmt(r.index.dbMb, 1),
    fmtMs(r.reindex.noChangeMs),
    fmtMs(r.reindex.oneFileMedianMs),
    fmtMs(r.reindex.cliOneFileMedianMs),
    `${fmtMs(r.query.adjacencyBuildMs)}/${fmtMs(r.query.adjacencyLoadMs)}`,
    fmtP(r.query.cold),
    fmtP(r.query.warm),
    fmtP(r.query.cli.first),
  ]);
  return formatTable(header, rows, ['left', ...Array<'right'>(header.length - 1).fill('right')]);
}

function cacheHits(runs: readonly CliContextRun[], kind: CliContextRun['run']): string {
  const of = runs.filter((r) => r.run === kind);
  return `${of.filter((r) => r.cached).length}/${of.length}`;
}

function print(report: PerfReport): void {
  const { startup } = report;
  const lines = [
    `perf benchmark — corpus ${report.corpus}, tasks ${report.bench}/tasks, knowing ${report.knowingCommit?.slice(0, 12) ?? '?'}, ` +
      `${report.machine.cores} cores (${report.machine.cpu}), node ${report.machine.node}`,
    `start-up (p50 of ${startup.runs}): node -e 0 ${fmtMs(startup.nodeBare.p50)} ms, knowing --version ${fmtMs(startup.knowingVersion.p50)} ms`,
    ...(report.staleBuilds.length ? [`warning: dist/ older than src/ in ${report.staleBuilds.join(', ')} — the CLI figures are of the last build`] : []),
    '',
    ...summaryTable(report.repos),
    '',
    'times in ms unless named; re-index "1 file" = median of the edit cycles; latencies p50/p95; CLI context = first run per task',
  ];
  for (const r of report.repos) {
    const { index: i, reindex: x, query: q } = r;
    const cliRest = (run: CliIndexRun): string => `${fmtMs(run.ms)} ms (indexer ${fmtMs(run.indexerMs)}, rest ${fmtMs(run.ms - run.indexerMs)})`;
    const firstCli = x.cliOneFile[0];
    lines.push(
      '',
      `${r.repo}${r.commit ? ` @ ${r.commit.slice(0, 12)}${r.commitFrom === 'manifest' ? ' (manifest; not a git checkout)' : ''}` : ''}: ${fmt(i.files)} files, ${fmt(i.mb, 2)} MB, ${fmt(i.nodes)} nodes, ${fmt(i.edges)} edges${r.database ? `, db ${r.database}` : ''}`,
      `  full index ${fmtMs(i.fullMs)} ms (discover ${fmtMs(i.phases.discoverMs)} / parse ${fmtMs(i.phases.parseMs)} / resolve ${fmtMs(i.phases.resolveMs)} / write ${fmtMs(i.phases.writeMs)}), ${i.parser}; ` +
        `peak RSS ${fmt(i.fullPeakRssMb)} MB after the full index (${fmt(i.baselineRssMb)} MB before it), ${fmt(i.peakRssMb)} MB after the re-indexes; db ${fmt(i.dbMb, 1)} MB`,
      `  re-index in-process: nothing changed ${fmtMs(x.noChangeMs)} ms; ${x.touchedFile ?? '(no file to edit)'} edited: median ${fmtMs(x.oneFileMedianMs)} ms of ${x.oneFileMs.length}, first ${fmtMs(x.oneFileFirstMs)} ms (parsed ${x.oneFileParsed ?? '–'})`,
      `  knowing index (fresh process, wall): nothing changed ${cliRest(x.cliNoChange)}; one file edited median ${fmtMs(x.cliOneFileMedianMs)} ms of ${x.cliOneFile.length}` +
        (firstCli ? `, first ${cliRest(firstCli)}` : ''),
      `  adjacency build ${fmtMs(q.adjacencyBuildMs)} ms, load ${fmtMs(q.adjacencyLoadMs)} ms (${q.adjacencyLoadSource}); ` +
        `forTask over ${q.tasks} tasks, budget ${q.budget}: cold p50/p95 ${fmtP(q.cold)} ms, warm ${fmtP(q.warm)} ms`,
      `  knowing context (fresh process, wall) over ${q.cli.tasks} of ${q.tasks} tasks: first run p50/p95 ${fmtP(q.cli.first)} ms, ` +
        `repeated (answer cache in the db) ${fmtP(q.cli.repeated)} ms, knowing --version ${fmtP(q.cli.startup)} ms; ` +
        `said "from cache": ${cacheHits(q.cli.runs, 'first')} first runs, ${cacheHits(q.cli.runs, 'repeated')} repeated`,
    );
    if (q.tasks === 0) lines.push(`  no tasks for ${r.repo} in ${report.bench}/tasks — no query figures`);
  }
  console.log(lines.join('\n'));
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let args: PerfArgs;
  try {
    args = parsePerfArgs(argv, process.env.INIT_CWD ?? process.cwd());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`bench:perf: ${error.message}\n`);
    process.exit(2);
  }
  if (args.child) {
    const repo = args.child;
    await reportToParent(() => perfRepo(args, repo));
    return;
  }
  const bin = builtCliBin();
  builtIndexerDist();
  const repos = listRepos(args.corpus, args.repos);
  const bench = args.bench ?? DEFAULT_BENCH;
  const stale = staleBuilds(['cli', 'indexer', 'engine', 'store-sqlite', 'walk', 'wire', 'pack', 'rank', 'keywords', 'equivalence', 'graph', 'mcp']);
  if (stale.length) process.stderr.write(`warning: dist/ is older than src/ in ${stale.join(', ')}: \`pnpm --filter knowing... build\` to measure this tree\n`);
  let startup: PerfReport['startup'];
  try {
    startup = await measureStartup(bin);
  } catch (error) {
    throw new Error(`the built CLI does not start — rebuild it and its dependencies: \`pnpm --filter knowing... build\`\n${(error as Error).message}`);
  }

  const script = fileURLToPath(import.meta.url);
  const childArgv = argv.filter((_, i) => argv[i] !== '--child' && argv[i - 1] !== '--child');
  const results: RepoPerf[] = [];
  for (const repo of repos) {
    const journal = journalFor(join(args.corpus, repo));
    const leftover = restorePendingEdit(journal);
    if (leftover) process.stderr.write(`restored ${leftover}, left edited by an earlier run\n`);
    if (!args.json) process.stderr.write(`${repo}…\n`);
    results.push(await runRepoInChild<RepoPerf>(script, childArgv, repo, () => void restorePendingEdit(journal)));
  }

  const report: PerfReport = {
    benchmark: 'perf',
    date: new Date().toISOString(),
    corpus: args.corpus,
    bench,
    knowingCommit: knowingCommit(),
    staleBuilds: stale,
    machine: { cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
    startup,
    repos: results,
  };
  const out = args.out ?? DEFAULT_OUT;
  mkdirSync(dirname(out), { recursive: true });
  // Milliseconds to the hundredth are precise enough for figures this noisy.
  const json = JSON.stringify(report, (_, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 100) / 100 : v), 2);
  writeFileSync(out, `${json}\n`);
  if (args.json) console.log(json);
  else {
    print(report);
    console.log(`\nJSON: ${out}`);
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`bench:perf: ${message}\n`);
  process.exit(/interrupted \(SIG/.test(message) ? 130 : 1);
});
