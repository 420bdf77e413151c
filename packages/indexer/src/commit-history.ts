/**
 * The file history of the lexical evidence (`buildFileHistory` in `@knowing/keywords`): read
 * the commits before the indexed state with git, and keep the per-file documents as a store
 * note. Read again only when HEAD moved, so an incremental run over the same commit costs one
 * small note read.
 */
import { execFile } from 'node:child_process';
import type { GraphStore } from '@knowing/graph';
import { buildFileHistory, encodeFileHistory, FILE_HISTORY_COMMIT_NOTE, FILE_HISTORY_NOTE } from '@knowing/keywords';
import type { CommitRecord } from '@knowing/keywords';

/** Separators that cannot occur in a commit message or a path git prints with `core.quotePath`. */
const COMMIT_START = '\u0000';
const MESSAGE_END = '\u0001';

/**
 * Parse `git log --format=%x00%B%x01 --name-only` output: each commit's message, then the
 * paths it changed, one per line.
 */
export function parseCommitLog(output: string): CommitRecord[] {
  const commits: CommitRecord[] = [];
  for (const chunk of output.split(COMMIT_START)) {
    const end = chunk.indexOf(MESSAGE_END);
    if (end < 0) continue;
    const files = chunk
      .slice(end + 1)
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length > 0);
    commits.push({ message: chunk.slice(0, end), files });
  }
  return commits;
}

/** Where {@link readCommitLog} reads: a working tree (paths relative to it), or a git directory at a revision. */
export type CommitLogSource = { readonly root: string } | { readonly gitDir: string; readonly rev: string };

/**
 * The last `limit` commits reachable from HEAD (or `rev`), merges left out (they repeat their
 * branches' changes). From a working tree, paths are relative to `root` and files outside it
 * are left out. Undefined when there is no such repository or revision, or git is not installed.
 *
 * @example
 * ```ts
 * const commits = await readCommitLog({ gitDir: '/mirrors/flask.git', rev: 'a1b2c3d' }, 5000);
 * const history = buildFileHistory(commits ?? []);
 * ```
 */
export function readCommitLog(source: CommitLogSource, limit: number): Promise<CommitRecord[] | undefined> {
  const where = 'root' in source ? ['-C', source.root] : ['--git-dir', source.gitDir];
  const relative = 'root' in source ? ['--relative'] : [];
  const rev = 'rev' in source ? source.rev : 'HEAD';
  const args = [...where, '-c', 'core.quotePath=false', 'log', '--no-merges', '--no-renames', ...relative, '--name-only', `-n${limit}`, '--format=%x00%B%x01', rev, '--'];
  return new Promise((resolve) => {
    execFile('git', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }, (error, stdout) => resolve(error ? undefined : parseCommitLog(stdout)));
  });
}

/** What {@link prepareFileHistory} found: nothing to do, a history to store, or one to drop. */
export type FileHistoryUpdate =
  | { readonly action: 'keep' }
  | { readonly action: 'drop' }
  | { readonly action: 'store'; readonly head: string; readonly bytes: Uint8Array };

/**
 * Decide what the stored file history needs to match `head`, reading and building a new one
 * when HEAD moved (or `full`). Started early, it runs git beside the parse; the store is only
 * read here, and written by {@link applyFileHistory} after the graph is.
 */
export async function prepareFileHistory(store: GraphStore, root: string, head: Promise<string | null>, limit: number, full: boolean): Promise<FileHistoryUpdate> {
  const stored = await store.getNote(FILE_HISTORY_COMMIT_NOTE);
  if (limit <= 0) return stored ? { action: 'drop' } : { action: 'keep' };
  const commit = await head;
  if (!full && commit !== null && stored !== undefined && new TextDecoder().decode(stored.value) === commit) return { action: 'keep' };
  const commits = commit === null ? undefined : await readCommitLog({ root }, limit);
  if (!commits) return stored ? { action: 'drop' } : { action: 'keep' };
  return { action: 'store', head: commit!, bytes: encodeFileHistory(buildFileHistory(commits, { commit })) };
}

/** Write what {@link prepareFileHistory} decided. Returns whether the stored history changed. */
export async function applyFileHistory(store: GraphStore, update: FileHistoryUpdate): Promise<boolean> {
  if (update.action === 'keep') return false;
  if (update.action === 'drop') {
    await store.deleteNote(FILE_HISTORY_NOTE);
    await store.deleteNote(FILE_HISTORY_COMMIT_NOTE);
    return true;
  }
  await store.putNote(FILE_HISTORY_NOTE, FILE_HISTORY_NOTE, update.bytes, null);
  await store.putNote(FILE_HISTORY_COMMIT_NOTE, FILE_HISTORY_COMMIT_NOTE, new TextEncoder().encode(update.head), null);
  return true;
}
