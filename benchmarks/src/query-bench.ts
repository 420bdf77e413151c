/**
 * Query performance and output size on indexed corpus repositories (index them first with
 * `pnpm bench:retrieval`, which leaves the databases in <corpus>/.knowing-bench/):
 *
 *   pnpm bench:query --corpus <dir> [--repos cargo,fastapi] [--budget 4000]
 *
 * Prints per repository: adjacency build time (from the store) and load time (from its note),
 * forTask latency p50/p95 in-process — cold: the pipeline runs (answer cache bypassed, adjacency
 * already loaded); warm: a repeated task served from the answer cache — and the
 * tokens of the same packs in every wire format (gcf vs json among them), counted with the
 * exact cl100k tokenizer.
 *
 * `--db <file> [--tasks 50]` measures latency and adjacency times on any database instead, with
 * tasks made from its symbol names — e.g. the synthetic graph `pnpm bench --nodes 100000 --edges
 * 400000 --files 2500 --keep` leaves behind.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteStore } from '@knowing/store-sqlite';
import { createEngine } from '@knowing/engine';
import { createExactTokenizer } from '@knowing/pack';
import { formatPack } from '@knowing/wire';
import { readTasks } from './corpus.js';
import { percentile } from './perf-lib.js';
import { measureAdjacency, measureForTask } from './perf-measure.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    repos: { type: 'string', default: 'flask,caddy,ripgrep,spark-java,jekyll,ocelot,fastapi,cargo' },
    budget: { type: 'string', default: '4000' },
    bench: { type: 'string', default: resolve(import.meta.dirname ?? '.', '../../../shared/bench/knowing-corpus') },
    /** A database to measure instead of the corpus (e.g. the synthetic one `pnpm bench --keep` leaves). */
    db: { type: 'string' },
    /** With --db: how many tasks to make from the graph's own symbol names. */
    tasks: { type: 'string', default: '50' },
  },
});
if (!values.corpus && !values.db) {
  process.stderr.write('usage: query-bench --corpus <dir> [--repos a,b] [--budget 4000] | --db <file> [--tasks 50]\n');
  process.exit(2);
}
const corpus = resolve(process.env.INIT_CWD ?? process.cwd(), values.corpus ?? '.');
const budget = Number(values.budget);
const tasks = readTasks(values.bench!);
const tokenizer = await createExactTokenizer();
const FORMATS = ['json', 'xml', 'markdown', 'gcf', 'gcb'] as const;

if (values.db) {
  await syntheticRun(resolve(process.env.INIT_CWD ?? process.cwd(), values.db), Number(values.tasks));
  process.exit(0);
}

for (const repo of values.repos!.split(',')) {
  const db = join(corpus, '.knowing-bench', `${repo}.db`);
  const repoTasks = tasks.get(repo) ?? [];
  if (!existsSync(db) || repoTasks.length === 0) {
    process.stdout.write(`${repo}: no index at ${db} (run the retrieval benchmark first) — skipped\n`);
    continue;
  }
  const store = await createSqliteStore({ path: db });
  const { buildMs, buildSource, loadMs, loadSource } = await measureAdjacency(store);
  const engine = createEngine({ store });
  await engine.warm();
  const tokens: Record<string, number> = Object.fromEntries(FORMATS.map((f) => [f, 0]));
  const { cold, warm } = await measureForTask(
    engine,
    repoTasks.map((task) => task.description),
    budget,
    (task, answer) => {
      for (const format of FORMATS) {
        const out = formatPack(answer.pack, { format, task });
        tokens[format]! += typeof out === 'string' ? tokenizer.count(out) : Math.ceil(out.length / 4);
      }
    },
  );
  const counts = await store.counts();
  await store.close();
  const n = repoTasks.length;
  process.stdout.write(
    `${repo.padEnd(11)} ${counts.nodes} nodes ${counts.edges} edges | adjacency build ${buildMs.toFixed(0)} ms (${buildSource}), load ${loadMs.toFixed(0)} ms (${loadSource}) | ` +
      `forTask cold p50 ${percentile(cold, 0.5).toFixed(1)} p95 ${percentile(cold, 0.95).toFixed(1)} ms, warm p50 ${percentile(warm, 0.5).toFixed(2)} p95 ${percentile(warm, 0.95).toFixed(2)} ms | ` +
      `tokens/pack ${FORMATS.map((f) => `${f} ${Math.round(tokens[f]! / n)}`).join(', ')} (gcb: bytes/4) | gcf/json ${(tokens.gcf! / tokens.json!).toFixed(2)}\n`,
  );
}

/**
 * Latency on a database without benchmark tasks: tasks are made from its own symbol names
 * ("change how <split name> works"), so every task has lexical seeds as real tasks do.
 */
async function syntheticRun(db: string, count: number): Promise<void> {
  const store = await createSqliteStore({ path: db });
  const counts = await store.counts();
  const names: string[] = [];
  for await (const node of store.allNodes()) {
    if (!node.external && node.kind !== 'file' && names.length < 100_000) names.push(node.name);
  }
  const picked = Array.from({ length: count }, (_, i) => names[Math.floor(((i * 7919) % names.length))]!);
  const tasks = picked.map((name) => `change how ${name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ')} works`);
  const { buildMs, loadMs } = await measureAdjacency(store);
  const engine = createEngine({ store });
  const { cold, warm } = await measureForTask(engine, tasks, Number(values.budget));
  await store.close();
  process.stdout.write(
    `${db}: ${counts.nodes} nodes ${counts.edges} edges, ${tasks.length} tasks from symbol names | adjacency build ${buildMs.toFixed(0)} ms, load ${loadMs.toFixed(0)} ms | ` +
      `forTask cold p50 ${percentile(cold, 0.5).toFixed(1)} p95 ${percentile(cold, 0.95).toFixed(1)} ms, warm p50 ${percentile(warm, 0.5).toFixed(2)} p95 ${percentile(warm, 0.95).toFixed(2)} ms\n`,
  );
}
