import { existsSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CliError, CliErrorCode, ExitCode, usageError } from './errors.js';

/** Where the index lives inside a repository unless `--db` says otherwise. */
export const INDEX_DIRECTORY = '.knowing';
export const INDEX_FILE = 'graph.db';

/** The nearest directory at or above `from` holding `.git` (a directory or a worktree file). */
export function findGitRoot(from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** A directory given on the command line; a missing one is a path error (exit 4). */
export function existingDirectory(path: string, cwd: string, what: string): string {
  const absolute = resolve(cwd, path);
  let stats: ReturnType<typeof statSync> | undefined;
  try {
    stats = statSync(absolute);
  } catch {
    throw new CliError(ExitCode.PathNotFound, 'PATH_NOT_FOUND', `${what} ${absolute} does not exist`, 'check the path (relative paths start at the current directory)');
  }
  if (!stats.isDirectory()) {
    throw new CliError(ExitCode.PathNotFound, 'PATH_NOT_FOUND', `${what} ${absolute} is not a directory`, 'pass the root directory of the repository');
  }
  return absolute;
}

/** The repository root: `--repo`, else the enclosing git root of the cwd, else the cwd. */
export function resolveRepoRoot(repoFlag: string | undefined, cwd: string): string {
  if (repoFlag !== undefined) return existingDirectory(repoFlag, cwd, 'repository');
  return findGitRoot(cwd) ?? resolve(cwd);
}

/**
 * What `root` is when it is no repository to index but a directory above everything (the file
 * system root, the home directory), whose walk would read every file below it; else undefined.
 */
export function broadRoot(root: string, home: string = homedir()): string | undefined {
  const real = (path: string): string => {
    try {
      return realpathSync.native(path);
    } catch {
      return resolve(path);
    }
  };
  const dir = real(root);
  if (dirname(dir) === dir) return 'the root of the file system';
  if (home !== '' && dir === real(home)) return 'your home directory';
  return undefined;
}

/** Refuse to index a {@link broadRoot} unless forced (a usage error, exit 2). */
export function refuseBroadRoot(root: string, force: boolean): void {
  const what = force ? undefined : broadRoot(root);
  if (what === undefined) return;
  throw usageError(
    `${root} is ${what}, not a repository: indexing it would read every file below it`,
    'run knowing inside a repository or name one (knowing index path/to/repo); add --force to index it anyway',
  );
}

export function defaultDatabasePath(root: string): string {
  return join(root, INDEX_DIRECTORY, INDEX_FILE);
}

/** A path for display: relative to the cwd when inside it, else absolute. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' ? '.' : leavesDirectory(rel) ? path : rel;
}

/** A relative path that climbs out of its base: its first segment is `..` (not `..dotdot.py`). */
function leavesDirectory(rel: string): boolean {
  return isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`) || rel.startsWith('../');
}

/**
 * A file named on the command line as a repo-relative path (`src/a.py`) or a path from the
 * cwd (`./a.py`, `../x/a.py`, absolute): the repo-relative form with `/` separators.
 */
export function toRepoPath(file: string, root: string, cwd: string): string {
  const fromCwd = resolve(cwd, file);
  const relToRoot = relative(root, fromCwd);
  const insideRoot = !leavesDirectory(relToRoot);
  if (insideRoot && (existsSync(fromCwd) || isAbsolute(file) || file === '.' || file.startsWith('./') || file.startsWith('../'))) return relToRoot.split(sep).join('/');
  return file.replace(/\\/g, '/').replace(/^\.\//, '');
}

/**
 * Keep the index out of `git status`: a `.gitignore` of `*` inside `.knowing/` (as pytest and
 * mypy do for their caches). Only for the default location, and never over an existing file.
 */
export function ignoreIndexDirectory(root: string, dbPath: string): void {
  const directory = join(root, INDEX_DIRECTORY);
  if (dirname(dbPath) !== directory) return;
  const file = join(directory, '.gitignore');
  try {
    if (!existsSync(file)) writeFileSync(file, '# written by knowing: the index is a local cache\n*\n');
  } catch {
    // A read-only checkout still gets its index elsewhere; this is a courtesy, not a need.
  }
}

async function git(args: readonly string[], cwd: string): Promise<string> {
  // Loaded here, not with the module: child_process (and net, streams) would load in every
  // cold `knowing context`, and only --pr and --diff run git.
  const { execFile } = await import('node:child_process');
  return new Promise((resolvePromise, reject) => {
    execFile('git', [...args], { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(error, { stderr: String(stderr) }));
      else resolvePromise(String(stdout));
    });
  });
}

/**
 * Files changed in the working tree against `base` (`git diff --name-only <base>`) plus
 * untracked files, repo-relative. Not a git repository, no git, or an unknown base are
 * usage errors with a hint to pass files explicitly.
 */
export async function changedFiles(root: string, base: string): Promise<string[]> {
  if (base.startsWith('-')) throw usageError(`"${base}" is not a git revision`, 'pass a branch, tag or commit, e.g. --pr main');
  try {
    await git(['rev-parse', '--is-inside-work-tree'], root);
  } catch (error) {
    const missingGit = (error as { code?: unknown }).code === 'ENOENT';
    throw new CliError(
      ExitCode.Usage,
      CliErrorCode.NotAGitRepository,
      missingGit ? 'git is not installed, so changed files cannot be found' : `${root} is not inside a git repository, so changed files cannot be found`,
      'name the files instead, e.g. --files src/a.py,src/b.py',
    );
  }
  let diff: string;
  try {
    diff = await git(['diff', '--name-only', '--relative', base, '--'], root);
  } catch (error) {
    const detail = String((error as { stderr?: unknown }).stderr ?? '').trim().split('\n')[0] ?? '';
    throw usageError(
      `git cannot diff against "${base}"${detail ? ` (${detail})` : ''}`,
      base === 'HEAD' ? 'a repository without commits has no HEAD: name the files with --files' : 'pass an existing branch, tag or commit',
    );
  }
  const untracked = await git(['ls-files', '--others', '--exclude-standard'], root);
  const files = new Set<string>();
  for (const line of `${diff}\n${untracked}`.split('\n')) {
    const file = line.trim();
    // The index itself is not a change to the code (when it is not git-ignored yet).
    if (file !== '' && !file.startsWith(`${INDEX_DIRECTORY}/`)) files.add(file);
  }
  return [...files].sort();
}
