import { readFileSync } from 'node:fs';

let cachedBuild: string | undefined;

/** This build as recorded in the schemas it writes: `knowing X.Y.Z` (every package shares knowing's version). */
export function thisBuild(): string {
  if (cachedBuild === undefined) {
    let version = 'unknown';
    try {
      // One directory above both src/ and dist/.
      const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
      if (typeof pkg.version === 'string') version = pkg.version;
    } catch {
      // Bundled into something else: the version is unknown, the rest still works.
    }
    cachedBuild = `knowing ${version}`;
  }
  return cachedBuild;
}
