/**
 * Train the learned ranker on history tasks, cross-validated by repository.
 *
 *   pnpm bench:train --tasks benchmarks/history --split tuning --corpus <work dir> [--mirrors <dir>]
 *                    [--groups groups.json] [--from groups.json] [--out model.json] [--l2 0.01]
 *                    [--learner linear|trees] [--trees 300] [--depth 3] [--min-leaf 100]
 *                    [--file-history with|both --tasks benchmarks/history [--mirrors <dir>]] [--folds N] [--cv-repos LIST] [--no-cv]
 *
 * For each task the engine runs with the default ranker behind a recorder: the candidates it
 * ranked become one training group (their features in the default ranking's order, so the hard
 * negatives come first; a candidate is positive when it matches the ground truth by the
 * benchmark's rules). Leave-one-repository-out cross-validation prints what the model would
 * score on each repository it did not see, next to the default ranking of the same candidates;
 * then a model is trained on every group and written to --out.
 *
 * `--file-history with` gives every group the file history its index would hold (the commits
 * before the task's parent, read from the mirror; `withFileHistory` of @knowing/history) — for
 * groups recorded before the engine read it. `--file-history both` also adds each group once
 * more without a history (as an index of a folder that is not a git checkout has none), so the
 * model ranks well in both cases; the figures then show the two apart. Folds stay by repository.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createLexicalChannel } from '@knowing/engine';
import type { EngineOptionsInput, LexicalChannelInput } from '@knowing/engine';
import { labelCandidates, orderWithModel, rankingFigures, recordedOrder, recordTrainingGroups, trainingGroupOf, withFileHistory } from '@knowing/history';
import { DEFAULT_INDEX_OPTIONS, readCommitLog } from '@knowing/indexer';
import { buildFileHistory } from '@knowing/keywords';
import type { RecordedGroup } from '@knowing/history';
import { trainLearnedModel, trainTreeModel, LEARNED_FEATURES } from '@knowing/rank';
import type { LearnedModel, TrainingGroup } from '@knowing/rank';
import { normalizeSymbol, symbolsMatch } from './matching.js';
import { DEFAULT_MIRRORS_DIR, readHistoryManifest, readHistoryTasks, resolveMirror } from './history/index.js';

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
    /** `linear` (pairwise logistic regression) or `trees` (LambdaMART). */
    learner: { type: 'string', default: 'linear' },
    trees: { type: 'string' },
    depth: { type: 'string' },
    'min-leaf': { type: 'string' },
    l2: { type: 'string' },
    epochs: { type: 'string' },
    negatives: { type: 'string' },
    diversify: { type: 'string' },
    /** Defer members past the N-th of one parent (type or module) behind the others. */
    'diversify-parent': { type: 'string' },
    /** Settings of the lexical channel as JSON (as for bench:retrieval). */
    lexical: { type: 'string' },
    /** Engine options as JSON while recording (as for bench:retrieval), e.g. another walk cutoff. */
    options: { type: 'string' },
    /** `with`: each group with its task's file history; `both`: and once more without one. */
    'file-history': { type: 'string' },
    /** Cross-validate over this many folds of whole repositories instead of leaving one repository out at a time (faster). */
    folds: { type: 'string' },
    /**
     * Cross-validate over these repositories only (comma-separated): the others' groups train
     * every fold's model and are never scored — what adding their tasks does for the rest.
     */
    'cv-repos': { type: 'string' },
    /** Train the final model only, without the leave-one-repository-out figures. */
    'no-cv': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

const USAGE =
  'usage: train --tasks benchmarks/history --corpus <work dir> [--split tuning] [--groups out.json] [--out model.json]\n' +
  '       train --from groups.json [--out model.json]\n';
if (values.help) {
  process.stdout.write(
    USAGE +
      '\n--learner linear|trees (--trees N --depth N --min-leaf N for trees; --l2, --epochs, --negatives for linear);\n' +
      '--file-history with|both trains on each task with its file history (both: and once without);\n' +
      '--folds N cross-validates over N folds of whole repositories (faster than leaving one out at a time);\n' +
      '--cv-repos LIST scores only these repositories, the others training every fold (what adding them does);\n' +
      '--no-cv skips the leave-one-repository-out figures; --lexical JSON sets the lexical channel while recording,\n' +
      '--options JSON the engine options (as for bench:retrieval, e.g. \'{"walk":{"minScore":0.01}}\').\n',
  );
  process.exit(0);
}


const invokedFrom = process.env.INIT_CWD ?? process.cwd();

/** One group per task (`recordTrainingGroups` of @knowing/history), each repository's tree and index kept under the work directory for the next run. */
async function record(): Promise<RecordedGroup[]> {
  if (!values.tasks || !values.corpus) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const tasksDir = resolve(invokedFrom, values.tasks);
  const corpus = resolve(invokedFrom, values.corpus);
  const mirrors = resolve(invokedFrom, values.mirrors!);
  const dbDir = resolve(invokedFrom, values['db-dir'] ?? join(corpus, '.knowing-bench'));
  mkdirSync(dbDir, { recursive: true });
  const wanted = values.repos ? values.repos.split(',') : undefined;
  const manifest = new Map(readHistoryManifest(tasksDir).map((r) => [r.name, r]));
  const byRepo = readHistoryTasks(tasksDir, { split: values.split as 'tuning' | 'heldout' | 'all', ...(wanted ? { repos: wanted } : {}) });
  const channels = values.lexical ? [createLexicalChannel(JSON.parse(values.lexical) as LexicalChannelInput)] : [];
  const options = values.options ? (JSON.parse(values.options) as EngineOptionsInput) : undefined;
  const groups: RecordedGroup[] = [];
  for (const [repo, tasks] of byRepo) {
    let gitDir: string;
    try {
      gitDir = resolveMirror(manifest.get(repo)!.mirror, mirrors);
    } catch (error) {
      process.stderr.write(`skip ${repo}: ${(error as Error).message}\n`);
      continue;
    }
    groups.push(
      ...(await recordTrainingGroups({ gitDir, tasks, repo, worktree: join(corpus, `history-${repo}`), dbPath: join(dbDir, `${repo}.db`), engine: { channels, ...(options ? { options } : {}) }, onTask: ({ task, skipped }) => {
        if (skipped) process.stderr.write(`skip ${task.id}: ${skipped}\n`);
      } })),
    );
    process.stderr.write(`${repo}: ${tasks.length} tasks recorded\n`);
  }
  return groups;
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
/** Within the first `window`, names past the `cap`-th of their parent (the qualified name without its last component) move just behind the window. */
function diversifyParents(names: readonly string[], cap: number, window = 10): string[] {
  const seen = new Map<string, number>();
  const top: string[] = [];
  const deferred: string[] = [];
  let i = 0;
  for (; i < names.length && top.length < window; i++) {
    const name = names[i]!;
    const parent = name.slice(0, Math.max(0, name.lastIndexOf('.')));
    const count = (seen.get(parent) ?? 0) + 1;
    seen.set(parent, count);
    (count > cap ? deferred : top).push(name);
  }
  return [...top, ...deferred, ...names.slice(i)];
}
const cap = values.diversify ? Number(values.diversify) : 0;
const parentCap = values['diversify-parent'] ? Number(values['diversify-parent']) : 0;
const finish = (names: string[]): string[] => {
  let out = cap > 0 ? diversify(names, cap) : names;
  if (parentCap > 0) out = diversifyParents(out, parentCap);
  return out;
};

function metrics(groups: readonly RecordedGroup[], order: (g: RecordedGroup) => readonly string[]) {
  const f = rankingFigures(groups, order);
  return `P@10 ${f.precisionAt10.toFixed(3)}  dedup ${f.dedupPrecisionAt10.toFixed(3)}  R@10 ${f.recallAt10.toFixed(3)}  MRR ${f.mrr.toFixed(3)}`;
}

const loaded = values.from ? (JSON.parse(readFileSync(resolve(invokedFrom, values.from), 'utf8')) as RecordedGroup[]) : await record();
// Groups saved before labels were recorded have none: label them by the same rules.
const labelled = loaded.map((g) => (g.labels ? g : { ...g, labels: labelCandidates(recordedOrder(g), g.groundTruth) }));

/** The groups with the file history of each task's parent commit, then (`both`) the same groups without one. */
async function withFileHistories(recorded: readonly RecordedGroup[], mode: string): Promise<RecordedGroup[]> {
  if (mode !== 'with' && mode !== 'both') {
    process.stderr.write(`unknown --file-history ${mode}: use with or both\n`);
    process.exit(2);
  }
  if (!values.tasks) {
    process.stderr.write('--file-history needs --tasks (where each task names its parent commit)\n');
    process.exit(2);
  }
  const tasksDir = resolve(invokedFrom, values.tasks);
  const manifest = new Map(readHistoryManifest(tasksDir).map((r) => [r.name, r]));
  const parents = new Map<string, string>();
  for (const tasks of readHistoryTasks(tasksDir, { split: 'all' }).values()) for (const task of tasks) parents.set(task.id, task.parent);
  const mirrors = resolve(invokedFrom, values.mirrors!);
  const withHistory: RecordedGroup[] = [];
  for (const group of recorded) {
    const parent = parents.get(group.task);
    const gitDir = resolveMirror(manifest.get(group.repo)!.mirror, mirrors);
    const commits = parent ? await readCommitLog({ gitDir, rev: parent }, DEFAULT_INDEX_OPTIONS.commitHistory) : undefined;
    if (!commits) process.stderr.write(`no history for ${group.task}\n`);
    withHistory.push(withFileHistory(group, commits ? buildFileHistory(commits, { commit: parent! }) : undefined));
  }
  return mode === 'both' ? [...withHistory, ...recorded.map((group) => withFileHistory(group, undefined))] : withHistory;
}

const groups = values['file-history'] ? await withFileHistories(labelled, values['file-history']) : labelled;
if (values.groups) writeFileSync(resolve(invokedFrom, values.groups), JSON.stringify(groups));
const train = {
  ...(values.l2 ? { l2: Number(values.l2) } : {}),
  ...(values.epochs ? { epochs: Number(values.epochs) } : {}),
  ...(values.negatives ? { negativesPerPositive: Number(values.negatives) } : {}),
};
const treeOptions = {
  ...(values.trees ? { trees: Number(values.trees) } : {}),
  ...(values.depth ? { depth: Number(values.depth) } : {}),
  ...(values['min-leaf'] ? { minLeaf: Number(values['min-leaf']) } : {}),
};
if (values.learner !== 'linear' && values.learner !== 'trees') {
  process.stderr.write(`unknown --learner ${values.learner}: use linear or trees\n`);
  process.exit(2);
}
const fitModel = (training: readonly TrainingGroup[], trainedOn?: string): LearnedModel =>
  values.learner === 'trees' ? trainTreeModel(training, treeOptions, trainedOn) : trainLearnedModel(training, train, trainedOn);

let found = 0;
let total = 0;
for (const group of groups) {
  const names = recordedOrder(group).map(normalizeSymbol);
  for (const truth of group.groundTruth.map(normalizeSymbol)) {
    total++;
    if (names.some((name) => symbolsMatch(name, truth))) found++;
  }
}
process.stdout.write(`ground truth among the candidates: ${found} of ${total} (${((100 * found) / Math.max(1, total)).toFixed(1)}%)\n`);
const repos = [...new Set(groups.map((g) => g.repo))].sort();
const cvRepos = values['cv-repos'] ? values['cv-repos'].split(',').sort() : repos;
const unknownRepos = cvRepos.filter((repo) => !repos.includes(repo));
if (unknownRepos.length > 0) {
  process.stderr.write(`--cv-repos names repositories without groups: ${unknownRepos.join(', ')} (the groups have ${repos.join(', ')})\n`);
  process.exit(2);
}
const scored = groups.filter((g) => cvRepos.includes(g.repo));
const foldCount = values.folds ? Number(values.folds) : cvRepos.length;
if (!Number.isInteger(foldCount) || foldCount < 2 || foldCount > cvRepos.length) {
  process.stderr.write(`--folds must be a whole number from 2 to ${cvRepos.length} (the repositories scored), got ${values.folds}\n`);
  process.exit(2);
}
// Repositories are dealt to the folds in name order, so a fold never splits one repository.
const folds = Array.from({ length: foldCount }, (_, fold) => cvRepos.filter((_, i) => i % foldCount === fold));
const alwaysTrained = groups.length - scored.length;
process.stdout.write(
  (foldCount === cvRepos.length
    ? `leave-one-repository-out over ${cvRepos.length} repositories, ${scored.length} tasks`
    : `${foldCount} folds of whole repositories over ${cvRepos.length} repositories, ${scored.length} tasks`) +
    (alwaysTrained > 0 ? `; ${alwaysTrained} tasks of ${repos.length - cvRepos.length} other repositories in every fold's training\n` : '\n'),
);
const heldOutOrder = new Map<RecordedGroup, string[]>();
for (const fold of values['no-cv'] ? [] : folds) {
  const model = fitModel(groups.filter((g) => !fold.includes(g.repo)).map(trainingGroupOf));
  const mine = groups.filter((g) => fold.includes(g.repo));
  for (const group of mine) heldOutOrder.set(group, finish(orderWithModel(model, group)));
  report(fold.join(','), mine);
}
if (!values['no-cv']) report('all', scored);

/** The figures of some groups; with `--file-history`, those with the history and those without apart. */
function report(label: string, some: readonly RecordedGroup[]): void {
  const parts: [string, readonly RecordedGroup[]][] = values['file-history'] === 'both'
    ? [[`${label} +hist`, some.filter((g) => g.context.fileHistory !== false)], [`${label} -hist`, some.filter((g) => g.context.fileHistory === false)]]
    : [[label, some]];
  for (const [name, part] of parts) process.stdout.write(`${name.padEnd(18)} default ${metrics(part, recordedOrder)}   learned ${metrics(part, (g) => heldOutOrder.get(g)!)}\n`);
}

const model = fitModel(groups.map(trainingGroupOf), `${groups.length} history tasks of ${repos.join(', ')}`);
if (model.kind === 'trees') process.stdout.write(`${model.trees.length} trees, ${model.trees.reduce((n, t) => n + t.value.length, 0)} nodes\n`);
else process.stdout.write(`weights: ${LEARNED_FEATURES.map((f, i) => `${f} ${model.weights[i]!.toFixed(3)}`).join(', ')}\n`);
if (values.out) {
  const out = resolve(invokedFrom, values.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(model, null, 2) + '\n');
  process.stdout.write(`wrote ${out}\n`);
}
