/**
 * Temporary edits of corpus files that are undone even when the benchmark dies mid-edit.
 *
 * Before a file is changed, its original bytes and times go to a journal file (written to a
 * temporary name, then renamed, so a journal is never half-written); restoring writes them
 * back and only then deletes the journal. Whoever finds a journal — the process itself on a
 * signal or exit, its parent after the child ended in any way (even SIGKILL), or the next run —
 * puts the file back.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface JournalEntry {
  readonly path: string;
  readonly original: string; // base64
  readonly atimeMs: number;
  readonly mtimeMs: number;
}

/** The journal path for a repository checkout: stable across runs, so a later run can recover. */
export function journalFor(root: string): string {
  return join(tmpdir(), `knowing-bench-edit-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`);
}

export interface FileEdit {
  /** Puts the original bytes and times back and removes the journal. Idempotent. */
  restore(): void;
}

/**
 * Appends `suffix` to `path`, journalled in `journal`. Only one edit per journal may be
 * pending: a leftover one is restored first.
 */
export function editFile(path: string, suffix: string, journal: string): FileEdit {
  restorePendingEdit(journal);
  const original = readFileSync(path);
  const { atimeMs, mtimeMs } = statSync(path);
  const entry: JournalEntry = { path, original: original.toString('base64'), atimeMs, mtimeMs };
  writeFileSync(`${journal}.tmp`, JSON.stringify(entry));
  renameSync(`${journal}.tmp`, journal);
  writeFileSync(path, Buffer.concat([original, Buffer.from(suffix)]));
  return { restore: () => void restorePendingEdit(journal) };
}

/** Restores the file a journal describes, if there is one; returns its path, else null. */
export function restorePendingEdit(journal: string): string | null {
  rmSync(`${journal}.tmp`, { force: true });
  if (!existsSync(journal)) return null;
  const entry = JSON.parse(readFileSync(journal, 'utf8')) as JournalEntry;
  writeFileSync(entry.path, Buffer.from(entry.original, 'base64'));
  utimesSync(entry.path, entry.atimeMs / 1000, entry.mtimeMs / 1000);
  rmSync(journal, { force: true });
  return entry.path;
}

/**
 * Restore on SIGINT/SIGTERM/SIGHUP (then exit 130) and on any normal exit. For a process
 * that edits files; call once.
 */
export function restoreOnExit(journal: string): void {
  const restore = (): void => {
    try {
      restorePendingEdit(journal);
    } catch (error) {
      process.stderr.write(`could not restore the file edited by the benchmark (journal ${journal}): ${(error as Error).message}\n`);
    }
  };
  process.on('exit', restore);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      restore();
      process.exit(130);
    });
  }
}
