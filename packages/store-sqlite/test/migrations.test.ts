import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, createSqliteStore } from '../src/index.js';
import { MIGRATIONS, appliedMigrations, migrate } from '../src/migrations.js';
import { KNOWING_APPLICATION_ID } from '../src/version.js';
import { generate } from './support/graph-gen.js';

const dir = mkdtempSync(join(tmpdir(), 'knowing-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `graph-${n++}.db`);

function header(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    return {
      userVersion: db.pragma('user_version', { simple: true }),
      applicationId: db.pragma('application_id', { simple: true }),
      journalMode: db.pragma('journal_mode', { simple: true }),
      migrations: appliedMigrations(db),
    };
  } finally {
    db.close();
  }
}

describe('migrations', () => {
  it('number exactly SCHEMA_VERSION (the constant open() checks without loading them)', () => {
    expect(Object.keys(MIGRATIONS)).toHaveLength(SCHEMA_VERSION);
  });

  it('bring an empty file to the latest schema and record the version', async () => {
    const path = fresh();
    const store = await createSqliteStore({ path });
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    await store.close();
    expect(SCHEMA_VERSION).toBe(Object.keys(MIGRATIONS).length);
    expect(header(path)).toEqual({
      userVersion: SCHEMA_VERSION,
      applicationId: KNOWING_APPLICATION_ID,
      journalMode: 'wal',
      migrations: Object.keys(MIGRATIONS),
    });
  });

  it('are idempotent on re-open and keep the data', async () => {
    const path = fresh();
    const first = await createSqliteStore({ path });
    await first.applyBatch({ files: generate(3, 4) });
    const snapshot = await first.currentSnapshot();
    await first.close();
    const before = header(path);
    for (let i = 0; i < 2; i++) {
      const again = await createSqliteStore({ path });
      expect(again.schemaVersion).toBe(SCHEMA_VERSION);
      expect(await again.currentSnapshot()).toEqual(snapshot);
      expect((await again.counts()).nodes).toBe(12);
      await again.close();
    }
    expect(header(path)).toEqual(before);
  });

  it('continue from a file an older build left at an intermediate version', async () => {
    const path = fresh();
    const raw = new Database(path);
    await migrate(raw, '0002_text_search');
    raw.close();
    expect(header(path)).toMatchObject({ userVersion: 2, migrations: ['0001_graph', '0002_text_search'] });
    // A reader cannot migrate; it says so instead of failing on a missing table later.
    await expect(createSqliteStore({ path, readonly: true })).rejects.toMatchObject({ code: 'NO_INDEX' });
    const store = await createSqliteStore({ path });
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    await store.applyBatch({ files: generate(1, 2) });
    await store.putNote('k', 'kind', new Uint8Array([7]));
    expect(Array.from((await store.getNote('k'))!.value)).toEqual([7]);
    await store.close();
    expect(header(path).migrations).toEqual(Object.keys(MIGRATIONS));
  });

  it('leave an in-memory store fully migrated', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    expect(store.path).toBe(':memory:');
    await store.close();
  });
});
