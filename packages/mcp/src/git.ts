import { execFile } from 'node:child_process';
import { invalidArgument } from './errors.js';

function git(root: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', ['-C', root, ...args], { timeout: 15_000, maxBuffer: 16 * 1024 * 1024, windowsHide: true }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(error, { stderr: String(stderr) }));
      else resolve(String(stdout));
    });
  });
}

/** Paths of `-z` output: NUL-separated, unquoted (names with spaces, quotes or non-ASCII letters come through as they are). */
const paths = (text: string): string[] => text.split('\0').filter((entry) => entry !== '');

/** SQLite's companion files of a database: a write-ahead log, its shared memory, a rollback journal. */
const DATABASE_COMPANIONS = ['', '-wal', '-shm', '-journal'];

/** What `changedFiles` leaves out: knowing's own files, which are never changes to the code. */
export interface IndexFiles {
  /** Directories (repo-relative, `/`-separated) whose files are left out, e.g. `.knowing`. */
  readonly directories: readonly string[];
  /** Database files (repo-relative); their `-wal`, `-shm` and `-journal` files are left out too. */
  readonly databases: readonly string[];
}

/** A predicate for the repo-relative paths `files` names. */
export function indexFileFilter(files: IndexFiles): (file: string) => boolean {
  const exact = new Set(files.databases.flatMap((db) => DATABASE_COMPANIONS.map((suffix) => `${db}${suffix}`)));
  const prefixes = files.directories.map((directory) => `${directory.replace(/\/+$/, '')}/`);
  return (file) => exact.has(file) || prefixes.some((prefix) => file.startsWith(prefix));
}

/**
 * Files the working tree changes relative to HEAD (staged or not), plus untracked files that
 * are not ignored; paths relative to `root`. Throws a clear error outside a git repository.
 * The index's own files are left out: a database that is not git-ignored (a `--db` inside the
 * repository, or a `.knowing/` without its `.gitignore`) would otherwise show as a change.
 */
export async function changedFiles(root: string, index: IndexFiles = { directories: [], databases: [] }): Promise<string[]> {
  const isIndexFile = indexFileFilter(index);
  let tracked: string[];
  try {
    tracked = paths(await git(root, ['diff', '--name-only', '-z', '--relative', '--no-renames', 'HEAD', '--']));
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '');
    if (/not a git repository/i.test(stderr)) {
      throw invalidArgument(`${root} is not inside a git repository, so there is no diff to read`, 'pass the changed files as `files`');
    }
    if (/unknown revision|bad revision|ambiguous argument 'HEAD'/i.test(stderr)) {
      // No commit yet: everything staged is new.
      tracked = paths(await git(root, ['diff', '--name-only', '-z', '--relative', '--cached', '--']));
    } else if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw invalidArgument('git is not installed or not on PATH, so there is no diff to read', 'pass the changed files as `files`');
    } else {
      throw invalidArgument(`git diff failed: ${stderr.trim() || (error as Error).message}`, 'pass the changed files as `files`');
    }
  }
  const untracked = paths(await git(root, ['ls-files', '--others', '--exclude-standard', '-z', '--', '.']).catch(() => ''));
  return [...new Set([...tracked, ...untracked])].filter((file) => !isIndexFile(file)).sort();
}
