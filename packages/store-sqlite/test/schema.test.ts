import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, createSqliteStore } from '../src/index.js';
import { MIGRATIONS, appliedMigrations, migrate } from '../src/migrations.js';
import { LATEST_SCHEMA, MIGRATION_NAMES, createLatestSchema } from '../src/schema.js';
import { generate, REPO } from './support/graph-gen.js';

const dir = mkdtempSync(join(tmpdir(), 'knowing-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `graph-${n++}.db`);

/** Everything a file's schema is made of, and the bookkeeping rows (without the times they were written). */
function describeFile(db: Database.Database) {
  return {
    schema: db.prepare('SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema ORDER BY rowid').all(),
    applicationId: db.pragma('application_id', { simple: true }),
    userVersion: db.pragma('user_version', { simple: true }),
    pageCount: db.pragma('page_count', { simple: true }),
    freePages: db.pragma('freelist_count', { simple: true }),
    migrations: appliedMigrations(db),
    locks: db.prepare('SELECT * FROM knowing_migration_lock').all(),
    meta: db.prepare('SELECT * FROM knowing_meta').all(),
    ftsConfig: db.prepare('SELECT * FROM nodes_fts_config UNION ALL SELECT * FROM lexical_fts_config').all(),
    ftsData: db.prepare(`SELECT id, hex(block) FROM nodes_fts_data UNION ALL SELECT id, hex(block) FROM lexical_fts_data`).all(),
  };
}

/** The statements a migrated file holds, as schema.ts lists them (FTS5 shadow tables and automatic indexes left out). */
function statementsOf(db: Database.Database): string[] {
  const rows = db.prepare('SELECT name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY rowid').all() as { name: string; sql: string }[];
  const virtual = rows.filter((r) => r.sql.startsWith('CREATE VIRTUAL TABLE')).map((r) => r.name);
  return rows.filter((r) => !virtual.some((v) => r.name.startsWith(`${v}_`))).map((r) => r.sql);
}

describe('the latest schema without kysely', () => {
  it('lists exactly what the migrations create (when a migration changes, paste the statements this test prints)', async () => {
    const db = new Database(':memory:');
    await migrate(db);
    expect(LATEST_SCHEMA).toEqual(statementsOf(db));
    expect(MIGRATION_NAMES).toEqual(Object.keys(MIGRATIONS));
    db.close();
  });

  it('builds the same file as the migrations', async () => {
    const migrated = new Database(fresh());
    await migrate(migrated);
    const direct = new Database(fresh());
    expect(createLatestSchema(direct)).toBe(true);
    expect(describeFile(direct)).toEqual(describeFile(migrated));
    expect(describeFile(direct).userVersion).toBe(SCHEMA_VERSION);
    migrated.close();
    direct.close();
  });

  it('leaves a file that is no longer empty to the migrations, unchanged', async () => {
    const db = new Database(fresh());
    await migrate(db, '0002_text_search');
    const schemaOf = () => db.prepare('SELECT type, name, rootpage, sql FROM sqlite_schema ORDER BY rowid').all();
    const before = { schema: schemaOf(), userVersion: db.pragma('user_version', { simple: true }), migrations: appliedMigrations(db) };
    expect(createLatestSchema(db)).toBe(false);
    expect(db.inTransaction).toBe(false);
    expect({ schema: schemaOf(), userVersion: db.pragma('user_version', { simple: true }), migrations: appliedMigrations(db) }).toEqual(before);
    db.close();
  });

  it('makes a store that writes the same rows as a migrated one', async () => {
    const files = generate(4, 3);
    const read = async (path: string) => {
      const store = await createSqliteStore({ path });
      await store.applyBatch({ repo: REPO, files });
      const result = { snapshot: (await store.currentSnapshot())?.root, counts: await store.counts(), hits: await store.search('f1', { limit: 5 }) };
      await store.close();
      return result;
    };
    const migratedPath = fresh();
    const raw = new Database(migratedPath);
    await migrate(raw);
    raw.close();
    expect(await read(fresh())).toEqual(await read(migratedPath));
  });
});
