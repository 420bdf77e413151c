/** Read-only git plumbing over a git directory (a bare mirror or a `.git`). */
import { execFileSync } from 'node:child_process';

const MAX_BUFFER = 512 * 1024 * 1024;

/** Run git against a git directory and return stdout as bytes. Throws with git's stderr on failure. */
export function gitBytes(gitDir: string, args: readonly string[]): Buffer {
  return execFileSync('git', ['--git-dir', gitDir, '-c', 'core.quotePath=false', ...args], {
    maxBuffer: MAX_BUFFER,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Run git against a git directory and return stdout as text. */
export function gitText(gitDir: string, args: readonly string[]): string {
  return gitBytes(gitDir, args).toString('utf8');
}

/** One commit of the log. */
export interface LogEntry {
  readonly hash: string;
  readonly parents: readonly string[];
  /** Committer date, seconds since the epoch. */
  readonly time: number;
  readonly authorName: string;
  readonly authorEmail: string;
  readonly message: string;
}

/** The newest `limit` commits reachable from `ref`, in git's order. */
export function readLog(gitDir: string, ref: string, limit: number): LogEntry[] {
  const text = gitText(gitDir, ['log', `-n${limit}`, '--format=%H%x1f%P%x1f%ct%x1f%an%x1f%ae%x1f%B%x1e', ref, '--']);
  const entries: LogEntry[] = [];
  for (const record of text.split('\x1e')) {
    const fields = record.replace(/^\n+/, '').split('\x1f');
    if (fields.length < 6 || !fields[0]) continue;
    entries.push({
      hash: fields[0],
      parents: fields[1]!.split(' ').filter(Boolean),
      time: Number(fields[2]),
      authorName: fields[3]!,
      authorEmail: fields[4]!,
      message: fields.slice(5).join('\x1f'),
    });
  }
  return entries;
}

/** The bytes of `path` at `commit`, or undefined when it does not exist there. */
export function readBlob(gitDir: string, commit: string, path: string): Buffer | undefined {
  try {
    return gitBytes(gitDir, ['cat-file', 'blob', `${commit}:${path}`]);
  } catch {
    return undefined;
  }
}

/** Full hash of a revision. */
export function revParse(gitDir: string, rev: string): string {
  return gitText(gitDir, ['rev-parse', '--verify', `${rev}^{commit}`]).trim();
}
