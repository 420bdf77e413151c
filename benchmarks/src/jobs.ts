/**
 * The repositories a benchmark run works through, and how to put each one's tree in the state
 * a task was written against: the corpus's fixed checkouts, or a history benchmark's parent
 * commits checked out one after another from a mirror.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readManifest, readTasks } from './corpus.js';
import type { BenchTask } from './corpus.js';
import { openCheckout, readHistoryManifest, readHistoryTasks, resolveMirror } from './history/index.js';
import type { HistoryTask } from './history/index.js';

/** One repository's tasks, and the tree to index for each. */
export interface Job {
  readonly repo: string;
  readonly language: string;
  readonly tasks: readonly BenchTask[];
  /** Whether each task needs the tree moved and re-indexed (history), or one index serves all (corpus). */
  readonly perTask: boolean;
  /** The tree to index for `task`, moved to the task's commit first when the tasks have one. */
  prepare(task: BenchTask): string;
}

/** Jobs of the original corpus: tasks of `benchDir`, checkouts under `corpus/<repo>`. */
export function corpusJobs(benchDir: string, corpus: string, wanted: ReadonlySet<string> | undefined, warn: (message: string) => void): Job[] {
  const tasksByRepo = readTasks(benchDir);
  const jobs: Job[] = [];
  for (const repo of readManifest(benchDir)) {
    if (wanted && !wanted.has(repo.name)) continue;
    const tasks = tasksByRepo.get(repo.name) ?? [];
    if (tasks.length === 0) continue;
    const root = join(corpus, repo.name);
    if (!existsSync(root)) {
      warn(`skip ${repo.name}: ${root} not found`);
      continue;
    }
    jobs.push({ repo: repo.name, language: repo.language.toLowerCase(), tasks, perTask: false, prepare: () => root });
  }
  return jobs;
}

/** Jobs of a history benchmark directory: a worktree per repository under `workDir/history-<repo>`. */
export function historyJobs(
  dir: string,
  options: { readonly split: 'tuning' | 'heldout' | 'all'; readonly mirrors: string; readonly workDir: string; readonly wanted?: ReadonlySet<string> },
  warn: (message: string) => void,
): Job[] {
  const manifest = new Map(readHistoryManifest(dir).map((r) => [r.name, r]));
  const byRepo = readHistoryTasks(dir, { split: options.split, ...(options.wanted ? { repos: [...options.wanted] } : {}) });
  const jobs: Job[] = [];
  for (const [name, tasks] of byRepo) {
    const repo = manifest.get(name)!;
    let mirror: string;
    try {
      mirror = resolveMirror(repo.mirror, options.mirrors);
    } catch (error) {
      warn(`skip ${name}: ${(error as Error).message}`);
      continue;
    }
    let tree: ReturnType<typeof openCheckout> | undefined;
    jobs.push({
      repo: name,
      language: repo.language,
      tasks,
      perTask: true,
      prepare(task) {
        tree ??= openCheckout({ mirror, dir: join(options.workDir, `history-${name}`) });
        tree.checkout((task as HistoryTask).parent);
        return tree.root;
      },
    });
  }
  return jobs;
}
