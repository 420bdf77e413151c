// The meta table (schema v6 on): which knowing wrote the file. Kept apart from migrations.ts
// so that reading or updating it never loads kysely.
import type Database from 'better-sqlite3';
import { META_TABLE, META_WRITTEN_BY, thisBuild } from './version.js';

function hasMetaTable(db: Database.Database): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).get(META_TABLE) !== undefined;
}

/**
 * The knowing that last wrote the file (`knowing X.Y.Z`), or null when the file predates the
 * meta table or cannot say. Never throws: it is read to explain other failures.
 */
export function readWrittenBy(db: Database.Database): string | null {
  try {
    if (!hasMetaTable(db)) return null;
    const value = db.prepare(`SELECT value FROM ${META_TABLE} WHERE key = ?`).pluck().get(META_WRITTEN_BY);
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** Record this build as the file's writer (once the schema has the meta table). */
export function recordWriter(db: Database.Database): void {
  if (!hasMetaTable(db)) return;
  db.prepare(`INSERT INTO ${META_TABLE} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(
    META_WRITTEN_BY,
    thisBuild(),
  );
}
