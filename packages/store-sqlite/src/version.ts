// What `openDatabase()` needs to decide whether a file must be migrated, kept apart from
// migrations.ts so that opening a current database never loads kysely (≈280 modules).
import { readFileSync } from 'node:fs';

/**
 * `PRAGMA application_id` of a knowing database ('KNOW'). Tells our files apart from other
 * SQLite databases before anything is written to them.
 */
export const KNOWING_APPLICATION_ID = 0x4b4e4f57;

/**
 * Schema version this build writes and reads up to: the number of migrations in
 * `MIGRATIONS` (a test pins the two together). A file with a higher version is refused with
 * `STORE_SCHEMA_TOO_NEW`; a lower one is migrated on open.
 *
 * @example
 * ```ts
 * const store = await createSqliteStore({ path });
 * store.schemaVersion === SCHEMA_VERSION; // true once opened for writing
 * ```
 */
export const SCHEMA_VERSION = 6;

/**
 * Table of facts about the file itself (schema v6 on): who wrote it. Every later schema keeps
 * this table and its keys, so that a build can tell which knowing wrote a file it is too old
 * to read.
 */
export const META_TABLE = 'knowing_meta';

/** Key in {@link META_TABLE}: the last knowing that wrote the graph, e.g. `knowing 0.4.1`. */
export const META_WRITTEN_BY = 'written_by';

let cachedBuild: string | undefined;

/**
 * This build as it is recorded in the files it writes and named in errors: `knowing X.Y.Z`.
 * Every package of knowing is released with the same version (changesets `fixed` group), so
 * this package's own version is the version of knowing.
 */
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
