import type { NodeKind } from './types.js';

/** Kinds that hold members: the "types" of the ranking and walk heuristics. */
export const TYPE_LIKE_KINDS: ReadonlySet<NodeKind> = new Set<NodeKind>([
  'class',
  'struct',
  'interface',
  'trait',
  'enum',
  'module',
]);

/** Kinds that are callable. */
export const CALLABLE_KINDS: ReadonlySet<NodeKind> = new Set<NodeKind>(['function', 'method', 'constructor']);

/** True for class-like kinds. */
export function isTypeLike(kind: NodeKind): boolean {
  return TYPE_LIKE_KINDS.has(kind);
}

/**
 * Build a qualified name: the repo-relative file path, then the enclosing scopes, then the
 * name, joined with dots.
 *
 * @example
 * ```ts
 * qualifiedName('src/flask/app.py', ['Flask'], 'run'); // 'src/flask/app.py.Flask.run'
 * ```
 */
export function qualifiedName(file: string, scopes: readonly string[], name: string): string {
  return [file, ...scopes, name].join('.');
}

/**
 * The symbol part of a qualified name, without the file path: `Flask.run` for
 * `src/flask/app.py.Flask.run`. Returns the input when `file` is not its prefix.
 */
export function symbolPath(qualifiedName: string, file: string): string {
  return file && qualifiedName.startsWith(file + '.') ? qualifiedName.slice(file.length + 1) : qualifiedName;
}

/**
 * The package a file belongs to for snapshots and grouping: its directory (`.` at the root).
 */
export function packageOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash < 0 ? '.' : file.slice(0, slash);
}
