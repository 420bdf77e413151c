import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { invalidArgument } from './errors.js';

/** A path a tool argument named, checked to lie inside the repository. */
export interface GuardedPath {
  /** Repo-relative, `/`-separated, symbolic links resolved (the way the indexer records files). */
  readonly relative: string;
  readonly absolute: string;
}

/** Whether `candidate` is `root` or below it. Only a leading segment equal to `..` leaves: `..dotdot.py` is a file name. */
function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  if (relative === '') return true;
  if (path.isAbsolute(relative)) return false;
  return relative !== '..' && !relative.startsWith(`..${path.sep}`);
}

/** The real path of `target`, or of its deepest existing ancestor joined with the rest (for files that no longer exist). */
async function realPathOf(target: string): Promise<{ real: string; exists: boolean }> {
  const tail: string[] = [];
  let current = target;
  for (;;) {
    try {
      const real = await realpath(current);
      return { real: tail.length === 0 ? real : path.join(real, ...tail), exists: tail.length === 0 };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const parent = path.dirname(current);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === current) throw error;
      tail.unshift(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Resolves tool path arguments against the repository root and rejects every path that
 * leaves it: `..` segments, absolute paths elsewhere, and symbolic links (anywhere on the
 * path) whose target lies outside.
 */
export class PathGuard {
  private constructor(
    /** The root as given, resolved to an absolute path. */
    readonly root: string,
    /** The root with symbolic links resolved. */
    readonly realRoot: string,
  ) {}

  static async create(root: string): Promise<PathGuard> {
    const absolute = path.resolve(root);
    return new PathGuard(absolute, await realpath(absolute));
  }

  /**
   * The repo-relative, `/`-separated form of an absolute path below the root (under either
   * spelling of it), without touching the file system; undefined outside the root.
   */
  relativeInside(absolute: string): string | undefined {
    for (const base of [this.realRoot, this.root]) {
      if (isInside(base, absolute) && absolute !== base) return path.relative(base, absolute).split(path.sep).join('/');
    }
    return undefined;
  }

  /** Check one argument; `label` names it in errors (`files[2]`). */
  async check(input: string, label: string): Promise<GuardedPath> {
    if (typeof input !== 'string' || input.trim() === '') throw invalidArgument(`${label} is empty`, 'pass a path relative to the repository root');
    if (input.includes('\0')) throw invalidArgument(`${label} contains a NUL character`, 'pass a plain file path');
    const written = input.trim().replace(/\\/g, '/');
    const lexical = path.isAbsolute(written) ? path.resolve(written) : path.resolve(this.realRoot, written);
    // An absolute path may name the root through the unresolved spelling (/tmp → /private/tmp).
    const base = isInside(this.root, lexical) && !isInside(this.realRoot, lexical) ? this.root : this.realRoot;
    if (!isInside(base, lexical)) {
      throw invalidArgument(`${label} ${JSON.stringify(input)} resolves to ${lexical}, outside the repository root ${this.realRoot}`, 'pass paths inside the repository, relative to its root');
    }
    const { real } = await realPathOf(lexical);
    if (!isInside(this.realRoot, real)) {
      throw invalidArgument(
        `${label} ${JSON.stringify(input)} goes through a symbolic link to ${real}, outside the repository root ${this.realRoot}`,
        'pass paths whose real location is inside the repository',
      );
    }
    const relative = path.relative(this.realRoot, real).split(path.sep).join('/');
    if (relative === '') throw invalidArgument(`${label} ${JSON.stringify(input)} is the repository root itself`, 'pass files (or directories) inside it');
    return { relative, absolute: real };
  }
}
