import { execFile } from 'node:child_process';
import { basename, resolve } from 'node:path';
import {
  mineRepository,
  orderWithModel,
  rankingFigures,
  recordTrainingGroups,
  recordedOrder,
  trainingGroupOf,
} from '@knowing/history';
import type { MinedTask, RankingFigures, RecordedGroup } from '@knowing/history';
import { repositoryModelPath, writeModelFile } from '@knowing/history/model';
import { DEFAULT_LEARNED_MODEL, trainLearnedModel, trainTreeModel } from '@knowing/rank';
import type { LearnedModel, TrainingGroup } from '@knowing/rank';
import { positiveInteger, stringValue } from '../args.js';
import type { CommandContext } from '../command.js';
import { CliError, CliErrorCode, ExitCode, usageError } from '../errors.js';
import { defaultDatabasePath, displayPath, ignoreIndexDirectory, resolveRepoRoot } from '../repo.js';
import { plural, table } from '../text.js';

/** Fewest mined tasks worth training on: fewer fit noise, and leave nothing to hold out. */
export const MIN_TRAINING_TASKS = 10;
export const DEFAULT_MAX_TASKS = 200;
export const DEFAULT_HOLDOUT = 0.2;

function holdoutValue(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_HOLDOUT;
  const value = Number(raw.trim());
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0 || value >= 1) {
    throw usageError(`--holdout must be a fraction between 0 and 1, got "${raw}"`, 'for example --holdout 0.2 keeps the newest fifth of the tasks for the before/after figures');
  }
  return value;
}

type Learner = 'linear' | 'trees';

function learnerValue(raw: string | undefined): Learner {
  if (raw === undefined || raw === 'linear' || raw === 'trees') return raw ?? 'linear';
  throw usageError(`--learner must be linear or trees, got "${raw}"`, 'linear suits a few hundred tasks; trees need more (try --max-tasks 1000)');
}

const fitters: Readonly<Record<Learner, (groups: readonly TrainingGroup[], trainedOn: string) => LearnedModel>> = {
  linear: (groups, trainedOn) => trainLearnedModel(groups, {}, trainedOn),
  trees: (groups, trainedOn) => trainTreeModel(groups, {}, trainedOn),
};

/** The repository's common git directory (a linked worktree's too), or a clear error. */
function gitDirectory(root: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile('git', ['rev-parse', '--git-common-dir'], { cwd: root }, (error, stdout) => {
      if (!error) return resolvePromise(resolve(root, String(stdout).trim()));
      const missingGit = (error as { code?: unknown }).code === 'ENOENT';
      reject(
        new CliError(
          ExitCode.Usage,
          CliErrorCode.NotAGitRepository,
          missingGit ? 'git is not installed, and training reads the git history' : `${root} is not a git repository`,
          'knowing train learns from the commits of a repository: run it inside a git checkout, or pass --repo DIR',
        ),
      );
    });
  });
}

const figure = (value: number): string => value.toFixed(3);
const day = (iso: string | undefined): string => (iso ?? '').slice(0, 10);

export async function runTrain(ctx: CommandContext): Promise<ExitCode> {
  const { out } = ctx;
  const maxTasks = positiveInteger(stringValue(ctx.values, 'max-tasks'), '--max-tasks') ?? DEFAULT_MAX_TASKS;
  const holdout = holdoutValue(stringValue(ctx.values, 'holdout'));
  const learner = learnerValue(stringValue(ctx.values, 'learner'));
  const root = resolveRepoRoot(ctx.repo, ctx.cwd);
  const outFlag = stringValue(ctx.values, 'out');
  const modelPath = outFlag !== undefined ? resolve(ctx.cwd, outFlag) : repositoryModelPath(root);
  const gitDir = await gitDirectory(root);
  const repoName = basename(root);
  const signal = ctx.io.signal;
  const started = ctx.now();

  try {
    out.note(`mining the history of ${root} for tasks (up to ${maxTasks}) …`);
    const mined = await mineRepository({ gitDir, repo: repoName, cap: maxTasks, ...(signal ? { signal } : {}) });
    if (mined.tasks.length < MIN_TRAINING_TASKS) {
      throw new CliError(
        ExitCode.Failure,
        'TOO_FEW_TASKS',
        `found ${plural(mined.tasks.length, 'task')} in the newest ${plural(mined.examined, 'commit')} of ${displayPath(root, ctx.cwd)}; training needs at least ${MIN_TRAINING_TASKS}`,
        'a task is a commit whose message says in 8 words or more what it changes and whose diff changes 1 to 6 existing non-test functions; ' +
          'a repository with more such history trains a useful model (the shipped one stays in use meanwhile)',
      );
    }
    // Oldest first: the newest tasks are held out, as the model will meet future changes.
    const tasks: MinedTask[] = [...mined.tasks].sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
    const heldOutCount = Math.min(tasks.length - 1, Math.max(1, Math.round(tasks.length * holdout)));
    const trainTasks = tasks.slice(0, tasks.length - heldOutCount);
    const heldOutTasks = tasks.slice(tasks.length - heldOutCount);
    out.note(`${plural(tasks.length, 'task')} mined from ${plural(mined.examined, 'commit')}; checking out, indexing and querying each parent commit in a temporary worktree …`);

    const groups = await recordTrainingGroups({
      gitDir,
      tasks,
      repo: repoName,
      ...(signal ? { signal } : {}),
      onTask: ({ task, done, total, skipped }) => {
        if (skipped) out.note(`skipped ${task.id}: ${skipped}`);
        if (done === total || done % 10 === 0) out.note(`recorded ${done} of ${total} tasks`);
      },
    });
    const heldOutIds = new Set(heldOutTasks.map((t) => t.id));
    const trainGroups = groups.filter((g) => !heldOutIds.has(g.task));
    const heldOutGroups = groups.filter((g) => heldOutIds.has(g.task));
    const positives = trainGroups.reduce((sum, g) => sum + g.labels.filter(Boolean).length, 0);
    if (positives === 0) {
      throw new CliError(
        ExitCode.Failure,
        'NO_TRAINING_SIGNAL',
        `none of the ${plural(trainGroups.length, 'training task')} had a changed function among the engine's candidates, so there is nothing to learn from`,
        'check that the repository is in a language knowing indexes (knowing index --help lists them)',
      );
    }
    const trainedOn = `${plural(trainGroups.length, 'history task')} of ${repoName} (${day(trainTasks[0]?.date)} to ${day(trainTasks.at(-1)?.date)})`;
    const model = fitters[learner](trainGroups.map(trainingGroupOf), trainedOn);
    const figures = {
      formula: rankingFigures(heldOutGroups, recordedOrder),
      shipped: rankingFigures(heldOutGroups, (g: RecordedGroup) => orderWithModel(DEFAULT_LEARNED_MODEL, g)),
      trained: rankingFigures(heldOutGroups, (g: RecordedGroup) => orderWithModel(model, g)),
    };
    const { worse, install } = installDecision(figures, { out: outFlag !== undefined, force: ctx.values['force'] === true });
    if (install) {
      writeModelFile(modelPath, model);
      // The default location sits beside the index: keep it out of `git status` the same way.
      if (outFlag === undefined) ignoreIndexDirectory(root, defaultDatabasePath(root));
    }

    if (out.json) {
      out.printJson({
        repository: root,
        model: install ? modelPath : null,
        tasks: { mined: mined.tasks.length, examined: mined.examined, train: trainGroups.length, heldOut: heldOutGroups.length, skipped: mined.skipped },
        trainedOn,
        positives,
        heldOut: figures,
        seconds: (ctx.now() - started) / 1000,
      });
      return ExitCode.Ok;
    }
    const row = (label: string, f: RankingFigures): string[] => [label, figure(f.recallAt10), figure(f.mrr), figure(f.precisionAt10)];
    out.line(`Trained on ${trainedOn}; held out the newest ${plural(heldOutGroups.length, 'task')} (${day(heldOutTasks[0]?.date)} to ${day(heldOutTasks.at(-1)?.date)}).`);
    out.line(`Held-out figures (${plural(heldOutGroups.length, 'task')}, the same candidates in each order):`);
    for (const line of table([['', 'R@10', 'MRR', 'P@10'], row('before: formula', figures.formula), row('before: shipped model', figures.shipped), row('after: trained model', figures.trained)], '  ')) {
      out.line(line);
    }
    if (!install) {
      out.line(
        `Not installed: the trained model ranks the held-out tasks worse than the shipped one (${plural(trainGroups.length, 'training task')} may be too few to learn from); ` +
          'the shipped model stays in use. --force installs it anyway; --out FILE writes it to look at.',
      );
      return ExitCode.Ok;
    }
    out.line(`Wrote ${displayPath(modelPath, ctx.cwd)}.`);
    if (outFlag === undefined) {
      out.line('knowing context, why, viz and mcp now rank task answers with it; delete the file to go back to the shipped model.');
    } else {
      out.line(`Copy it to ${displayPath(repositoryModelPath(root), ctx.cwd)} to use it, or load it with createLearnedRanker({ model }).`);
      if (worse) out.note('this model ranks the held-out tasks worse than the shipped one');
    }
    return ExitCode.Ok;
  } catch (error) {
    // Git killed by the same Ctrl-C fails with its own error: report the interruption instead.
    if (signal?.aborted) {
      throw new CliError(ExitCode.Interrupted, 'INTERRUPTED', 'interrupted; the temporary worktree and index were removed and no model was written');
    }
    throw error;
  }
}

/**
 * Whether a trained model is written: a model that does worse than the shipped one on the newest
 * tasks (R@10 + MRR) is not installed unless forced, since every later answer would pick it up
 * silently; `--out` only writes a file to look at, so it is always written.
 *
 * @example
 * ```ts
 * installDecision({ shipped: { recallAt10: 1, mrr: 1 }, trained: { recallAt10: 0.5, mrr: 0.5 } }, { out: false, force: false }); // { worse: true, install: false }
 * ```
 */
export function installDecision(
  figures: { readonly shipped: Pick<RankingFigures, 'recallAt10' | 'mrr'>; readonly trained: Pick<RankingFigures, 'recallAt10' | 'mrr'> },
  flags: { readonly out: boolean; readonly force: boolean },
): { readonly worse: boolean; readonly install: boolean } {
  const worse = figures.trained.mrr + figures.trained.recallAt10 < figures.shipped.mrr + figures.shipped.recallAt10;
  return { worse, install: flags.out || !worse || flags.force };
}
