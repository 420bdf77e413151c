import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { tablesOf } from './tables.js';

/** kysely's Migrator bookkeeping tables, in the repository's schema, named so they read as ours. */
export const MIGRATION_TABLE = 'knowing_migration';
const MIGRATION_LOCK_TABLE = 'knowing_migration_lock';

/** Meta keys: which repository the schema holds, and which knowing last wrote it. */
export const META_REPOSITORY = 'repository';
export const META_WRITTEN_BY = 'written_by';

/**
 * The migrations of one repository's schema, in order (names sort in application order, as
 * kysely requires). Every text column that is compared or sorted uses the "C" collation:
 * byte order, as SQLite compares, and prefix ranges on the B-tree indexes.
 */
export function migrationsFor(schema: string, repository: string): Record<string, Migration> {
  const t = tablesOf(schema);
  const ix = (name: string) => sql.id(name);
  return {
    '0001_graph': {
      async up(db) {
        await sql`CREATE TABLE ${t.meta} (key text PRIMARY KEY, value text NOT NULL)`.execute(db);
        await sql`INSERT INTO ${t.meta} (key, value) VALUES (${META_REPOSITORY}, ${repository})`.execute(db);
        // One schema holds one repository: a single row.
        await sql`CREATE TABLE ${t.repo} (slot int PRIMARY KEY CHECK (slot = 1), id text NOT NULL, root text NOT NULL, commit_sha text, indexed_at bigint)`.execute(db);
        await sql`
          CREATE TABLE ${t.files} (
            path text COLLATE "C" PRIMARY KEY, language text NOT NULL, content_hash text NOT NULL, size_bytes bigint NOT NULL,
            indexed_at bigint NOT NULL, syntax_errors int NOT NULL DEFAULT 0, package text COLLATE "C" NOT NULL)`.execute(db);
        // `seq` is what edges and the search tables point at (8 bytes instead of a 32-character id).
        await sql`
          CREATE TABLE ${t.nodes} (
            seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id text COLLATE "C" NOT NULL UNIQUE, name text COLLATE "C" NOT NULL,
            name_lower text COLLATE "C" NOT NULL, qualified_name text COLLATE "C" NOT NULL, kind text COLLATE "C" NOT NULL,
            language text COLLATE "C" NOT NULL, file text COLLATE "C" NOT NULL, package text COLLATE "C" NOT NULL,
            start_line int NOT NULL, end_line int NOT NULL, signature text NOT NULL, doc text NOT NULL,
            is_test boolean NOT NULL, external boolean NOT NULL)`.execute(db);
        await sql`CREATE INDEX ${ix('nodes_name_lower')} ON ${t.nodes} (name_lower)`.execute(db);
        await sql`CREATE INDEX ${ix('nodes_qualified_name')} ON ${t.nodes} (qualified_name)`.execute(db);
        await sql`CREATE INDEX ${ix('nodes_file')} ON ${t.nodes} (file, start_line)`.execute(db);
        // The Merkle groups are (package of the source node, edge type).
        await sql`CREATE INDEX ${ix('nodes_package')} ON ${t.nodes} (package)`.execute(db);
        // Who owns an edge: `file:<path>` for a file's edges, `pass:<name>` for OwnedEdges.
        await sql`CREATE TABLE ${t.owners} (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text COLLATE "C" NOT NULL UNIQUE)`.execute(db);
        await sql`
          CREATE TABLE ${t.edges} (
            src bigint NOT NULL REFERENCES ${t.nodes} (seq) ON DELETE CASCADE, type text COLLATE "C" NOT NULL,
            dst bigint NOT NULL REFERENCES ${t.nodes} (seq) ON DELETE CASCADE, confidence float8 NOT NULL, provenance text NOT NULL,
            line int NOT NULL DEFAULT 0, owner int NOT NULL REFERENCES ${t.owners} (id) ON DELETE CASCADE,
            PRIMARY KEY (src, type, dst))`.execute(db);
        await sql`CREATE INDEX ${ix('edges_dst')} ON ${t.edges} (dst, type)`.execute(db);
        await sql`CREATE INDEX ${ix('edges_owner')} ON ${t.edges} (owner)`.execute(db);
      },
    },
    '0002_search': {
      async up(db) {
        // The full-text documents: one tsvector per symbol over six columns, each lexeme
        // prefixed with its column's code; a GIN index finds the matches of a tsquery.
        await sql`
          CREATE TABLE ${t.search_docs} (seq bigint PRIMARY KEY REFERENCES ${t.nodes} (seq) ON DELETE CASCADE, tsv tsvector NOT NULL, len int NOT NULL)`.execute(db);
        await sql`CREATE INDEX ${ix('search_docs_tsv')} ON ${t.search_docs} USING gin (tsv)`.execute(db);
        // The lexical index: per symbol and term, the term's frequency in each field (BM25F in SQL).
        // The batch writer deletes a symbol's terms itself: a foreign key would check each of
        // the millions of rows a first index inserts (half its time in a measurement).
        await sql`CREATE TABLE ${t.lexical_docs} (seq bigint PRIMARY KEY REFERENCES ${t.nodes} (seq) ON DELETE CASCADE, len int NOT NULL)`.execute(db);
        await sql`
          CREATE TABLE ${t.lexical_terms} (
            term text COLLATE "C" NOT NULL, seq bigint NOT NULL,
            tf_name int NOT NULL, tf_path int NOT NULL, tf_signature int NOT NULL, tf_doc int NOT NULL, tf_body int NOT NULL, tf_members int NOT NULL,
            PRIMARY KEY (term, seq))`.execute(db);
        await sql`CREATE INDEX ${ix('lexical_terms_seq')} ON ${t.lexical_terms} (seq)`.execute(db);
        // Corpus sizes BM25 needs (document and token counts), recomputed by each batch that changes something.
        await sql`
          CREATE TABLE ${t.stats} (
            slot int PRIMARY KEY CHECK (slot = 1), search_docs bigint NOT NULL DEFAULT 0, search_tokens bigint NOT NULL DEFAULT 0,
            lexical_docs bigint NOT NULL DEFAULT 0, lexical_tokens bigint NOT NULL DEFAULT 0)`.execute(db);
        await sql`INSERT INTO ${t.stats} (slot) VALUES (1)`.execute(db);
      },
    },
    '0003_snapshots': {
      async up(db) {
        await sql`
          CREATE TABLE ${t.snapshots} (
            generation int PRIMARY KEY, id text NOT NULL, root text NOT NULL, created_at bigint NOT NULL,
            node_count int NOT NULL, edge_count int NOT NULL)`.execute(db);
        // Level 1 of the Merkle tree: one root per (package of the source node, edge type).
        await sql`
          CREATE TABLE ${t.merkle_types} (
            package text COLLATE "C" NOT NULL, type text COLLATE "C" NOT NULL, root text NOT NULL, leaves int NOT NULL,
            PRIMARY KEY (package, type))`.execute(db);
        // Level 2: one root per package, over its type roots.
        await sql`CREATE TABLE ${t.merkle_packages} (package text COLLATE "C" PRIMARY KEY, root text NOT NULL)`.execute(db);
      },
    },
    '0004_learning': {
      async up(db) {
        await sql`
          CREATE TABLE ${t.notes} (
            key text COLLATE "C" PRIMARY KEY, kind text COLLATE "C" NOT NULL, value bytea NOT NULL, snapshot text, updated_at bigint NOT NULL)`.execute(db);
        await sql`CREATE INDEX ${ix('notes_kind')} ON ${t.notes} (kind, updated_at)`.execute(db);
        await sql`
          CREATE TABLE ${t.feedback} (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, symbol text COLLATE "C" NOT NULL, useful boolean NOT NULL,
            session text NOT NULL, neighborhood_root text, keyword_cluster text COLLATE "C", at bigint NOT NULL)`.execute(db);
        await sql`CREATE INDEX ${ix('feedback_symbol')} ON ${t.feedback} (symbol, keyword_cluster)`.execute(db);
        await sql`
          CREATE TABLE ${t.vocab} (
            keyword text COLLATE "C" NOT NULL, symbol text COLLATE "C" NOT NULL, symbol_name text NOT NULL, count int NOT NULL,
            cluster text COLLATE "C", package_root text, last_seen bigint NOT NULL, PRIMARY KEY (keyword, symbol))`.execute(db);
      },
    },
  };
}

/** Schema version this build writes and reads up to: the number of its migrations. */
export const SCHEMA_VERSION = 4;

/** Names of the migrations applied to `schema` (empty when it has none). */
export async function appliedMigrations(db: Kysely<unknown>, schema: string): Promise<string[]> {
  const exists = await sql<{ present: boolean }>`SELECT to_regclass(${`"${schema}".${MIGRATION_TABLE}`}) IS NOT NULL AS present`.execute(db);
  if (!exists.rows[0]?.present) return [];
  const rows = await sql<{ name: string }>`SELECT name FROM ${sql.id(schema, MIGRATION_TABLE)} ORDER BY name`.execute(db);
  return rows.rows.map((r) => r.name);
}

/** Bring `schema` up to date (creating it when missing), in one transaction under kysely's migration lock. */
export async function migrate(db: Kysely<unknown>, schema: string, repository: string): Promise<void> {
  const migrations = migrationsFor(schema, repository);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  const result = await migrator.migrateToLatest();
  if (result.error !== undefined) throw result.error;
}
