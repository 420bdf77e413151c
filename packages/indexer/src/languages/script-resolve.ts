/**
 * Import resolution for TypeScript and JavaScript: relative paths with TypeScript's `.js` →
 * `.ts` mapping and directory indexes, the usual `@/` and `~/` aliases, workspace packages of
 * a monorepo, and external packages (Node.js core modules as `node`).
 */
import type { ImportDecl, ProjectLayout, ResolvedImport } from './types.js';
import { normalizeRelativePath } from './common.js';

const TS_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts', '.d.ts'];
/** TypeScript's convention: `./x.js` in a TS import names the source `./x.ts`. */
const EMITTED_TO_SOURCE: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx', '.d.ts'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts', '.d.mts'],
  '.cjs': ['.cts', '.d.cts'],
};
/** Where monorepos keep workspace packages, for bare specifiers naming one. */
const WORKSPACE_DIRECTORIES = ['packages', 'apps', 'libs'];

/** Node.js core modules, imported with or without the `node:` prefix; all map to the external package `node`. */
const NODE_BUILTINS: ReadonlySet<string> = new Set([
  'assert', 'async_hooks', 'buffer', 'child_process', 'cluster', 'console', 'constants', 'crypto', 'dgram',
  'diagnostics_channel', 'dns', 'domain', 'events', 'fs', 'http', 'http2', 'https', 'inspector', 'module', 'net', 'os',
  'path', 'perf_hooks', 'process', 'punycode', 'querystring', 'readline', 'repl', 'stream', 'string_decoder', 'sys',
  'timers', 'tls', 'trace_events', 'tty', 'url', 'util', 'v8', 'vm', 'wasi', 'worker_threads', 'zlib',
]);

/**
 * Resolve a TS/JS module specifier. Relative specifiers try the path as written, TypeScript's
 * `.js` → `.ts` mapping, every script extension and directory `index` files. `@/x` and `~/x`
 * (the usual `paths` aliases) try the nearest `src/` directory and the root. Bare specifiers
 * naming a workspace package (`packages/<name>/…`) resolve into it; anything else is external:
 * the package name (`@scope/pkg`, `lodash` for `lodash/fp`), or `node` for Node.js core modules.
 */
export function resolveScriptImport(decl: ImportDecl, fromFile: string, project: ProjectLayout): ResolvedImport {
  const specifier = decl.source;
  const fromTs = /\.[cm]?tsx?$/i.test(fromFile);
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const joined = specifier.startsWith('/') ? specifier.slice(1) : `${directoryOf(fromFile)}/${specifier}`;
    const target = normalizeRelativePath(joined);
    if (target === undefined) return { files: [] };
    const hit = resolveModulePath(target, project, fromTs);
    return { files: hit === undefined ? [] : [hit] };
  }
  if (specifier.startsWith('@/') || specifier.startsWith('~/')) {
    const rest = specifier.slice(2);
    for (const base of aliasRoots(fromFile)) {
      const target = normalizeRelativePath(base ? `${base}/${rest}` : rest);
      const hit = target === undefined ? undefined : resolveModulePath(target, project, fromTs);
      if (hit !== undefined) return { files: [hit] };
    }
    return { files: [] };
  }
  if (specifier.startsWith('node:')) return { files: [], external: 'node' };
  const parts = specifier.split('/');
  const scoped = specifier.startsWith('@') && parts.length >= 2;
  const packageName = scoped ? `${parts[0]}/${parts[1]}` : parts[0]!;
  if (NODE_BUILTINS.has(packageName)) return { files: [], external: 'node' };
  const subpath = parts.slice(scoped ? 2 : 1).join('/');
  const directoryName = scoped ? parts[1]! : parts[0]!;
  for (const workspace of WORKSPACE_DIRECTORIES) {
    const root = `${workspace}/${directoryName}`;
    const candidates = subpath ? [`${root}/src/${subpath}`, `${root}/${subpath}`] : [`${root}/src/index`, `${root}/index`, `${root}/lib/index`];
    for (const candidate of candidates) {
      const hit = resolveModulePath(candidate, project, fromTs);
      if (hit !== undefined) return { files: [hit] };
    }
  }
  return { files: [], external: packageName };
}

function resolveModulePath(target: string, project: ProjectLayout, preferTs: boolean): string | undefined {
  const dot = target.lastIndexOf('.');
  const extension = dot > target.lastIndexOf('/') ? target.slice(dot).toLowerCase() : '';
  const mapped = EMITTED_TO_SOURCE[extension];
  if (mapped) {
    const stem = target.slice(0, dot);
    if (!preferTs && project.hasFile(target)) return target;
    for (const candidate of mapped) if (project.hasFile(stem + candidate)) return stem + candidate;
    if (project.hasFile(target)) return target;
  } else if (extension && project.hasFile(target)) {
    return target;
  }
  const extensions = preferTs ? TS_EXTENSIONS : JS_EXTENSIONS;
  for (const candidate of extensions) if (project.hasFile(target + candidate)) return target + candidate;
  const index = target ? `${target}/index` : 'index';
  for (const candidate of extensions) if (project.hasFile(index + candidate)) return index + candidate;
  return undefined;
}

function directoryOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Candidate bases for `@/…` aliases: the nearest enclosing `src` directory, the root's `src`, the root. */
function aliasRoots(fromFile: string): string[] {
  const roots: string[] = [];
  const parts = fromFile.split('/');
  for (let i = parts.length - 2; i >= 0; i--) {
    if (parts[i] === 'src') {
      roots.push(parts.slice(0, i + 1).join('/'));
      break;
    }
  }
  if (!roots.includes('src')) roots.push('src');
  roots.push('');
  return roots;
}
