/**
 * Retrieval benchmark: index each corpus repository, run forTask for each of its tasks, score the
 * top 10 with the corpus's matching rules, and (with --explain-misses) say where each missed
 * ground-truth symbol was lost.
 *
 *   pnpm bench:retrieval --corpus <dir> [--repos flask,caddy] [--budget 4000] [--out file] [--explain-misses]
 */
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createSqliteStore } from '@knowing/store-sqlite';
import { indexRepository } from '@knowing/indexer';
import { createEngine } from '@knowing/engine';
import type { Engine, EngineOptionsInput } from '@knowing/engine';
import { readManifest, readTasks } from './corpus.js';
import type { BenchTask } from './corpus.js';
import { normalizeSymbol, scoreTask, symbolsMatch } from './matching.js';
import type { TaskMetrics } from './matching.js';

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = resolve(here, '../..');

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    repos: { type: 'string' },
    budget: { type: 'string', default: '4000' },
    out: { type: 'string' },
    bench: { type: 'string', default: resolve(projectRoot, '../shared/bench/knowing-corpus') },
    'db-dir': { type: 'string' },
    'explain-misses': { type: 'boolean', default: false },
    'full-index': { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    options: { type: 'string' },
  },
});

if (!values.corpus) {
  process.stderr.write('usage: retrieval --corpus <dir> [--repos a,b] [--budget 4000] [--out file] [--explain-misses]\n');
  process.exit(2);
}

// pnpm runs scripts in the package folder; resolve user paths against where the command was typed.
const invokedFrom = process.env.INIT_CWD ?? process.cwd();
const corpus = resolve(invokedFrom, values.corpus);
const budget = Number(values.budget);
const dbDir = resolve(invokedFrom, values['db-dir'] ?? join(corpus, '.knowing-bench'));
mkdirSync(dbDir, { recursive: true });
const manifest = readManifest(values.bench!);
const tasksByRepo = readTasks(values.bench!);
/** Engine options as JSON, for sweeps: --options '{"walk":{"alpha":0.15}}'. */
const engineOptions = values.options ? (JSON.parse(values.options) as EngineOptionsInput) : undefined;
const wanted = values.repos ? new Set(values.repos.split(',').map((s) => s.trim())) : undefined;

type MissStage = 'not in graph' | 'not reached' | 'reached, below walk cutoff' | 'ranked below 10' | 'cut by budget';

interface TaskResult {
  readonly id: string;
  readonly repo: string;
  readonly tier: string;
  readonly metrics: TaskMetrics;
  readonly returned: readonly string[];
  readonly failed?: string;
  readonly ms: number;
  readonly misses?: readonly { truth: string; stage: MissStage; rank: number | null }[];
}

const zero: TaskMetrics = { precisionAt10: 0, dedupPrecisionAt10: 0, recallAt10: 0, ndcgAt10: 0, mrr: 0, hits: [] };

async function explainMisses(engine: Engine, task: BenchTask, returned: readonly string[]): Promise<TaskResult['misses']> {
  const top = returned.slice(0, 10).map(normalizeSymbol);
  const misses: { truth: string; stage: MissStage; rank: number | null }[] = [];
  for (const truth of task.groundTruth) {
    const g = normalizeSymbol(truth);
    if (top.some((r) => symbolsMatch(r, g))) continue;
    const e = await engine.explainSymbol(task.description, truth, { budget });
    let stage: MissStage;
    if (e.stage === 'not_in_graph') stage = 'not in graph';
    else if (e.stage === 'not_reached') stage = 'not reached';
    else if (e.stage === 'below_cutoff') stage = 'reached, below walk cutoff';
    else if (e.stage === 'ranked' && e.rank !== null && e.rank <= 10) stage = 'cut by budget';
    else stage = 'ranked below 10';
    misses.push({ truth, stage, rank: e.rank });
  }
  return misses;
}

function mean(results: readonly TaskResult[], pick: (m: TaskMetrics) => number): number {
  return results.length === 0 ? 0 : results.reduce((s, r) => s + pick(r.metrics), 0) / results.length;
}

function summarize(results: readonly TaskResult[]) {
  return {
    tasks: results.length,
    p10: mean(results, (m) => m.precisionAt10),
    p10dedup: mean(results, (m) => m.dedupPrecisionAt10),
    r10: mean(results, (m) => m.recallAt10),
    ndcg10: mean(results, (m) => m.ndcgAt10),
    mrr: mean(results, (m) => m.mrr),
    failures: results.filter((r) => r.failed).length,
  };
}

const all: TaskResult[] = [];
const perRepo: Record<string, ReturnType<typeof summarize> & { indexMs: number; nodes: number; edges: number; medianMs: number }> = {};
for (const repo of manifest) {
  if (wanted && !wanted.has(repo.name)) continue;
  const root = join(corpus, repo.name);
  const tasks = tasksByRepo.get(repo.name) ?? [];
  if (tasks.length === 0) continue;
  let exists = true;
  try {
    execSync(`test -d ${JSON.stringify(root)}`);
  } catch {
    exists = false;
  }
  if (!exists) {
    if (!values.quiet) process.stderr.write(`skip ${repo.name}: ${root} not found\n`);
    continue;
  }
  const store = await createSqliteStore({ path: join(dbDir, `${repo.name}.db`) });
  const t0 = performance.now();
  await indexRepository({ root, store, repoId: repo.name, full: values['full-index'] });
  const indexMs = performance.now() - t0;
  const engine = createEngine({ store, ...(engineOptions ? { options: engineOptions } : {}) });
  await engine.warm();
  const counts = await store.counts();
  const results: TaskResult[] = [];
  for (const task of tasks) {
    const start = performance.now();
    try {
      const answer = await engine.forTask(task.description, { budget, fresh: true });
      const returned = answer.pack.symbols.map((s) => s.node.qualifiedName);
      const metrics = scoreTask(returned, task.groundTruth);
      const ms = performance.now() - start;
      const misses = values['explain-misses'] ? await explainMisses(engine, task, returned) : undefined;
      results.push({ id: task.id, repo: repo.name, tier: task.tier, metrics, returned: returned.slice(0, 10), ms, ...(misses ? { misses } : {}) });
    } catch (error) {
      results.push({ id: task.id, repo: repo.name, tier: task.tier, metrics: zero, returned: [], failed: String(error), ms: performance.now() - start });
    }
  }
  await store.close();
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  perRepo[repo.name] = { ...summarize(results), indexMs, nodes: counts.nodes, edges: counts.edges, medianMs: times[Math.floor(times.length / 2)] ?? 0 };
  all.push(...results);
  if (!values.quiet) {
    const s = perRepo[repo.name]!;
    process.stdout.write(
      `${repo.name.padEnd(12)} tasks ${String(s.tasks).padStart(3)}  P@10 ${s.p10.toFixed(3)}  dedup ${s.p10dedup.toFixed(3)}  R@10 ${s.r10.toFixed(3)}  NDCG ${s.ndcg10.toFixed(3)}  MRR ${s.mrr.toFixed(3)}  fail ${s.failures}  median ${s.medianMs.toFixed(0)} ms  (${s.nodes} nodes, ${s.edges} edges, index ${(s.indexMs / 1000).toFixed(1)} s)\n`,
    );
  }
}

const tiers: Record<string, ReturnType<typeof summarize>> = {};
for (const tier of [...new Set(all.map((r) => r.tier))].sort()) tiers[tier] = summarize(all.filter((r) => r.tier === tier));
const overall = summarize(all);
const missStages: Record<string, number> = {};
for (const r of all) for (const m of r.misses ?? []) missStages[m.stage] = (missStages[m.stage] ?? 0) + 1;

let commit = 'unknown';
try {
  commit = execSync('git rev-parse --short HEAD', { cwd: projectRoot }).toString().trim();
} catch {
  // not a git checkout
}
const report = {
  date: new Date().toISOString(),
  commit,
  machine: { cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
  command: `pnpm bench:retrieval --corpus ${values.corpus}${values.repos ? ` --repos ${values.repos}` : ''} --budget ${budget}${values['explain-misses'] ? ' --explain-misses' : ''}${values.options ? ` --options '${values.options}'` : ''}`,
  budget,
  overall,
  tiers,
  perRepo,
  ...(values['explain-misses'] ? { missStages } : {}),
  tasks: all,
};
process.stdout.write(
  `\noverall      tasks ${String(overall.tasks).padStart(3)}  P@10 ${overall.p10.toFixed(3)}  dedup ${overall.p10dedup.toFixed(3)}  R@10 ${overall.r10.toFixed(3)}  NDCG ${overall.ndcg10.toFixed(3)}  MRR ${overall.mrr.toFixed(3)}  fail ${overall.failures}\n`,
);
for (const [tier, s] of Object.entries(tiers)) process.stdout.write(`  ${tier.padEnd(10)} tasks ${String(s.tasks).padStart(3)}  P@10 ${s.p10.toFixed(3)}  R@10 ${s.r10.toFixed(3)}\n`);
if (values['explain-misses']) process.stdout.write(`misses by stage: ${JSON.stringify(missStages)}\n`);
const out = values.out ? resolve(invokedFrom, values.out) : join(projectRoot, 'benchmarks/results', `retrieval-${commit}.json`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
process.stdout.write(`wrote ${out}\n`);
