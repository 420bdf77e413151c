/**
 * What each learned model costs a task answer: every corpus task of the given repositories is
 * answered (answer cache bypassed) by one engine per model over the same index, traced, and the
 * rank stage's time is collected — featurising the candidates and scoring them — with the
 * inputs stage's (gathering each candidate's evidence: the learned ranker reads per-field
 * lexical scores, one more lexical search, which the formula ranker's engine does not run).
 *
 *   pnpm bench:rank --corpus <dir> [--repos caddy,cargo] [--rounds 3] [--budget 5000]
 *
 * Each repository's index is `<corpus>/<repo>/.knowing/graph.db` (as
 * `pnpm bench:retrieval` leaves it). Rounds alternate the models; the first round warms up and
 * is not counted. Prints per repository and model: the rank stage's median and p95 and the
 * median number of candidates ranked.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteStore } from '@knowing/store-sqlite';
import { createEngine } from '@knowing/engine';
import { DEFAULT_LEARNED_MODEL, LINEAR_LEARNED_MODEL } from '@knowing/rank';
import type { LearnedModel } from '@knowing/rank';
import { readTasks } from './corpus.js';
import { fmtMs, formatTable, percentile } from './perf-lib.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    repos: { type: 'string', default: 'caddy,cargo' },
    rounds: { type: 'string', default: '3' },
    budget: { type: 'string', default: '5000' },
    bench: { type: 'string', default: resolve(import.meta.dirname ?? '.', '../../../shared/bench/knowing-corpus') },
  },
});
if (!values.corpus) {
  process.stderr.write('usage: pnpm bench:rank --corpus <dir> [--repos caddy,cargo] [--rounds 3] [--budget 5000]\n');
  process.exit(2);
}
const corpus = resolve(process.env.INIT_CWD ?? process.cwd(), values.corpus);
const rounds = Math.max(2, Number(values.rounds));
const budget = Number(values.budget);
const models: readonly (readonly [string, LearnedModel | 'formula'])[] = [
  ['trees (shipped)', DEFAULT_LEARNED_MODEL],
  ['linear', LINEAR_LEARNED_MODEL],
  ['formula', 'formula'],
];
const tasksByRepo = readTasks(values.bench!);
const rows: string[][] = [];
for (const repo of values.repos!.split(',').map((r) => r.trim())) {
  const tasks = tasksByRepo.get(repo) ?? [];
  const store = await createSqliteStore({ path: resolve(corpus, repo, '.knowing', 'graph.db') });
  const engines = models.map(([name, model]) => ({
    name,
    engine: model === 'formula' ? createEngine({ store, options: { rankingModel: 'formula' } }) : createEngine({ store, learnedModel: model }),
    ms: [] as number[],
    inputsMs: [] as number[],
    candidates: [] as number[],
  }));
  for (let round = 0; round < rounds; round++) {
    for (const entry of round % 2 === 0 ? engines : [...engines].reverse()) {
      for (const task of tasks) {
        const result = await entry.engine.forTask(task.description, { budget, fresh: true, trace: true });
        if (round === 0 || !result.trace) continue;
        entry.ms.push(result.trace.timings['rank'] ?? 0);
        entry.inputsMs.push(result.trace.timings['inputs'] ?? 0);
        entry.candidates.push(result.trace.ranked.length);
      }
    }
  }
  for (const { name, ms, inputsMs, candidates } of engines) {
    rows.push([repo, name, String(ms.length), fmtMs(percentile(inputsMs, 0.5)), fmtMs(percentile(ms, 0.5)), fmtMs(percentile(ms, 0.95)), String(percentile(candidates, 0.5))]);
  }
  await store.close();
}
for (const line of formatTable(['repository', 'model', 'answers', 'inputs p50', 'rank p50', 'rank p95', 'candidates p50'], rows, ['left', 'left'])) process.stdout.write(`${line}\n`);
