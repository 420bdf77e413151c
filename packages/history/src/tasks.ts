/**
 * History tasks on disk: `<dir>/<repo>/<short-hash>.yaml` tasks and `<dir>/MANIFEST.yaml`
 * naming each repository, its mirror, language and split. Reading gives each task's description
 * and ground truth plus the commit to check out.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { MinedTask } from './miner.js';

/** Which repositories a run uses: those tuned on, those held out, or both. */
export type HistorySplit = 'tuning' | 'heldout';

/** A history task read back from disk: a task with its ground truth, and where in the history it lives. `tier` is the repository's split. */
export interface HistoryTask {
  readonly id: string;
  readonly repo: string;
  readonly tier: string;
  readonly description: string;
  /** Qualified names on the parent commit. */
  readonly groundTruth: readonly string[];
  /** The YAML file the task was read from. */
  readonly file: string;
  readonly commit: string;
  /** The commit to index and query: the task's state before the change. */
  readonly parent: string;
  readonly language: string;
  readonly split: HistorySplit;
  /** Committer date of the commit (ISO 8601), for ordering checkouts. */
  readonly date: string;
}

/** One repository of `MANIFEST.yaml`. */
export interface HistoryRepo {
  readonly name: string;
  /** Where the repository comes from: `github:owner/name`. */
  readonly mirror: string;
  readonly language: string;
  readonly split: HistorySplit;
  readonly tasks: number;
  /** The commit the history was mined back from. */
  readonly head?: string;
  /** Mining settings, for reproduction. */
  readonly window?: number;
  readonly cap?: number;
}

/** Options of {@link readHistoryTasks}. */
export interface ReadHistoryOptions {
  /** @default 'all' */
  readonly split?: HistorySplit | 'all';
  /** Only these repositories (manifest names). */
  readonly repos?: readonly string[];
}

const MANIFEST = 'MANIFEST.yaml';

function isSplit(value: unknown): value is HistorySplit {
  return value === 'tuning' || value === 'heldout';
}

/**
 * The repositories of a history benchmark directory, in manifest order.
 *
 * @example
 * ```ts
 * readHistoryManifest('benchmarks/history').filter((r) => r.split === 'heldout').map((r) => r.name);
 * ```
 */
export function readHistoryManifest(dir: string): HistoryRepo[] {
  const path = join(dir, MANIFEST);
  if (!existsSync(path)) return [];
  const data = parse(readFileSync(path, 'utf8')) as { repos?: Record<string, unknown>[] } | null;
  const repos: HistoryRepo[] = [];
  for (const entry of data?.repos ?? []) {
    if (typeof entry.name !== 'string' || !isSplit(entry.split)) continue;
    repos.push({
      name: entry.name,
      mirror: String(entry.mirror ?? ''),
      language: String(entry.language ?? ''),
      split: entry.split,
      tasks: Number(entry.tasks ?? 0),
      ...(typeof entry.head === 'string' ? { head: entry.head } : {}),
      ...(typeof entry.window === 'number' ? { window: entry.window } : {}),
      ...(typeof entry.cap === 'number' ? { cap: entry.cap } : {}),
    });
  }
  return repos;
}

/** Add or replace one repository in `MANIFEST.yaml`, keeping entries ordered by language, then split, then name. */
export function writeHistoryManifestEntry(dir: string, repo: HistoryRepo): void {
  const repos = readHistoryManifest(dir).filter((r) => r.name !== repo.name);
  repos.push(repo);
  repos.sort((a, b) => a.language.localeCompare(b.language) || a.split.localeCompare(b.split) || a.name.localeCompare(b.name));
  const header =
    '# Tasks mined from git history (benchmarks/src/history/mine.ts); one directory of tasks per repository.\n' +
    '# split: tuning repositories may be looked at while tuning; heldout ones only for reporting.\n';
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, MANIFEST), header + stringify({ format_version: 1, repos }, { lineWidth: 0 }));
}

/** Replace a repository's task files with these tasks (`<dir>/<repo>/<short-hash>.yaml`). */
export function writeHistoryTasks(dir: string, repo: string, tasks: readonly MinedTask[]): void {
  const repoDir = join(dir, repo);
  rmSync(repoDir, { recursive: true, force: true });
  mkdirSync(repoDir, { recursive: true });
  for (const task of tasks) {
    const short = task.id.slice(task.id.lastIndexOf('/') + 1);
    const body = {
      id: task.id,
      repo: task.repo,
      language: task.language,
      commit: task.commit,
      parent: task.parent,
      date: task.date,
      description: task.description,
      ground_truth: [...task.groundTruth],
    };
    writeFileSync(join(repoDir, `${short}.yaml`), stringify(body, { lineWidth: 0 }));
  }
}

/**
 * The tasks of a history benchmark directory, grouped by repository, oldest commit first within
 * each (so consecutive checkouts of one working tree change little).
 *
 * @example
 * ```ts
 * const byRepo = readHistoryTasks('benchmarks/history', { split: 'heldout' });
 * for (const [repo, tasks] of byRepo) console.log(repo, tasks.length, tasks[0]?.parent);
 * ```
 */
export function readHistoryTasks(dir: string, options: ReadHistoryOptions = {}): Map<string, HistoryTask[]> {
  const split = options.split ?? 'all';
  const wanted = options.repos ? new Set(options.repos) : undefined;
  const byRepo = new Map<string, HistoryTask[]>();
  for (const repo of readHistoryManifest(dir)) {
    if (split !== 'all' && repo.split !== split) continue;
    if (wanted && !wanted.has(repo.name)) continue;
    const repoDir = join(dir, repo.name);
    if (!existsSync(repoDir)) continue;
    const tasks: HistoryTask[] = [];
    for (const entry of readdirSync(repoDir).sort()) {
      if (!entry.endsWith('.yaml') && !entry.endsWith('.yml')) continue;
      const file = join(repoDir, entry);
      const data = parse(readFileSync(file, 'utf8')) as Record<string, unknown> | null;
      if (!data || typeof data.description !== 'string' || !Array.isArray(data.ground_truth) || typeof data.parent !== 'string') continue;
      tasks.push({
        id: String(data.id ?? `${repo.name}/${entry.replace(/\.ya?ml$/, '')}`),
        repo: repo.name,
        tier: repo.split,
        description: data.description,
        groundTruth: data.ground_truth.map(String),
        file,
        commit: String(data.commit ?? ''),
        parent: data.parent,
        language: String(data.language ?? repo.language),
        split: repo.split,
        date: String(data.date ?? ''),
      });
    }
    tasks.sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
    if (tasks.length > 0) byRepo.set(repo.name, tasks);
  }
  return byRepo;
}
