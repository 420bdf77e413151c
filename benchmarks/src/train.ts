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
    diversify: { type: 'string' },
  },
});

/**
 * One task's candidates as recorded, in the default ranking's order: the rank inputs and the
 * context, so features can be computed again when their definitions change.
 */
interface RecordedGroup {
  readonly repo: string;
  readonly task: string;
  readonly groundTruth: readonly string[];
  readonly context: RankContext;
  readonly inputs: readonly RankInput[];
}

const namesOf = (group: RecordedGroup): string[] => group.inputs.map((input) => input.node.qualifiedName);

/** What training needs of an input: its node without the text fields, and the evidence. */
function slim(input: RankInput): RankInput {
  return { ...input, node: { ...input.node, signature: '', doc: '' } };
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
      const byId = new Map(seen.inputs.map((input) => [input.node.id, input]));
      const { task: text, keywords, aboutTests } = seen.context;
      groups.push({
        repo: job.repo,
        task: task.id,
        groundTruth: task.groundTruth,
        context: { task: text, ...(keywords ? { keywords } : {}), ...(aboutTests !== undefined ? { aboutTests } : {}) },
        inputs: result.ranked.map((s) => byId.get(s.node.id)).filter((i): i is RankInput => i !== undefined).map(slim),
      });
    }
    await store.close();
    process.stderr.write(`${job.repo}: ${job.tasks.length} tasks recorded\n`);
  }
  return groups;
}

const featureCache = new Map<RecordedGroup, Float64Array[]>();
function featuresOf(group: RecordedGroup): Float64Array[] {
  let vectors = featureCache.get(group);
  if (!vectors) featureCache.set(group, (vectors = learnedFeatures(group.inputs, group.context)));
  return vectors;
}

function labelled(group: RecordedGroup): TrainingGroup {
  const truth = group.groundTruth.map(normalizeSymbol);
  return {
    features: featuresOf(group),
    labels: namesOf(group).map((name) => {
      const r = normalizeSymbol(name);
      return truth.some((g) => symbolsMatch(r, g));
    }),
  };
}

function rankWith(model: LearnedModel, group: RecordedGroup): string[] {
  const scores = featuresOf(group).map((x) => x.reduce((sum, value, f) => sum + model.weights[f]! * ((value - model.mean[f]!) / model.scale[f]!), 0));
  return namesOf(group).map((name, i) => ({ name, score: scores[i]!, i })).sort((a, b) => b.score - a.score || a.i - b.i).map((e) => e.name);
}

/** Names past the `cap`-th occurrence of their last component move behind the others (order kept). */
function diversify(names: readonly string[], cap: number): string[] {
  const seen = new Map<string, number>();
  const kept: string[] = [];
  const deferred: string[] = [];
  for (const name of names) {
    const short = name.slice(name.lastIndexOf('.') + 1);
    const count = (seen.get(short) ?? 0) + 1;
    seen.set(short, count);
    (count > cap ? deferred : kept).push(name);
  }
  return [...kept, ...deferred];
}
const cap = values.diversify ? Number(values.diversify) : 0;
const finish = (names: string[]): string[] => (cap > 0 ? diversify(names, cap) : names);

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

let found = 0;
let total = 0;
for (const group of groups) {
  const names = namesOf(group).map(normalizeSymbol);
  for (const truth of group.groundTruth.map(normalizeSymbol)) {
    total++;
    if (names.some((name) => symbolsMatch(name, truth))) found++;
  }
}
process.stdout.write(`ground truth among the candidates: ${found} of ${total} (${((100 * found) / Math.max(1, total)).toFixed(1)}%)\n`);
const repos = [...new Set(groups.map((g) => g.repo))];
process.stdout.write(`leave-one-repository-out over ${repos.length} repositories, ${groups.length} tasks\n`);
const heldOutOrder = new Map<RecordedGroup, string[]>();
for (const repo of repos) {
  const model = trainLearnedModel(groups.filter((g) => g.repo !== repo).map(labelled), train);
  const mine = groups.filter((g) => g.repo === repo);
  for (const group of mine) heldOutOrder.set(group, finish(rankWith(model, group)));
  process.stdout.write(`${repo.padEnd(12)} default ${metrics(mine, namesOf)}   learned ${metrics(mine, (g) => heldOutOrder.get(g)!)}\n`);
}
process.stdout.write(`${'all'.padEnd(12)} default ${metrics(groups, namesOf)}   learned ${metrics(groups, (g) => heldOutOrder.get(g)!)}\n`);

const model = trainLearnedModel(groups.map(labelled), train, `${groups.length} history tasks of ${repos.join(', ')}`);
process.stdout.write(`weights: ${LEARNED_FEATURES.map((f, i) => `${f} ${model.weights[i]!.toFixed(3)}`).join(', ')}\n`);
if (values.out) {
  const out = resolve(invokedFrom, values.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(model, null, 2) + '\n');
  process.stdout.write(`wrote ${out}\n`);
}
