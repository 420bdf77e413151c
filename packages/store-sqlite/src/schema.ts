// Creating a new index without kysely: the statements the migrations leave in sqlite_schema,
// run in the order the migrations ran them. Loading kysely and running its Migrator cost a
// fresh index ~25 ms of a ~1 s run on a small repository; these statements build the same
// file (test/schema.test.ts compares the two, table by table, and prints the new list when a
// migration changes the schema). Files at an older version are still migrated by migrations.ts.
import type Database from 'better-sqlite3';
import { recordWriter } from './meta.js';
import { KNOWING_APPLICATION_ID, SCHEMA_VERSION } from './version.js';

/** The migrations' names, in order: the rows of `knowing_migration` in a file they built. */
export const MIGRATION_NAMES: readonly string[] = Object.freeze([
  '0001_graph',
  '0002_text_search',
  '0003_snapshots',
  '0004_learning',
  '0005_lexical',
  '0006_meta',
]);

/**
 * `sqlite_schema.sql` of every table and index the migrations create, in creation order
 * (FTS5 creates its shadow tables itself, SQLite its automatic indexes).
 */
export const LATEST_SCHEMA: readonly string[] = Object.freeze([
  'CREATE TABLE "knowing_migration" ("name" varchar(255) not null primary key, "timestamp" varchar(255) not null)',
  'CREATE TABLE "knowing_migration_lock" ("id" varchar(255) not null primary key, "is_locked" integer default 0 not null)',
  'CREATE TABLE "repos" ("slot" integer primary key check (slot = 1), "id" text not null, "root" text not null, "commit_sha" text, "indexed_at" integer)',
  'CREATE TABLE "files" ("path" text primary key, "language" text not null, "content_hash" text not null, "size_bytes" integer not null, "indexed_at" integer not null, "syntax_errors" integer default 0 not null, "package" text not null) without rowid',
  'CREATE INDEX "files_package" on "files" ("package", "path")',
  'CREATE TABLE "nodes" ("seq" integer primary key, "id" text not null unique, "name" text not null, "name_lower" text not null, "qualified_name" text not null, "kind" text not null, "language" text not null, "file" text not null, "package" text not null, "start_line" integer not null, "end_line" integer not null, "signature" text not null, "doc" text not null, "is_test" integer not null, "external" integer not null)',
  'CREATE INDEX "nodes_name_lower" on "nodes" ("name_lower")',
  'CREATE INDEX "nodes_qualified_name" on "nodes" ("qualified_name")',
  'CREATE INDEX "nodes_file" on "nodes" ("file", "start_line")',
  'CREATE TABLE "owners" ("id" integer primary key, "name" text not null unique)',
  'CREATE TABLE "edges" ("src" integer not null references "nodes" ("seq") on delete cascade, "type" text not null, "dst" integer not null references "nodes" ("seq") on delete cascade, "confidence" real not null, "provenance" text not null, "line" integer default 0 not null, "owner" integer not null references "owners" ("id") on delete cascade, constraint "edges_pk" primary key ("src", "type", "dst")) without rowid',
  'CREATE INDEX "edges_dst" on "edges" ("dst", "type")',
  'CREATE INDEX "edges_owner" on "edges" ("owner")',
  'CREATE VIRTUAL TABLE nodes_fts USING fts5(name, concepts, path, qualified_name, doc, signature, content=\'\', contentless_delete=1, tokenize="unicode61 tokenchars \'_\' remove_diacritics 2")',
  'CREATE TABLE "snapshots" ("generation" integer primary key, "id" text not null, "root" text not null, "created_at" integer not null, "node_count" integer not null, "edge_count" integer not null)',
  'CREATE TABLE "merkle_types" ("package" text not null, "type" text not null, "root" text not null, "leaves" integer not null, constraint "merkle_types_pk" primary key ("package", "type")) without rowid',
  'CREATE TABLE "merkle_packages" ("package" text primary key, "root" text not null) without rowid',
  'CREATE TABLE "notes" ("key" text primary key, "kind" text not null, "value" blob not null, "snapshot" text, "updated_at" integer not null)',
  'CREATE INDEX "notes_kind" on "notes" ("kind", "key")',
  'CREATE TABLE "feedback" ("id" integer primary key, "symbol" text not null, "useful" integer not null, "session" text not null, "neighborhood_root" text, "keyword_cluster" text, "at" integer not null)',
  'CREATE INDEX "feedback_symbol" on "feedback" ("symbol", "keyword_cluster")',
  'CREATE TABLE "vocab" ("keyword" text not null, "symbol" text not null, "symbol_name" text not null, "count" integer not null, "cluster" text, "package_root" text, "last_seen" integer not null, constraint "vocab_pk" primary key ("keyword", "symbol")) without rowid',
  'CREATE VIRTUAL TABLE lexical_fts USING fts5(name, path, signature, doc, body, members, content=\'\', contentless_delete=1, tokenize=\'ascii\')',
  'CREATE TABLE "knowing_meta" ("key" text primary key, "value" text not null) without rowid',
]);

/** Whether a connection's file holds nothing yet: no schema, no application id, no version. */
export function isEmptyDatabase(db: Database.Database): boolean {
  return (
    db.pragma('application_id', { simple: true }) === 0 &&
    db.pragma('user_version', { simple: true }) === 0 &&
    db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() === 0
  );
}

/**
 * Build the latest schema in an empty database, as migrate() would, in one IMMEDIATE
 * transaction. Returns false, changing nothing, when the file turned out not to be empty once
 * the write lock was held (another process created it meanwhile): the caller migrates then.
 */
export function createLatestSchema(db: Database.Database): boolean {
  db.exec('BEGIN IMMEDIATE');
  try {
    if (!isEmptyDatabase(db)) {
      db.exec('ROLLBACK');
      return false;
    }
    db.pragma(`application_id = ${KNOWING_APPLICATION_ID}`);
    for (const sql of LATEST_SCHEMA) db.exec(sql);
    // The rows kysely's Migrator keeps: its lock, and each migration with when it ran.
    db.prepare(`INSERT INTO knowing_migration_lock (id, is_locked) VALUES ('migration_lock', 0)`).run();
    const applied = db.prepare('INSERT INTO knowing_migration (name, timestamp) VALUES (?, ?)');
    for (const name of MIGRATION_NAMES) applied.run(name, new Date().toISOString());
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    recordWriter(db);
    db.exec('COMMIT');
    return true;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
