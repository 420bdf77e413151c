/**
 * Working trees for history tasks: one linked worktree per repository, moved from task to task
 * with `checkout -f`, so each move rewrites only the files that differ and an incremental index
 * of the tree re-extracts only those.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ErrorCode, KnowingError } from '@knowing/graph';

function isGitDir(path: string): boolean {
  return existsSync(join(path, 'HEAD')) && existsSync(join(path, 'objects'));
}

/**
 * The git directory of a repository named `github:owner/name` (or `owner/name`), looked up in
 * the directory `mirrors` as `owner+name/repo`, `owner+name`, `owner/name`, `name.git` or
 * `name`. Throws a `KnowingError` (`PATH_NOT_FOUND`) when none is a git directory.
 *
 * @example
 * ```ts
 * resolveMirror('github:pallets/flask', '/data/mirrors'); // '/data/mirrors/pallets+flask/repo', …
 * ```
 */
export function resolveMirror(source: string, mirrors: string): string {
  const spec = source.replace(/^github:/, '').replace(/[@:].*$/, '');
  const [owner, name] = spec.split('/');
  if (!owner || !name) throw new KnowingError(ErrorCode.InvalidArgument, `"${source}" is not of the form github:owner/name`, { source: 'history' });
  const root = resolve(mirrors);
  const candidates = [
    join(root, `${owner}+${name}`, 'repo'),
    join(root, `${owner}+${name}`, 'repo', '.git'),
    join(root, `${owner}+${name}`),
    join(root, `${owner}+${name}`, '.git'),
    join(root, owner, name),
    join(root, owner, `${name}.git`),
    join(root, owner, name, '.git'),
    join(root, `${name}.git`),
    join(root, name),
    join(root, name, '.git'),
  ];
  const found = candidates.find(isGitDir);
  if (!found) {
    throw new KnowingError(ErrorCode.PathNotFound, `no git directory for ${source} under ${root}`, { source: 'history', hint: 'fetch it, or name a directory holding owner+name/repo' });
  }
  return found;
}

function git(args: readonly string[]): string {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

/** A working tree that can be moved to any commit of its mirror. */
export interface Checkout {
  /** The working tree's directory: index this. */
  readonly root: string;
  /** Move the tree to `commit` (forcibly: local edits are lost) and remove untracked files except the kept ones. */
  checkout(commit: string): void;
  /** The commit the tree is at. */
  head(): string;
  /** Remove the working tree and its registration in the mirror (the mirror's branches and HEAD are never touched). */
  remove(): void;
}

/** Options of {@link openCheckout}. */
export interface CheckoutOptions {
  /** The repository's git directory (a bare mirror works). */
  readonly mirror: string;
  /** Where the working tree lives; created on first use, reused afterwards. */
  readonly dir: string;
  /** Untracked paths `git clean` keeps (an index database kept inside the tree, say). @default ['.knowing'] */
  readonly keep?: readonly string[];
}

/**
 * Open (creating if needed) a linked worktree of `mirror` at `dir`. Creating it checks out
 * nothing; the first {@link Checkout.checkout} writes the tree.
 *
 * @example
 * ```ts
 * const tree = openCheckout({ mirror: '/src/flask/.git', dir: '/tmp/flask-tree' });
 * for (const task of tasks) {
 *   tree.checkout(task.parent);
 *   await indexRepository({ root: tree.root, store, repoId: 'flask' }); // incremental
 * }
 * ```
 */
export function openCheckout(options: CheckoutOptions): Checkout {
  const mirror = resolve(options.mirror);
  const root = resolve(options.dir);
  const keep = options.keep ?? ['.knowing'];
  const isWorktree = (): boolean => {
    if (!existsSync(join(root, '.git'))) return false;
    try {
      return git(['-C', root, 'rev-parse', '--is-inside-work-tree']).trim() === 'true';
    } catch {
      return false;
    }
  };
  if (!isWorktree()) {
    if (existsSync(root) && readdirSync(root).length > 0) {
      throw new KnowingError(ErrorCode.InvalidArgument, `${root} exists and is not a worktree of ${mirror}`, { source: 'history', hint: 'remove it or choose another directory' });
    }
    // A worktree deleted by hand is still registered; prune so its name can be reused.
    git(['--git-dir', mirror, 'worktree', 'prune']);
    git(['--git-dir', mirror, 'worktree', 'add', '--detach', '--no-checkout', '--force', root, 'HEAD']);
  }
  return {
    root,
    checkout(commit) {
      git(['-C', root, 'checkout', '--force', '--detach', '--quiet', commit]);
      git(['-C', root, 'clean', '-fdxq', ...keep.flatMap((pattern) => ['-e', pattern])]);
    },
    head() {
      return git(['-C', root, 'rev-parse', 'HEAD']).trim();
    },
    remove() {
      try {
        git(['--git-dir', mirror, 'worktree', 'remove', '--force', root]);
      } catch {
        // Half-created or already deleted: remove what is left and forget the registration.
        rmSync(root, { recursive: true, force: true });
        try {
          git(['--git-dir', mirror, 'worktree', 'prune']);
        } catch {
          // The mirror itself is gone; nothing is registered anywhere.
        }
      }
    },
  };
}
