// Loaded by openDatabase() with a dynamic import, and only when a file must be created or
// migrated: this module is the one place that imports kysely at run time.
import type Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql, type Migration } from 'kysely';
import { recordWriter } from './meta.js';
import { KNOWING_APPLICATION_ID, META_TABLE } from './version.js';

/** Bookkeeping tables of kysely's Migrator, named so they read as ours. */
const MIGRATION_TABLE = 'knowing_migration';
const MIGRATION_LOCK_TABLE = 'knowing_migration_lock';

const FTS_TOKENIZE = "unicode61 tokenchars '_' remove_diacritics 2";

/**
 * Every migration sets `PRAGMA user_version` to its ordinal, so the schema version can be
 * read from the file header without trusting any table, and a build can see that a file was
 * written by a newer schema before touching it.
 */
function setVersion(db: Kysely<unknown>, version: number): Promise<unknown> {
  return sql.raw(`PRAGMA user_version = ${version}`).execute(db);
}

const graph: Migration = {
  async up(db) {
    await sql.raw(`PRAGMA application_id = ${KNOWING_APPLICATION_ID}`).execute(db);
    // One store holds one repository: a single row.
    await db.schema
      .createTable('repos')
      .addColumn('slot', 'integer', (c) => c.primaryKey().check(sql`slot = 1`))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('root', 'text', (c) => c.notNull())
      .addColumn('commit_sha', 'text')
      .addColumn('indexed_at', 'integer')
      .execute();
    await db.schema
      .createTable('files')
      .addColumn('path', 'text', (c) => c.primaryKey())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('content_hash', 'text', (c) => c.notNull())
      .addColumn('size_bytes', 'integer', (c) => c.notNull())
      .addColumn('indexed_at', 'integer', (c) => c.notNull())
      .addColumn('syntax_errors', 'integer', (c) => c.notNull().defaultTo(0))
      // packageOf(path), the Merkle grouping key: indexed here (a few thousand files) rather
      // than on nodes, where the index would cost every node insert of a full index.
      .addColumn('package', 'text', (c) => c.notNull())
      .modifyEnd(sql`without rowid`)
      .execute();
    await db.schema.createIndex('files_package').on('files').columns(['package', 'path']).execute();
    // `seq` is an explicit INTEGER PRIMARY KEY so VACUUM never renumbers it: it is the FTS
    // rowid and what edges point at (4-byte integers instead of two 32-character ids per edge).
    await db.schema
      .createTable('nodes')
      .addColumn('seq', 'integer', (c) => c.primaryKey())
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_lower', 'text', (c) => c.notNull())
      .addColumn('qualified_name', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('package', 'text', (c) => c.notNull())
      .addColumn('start_line', 'integer', (c) => c.notNull())
      .addColumn('end_line', 'integer', (c) => c.notNull())
      .addColumn('signature', 'text', (c) => c.notNull())
      .addColumn('doc', 'text', (c) => c.notNull())
      .addColumn('is_test', 'integer', (c) => c.notNull())
      .addColumn('external', 'integer', (c) => c.notNull())
      .execute();
    // Exact name lookups use this index too (name_lower = lower(?) AND name = ?), so a
    // separate index on `name` would only cost space.
    await db.schema.createIndex('nodes_name_lower').on('nodes').column('name_lower').execute();
    await db.schema.createIndex('nodes_qualified_name').on('nodes').column('qualified_name').execute();
    await db.schema.createIndex('nodes_file').on('nodes').columns(['file', 'start_line']).execute();
    // Who owns an edge: `file:<path>` for a file's edges, `pass:<name>` for OwnedEdges.
    await db.schema
      .createTable('owners')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .execute();
    await db.schema
      .createTable('edges')
      .addColumn('src', 'integer', (c) => c.notNull().references('nodes.seq').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('dst', 'integer', (c) => c.notNull().references('nodes.seq').onDelete('cascade'))
      .addColumn('confidence', 'real', (c) => c.notNull())
      .addColumn('provenance', 'text', (c) => c.notNull())
      .addColumn('line', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('owner', 'integer', (c) => c.notNull().references('owners.id').onDelete('cascade'))
      // (src, type, dst) is the unique identity of an edge and the out-edge index.
      .addPrimaryKeyConstraint('edges_pk', ['src', 'type', 'dst'])
      .modifyEnd(sql`without rowid`)
      .execute();
    await db.schema.createIndex('edges_dst').on('edges').columns(['dst', 'type']).execute();
    await db.schema.createIndex('edges_owner').on('edges').column('owner').execute();
    await setVersion(db, 1);
  },
};

const textSearch: Migration = {
  async up(db) {
    // Contentless with contentless_delete: the expanded text is not stored a second time
    // (we never read it back; nodes hold the real values), yet rows can still be deleted
    // and replaced one at a time, which keeps incremental updates cheap.
    await sql
      .raw(
        `CREATE VIRTUAL TABLE nodes_fts USING fts5(name, concepts, path, qualified_name, doc, signature, ` +
          `content='', contentless_delete=1, tokenize="${FTS_TOKENIZE}")`,
      )
      .execute(db);
    await setVersion(db, 2);
  },
};

const snapshots: Migration = {
  async up(db) {
    await db.schema
      .createTable('snapshots')
      .addColumn('generation', 'integer', (c) => c.primaryKey())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('root', 'text', (c) => c.notNull())
      .addColumn('created_at', 'integer', (c) => c.notNull())
      .addColumn('node_count', 'integer', (c) => c.notNull())
      .addColumn('edge_count', 'integer', (c) => c.notNull())
      .execute();
    // Level 1 of the Merkle tree: one root per (package of the source node, edge type).
    await db.schema
      .createTable('merkle_types')
      .addColumn('package', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('root', 'text', (c) => c.notNull())
      .addColumn('leaves', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('merkle_types_pk', ['package', 'type'])
      .modifyEnd(sql`without rowid`)
      .execute();
    // Level 2: one root per package, over its type roots.
    await db.schema
      .createTable('merkle_packages')
      .addColumn('package', 'text', (c) => c.primaryKey())
      .addColumn('root', 'text', (c) => c.notNull())
      .modifyEnd(sql`without rowid`)
      .execute();
    await setVersion(db, 3);
  },
};

const learning: Migration = {
  async up(db) {
    await db.schema
      .createTable('notes')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('value', 'blob', (c) => c.notNull())
      .addColumn('snapshot', 'text')
      .addColumn('updated_at', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('notes_kind').on('notes').columns(['kind', 'key']).execute();
    await db.schema
      .createTable('feedback')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('symbol', 'text', (c) => c.notNull())
      .addColumn('useful', 'integer', (c) => c.notNull())
      .addColumn('session', 'text', (c) => c.notNull())
      .addColumn('neighborhood_root', 'text')
      .addColumn('keyword_cluster', 'text')
      .addColumn('at', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('feedback_symbol').on('feedback').columns(['symbol', 'keyword_cluster']).execute();
    await db.schema
      .createTable('vocab')
      .addColumn('keyword', 'text', (c) => c.notNull())
      .addColumn('symbol', 'text', (c) => c.notNull())
      .addColumn('symbol_name', 'text', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('cluster', 'text')
      .addColumn('package_root', 'text')
      .addColumn('last_seen', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('vocab_pk', ['keyword', 'symbol'])
      .modifyEnd(sql`without rowid`)
      .execute();
    await setVersion(db, 4);
  },
};

const lexicalIndex: Migration = {
  async up(db) {
    // The lexical index: what each symbol says and does (name, path, signature, doc, body, and
    // the lines of the functions nested in it),
    // as terms the indexer already normalised, so the plain ascii tokenizer only splits at
    // spaces. Contentless like nodes_fts: FTS5 keeps the postings and per-row lengths that
    // bm25() needs, never the text.
    await sql
      .raw(`CREATE VIRTUAL TABLE lexical_fts USING fts5(name, path, signature, doc, body, members, content='', contentless_delete=1, tokenize='ascii')`)
      .execute(db);
    await setVersion(db, 5);
  },
};

const meta: Migration = {
  async up(db) {
    // Who wrote the file, so that an older build refusing it can say which version to
    // install. Later schemas must keep this table and its keys (see META_TABLE).
    await db.schema
      .createTable(META_TABLE)
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .modifyEnd(sql`without rowid`)
      .execute();
    await setVersion(db, 6);
  },
};

/** The migrations, in order. Names sort in application order (kysely requires it). */
export const MIGRATIONS: Readonly<Record<string, Migration>> = Object.freeze({
  '0001_graph': graph,
  '0002_text_search': textSearch,
  '0003_snapshots': snapshots,
  '0004_learning': learning,
  '0005_lexical': lexicalIndex,
  '0006_meta': meta,
});

/**
 * Run pending migrations (up to `target`, a migration name, or all) in one IMMEDIATE
 * transaction. kysely runs SQLite migrations outside a transaction (its SQLite adapter
 * reports no transactional DDL), but SQLite does support it: wrapping them means a process
 * killed mid-migration leaves the previous version, and two processes opening a fresh file
 * at once serialise on the write lock instead of both creating tables.
 */
export async function migrate(db: Database.Database, target?: string): Promise<void> {
  // kysely gets a view of the connection whose close() does nothing: the store owns the
  // connection and closes it itself.
  const kysely = new Kysely<unknown>({
    dialect: new SqliteDialect({ database: { close() {}, prepare: (source: string) => db.prepare(source) } }),
  });
  const migrator = new Migrator({
    db: kysely,
    provider: { getMigrations: async () => ({ ...MIGRATIONS }) },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = target === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(target);
    if (result.error !== undefined) throw result.error;
    recordWriter(db);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** Names of the migrations recorded as applied (for tests and diagnostics). */
export function appliedMigrations(db: Database.Database): string[] {
  const exists = db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).get(MIGRATION_TABLE);
  if (exists === undefined) return [];
  return (db.prepare(`SELECT name FROM ${MIGRATION_TABLE} ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
}
