/**
 * Indexer benchmark: for each repository directory under a corpus, a full index into a fresh
 * SQLite database, then a no-change re-index, then a re-index after appending a comment to
 * one file (restored afterwards). Prints files, MB, nodes, edges by type, wall time, MB/s,
 * peak RSS and the re-index times.
 *
 *   node --conditions=@knowing/source --import tsx src/index-bench.ts --corpus /work/corpus [--repos flask,cargo]
 *   options: --workers N  --languages python,go  --keep (keep the databases)  --json
 *
 * Each repository runs in its own child process, so peak RSS is that repository's alone.
 * Note: run from TypeScript sources, the indexer parses in the calling thread (workers need
 * the built dist/worker.js); `pnpm --filter @knowing/indexer build` first and pass --built to
 * import the built indexer and parse in worker threads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSqliteStore } from '@knowing/store-sqlite';
import type { IndexSummary } from '@knowing/indexer';
import { journalFor, restoreOnExit, restorePendingEdit } from './edit-journal.js';
import { fmt, median } from './perf-lib.js';
import { headCommit, listRepos, loadBuiltIndexer, measureIndexing, reportToParent, runRepoInChild } from './perf-measure.js';
import type { IndexerModule } from './perf-measure.js';

interface Args {
  corpus: string;
  repos: string[] | undefined;
  workers: number | undefined;
  languages: string[] | undefined;
  keep: boolean;
  json: boolean;
  built: boolean;
  child: string | undefined;
}

interface RepoResult {
  repo: string;
  commit: string | null;
  files: number;
  mb: number;
  nodes: number;
  edges: number;
  nodesByKind: Record<string, number>;
  edgesByType: Record<string, number>;
  externalNodes: number;
  skipped: Record<string, number>;
  syntaxErrorFiles: number;
  fullMs: number;
  mbPerSecond: number;
  timings: IndexSummary['timings'];
  parser: IndexSummary['parser'];
  noChangeMs: number;
  noChangeParsed: number;
  touchedFile: string | null;
  oneFileFirstMs: number | null;
  oneFileMs: number | null;
  oneFileTimings: IndexSummary['timings'] | null;
  oneFileParsed: number | null;
  oneFileWritten: number | null;
  peakRssMb: number;
  dbMb: number;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { corpus: '', repos: undefined, workers: undefined, languages: undefined, keep: false, json: false, built: false, child: undefined };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    switch (flag) {
      case '--corpus': args.corpus = resolve(value ?? ''); i++; break;
      case '--repos': args.repos = (value ?? '').split(',').filter(Boolean); i++; break;
      case '--workers': args.workers = Number(value); i++; break;
      case '--languages': args.languages = (value ?? '').split(',').filter(Boolean); i++; break;
      case '--keep': args.keep = true; break;
      case '--json': args.json = true; break;
      case '--built': args.built = true; break;
      case '--child': args.child = value; i++; break;
      default: throw new Error(`unknown argument ${flag}`);
    }
  }
  if (!args.corpus) throw new Error('--corpus <dir> is required');
  return args;
}

const EDIT_CYCLES = 3;

async function loadIndexer(built: boolean): Promise<IndexerModule> {
  return built ? loadBuiltIndexer() : import('@knowing/indexer');
}

async function benchRepo(args: Args, repo: string): Promise<RepoResult> {
  const { indexRepository } = await loadIndexer(args.built);
  const root = join(args.corpus, repo);
  const journal = journalFor(root);
  restoreOnExit(journal);
  const dbDir = mkdtempSync(join(tmpdir(), `knowing-index-bench-${repo}-`));
  const dbPath = join(dbDir, 'graph.db');
  // Also on Ctrl-C, which ends this process without running the finally below.
  if (!args.keep) process.on('exit', () => rmSync(dbDir, { recursive: true, force: true }));
  const store = await createSqliteStore({ path: dbPath });
  try {
    // Three edit/restore cycles: the first edit runs cold code paths (as a fresh CLI process
    // would), later ones what a long-lived process (MCP server, watch mode) sees.
    const f = await measureIndexing({ indexRepository, root, store, dbPath, journal, edits: EDIT_CYCLES, workers: args.workers, languages: args.languages });
    const { full } = f;
    const medianMs = median(f.oneFile.map((r) => r.ms));
    const mid = f.oneFile.find((r) => r.ms === medianMs);
    const mb = full.bytes.total / 1e6;
    return {
      repo,
      commit: headCommit(root),
      files: full.files.discovered,
      mb,
      nodes: full.nodes,
      edges: full.edges,
      nodesByKind: { ...full.nodesByKind },
      edgesByType: { ...full.edgesByType },
      externalNodes: full.externalNodes,
      skipped: { ...full.skippedByReason } as Record<string, number>,
      syntaxErrorFiles: full.syntaxErrors.length,
      fullMs: f.fullMs,
      mbPerSecond: mb / (f.fullMs / 1000),
      timings: full.timings,
      parser: full.parser,
      noChangeMs: f.noChange.ms,
      noChangeParsed: f.noChange.summary.files.parsed,
      touchedFile: f.touchedFile,
      oneFileFirstMs: f.oneFile[0]?.ms ?? null,
      oneFileMs: mid?.ms ?? null,
      oneFileTimings: mid?.summary.timings ?? null,
      oneFileParsed: mid?.summary.files.parsed ?? null,
      oneFileWritten: mid?.summary.files.written ?? null,
      peakRssMb: f.peakRssMb,
      dbMb: f.dbMb,
    };
  } finally {
    await store.close();
    if (!args.keep) rmSync(dbDir, { recursive: true, force: true });
  }
}

function print(results: readonly RepoResult[], corpus: string): void {
  console.log(`index benchmark — corpus ${corpus}, ${cpus().length} cores, node ${process.version}`);
  for (const r of results) {
    console.log(`\n${r.repo}${r.commit ? ` @ ${r.commit.slice(0, 12)}` : ''}`);
    console.log(`  files ${fmt(r.files)}   source ${fmt(r.mb, 2)} MB   nodes ${fmt(r.nodes)} (${fmt(r.externalNodes)} external)   edges ${fmt(r.edges)}   db ${fmt(r.dbMb, 1)} MB`);
    console.log(`  full index ${fmt(r.fullMs)} ms   ${fmt(r.mbPerSecond, 2)} MB/s   peak RSS ${fmt(r.peakRssMb)} MB   parser ${r.parser.inWorkers ? `${r.parser.threads} workers` : 'in-thread'}`);
    console.log(`    phases: discover ${fmt(r.timings.discoverMs)} / parse ${fmt(r.timings.parseMs)} / resolve ${fmt(r.timings.resolveMs)} / write ${fmt(r.timings.writeMs)} ms`);
    console.log(`  re-index, nothing changed ${fmt(r.noChangeMs)} ms (parsed ${r.noChangeParsed})`);
    if (r.oneFileMs !== null) {
      console.log(
        `  re-index after editing ${r.touchedFile}: median ${fmt(r.oneFileMs)} ms of ${EDIT_CYCLES}, first ${fmt(r.oneFileFirstMs ?? 0)} ms (parsed ${r.oneFileParsed}, files rewritten ${r.oneFileWritten})`,
      );
      const t = r.oneFileTimings!;
      console.log(`    phases: discover ${fmt(t.discoverMs)} / parse ${fmt(t.parseMs)} / resolve ${fmt(t.resolveMs)} / write ${fmt(t.writeMs)} ms`);
    }
    console.log(`  nodes by kind: ${Object.entries(r.nodesByKind).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);
    console.log(`  edges by type: ${Object.entries(r.edgesByType).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);
    const skipped = Object.entries(r.skipped);
    if (skipped.length > 0) console.log(`  skipped: ${skipped.map(([k, v]) => `${k} ${v}`).join(', ')}   syntax-error files: ${r.syntaxErrorFiles}`);
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const args = parseArgs(argv);
  if (args.child) {
    const repo = args.child;
    await reportToParent(() => benchRepo(args, repo));
    return;
  }
  const script = fileURLToPath(import.meta.url);
  const childArgv = argv.filter((_, i) => argv[i] !== '--child' && argv[i - 1] !== '--child');
  const results: RepoResult[] = [];
  for (const repo of listRepos(args.corpus, args.repos)) {
    const journal = journalFor(join(args.corpus, repo));
    restorePendingEdit(journal); // left by an earlier run that was killed mid-edit
    results.push(await runRepoInChild<RepoResult>(script, childArgv, repo, () => restorePendingEdit(journal)));
  }
  if (args.json) console.log(JSON.stringify(results, null, 2));
  else print(results, args.corpus);
}

await main();
