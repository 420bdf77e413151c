/**
 * Does the budget hold? For each repository, the first tasks of the corpus are answered as
 * `knowing context` answers them (the engine packs, `fitPack` prints), in every text format, at
 * budgets 1000 / 4000 / 16000, without and with code; the printed output is counted with the
 * cl100k tokenizer. Prints per format the worst and mean ratio real/budget (the promise: ≤ 1.00),
 * whether every header's count equalled the real count, the symbols printed and the time the
 * fit took.
 *
 *   pnpm bench:budget --corpus <dir> [--repos flask,caddy,cargo] [--tasks 10]
 *
 * An index is looked for at <corpus>/.knowing-bench/<repo>.db (left by bench:retrieval), then
 * at <corpus>/<repo>/.knowing/graph.db.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteStore } from '@knowing/store-sqlite';
import { createEngine } from '@knowing/engine';
import { createExactTokenizer } from '@knowing/pack';
import { costFunctionFor, decodeGcf, fitPack } from '@knowing/wire';
import { readTasks } from './corpus.js';
import { readSource } from './source-reader.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    repos: { type: 'string', default: 'flask,caddy,cargo' },
    tasks: { type: 'string', default: '10' },
    budgets: { type: 'string', default: '1000,4000,16000' },
    bench: { type: 'string', default: resolve(import.meta.dirname ?? '.', '../../../shared/bench/knowing-corpus') },
  },
});
if (!values.corpus) {
  process.stderr.write('usage: budget-bench --corpus <dir> [--repos flask,caddy,cargo] [--tasks 10] [--budgets 1000,4000,16000]\n');
  process.exit(2);
}
const corpus = resolve(process.env.INIT_CWD ?? process.cwd(), values.corpus);
const budgets = values.budgets!.split(',').map(Number);
const taskLimit = Number(values.tasks);
const tasks = readTasks(values.bench!);
const tokenizer = await createExactTokenizer();
const FORMATS = ['xml', 'markdown', 'json', 'gcf'] as const;

function claimed(format: string, output: string): number {
  if (format === 'gcf') {
    const document = decodeGcf(output);
    return document.mode === 'pack' ? document.tokens : Number.NaN;
  }
  if (format === 'xml') return Number(/tokens_used="(\d+)"/.exec(output)?.[1]);
  if (format === 'json') return (JSON.parse(output) as { tokens_used: number }).tokens_used;
  return Number(/^Tokens: (\d+) \//m.exec(output)?.[1]);
}

process.stdout.write(`repo        budget  code  ${FORMATS.map((f) => `${f}: max/mean real÷budget, symbols`.padEnd(36)).join(' ')} header=real  fit ms p50\n`);
for (const repo of values.repos!.split(',')) {
  const candidates = [join(corpus, '.knowing-bench', `${repo}.db`), join(corpus, repo, '.knowing', 'graph.db')];
  const db = candidates.find((path) => existsSync(path));
  const repoTasks = (tasks.get(repo) ?? []).slice(0, taskLimit);
  if (!db || repoTasks.length === 0) {
    process.stdout.write(`${repo}: no index (looked at ${candidates.join(', ')}) or no tasks — skipped\n`);
    continue;
  }
  const store = await createSqliteStore({ path: db });
  const engine = createEngine({ store, symbolCost: (format) => costFunctionFor(format) });
  const source = readSource(join(corpus, repo));
  for (const budget of budgets) {
    for (const code of [false, true]) {
      const cells: string[] = [];
      let headerOk = true;
      const fitMs: number[] = [];
      for (const format of FORMATS) {
        let worst = 0;
        let sum = 0;
        let symbols = 0;
        for (const task of repoTasks) {
          const result = await engine.forTask(task.description, { budget, format, fresh: true });
          const started = performance.now();
          const fitted = fitPack(result.pack, { format, budget, tokenizer, task: task.description, tool: 'knowing context', ...(code ? { source } : {}) });
          fitMs.push(performance.now() - started);
          const output = fitted.output as string;
          const real = tokenizer.count(output);
          if (claimed(format, output) !== real) headerOk = false;
          worst = Math.max(worst, real / budget);
          sum += real / budget;
          symbols += fitted.pack.symbols.length;
        }
        cells.push(`${worst.toFixed(3)} / ${(sum / repoTasks.length).toFixed(3)}, ${(symbols / repoTasks.length).toFixed(1)}`.padEnd(36));
      }
      fitMs.sort((a, b) => a - b);
      const p50 = fitMs[Math.floor(fitMs.length / 2)] ?? 0;
      process.stdout.write(`${repo.padEnd(11)} ${String(budget).padStart(6)}  ${code ? 'yes ' : 'no  '}  ${cells.join(' ')} ${headerOk ? 'yes' : 'NO '}         ${p50.toFixed(1)}\n`);
    }
  }
  await store.close();
}
