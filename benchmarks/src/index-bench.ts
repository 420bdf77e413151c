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
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createSqliteStore } from '@knowing/store-sqlite';
import type { IndexSummary } from '@knowing/indexer';

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

async function loadIndexer(built: boolean): Promise<typeof import('@knowing/indexer')> {
  if (!built) return import('@knowing/indexer');
  const dist = fileURLToPath(new URL('../../packages/indexer/dist/index.js', import.meta.url));
  if (!existsSync(dist)) throw new Error(`${dist} is missing — run \`pnpm --filter @knowing/indexer build\` first`);
  return (await import(pathToFileURL(dist).href)) as typeof import('@knowing/indexer');
}

function headCommit(dir: string): string | null {
  try {
    const head = readFileSync(join(dir, '.git', 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    const ref = /^ref:\s*(.+)$/.exec(head)?.[1];
    return ref ? readFileSync(join(dir, '.git', ref), 'utf8').trim() : null;
  } catch {
    return null;
  }
}

const EDIT_CYCLES = 3;
const COMMENT_BY_EXTENSION: Record<string, string> = { '.py': '#', '.pyi': '#', '.rb': '#' };

/** A mid-sized source file the index holds: deterministic, typical of the repository. */
async function pickFile(store: Awaited<ReturnType<typeof createSqliteStore>>): Promise<string | null> {
  const files = (await store.listFiles()).filter((f) => f.syntaxErrors === 0).sort((a, b) => a.sizeBytes - b.sizeBytes || (a.path < b.path ? -1 : 1));
  return files[Math.floor(files.length / 2)]?.path ?? null;
}

async function benchRepo(args: Args, repo: string): Promise<RepoResult> {
  const { indexRepository } = await loadIndexer(args.built);
  const root = join(args.corpus, repo);
  const dbDir = mkdtempSync(join(tmpdir(), `knowing-index-bench-${repo}-`));
  const dbPath = join(dbDir, 'graph.db');
  const store = await createSqliteStore({ path: dbPath });
  const options = {
    root,
    store,
    ...(args.workers !== undefined ? { workers: args.workers } : {}),
    ...(args.languages ? { languages: args.languages } : {}),
  };
  try {
    let started = performance.now();
    const full = await indexRepository(options);
    const fullMs = performance.now() - started;

    started = performance.now();
    const again = await indexRepository(options);
    const noChangeMs = performance.now() - started;

    // Three edit/restore cycles: the first edit runs cold code paths (as a fresh CLI process
    // would), later ones what a long-lived process (MCP server, watch mode) sees.
    const touched = await pickFile(store);
    const oneFileRuns: { ms: number; summary: IndexSummary }[] = [];
    if (touched) {
      const file = join(root, touched);
      const original = readFileSync(file);
      const { atime, mtime } = statSync(file);
      const dot = touched.lastIndexOf('.');
      const marker = COMMENT_BY_EXTENSION[touched.slice(dot)] ?? '//';
      try {
        for (let cycle = 0; cycle < EDIT_CYCLES; cycle++) {
          writeFileSync(file, Buffer.concat([original, Buffer.from(`\n${marker} knowing index-bench edit ${cycle}\n`)]));
          started = performance.now();
          const summary = await indexRepository(options);
          oneFileRuns.push({ ms: performance.now() - started, summary });
          writeFileSync(file, original);
          utimesSync(file, atime, mtime);
          await indexRepository(options);
        }
      } finally {
        writeFileSync(file, original);
        utimesSync(file, atime, mtime);
      }
    }
    const sortedRuns = [...oneFileRuns].sort((a, b) => a.ms - b.ms);
    const median = sortedRuns[Math.floor(sortedRuns.length / 2)];
    const first = oneFileRuns[0];
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
      fullMs,
      mbPerSecond: mb / (fullMs / 1000),
      timings: full.timings,
      parser: full.parser,
      noChangeMs,
      noChangeParsed: again.files.parsed,
      touchedFile: touched,
      oneFileFirstMs: first?.ms ?? null,
      oneFileMs: median?.ms ?? null,
      oneFileTimings: median?.summary.timings ?? null,
      oneFileParsed: median?.summary.files.parsed ?? null,
      oneFileWritten: median?.summary.files.written ?? null,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      dbMb: statSync(dbPath).size / 1e6,
    };
  } finally {
    await store.close();
    if (!args.keep) rmSync(dbDir, { recursive: true, force: true });
  }
}

function runChild(repo: string, argv: readonly string[]): Promise<RepoResult> {
  return new Promise((resolvePromise, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [...argv, '--child', repo], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: RepoResult | undefined;
    child.on('message', (message) => {
      result = message as RepoResult;
    });
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolvePromise(result) : reject(new Error(`${repo}: benchmark process exited with code ${code}`))));
  });
}

const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

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
    const result = await benchRepo(args, args.child);
    process.send?.(result);
    return;
  }
  // Dot-directories are scratch space (other tools' caches), not repositories.
  const repos = (args.repos ?? readdirSync(args.corpus).filter((name) => !name.startsWith('.') && statSync(join(args.corpus, name)).isDirectory())).sort();
  const results: RepoResult[] = [];
  for (const repo of repos) {
    if (!existsSync(join(args.corpus, repo))) throw new Error(`${join(args.corpus, repo)} does not exist`);
    results.push(await runChild(repo, argv.filter((_, i) => argv[i] !== '--child' && argv[i - 1] !== '--child')));
  }
  if (args.json) console.log(JSON.stringify(results, null, 2));
  else print(results, args.corpus);
}

await main();
