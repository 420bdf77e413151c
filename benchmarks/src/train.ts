/**
 * Train the learned ranker on history tasks, cross-validated by repository.
 *
 *   pnpm bench:train --tasks benchmarks/history --split tuning --corpus <work dir> [--mirrors <dir>]
 *                    [--groups groups.json] [--from groups.json] [--out model.json] [--l2 0.01]
 *
 * For each task the engine runs with the default ranker behind a recorder: the candidates it
 * ranked become one training group (their features in the default ranking's order, so the hard
 * negatives come first; a candidate is positive when it matches the ground truth by the
 * benchmark's rules). Leave-one-repository-out cross-validation prints what the model would
 * score on each repository it did not see, next to the default ranking of the same candidates;
 * then a model is trained on every group and written to --out.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteStore } from '@knowing/store-sqlite';
import { indexRepository } from '@knowing/indexer';
import { createEngine } from '@knowing/engine';
import { createDefaultRanker, learnedFeatures, trainLearnedModel, LEARNED_FEATURES } from '@knowing/rank';
import type { LearnedModel, RankContext, RankInput, Ranker, TrainingGroup } from '@knowing/rank';
import { normalizeSymbol, scoreTask, symbolsMatch } from './matching.js';
import { historyJobs } from './jobs.js';
import { DEFAULT_MIRRORS_DIR } from './history/index.js';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string' },
    split: { type: 'string', default: 'tuning' },
    corpus: { type: 'string' },
    mirrors: { type: 'string', default: DEFAULT_MIRRORS_DIR },
    repos: { type: 'string' },
    'db-dir': { type: 'string' },
    groups: { type: 'string' },
    from: { type: 'string' },
    out: { type: 'string' },
    l2: { type: 'string' },
    epochs: { type: 'string' },
    negatives: { type: 'string' },
  },
});

/** One task's candidates as recorded: names for scoring, features for learning. */
interface RecordedGroup {
  readonly repo: string;
  readonly task: string;
  readonly groundTruth: readonly string[];
  /** Qualified names in the default ranking's order. */
  readonly names: readonly string[];
  readonly features: readonly number[][];
}

const invokedFrom = process.env.INIT_CWD ?? process.cwd();

async function record(): Promise<RecordedGroup[]> {
  if (!values.tasks || !values.corpus) {
    process.stderr.write('usage: train --tasks benchmarks/history --corpus <work dir> [--split tuning] [--groups out.json] [--out model.json]\n       train --from groups.json [--out model.json]\n');
    process.exit(2);
  }
  const corpus = resolve(invokedFrom, values.corpus);
  const dbDir = resolve(invokedFrom, values['db-dir'] ?? join(corpus, '.knowing-bench'));
  mkdirSync(dbDir, { recursive: true });
  const wanted = values.repos ? new Set(values.repos.split(',')) : undefined;
  const jobs = historyJobs(
    resolve(invokedFrom, values.tasks),
    { split: values.split as 'tuning' | 'heldout' | 'all', mirrors: resolve(invokedFrom, values.mirrors!), workDir: corpus, ...(wanted ? { wanted } : {}) },
    (message) => process.stderr.write(`${message}\n`),
  );
  const groups: RecordedGroup[] = [];
  const base = createDefaultRanker();
  for (const job of jobs) {
    const store = await createSqliteStore({ path: join(dbDir, `${job.repo}.db`) });
    for (const task of job.tasks) {
      await indexRepository({ root: job.prepare(task), store, repoId: job.repo });
      let seen: { inputs: readonly RankInput[]; context: RankContext } | undefined;
      const recorder: Ranker = {
        name: 'recorder',
        rank(inputs, context) {
          seen = { inputs, context };
          return base.rank(inputs, context);
        },
      };
      const result = await createEngine({ store, ranker: recorder }).forTask(task.description, { fresh: true });
      if (!seen) continue;
      const vectors = learnedFeatures(seen.inputs, seen.context);
      const position = new Map(seen.inputs.map((input, i) => [input.node.id, i]));
      const order = result.ranked.map((s) => position.get(s.node.id)!).filter((i) => i !== undefined);
      groups.push({
        repo: job.repo,
        task: task.id,
        groundTruth: task.groundTruth,
        names: order.map((i) => seen!.inputs[i]!.node.qualifiedName),
        features: order.map((i) => [...vectors[i]!]),
      });
    }
    await store.close();
    process.stderr.write(`${job.repo}: ${job.tasks.length} tasks recorded\n`);
  }
  return groups;
}

function labelled(group: RecordedGroup): TrainingGroup {
  const truth = group.groundTruth.map(normalizeSymbol);
  return {
    features: group.features.map((f) => Float64Array.from(f)),
    labels: group.names.map((name) => {
      const r = normalizeSymbol(name);
      return truth.some((g) => symbolsMatch(r, g));
    }),
  };
}

function rankWith(model: LearnedModel, group: RecordedGroup): string[] {
  const scores = group.features.map((x) => x.reduce((sum, value, f) => sum + model.weights[f]! * ((value - model.mean[f]!) / model.scale[f]!), 0));
  return group.names.map((name, i) => ({ name, score: scores[i]!, i })).sort((a, b) => b.score - a.score || a.i - b.i).map((e) => e.name);
}

function metrics(groups: readonly RecordedGroup[], order: (g: RecordedGroup) => readonly string[]) {
  let p10 = 0;
  let dedup = 0;
  let r10 = 0;
  let mrr = 0;
  for (const group of groups) {
    const m = scoreTask(order(group), group.groundTruth);
    p10 += m.precisionAt10;
    dedup += m.dedupPrecisionAt10;
    r10 += m.recallAt10;
    mrr += m.mrr;
  }
  const n = Math.max(1, groups.length);
  return `P@10 ${(p10 / n).toFixed(3)}  dedup ${(dedup / n).toFixed(3)}  R@10 ${(r10 / n).toFixed(3)}  MRR ${(mrr / n).toFixed(3)}`;
}

const groups = values.from ? (JSON.parse(readFileSync(resolve(invokedFrom, values.from), 'utf8')) as RecordedGroup[]) : await record();
if (values.groups) writeFileSync(resolve(invokedFrom, values.groups), JSON.stringify(groups));
const train = {
  ...(values.l2 ? { l2: Number(values.l2) } : {}),
  ...(values.epochs ? { epochs: Number(values.epochs) } : {}),
  ...(values.negatives ? { negativesPerPositive: Number(values.negatives) } : {}),
};

const repos = [...new Set(groups.map((g) => g.repo))];
process.stdout.write(`leave-one-repository-out over ${repos.length} repositories, ${groups.length} tasks\n`);
const heldOutOrder = new Map<RecordedGroup, string[]>();
for (const repo of repos) {
  const model = trainLearnedModel(groups.filter((g) => g.repo !== repo).map(labelled), train);
  const mine = groups.filter((g) => g.repo === repo);
  for (const group of mine) heldOutOrder.set(group, rankWith(model, group));
  process.stdout.write(`${repo.padEnd(12)} default ${metrics(mine, (g) => g.names)}   learned ${metrics(mine, (g) => heldOutOrder.get(g)!)}\n`);
}
process.stdout.write(`${'all'.padEnd(12)} default ${metrics(groups, (g) => g.names)}   learned ${metrics(groups, (g) => heldOutOrder.get(g)!)}\n`);

const model = trainLearnedModel(groups.map(labelled), train, `${groups.length} history tasks of ${repos.join(', ')}`);
process.stdout.write(`weights: ${LEARNED_FEATURES.map((f, i) => `${f} ${model.weights[i]!.toFixed(3)}`).join(', ')}\n`);
if (values.out) {
  const out = resolve(invokedFrom, values.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(model, null, 2) + '\n');
  process.stdout.write(`wrote ${out}\n`);
}
