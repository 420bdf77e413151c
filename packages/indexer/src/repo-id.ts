/**
 * Repository identity without running git: the remote URL from `.git/config`, normalised so
 * SSH and HTTPS clones of one repository share node ids.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * `git@github.com:pallets/flask.git`, `https://github.com/pallets/flask` and
 * `ssh://git@github.com:22/pallets/flask.git` all become `github.com/pallets/flask`.
 *
 * @example
 * ```ts
 * normaliseRemoteUrl('git@github.com:pallets/flask.git'); // 'github.com/pallets/flask'
 * ```
 */
export function normaliseRemoteUrl(url: string): string {
  let rest = url.trim();
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(rest);
  let host: string;
  let pathPart: string;
  if (scheme) {
    rest = rest.slice(scheme[0].length);
    const slash = rest.indexOf('/');
    host = slash < 0 ? rest : rest.slice(0, slash);
    pathPart = slash < 0 ? '' : rest.slice(slash + 1);
    host = host.replace(/^[^@]*@/, '').replace(/:\d+$/, '');
  } else {
    // scp-like syntax: [user@]host:path
    const colon = rest.indexOf(':');
    if (colon < 0 || rest.slice(0, colon).includes('/')) return rest.replace(/\.git$/, '').replace(/\/+$/, '');
    host = rest.slice(0, colon).replace(/^[^@]*@/, '');
    pathPart = rest.slice(colon + 1);
  }
  pathPart = pathPart.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.git$/, '');
  return pathPart ? `${host.toLowerCase()}/${pathPart}` : host.toLowerCase();
}

/**
 * The git directories of a working tree: `own` holds its HEAD, `common` its config and refs.
 * They differ for a linked worktree, whose `.git` file names a directory under the main
 * repository's `worktrees/` (with a `commondir` pointing back); for a clone both are `.git`.
 */
async function gitDirectories(root: string): Promise<{ readonly own: string; readonly common: string } | undefined> {
  const dotGit = path.join(root, '.git');
  const info = await stat(dotGit).catch(() => undefined);
  if (!info) return undefined;
  if (info.isDirectory()) return { own: dotGit, common: dotGit };
  // A worktree or submodule: `.git` is a file naming the real directory.
  const text = await readFile(dotGit, 'utf8').catch(() => '');
  const match = /^gitdir:\s*(.+)$/m.exec(text);
  if (!match) return undefined;
  const dir = path.resolve(root, match[1]!.trim());
  const common = await readFile(path.join(dir, 'commondir'), 'utf8').catch(() => undefined);
  return { own: dir, common: common ? path.resolve(dir, common.trim()) : dir };
}

/** The `origin` remote (else the first remote) URL from `.git/config`, or undefined. */
export async function readRemoteUrl(root: string): Promise<string | undefined> {
  const dir = (await gitDirectories(root))?.common;
  if (!dir) return undefined;
  const config = await readFile(path.join(dir, 'config'), 'utf8').catch(() => undefined);
  if (!config) return undefined;
  const remotes = new Map<string, string>();
  let current: string | undefined;
  for (const line of config.split(/\r?\n/)) {
    const section = /^\s*\[\s*remote\s+"([^"]+)"\s*\]/.exec(line);
    if (section) {
      current = section[1];
      continue;
    }
    if (/^\s*\[/.test(line)) {
      current = undefined;
      continue;
    }
    const url = /^\s*url\s*=\s*(.+?)\s*$/.exec(line);
    if (current && url && !remotes.has(current)) remotes.set(current, url[1]!);
  }
  return remotes.get('origin') ?? remotes.values().next().value;
}

/**
 * Default repository id: the normalised remote URL, else the root directory's name.
 *
 * @example
 * ```ts
 * await detectRepoId('/src/flask'); // 'github.com/pallets/flask' for a clone, 'flask' otherwise
 * ```
 */
export async function detectRepoId(root: string): Promise<string> {
  const url = await readRemoteUrl(root);
  return url ? normaliseRemoteUrl(url) : path.basename(path.resolve(root));
}

/** The commit HEAD points at, or null (no git, detached into an unknown object, …). */
export async function readHeadCommit(root: string): Promise<string | null> {
  const dirs = await gitDirectories(root);
  if (!dirs) return null;
  // A linked worktree has a HEAD of its own; the branches it may point at are shared.
  const head = (await readFile(path.join(dirs.own, 'HEAD'), 'utf8').catch(() => '')).trim();
  if (/^[0-9a-f]{40}$/.test(head)) return head;
  const ref = /^ref:\s*(.+)$/.exec(head)?.[1];
  if (!ref) return null;
  const dir = dirs.common;
  const loose = (await readFile(path.join(dir, ref), 'utf8').catch(() => '')).trim();
  if (/^[0-9a-f]{40}$/.test(loose)) return loose;
  const packed = await readFile(path.join(dir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const [sha, name] = line.trim().split(' ');
    if (name === ref && sha && /^[0-9a-f]{40}$/.test(sha)) return sha;
  }
  return null;
}
