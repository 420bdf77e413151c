import { createSqliteStore } from '@knowing/store-sqlite';
import { createEngine } from '@knowing/engine';
import { readTasks } from './corpus.js';
import { normalizeSymbol, symbolsMatch } from './matching.js';
const tasks = readTasks('/work/shared/bench/knowing-corpus');
const totals: Record<string, number> = {};
let gtCount = 0;
for (const repo of process.argv.slice(2)) {
  const store = await createSqliteStore({ path: `/work/corpus/.knowing-bench/${repo}.db` });
  const engine = createEngine({ store });
  for (const task of tasks.get(repo) ?? []) {
    const r = await engine.forTask(task.description, { budget: 4000, fresh: true, trace: true });
    const t = r.trace!;
    const lists: Record<string, string[]> = {
      tiered: t.channels.tiered.map((h) => h.node.qualifiedName),
      bm25: t.channels.bm25.map((h) => h.node.qualifiedName),
      equiv: t.channels.equiv.map((h) => h.node.qualifiedName),
      path: t.channels.path.map((h) => h.node.qualifiedName),
      fused: t.fused.map((f) => f.node.qualifiedName),
      seeds: t.seeds.map((s) => s.node.qualifiedName),
      ranked50: r.ranked.slice(0, 50).map((s) => s.node.qualifiedName),
      top10: r.pack.symbols.slice(0, 10).map((s) => s.node.qualifiedName),
    };
    for (const gt of task.groundTruth) {
      gtCount++;
      const g = normalizeSymbol(gt);
      for (const [k, list] of Object.entries(lists)) if (list.some((q) => symbolsMatch(normalizeSymbol(q), g))) totals[k] = (totals[k] ?? 0) + 1;
    }
  }
  await store.close();
}
console.log('ground truth', gtCount);
for (const [k, v] of Object.entries(totals)) console.log(k.padEnd(10), v, (v / gtCount).toFixed(3));
