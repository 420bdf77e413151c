import { ErrorCode } from '@knowing/graph';
import { sql, type Kysely } from 'kysely';
import { storeError } from './errors.js';
import { META_REPOSITORY, META_WRITTEN_BY, MIGRATION_TABLE, SCHEMA_VERSION, appliedMigrations, migrate, migrationsFor } from './migrations.js';
import type { Settings } from './options.js';
import type { Tables } from './tables.js';

/**
 * Open the repository's schema: a writer creates or migrates it holding an advisory lock on
 * the schema name, on the connection that does the work, so two processes opening a new
 * repository at once do not interleave (one would see the other's half-made schema).
 */
export async function openSchema(db: Kysely<unknown>, t: Tables, settings: Settings): Promise<{ schemaVersion: number; writtenBy: string | null }> {
  if (settings.readonly) return open(db, t, settings);
  return db.connection().execute(async (conn) => {
    const key = `knowing:${settings.schema}`;
    await sql`SELECT pg_advisory_lock(hashtext(${key}))`.execute(conn);
    try {
      return await open(conn, t, settings);
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext(${key}))`.execute(conn);
    }
  });
}

/**
 * Check the repository's schema and bring it up to date: refuse a schema that is not
 * knowing's, holds another repository or was written by a newer knowing; create or migrate
 * it unless read-only.
 */
async function open(db: Kysely<unknown>, t: Tables, settings: Settings): Promise<{ schemaVersion: number; writtenBy: string | null }> {
  const { schema, repository } = settings;
  const where = `repository '${repository}' (schema ${schema})`;
  const [state] = (
    await sql<{ exists: boolean; tables: number }>`
      SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = ${schema}) AS exists,
        (SELECT count(*)::int FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = ${schema} AND c.relkind IN ('r', 'p', 'v')) AS tables`.execute(db)
  ).rows;
  let applied = await appliedMigrations(db, schema);
  if (state?.exists && applied.length === 0 && (state.tables ?? 0) > 0) {
    throw storeError(
      ErrorCode.NotADatabase,
      `schema ${schema} exists and is not a knowing schema (it has tables but no ${MIGRATION_TABLE})`,
      'open the store with another repository or schema; knowing leaves that schema alone',
    );
  }
  const known = new Set(Object.keys(migrationsFor(schema, repository)));
  if (applied.some((name) => !known.has(name))) {
    const writer = await metaValue(db, t, META_WRITTEN_BY);
    throw storeError(
      ErrorCode.SchemaTooNew,
      `${where} was written by schema v${applied.length}${writer ? ` (${writer})` : ''}; this build reads up to v${SCHEMA_VERSION}`,
      'upgrade knowing, or drop the schema and re-index',
    );
  }
  if (applied.length > 0) {
    const holder = await metaValue(db, t, META_REPOSITORY);
    if (holder !== null && holder !== repository) {
      throw storeError(
        ErrorCode.InvalidArgument,
        `schema ${schema} holds repository '${holder}', not '${repository}'`,
        `open it with repository: '${holder}', or choose another schema`,
      );
    }
  }
  if (applied.length < SCHEMA_VERSION) {
    if (settings.readonly) {
      throw storeError(
        ErrorCode.NoIndex,
        applied.length === 0 ? `${where} has no index yet` : `${where} has schema v${applied.length} and must be migrated to v${SCHEMA_VERSION}`,
        'index the repository first (or open the store once without readonly: true to migrate it)',
      );
    }
    await migrate(db, schema, repository);
    applied = await appliedMigrations(db, schema);
  }
  return { schemaVersion: applied.length, writtenBy: await metaValue(db, t, META_WRITTEN_BY) };
}

async function metaValue(db: Kysely<unknown>, t: Tables, key: string): Promise<string | null> {
  try {
    const [row] = (await sql<{ value: string }>`SELECT value FROM ${t.meta} WHERE key = ${key}`.execute(db)).rows;
    return row?.value ?? null;
  } catch {
    return null;
  }
}
