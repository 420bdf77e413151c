import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CONDITIONS = ['import', 'node', 'default'] as const;

/** `@scope/name/sub` → ['@scope/name', './sub']; `name` → ['name', '.']. */
function splitBare(specifier: string): [string, string] {
  const parts = specifier.split('/');
  const nameParts = specifier.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, nameParts).join('/');
  const rest = parts.slice(nameParts).join('/');
  return [name, rest === '' ? '.' : `./${rest}`];
}

/** The file an `exports` entry names under the import conditions, if any. */
function pickExport(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (Array.isArray(entry)) {
    for (const item of entry) {
      const picked = pickExport(item);
      if (picked !== undefined) return picked;
    }
    return undefined;
  }
  if (typeof entry === 'object' && entry !== null) {
    const record = entry as Record<string, unknown>;
    for (const condition of CONDITIONS) {
      if (condition in record) {
        const picked = pickExport(record[condition]);
        if (picked !== undefined) return picked;
      }
    }
  }
  return undefined;
}

function entryOf(packageDir: string, subpath: string): string | undefined {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  const exportsField = manifest['exports'];
  if (exportsField !== undefined) {
    const isSubpathMap =
      typeof exportsField === 'object' && exportsField !== null && !Array.isArray(exportsField) &&
      Object.keys(exportsField).some((k) => k.startsWith('.'));
    const entry = isSubpathMap ? (exportsField as Record<string, unknown>)[subpath] : subpath === '.' ? exportsField : undefined;
    const picked = pickExport(entry);
    return picked === undefined ? undefined : join(packageDir, picked);
  }
  if (subpath !== '.') return join(packageDir, subpath);
  const main = manifest['module'] ?? manifest['main'];
  return join(packageDir, typeof main === 'string' ? main : 'index.js');
}

/**
 * The URL to import for `specifier` as seen from the directory `from` (a path or `file:`
 * URL): absolute paths and URLs as they are, relative paths against `from`, bare names by
 * walking up `node_modules` directories and reading the package's `exports` (conditions
 * `import`, `node`, `default`) or `module`/`main`, falling back to `require.resolve`.
 * Without `from`, the specifier is returned unchanged for `import()` to resolve.
 */
export function importTarget(specifier: string, from: string | undefined): string {
  if (specifier.startsWith('file:')) return specifier;
  if (isAbsolute(specifier)) return pathToFileURL(specifier).href;
  if (from === undefined) return specifier;
  const directory = from.startsWith('file:') ? fileURLToPath(from) : resolvePath(from);
  if (specifier.startsWith('./') || specifier.startsWith('../')) return pathToFileURL(resolvePath(directory, specifier)).href;
  const [name, subpath] = splitBare(specifier);
  for (let dir = directory; ; dir = dirname(dir)) {
    const packageDir = join(dir, 'node_modules', name);
    if (existsSync(join(packageDir, 'package.json'))) {
      const entry = entryOf(packageDir, subpath);
      if (entry !== undefined) return pathToFileURL(entry).href;
      break;
    }
    if (dirname(dir) === dir) break;
  }
  return pathToFileURL(createRequire(join(directory, 'noop.js')).resolve(specifier)).href;
}
