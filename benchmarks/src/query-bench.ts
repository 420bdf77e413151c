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
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteStore } from '@knowing/store-sqlite';
import { createEngine } from '@knowing/engine';
import { createExactTokenizer } from '@knowing/pack';
import { formatPack } from '@knowing/wire';
import { loadAdjacency, forgetAdjacency } from '@knowing/walk';
import { readTasks } from './corpus.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    repos: { type: 'string', default: 'flask,caddy,ripgrep,spark-java,jekyll,ocelot,fastapi,cargo' },
    budget: { type: 'string', default: '4000' },
    bench: { type: 'string', default: resolve(import.meta.dirname ?? '.', '../../../shared/bench/knowing-corpus') },
  },
});
if (!values.corpus) {
  process.stderr.write('usage: query-bench --corpus <dir> [--repos a,b] [--budget 4000]\n');
  process.exit(2);
}
const corpus = resolve(process.env.INIT_CWD ?? process.cwd(), values.corpus);
const budget = Number(values.budget);
const tasks = readTasks(values.bench!);
const tokenizer = await createExactTokenizer();
const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
};
const FORMATS = ['json', 'xml', 'markdown', 'gcf', 'gcb'] as const;

for (const repo of values.repos!.split(',')) {
  const db = join(corpus, '.knowing-bench', `${repo}.db`);
  const repoTasks = tasks.get(repo) ?? [];
  if (!existsSync(db) || repoTasks.length === 0) {
    process.stdout.write(`${repo}: no index at ${db} (run the retrieval benchmark first) — skipped\n`);
    continue;
  }
  const store = await createSqliteStore({ path: db });
  const snapshot = await store.currentSnapshot();
  let t = performance.now();
  await store.deleteNote('adjacency');
  const built = await loadAdjacency(store, { notes: store, snapshotId: snapshot?.id ?? null });
  const buildMs = performance.now() - t;
  forgetAdjacency(store);
  t = performance.now();
  const loaded = await loadAdjacency(store, { notes: store, snapshotId: snapshot?.id ?? null });
  const loadMs = performance.now() - t;

  const engine = createEngine({ store });
  await engine.warm();
  const cold: number[] = [];
  const warm: number[] = [];
  const tokens: Record<string, number> = Object.fromEntries(FORMATS.map((f) => [f, 0]));
  for (const task of repoTasks) {
    t = performance.now();
    const answer = await engine.forTask(task.description, { budget, fresh: true });
    cold.push(performance.now() - t);
    await engine.forTask(task.description, { budget }); // fills the answer cache
    t = performance.now();
    await engine.forTask(task.description, { budget });
    warm.push(performance.now() - t);
    for (const format of FORMATS) {
      const out = formatPack(answer.pack, { format, task: task.description });
      tokens[format]! += typeof out === 'string' ? tokenizer.count(out) : Math.ceil(out.length / 4);
    }
  }
  const counts = await store.counts();
  await store.close();
  const n = repoTasks.length;
  process.stdout.write(
    `${repo.padEnd(11)} ${counts.nodes} nodes ${counts.edges} edges | adjacency build ${buildMs.toFixed(0)} ms (${built.source}), load ${loadMs.toFixed(0)} ms (${loaded.source}) | ` +
      `forTask cold p50 ${percentile(cold, 0.5).toFixed(1)} p95 ${percentile(cold, 0.95).toFixed(1)} ms, warm p50 ${percentile(warm, 0.5).toFixed(2)} p95 ${percentile(warm, 0.95).toFixed(2)} ms | ` +
      `tokens/pack ${FORMATS.map((f) => `${f} ${Math.round(tokens[f]! / n)}`).join(', ')} (gcb: bytes/4) | gcf/json ${(tokens.gcf! / tokens.json!).toFixed(2)}\n`,
  );
}
