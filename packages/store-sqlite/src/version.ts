// What `openDatabase()` needs to decide whether a file must be migrated, kept apart from
// migrations.ts so that opening a current database never loads kysely (≈280 modules).

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
export const SCHEMA_VERSION = 5;
