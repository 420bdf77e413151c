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

const lines = (text: string): string[] => text.split('\n').map((line) => line.trim()).filter((line) => line !== '');

/**
 * Files the working tree changes relative to HEAD (staged or not), plus untracked files that
 * are not ignored; paths relative to `root`. Throws a clear error outside a git repository.
 */
export async function changedFiles(root: string): Promise<string[]> {
  let tracked: string[];
  try {
    tracked = lines(await git(root, ['diff', '--name-only', '--relative', '--no-renames', 'HEAD', '--']));
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '');
    if (/not a git repository/i.test(stderr)) {
      throw invalidArgument(`${root} is not inside a git repository, so there is no diff to read`, 'pass the changed files as `files`');
    }
    if (/unknown revision|bad revision|ambiguous argument 'HEAD'/i.test(stderr)) {
      // No commit yet: everything staged is new.
      tracked = lines(await git(root, ['diff', '--name-only', '--relative', '--cached', '--']));
    } else if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw invalidArgument('git is not installed or not on PATH, so there is no diff to read', 'pass the changed files as `files`');
    } else {
      throw invalidArgument(`git diff failed: ${stderr.trim() || (error as Error).message}`, 'pass the changed files as `files`');
    }
  }
  const untracked = lines(await git(root, ['ls-files', '--others', '--exclude-standard', '--', '.']).catch(() => ''));
  return [...new Set([...tracked, ...untracked])].sort();
}
