import { readFileSync } from 'node:fs';
import {
  ErrorCode,
  LEXICAL_FIELDS,
  merkleRoot,
  type EdgeQueryOptions,
  type FeedbackRecord,
  type FeedbackTally,
  type FileRecord,
  type FindByNameOptions,
  type GraphCounts,
  type NodeCounts,
  type GraphEdge,
  type GraphNode,
  type LanguageId,
  type LexicalField,
  type LexicalSearchOptions,
  type NodeId,
  type NodeKind,
  type Note,
  type Provenance,
  type RepoInfo,
  type Snapshot,
  type TextColumn,
  type TextHit,
  type TextSearchOptions,
  type VocabAssociation,
  type WriteBatch,
  type WriteResult,
} from '@knowing/graph';
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient, type RawBuilder } from 'kysely';
import pg from 'pg';
import { POSTGRES_COLUMN_WEIGHTS, POSTGRES_STORE_DEFAULTS, TEXT_COLUMNS } from './defaults.js';
import { storeError, targetOf, translateError, type Target } from './errors.js';
import { META_REPOSITORY, META_WRITTEN_BY, MIGRATION_TABLE, SCHEMA_VERSION, appliedMigrations, migrate, migrationsFor } from './migrations.js';
import { QuerySyntaxError, parseQuery } from './query.js';
import { bm25, lexemesOf, parseHits } from './rank.js';
import { isPlainIdentifier, schemaNameOf } from './schema.js';
import { tablesOf, type Tables } from './tables.js';
import type { CacheNoteLimit, PostgresGraphStore, PostgresStoreOptions } from './types.js';
import { validateBatch } from './validate.js';
import { asciiLower, toSnapshot, writeBatch, type SnapshotRow } from './write.js';

const DEFAULT_NAME_LIMIT = 100;
const DEFAULT_SEARCH_LIMIT = 30;
const DEFAULT_LEXICAL_LIMIT = 50;
/** Rows fetched per step by allNodes/allEdges. */
const PAGE_SIZE = 2000;
/** Upper bound of a prefix range under the "C" collation. */
const MAX_CHAR = '\u{10FFFF}';

interface NodeRow {
  readonly id: string;
  readonly name: string;
  readonly qualified_name: string;
  readonly kind: string;
  readonly language: string;
  readonly file: string;
  readonly start_line: number;
  readonly end_line: number;
  readonly signature: string;
  readonly doc: string;
  readonly is_test: boolean;
  readonly external: boolean;
}

const NODE_COLUMNS = sql.raw('n.id, n.name, n.qualified_name, n.kind, n.language, n.file, n.start_line, n.end_line, n.signature, n.doc, n.is_test, n.external');

function toNode(row: NodeRow): GraphNode {
  return {
    id: row.id,
    name: row.name,
    qualifiedName: row.qualified_name,
    kind: row.kind as NodeKind,
    language: row.language as LanguageId | '',
    file: row.file,
    startLine: row.start_line,
    endLine: row.end_line,
    signature: row.signature,
    doc: row.doc,
    isTest: row.is_test,
    external: row.external,
  };
}

interface EdgeRow {
  readonly source: string;
  readonly target: string;
  readonly type: string;
  readonly confidence: number;
  readonly provenance: string;
  readonly line: number;
}

const EDGE_COLUMNS = sql.raw('s.id AS source, x.id AS target, e.type, e.confidence, e.provenance, e.line');

function toEdge(row: EdgeRow): GraphEdge {
  return { source: row.source, target: row.target, type: row.type, confidence: row.confidence, provenance: row.provenance as Provenance, line: row.line };
}

interface FileRow {
  readonly path: string;
  readonly language: string;
  readonly content_hash: string;
  readonly size_bytes: number;
  readonly indexed_at: number;
  readonly syntax_errors: number;
}

const FILE_COLUMNS = sql.raw('path, language, content_hash, size_bytes::float8 AS size_bytes, indexed_at::float8 AS indexed_at, syntax_errors');

function toFile(row: FileRow): FileRecord {
  return {
    path: row.path,
    language: row.language as LanguageId,
    contentHash: row.content_hash,
    sizeBytes: row.size_bytes,
    indexedAt: row.indexed_at,
    syntaxErrors: row.syntax_errors,
  };
}

let cachedBuild: string | undefined;

/** This build as recorded in the schemas it writes: `knowing X.Y.Z` (every package shares knowing's version). */
function thisBuild(): string {
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

interface CacheBound {
  readonly maxCount: number;
  readonly maxBytes: number;
}

interface Settings {
  readonly connectionString: string | undefined;
  readonly pool: PostgresPool | undefined;
  readonly repository: string;
  readonly schema: string;
  readonly readonly: boolean;
  readonly maxConnections: number;
  readonly connectTimeoutMs: number;
  readonly lockTimeoutMs: number;
  readonly columnWeights: Record<TextColumn, number>;
  readonly cacheNotes: ReadonlyMap<string, CacheBound>;
}

function resolveOptions(options: PostgresStoreOptions): Settings {
  const fail = (what: string): never => {
    throw storeError(ErrorCode.InvalidArgument, `createPostgresStore: ${what}`, 'see PostgresStoreOptions for valid values');
  };
  if (typeof options !== 'object' || options === null) fail('options must be an object with a connectionString or a pool');
  const { connectionString, pool } = options;
  if ((connectionString === undefined) === (pool === undefined)) fail('give exactly one of connectionString and pool');
  if (connectionString !== undefined && (typeof connectionString !== 'string' || connectionString === '')) fail('connectionString must be a non-empty string');
  if (pool !== undefined && typeof (pool as { connect?: unknown }).connect !== 'function') fail('pool must be a pg Pool (an object with connect())');
  const repository = options.repository ?? POSTGRES_STORE_DEFAULTS.repository;
  if (typeof repository !== 'string' || repository === '' || repository.includes('\0')) fail('repository must be a non-empty string');
  const prefix = options.schemaPrefix ?? POSTGRES_STORE_DEFAULTS.schemaPrefix;
  if (typeof prefix !== 'string' || !/^[a-z_][a-z0-9_]{0,39}$/.test(prefix)) fail(`schemaPrefix must be lower-case letters, digits and _ (at most 40), got ${JSON.stringify(prefix)}`);
  const schema = options.schema ?? schemaNameOf(repository, prefix);
  if (typeof schema !== 'string' || !isPlainIdentifier(schema)) fail(`schema must be letters, digits and _ (at most 63 bytes, not starting with a digit), got ${JSON.stringify(schema)}`);
  const count = (value: number | undefined, fallback: number, name: string, min = 0): number => {
    const v = value ?? fallback;
    if (!Number.isInteger(v) || v < min) fail(`${name} must be an integer ≥ ${min}, got ${String(v)}`);
    return v;
  };
  return {
    connectionString,
    pool,
    repository,
    schema,
    readonly: options.readonly ?? POSTGRES_STORE_DEFAULTS.readonly,
    maxConnections: count(options.maxConnections, POSTGRES_STORE_DEFAULTS.maxConnections, 'maxConnections', 1),
    connectTimeoutMs: count(options.connectTimeoutMs, POSTGRES_STORE_DEFAULTS.connectTimeoutMs, 'connectTimeoutMs'),
    lockTimeoutMs: count(options.lockTimeoutMs, POSTGRES_STORE_DEFAULTS.lockTimeoutMs, 'lockTimeoutMs'),
    columnWeights: mergeWeights(POSTGRES_COLUMN_WEIGHTS, options.columnWeights, 'createPostgresStore: columnWeights'),
    cacheNotes: cacheBounds(options.cacheNotes ?? POSTGRES_STORE_DEFAULTS.cacheNotes, fail),
  };
}

function cacheBounds(notes: Readonly<Record<string, CacheNoteLimit>>, fail: (what: string) => never): Map<string, CacheBound> {
  if (typeof notes !== 'object' || notes === null) fail('cacheNotes must be an object of note kind → { maxCount?, maxBytes? }');
  const bounds = new Map<string, CacheBound>();
  for (const [kind, limit] of Object.entries(notes)) {
    if (typeof limit !== 'object' || limit === null) fail(`cacheNotes.${kind} must be an object { maxCount?, maxBytes? }`);
    const bound = (value: number | undefined, name: string): number => {
      if (value === undefined) return -1;
      if (!Number.isInteger(value) || value < 0) fail(`cacheNotes.${kind}.${name} must be a non-negative integer, got ${String(value)}`);
      return value;
    };
    bounds.set(kind, { maxCount: bound(limit.maxCount, 'maxCount'), maxBytes: bound(limit.maxBytes, 'maxBytes') });
  }
  return bounds;
}

function checkWeight(weight: unknown, name: string, where: string): number {
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
    throw storeError(ErrorCode.InvalidArgument, `${where}: weight of '${name}' must be a finite number ≥ 0, got ${String(weight)}`);
  }
  return weight;
}

function mergeWeights(
  base: Readonly<Record<TextColumn, number>>,
  override: Readonly<Partial<Record<TextColumn, number>>> | undefined,
  where: string,
): Record<TextColumn, number> {
  const merged = { ...base };
  for (const [column, weight] of Object.entries(override ?? {})) {
    if (!TEXT_COLUMNS.includes(column as TextColumn)) {
      throw storeError(ErrorCode.InvalidArgument, `${where}: unknown column '${column}'`, `use one of ${TEXT_COLUMNS.join(', ')}`);
    }
    if (weight !== undefined) merged[column as TextColumn] = checkWeight(weight, column, where);
  }
  return merged;
}

function lexicalWeights(override: Readonly<Partial<Record<LexicalField, number>>> | undefined, where: string): number[] {
  const weights: Record<LexicalField, number> = { name: 1, path: 1, signature: 1, doc: 1, body: 1, members: 1 };
  for (const [field, weight] of Object.entries(override ?? {})) {
    if (!LEXICAL_FIELDS.includes(field as LexicalField)) {
      throw storeError(ErrorCode.InvalidArgument, `${where}: unknown field '${field}'`, `use one of ${LEXICAL_FIELDS.join(', ')}`);
    }
    if (weight !== undefined) weights[field as LexicalField] = checkWeight(weight, field, where);
  }
  return LEXICAL_FIELDS.map((field) => weights[field]);
}

function limitOf(limit: number | undefined, fallback: number | null, where: string): number | null {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 0) {
    throw storeError(ErrorCode.InvalidArgument, `${where}: limit must be a non-negative integer, got ${String(limit)}`);
  }
  return limit;
}

/** A list filter as a parameter: null for "no filter". */
function listParam(values: readonly string[] | undefined): string[] | null {
  return values === undefined ? null : [...values];
}

/**
 * Open the PostgreSQL store of one repository: connects, creates the repository's schema or
 * migrates it when older, and refuses what it cannot safely use with a {@link KnowingError}
 * (`NOT_FOUND` for an unreachable server or missing database, `STORE_SCHEMA_TOO_NEW`,
 * `STORE_NOT_A_DATABASE` for a schema that is not knowing's, `NO_INDEX` read-only without
 * an index, `STORE_READ_ONLY` without the privileges to create it). Many repositories share
 * a database, each in its own schema.
 *
 * @example
 * ```ts
 * import { createPostgresStore } from '@knowing/store-postgres';
 *
 * const store = await createPostgresStore({
 *   connectionString: 'postgres://knowing@localhost:5432/knowing',
 *   repository: 'github.com/acme/shop',
 * });
 * await store.applyBatch({ files: [{ file, nodes, edges }] });
 * const hits = await store.search('name:"before_request" OR config', { limit: 10 });
 * await store.close();
 * ```
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresGraphStore> {
  const settings = resolveOptions(options);
  const { schema, repository } = settings;
  const located = targetOf(settings.connectionString, settings.pool);
  const target: Target = { ...located, where: `repository '${repository}' (schema ${schema} of ${located.host}:${located.port}/${located.database})` };
  const ownPool = settings.pool === undefined;
  let pool: PostgresPool;
  if (settings.pool !== undefined) {
    pool = settings.pool;
  } else {
    const created = new pg.Pool({
      connectionString: settings.connectionString,
      max: settings.maxConnections,
      connectionTimeoutMillis: settings.connectTimeoutMs,
    });
    // An idle connection the server closes (a restart) must not crash the process; the next
    // query opens a new one.
    created.on('error', () => {});
    pool = created;
  }
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  const t = tablesOf(schema);

  let schemaVersion: number;
  let writtenBy: string | null;
  try {
    // Opening checks the schema, then creates or migrates it: two processes opening a new
    // repository at once must not interleave (one would see the other's half-made schema), so
    // a writer holds an advisory lock on the schema name, on the connection that does the work.
    ({ schemaVersion, writtenBy } = settings.readonly
      ? await open(db, t, settings)
      : await db.connection().execute(async (conn) => {
          const key = `knowing:${schema}`;
          await sql`SELECT pg_advisory_lock(hashtext(${key}))`.execute(conn);
          try {
            return await open(conn, t, settings);
          } finally {
            await sql`SELECT pg_advisory_unlock(hashtext(${key}))`.execute(conn);
          }
        }));
  } catch (error) {
    if (ownPool) await db.destroy().catch(() => {});
    throw translateError(error, target, 'opening the store');
  }

  let closed = false;
  /** Connections held by allNodes/allEdges iterations, released by close() if abandoned. */
  const streams = new Map<PostgresPoolClient, { released: boolean }>();

  const ensureOpen = (action: string): void => {
    if (closed) throw storeError(ErrorCode.StoreClosed, `${target.where}: ${action} after the store was closed`, 'open a new store with createPostgresStore()');
  };

  /** Every public method runs through here: closed check, then driver errors → KnowingError. */
  /** Counts of what the store holds, edges by type only when asked (they read every edge). */
  async function countAll(withEdges: boolean): Promise<GraphCounts> {
    // One statement: the three counts come from the same snapshot.
    const found = await rows<{ what: string; a: string; b: string; n: number }>(sql`
      SELECT 'node' AS what, kind AS a, language AS b, count(*)::int AS n FROM ${t.nodes} GROUP BY kind, language
      ${withEdges ? sql`UNION ALL SELECT 'edge', type, '', count(*)::int FROM ${t.edges} GROUP BY type` : sql``}
      UNION ALL SELECT 'file', '', '', count(*)::int FROM ${t.files}`);
    const nodesByKind: Record<string, number> = {};
    const nodesByLanguage: Record<string, number> = {};
    const edgesByType: Record<string, number> = {};
    let nodes = 0;
    let edges = 0;
    let files = 0;
    // Own-property reads: a kind named `constructor` must not find Object.prototype's.
    const add = (record: Record<string, number>, key: string, n: number): void => {
      record[key] = (Object.hasOwn(record, key) ? record[key]! : 0) + n;
    };
    for (const row of found) {
      if (row.what === 'node') {
        nodes += row.n;
        add(nodesByKind, row.a, row.n);
        // Placeholders have no language; they count under their kind only.
        if (row.b !== '') add(nodesByLanguage, row.b, row.n);
      } else if (row.what === 'edge') {
        edges += row.n;
        add(edgesByType, row.a, row.n);
      } else {
        files = row.n;
      }
    }
    return { nodes, edges, files, nodesByKind, nodesByLanguage, edgesByType };
  }

  async function run<T>(action: string, fn: () => Promise<T>): Promise<T> {
    try {
      ensureOpen(action);
      return await fn();
    } catch (error) {
      throw translateError(error, target, action);
    }
  }

  const writable = (action: string): void => {
    if (settings.readonly) {
      throw storeError(ErrorCode.ReadOnly, `${target.where} was opened read-only; cannot ${action}`, 'open the store without readonly: true to write');
    }
  };

  const rows = async <R>(query: RawBuilder<R>): Promise<R[]> => (await query.execute(db)).rows;

  /** Several statements over one snapshot: readers see the graph before or after a batch, never between. */
  const snapshotRead = <T>(fn: (read: <R>(query: RawBuilder<R>) => Promise<R[]>) => Promise<T>): Promise<T> =>
    db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute((trx) => fn(async (query) => (await query.execute(trx)).rows));

  function stream<R, T>(action: string, query: RawBuilder<R>, map: (row: R) => T): AsyncIterable<T> {
    return {
      async *[Symbol.asyncIterator]() {
        ensureOpen(action);
        const compiled = query.compile(db);
        let client: PostgresPoolClient;
        try {
          client = await pool.connect();
        } catch (error) {
          throw translateError(error, target, action);
        }
        const state = { released: false };
        streams.set(client, state);
        let inTransaction = false;
        try {
          // One snapshot for the whole iteration, however long the consumer takes.
          await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', []);
          inTransaction = true;
          await client.query(`DECLARE knowing_stream NO SCROLL CURSOR FOR ${compiled.sql}`, compiled.parameters);
          for (;;) {
            ensureOpen(action);
            const page = await client.query<R>(`FETCH ${PAGE_SIZE} FROM knowing_stream`, []);
            for (const row of page.rows) yield map(row);
            if (page.rows.length < PAGE_SIZE) break;
          }
          await client.query('COMMIT', []);
          inTransaction = false;
        } catch (error) {
          throw translateError(error, target, action);
        } finally {
          streams.delete(client);
          if (!state.released) {
            if (inTransaction) await client.query('ROLLBACK', []).catch(() => {});
            client.release();
          }
        }
      },
    };
  }

  const edgeQuery = (which: 'from' | 'to', id: NodeId, options: EdgeQueryOptions | undefined): Promise<GraphEdge[]> =>
    run(which === 'from' ? 'edgesFrom' : 'edgesTo', async () => {
      const types = listParam(options?.types);
      const limit = limitOf(options?.limit, null, which === 'from' ? 'edgesFrom' : 'edgesTo');
      const result =
        which === 'from'
          ? await rows<EdgeRow>(sql`
              SELECT ${EDGE_COLUMNS} FROM ${t.nodes} s JOIN ${t.edges} e ON e.src = s.seq JOIN ${t.nodes} x ON x.seq = e.dst
              WHERE s.id = ${id} AND (${types}::text[] IS NULL OR e.type = ANY(${types}::text[]))
              ORDER BY e.type, e.dst LIMIT ${limit}::bigint`)
          : await rows<EdgeRow>(sql`
              SELECT ${EDGE_COLUMNS} FROM ${t.nodes} x JOIN ${t.edges} e ON e.dst = x.seq JOIN ${t.nodes} s ON s.seq = e.src
              WHERE x.id = ${id} AND (${types}::text[] IS NULL OR e.type = ANY(${types}::text[]))
              ORDER BY e.type, e.src LIMIT ${limit}::bigint`);
      return result.map(toEdge);
    });

  const pruneNotes = (executor: Kysely<unknown>, kind: string, keep: string | null, bound: CacheBound) =>
    sql<{ n: number }>`
      WITH gone AS (
        DELETE FROM ${t.notes} WHERE kind = ${kind} AND key IS DISTINCT FROM ${keep} AND key IN (
          SELECT key FROM (
            SELECT key, row_number() OVER w AS n, sum(octet_length(value)) OVER w AS bytes FROM ${t.notes} WHERE kind = ${kind}
            WINDOW w AS (ORDER BY coalesce(key = ${keep}, false) DESC, updated_at DESC, key DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
          ) ranked
          WHERE (${bound.maxCount}::int >= 0 AND n > ${bound.maxCount}::int) OR (${bound.maxBytes}::bigint >= 0 AND bytes > ${bound.maxBytes}::bigint))
        RETURNING 1)
      SELECT count(*)::int AS n FROM gone`.execute(executor);

  const store: PostgresGraphStore = {
    repository,
    schema,
    schemaVersion,
    readonly: settings.readonly,
    get writtenBy() {
      return writtenBy;
    },

    repo: () =>
      run('repo', async (): Promise<RepoInfo | null> => {
        const [row] = await rows<{ id: string; root: string; commit_sha: string | null; indexed_at: number | null }>(
          sql`SELECT id, root, commit_sha, indexed_at::float8 AS indexed_at FROM ${t.repo} WHERE slot = 1`,
        );
        return row === undefined ? null : { id: row.id, root: row.root, commit: row.commit_sha, indexedAt: row.indexed_at };
      }),

    getNode: (id) =>
      run('getNode', async () => {
        const [row] = await rows<NodeRow>(sql`SELECT ${NODE_COLUMNS} FROM ${t.nodes} n WHERE n.id = ${id}`);
        return row === undefined ? undefined : toNode(row);
      }),

    getNodes: (ids) =>
      run('getNodes', async () => {
        if (ids.length === 0) return [];
        const found = await rows<NodeRow>(sql`SELECT ${NODE_COLUMNS} FROM ${t.nodes} n WHERE n.id = ANY(${[...ids]}::text[])`);
        const byId = new Map(found.map((row) => [row.id, toNode(row)]));
        return ids.flatMap((id) => byId.get(id) ?? []);
      }),

    findNodesByName: (name, options?: FindByNameOptions) =>
      run('findNodesByName', async () => {
        const match = options?.match ?? 'exact';
        const lower = asciiLower(name);
        let where: RawBuilder<unknown>;
        let order: RawBuilder<unknown>;
        switch (match) {
          case 'exact':
            where = sql`n.name_lower = ${lower} AND n.name = ${name}`;
            order = sql`n.external, n.file, n.start_line, n.seq`;
            break;
          case 'exact_ci':
            where = sql`n.name_lower = ${lower}`;
            order = sql`n.external, n.file, n.start_line, n.seq`;
            break;
          case 'prefix':
            where = sql`n.name_lower >= ${lower} AND n.name_lower < ${lower + MAX_CHAR}`;
            order = sql`length(n.name), n.name_lower, n.file, n.start_line, n.seq`;
            break;
          case 'substring':
            where = sql`strpos(n.name_lower, ${lower}) > 0`;
            order = sql`length(n.name), n.name_lower, n.file, n.start_line, n.seq`;
            break;
          default:
            throw storeError(ErrorCode.InvalidArgument, `${target.where}: findNodesByName: unknown match '${String(match)}'`, 'use exact, exact_ci, prefix or substring');
        }
        const kinds = listParam(options?.kinds);
        const limit = limitOf(options?.limit, DEFAULT_NAME_LIMIT, 'findNodesByName');
        const found = await rows<NodeRow>(sql`
          SELECT ${NODE_COLUMNS} FROM ${t.nodes} n
          WHERE ${where} AND (${options?.includeExternal === true} OR NOT n.external)
            AND (${kinds}::text[] IS NULL OR n.kind = ANY(${kinds}::text[]))
          ORDER BY ${order} LIMIT ${limit}::bigint`);
        return found.map(toNode);
      }),

    findNodesByQualifiedName: (qualifiedName) =>
      run('findNodesByQualifiedName', async () =>
        (await rows<NodeRow>(sql`SELECT ${NODE_COLUMNS} FROM ${t.nodes} n WHERE n.qualified_name = ${qualifiedName} ORDER BY n.seq`)).map(toNode),
      ),

    nodesInFile: (file) =>
      run('nodesInFile', async () =>
        file === '' ? [] : (await rows<NodeRow>(sql`SELECT ${NODE_COLUMNS} FROM ${t.nodes} n WHERE n.file = ${file} ORDER BY n.start_line, n.seq`)).map(toNode),
      ),

    nodesUnderPath: (prefix, options) =>
      run('nodesUnderPath', async () => {
        const kinds = listParam(options?.kinds);
        const limit = limitOf(options?.limit, null, 'nodesUnderPath');
        const found = await rows<NodeRow>(sql`
          SELECT ${NODE_COLUMNS} FROM ${t.nodes} n
          WHERE n.file >= ${prefix} AND n.file < ${prefix + MAX_CHAR} AND NOT n.external
            AND (${kinds}::text[] IS NULL OR n.kind = ANY(${kinds}::text[]))
          ORDER BY n.file, n.start_line, n.seq LIMIT ${limit}::bigint`);
        return found.map(toNode);
      }),

    edgesFrom: (id, options) => edgeQuery('from', id, options),
    edgesTo: (id, options) => edgeQuery('to', id, options),

    getFile: (path) =>
      run('getFile', async () => {
        const [row] = await rows<FileRow>(sql`SELECT ${FILE_COLUMNS} FROM ${t.files} WHERE path = ${path}`);
        return row === undefined ? undefined : toFile(row);
      }),

    listFiles: () => run('listFiles', async () => (await rows<FileRow>(sql`SELECT ${FILE_COLUMNS} FROM ${t.files} ORDER BY path`)).map(toFile)),

    nodeCounts: () =>
      run('nodeCounts', async (): Promise<NodeCounts> => {
        const { edges: _edges, edgesByType: _edgesByType, ...nodeSide } = await countAll(false);
        return nodeSide;
      }),

    counts: () => run('counts', () => countAll(true)),

    allNodes: () => stream('allNodes', sql<NodeRow>`SELECT ${NODE_COLUMNS} FROM ${t.nodes} n`, toNode),

    allEdges: () =>
      stream('allEdges', sql<EdgeRow>`SELECT ${EDGE_COLUMNS} FROM ${t.edges} e JOIN ${t.nodes} s ON s.seq = e.src JOIN ${t.nodes} x ON x.seq = e.dst`, toEdge),

    applyBatch: (batch: WriteBatch) =>
      run('applyBatch', async (): Promise<WriteResult> => {
        writable('apply a batch');
        validateBatch(batch, target.where);
        const build = thisBuild();
        const result = await db.transaction().execute(async (trx) => {
          // Writers of one repository take turns; readers never wait (they read the last commit).
          await sql`SELECT set_config('lock_timeout', ${`${settings.lockTimeoutMs}ms`}, true)`.execute(trx);
          await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`knowing:${schema}`}, 0))`.execute(trx);
          const written = await writeBatch(trx, t, batch, target.where);
          if (writtenBy !== build) {
            await sql`
              INSERT INTO ${t.meta} (key, value) VALUES (${META_WRITTEN_BY}, ${build})
              ON CONFLICT (key) DO UPDATE SET value = excluded.value`.execute(trx);
          }
          return written;
        });
        writtenBy = build;
        return result;
      }),

    search: (query: string, options?: TextSearchOptions) =>
      run('search', async (): Promise<TextHit[]> => {
        if (typeof query !== 'string') throw storeError(ErrorCode.InvalidArgument, `${target.where}: search query must be a string`);
        const weights = mergeWeights(settings.columnWeights, options?.columnWeights, `${target.where}: search columnWeights`);
        const limit = limitOf(options?.limit, DEFAULT_SEARCH_LIMIT, 'search') ?? DEFAULT_SEARCH_LIMIT;
        if (query.trim() === '' || limit === 0) return [];
        let parsed;
        try {
          parsed = parseQuery(query);
        } catch (error) {
          if (!(error instanceof QuerySyntaxError)) throw error;
          throw storeError(
            ErrorCode.InvalidArgument,
            `${target.where}: malformed full-text query ${JSON.stringify(query)}: ${error.message}`,
            `quote terms with special characters ("like:this") and use only the columns ${TEXT_COLUMNS.join(', ')}`,
            error,
          );
        }
        if (parsed.tsquery === null) return [];
        const kinds = listParam(options?.kinds);
        const { exact, prefixes } = lexemesOf(parsed.phrases);
        const phraseQueries = parsed.phraseQueries.map((q) => q ?? `'-'`);
        return snapshotRead(async (read) => {
          const counts = phraseQueries.map((q, i) => sql`count(*) FILTER (WHERE tsv @@ ${q}::tsquery)::int AS ${sql.id(`p${i}`)}`);
          const [stats] = await read<Record<string, number>>(sql`
            SELECT st.search_docs::float8 AS docs, st.search_tokens::float8 AS tokens, m.*
            FROM ${t.stats} st CROSS JOIN (
              SELECT ${sql.join(counts)} FROM ${t.search_docs} WHERE tsv @@ ${`(${phraseQueries.join(') | (')})`}::tsquery
            ) m`);
          const matches = await read<{ seq: string; len: number; hits: string | null }>(sql`
            SELECT d.seq::text AS seq, d.len,
              (SELECT string_agg(u.lexeme || '=' || array_to_string(u.positions, ','), ';') FROM unnest(d.tsv) u
               WHERE u.lexeme = ANY(${exact}::text[]) OR u.lexeme ^@ ANY(${prefixes}::text[])) AS hits
            FROM ${t.search_docs} d
            ${kinds === null ? sql`` : sql`JOIN ${t.nodes} n ON n.seq = d.seq AND n.kind = ANY(${kinds}::text[])`}
            WHERE d.tsv @@ ${parsed.tsquery}::tsquery`);
          if (matches.length === 0 || stats === undefined) return [];
          const corpus = {
            documents: stats['docs'] ?? 0,
            tokens: stats['tokens'] ?? 0,
            phraseDocuments: parsed.phrases.map((_, i) => stats[`p${i}`] ?? 0),
          };
          const scored = matches.map((m) => ({ seq: m.seq, score: bm25(parsed.phrases, parseHits(m.hits), m.len, corpus, weights) }));
          // Best first; ties in the order the symbols were first stored.
          scored.sort((a, b) => b.score - a.score || a.seq.length - b.seq.length || (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
          const top = scored.slice(0, limit);
          const found = await read<NodeRow & { seq: string }>(sql`
            SELECT n.seq::text AS seq, ${NODE_COLUMNS} FROM ${t.nodes} n WHERE n.seq = ANY(${top.map((s) => s.seq)}::bigint[])`);
          const bySeq = new Map(found.map((row) => [row.seq, toNode(row)]));
          return top.flatMap(({ seq, score }) => {
            const node = bySeq.get(seq);
            return node === undefined ? [] : [{ node, score }];
          });
        });
      }),

    lexicalSearch: (terms: readonly string[], options?: LexicalSearchOptions) =>
      run('lexicalSearch', async (): Promise<TextHit[]> => {
        if (!Array.isArray(terms)) throw storeError(ErrorCode.InvalidArgument, `${target.where}: lexicalSearch: terms must be an array of strings`);
        const distinct = new Set<string>();
        for (const term of terms) {
          if (typeof term !== 'string') throw storeError(ErrorCode.InvalidArgument, `${target.where}: lexicalSearch: terms must be strings, got ${typeof term}`);
          const folded = asciiLower(term.trim());
          if (folded !== '') distinct.add(folded);
        }
        const w = lexicalWeights(options?.fieldWeights, `${target.where}: lexicalSearch fieldWeights`);
        const limit = limitOf(options?.limit, DEFAULT_LEXICAL_LIMIT, 'lexicalSearch');
        if (distinct.size === 0 || limit === 0) return [];
        const kinds = listParam(options?.kinds);
        // Okapi BM25 (k1 1.2, b 0.75) with idf ln(1 + (N − n + 0.5) / (n + 0.5)); each field's
        // occurrences count its weight; the length is the whole document's, over the average.
        const found = await rows<NodeRow & { score: number }>(sql`
          WITH q AS (SELECT DISTINCT unnest(${[...distinct]}::text[]) AS term),
          st AS (
            SELECT lexical_docs::float8 AS n,
              CASE WHEN lexical_docs > 0 THEN lexical_tokens::float8 / lexical_docs ELSE 0 END AS avgdl
            FROM ${t.stats}),
          df AS (SELECT l.term, count(*)::float8 AS df FROM ${t.lexical_terms} l JOIN q ON q.term = l.term GROUP BY l.term),
          scored AS (
            SELECT l.seq, sum(
              ln(1 + (st.n - df.df + 0.5) / (df.df + 0.5)) * f.tf * 2.2
              / (f.tf + 1.2 * (0.25 + 0.75 * CASE WHEN st.avgdl > 0 THEN d.len / st.avgdl ELSE 0 END))) AS score
            FROM ${t.lexical_terms} l JOIN df ON df.term = l.term JOIN ${t.lexical_docs} d ON d.seq = l.seq CROSS JOIN st
            CROSS JOIN LATERAL (
              SELECT (l.tf_name * ${w[0]}::float8 + l.tf_path * ${w[1]}::float8 + l.tf_signature * ${w[2]}::float8
                + l.tf_doc * ${w[3]}::float8 + l.tf_body * ${w[4]}::float8 + l.tf_members * ${w[5]}::float8) AS tf) f
            WHERE f.tf > 0
            GROUP BY l.seq)
          SELECT ${NODE_COLUMNS}, round(s.score::numeric, 9)::float8 AS score
          FROM scored s JOIN ${t.nodes} n ON n.seq = s.seq
          WHERE s.score > 0 AND NOT n.external AND (${options?.includeTests === true} OR NOT n.is_test)
            AND (${kinds}::text[] IS NULL OR n.kind = ANY(${kinds}::text[]))
          ORDER BY round(s.score::numeric, 9) DESC, n.qualified_name, n.id
          LIMIT ${limit}::bigint`);
        return found.map((row) => ({ node: toNode(row), score: row.score }));
      }),

    getNote: (key) =>
      run('getNote', async (): Promise<Note | undefined> => {
        const [row] = await rows<{ key: string; kind: string; value: Buffer; snapshot: string | null; updated_at: number }>(
          sql`SELECT key, kind, value, snapshot, updated_at::float8 AS updated_at FROM ${t.notes} WHERE key = ${key}`,
        );
        if (row === undefined) return undefined;
        // A plain Uint8Array view: callers compare and serialise it like any other bytes.
        const value = new Uint8Array(row.value.buffer, row.value.byteOffset, row.value.byteLength);
        return { key: row.key, kind: row.kind, value, snapshot: row.snapshot, updatedAt: row.updated_at };
      }),

    putNote: (key, kind, value, snapshot = null) =>
      run('putNote', async () => {
        writable('put a note');
        if (!(value instanceof Uint8Array)) throw storeError(ErrorCode.InvalidArgument, `${target.where}: note '${key}' value must be a Uint8Array`);
        const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
        const put = sql`
          INSERT INTO ${t.notes} (key, kind, value, snapshot, updated_at) VALUES (${key}, ${kind}, ${bytes}, ${snapshot}, ${Date.now()})
          ON CONFLICT (key) DO UPDATE SET kind = excluded.kind, value = excluded.value, snapshot = excluded.snapshot, updated_at = excluded.updated_at`;
        const bound = settings.cacheNotes.get(kind);
        if (bound === undefined) {
          await put.execute(db);
          return;
        }
        await db.transaction().execute(async (trx) => {
          await put.execute(trx);
          await pruneNotes(trx, kind, key, bound);
        });
      }),

    deleteNote: (key) =>
      run('deleteNote', async () => {
        writable('delete a note');
        const result = await sql`DELETE FROM ${t.notes} WHERE key = ${key}`.execute(db);
        return Number(result.numAffectedRows ?? 0) > 0;
      }),

    deleteNotes: (filter) =>
      run('deleteNotes', async () => {
        writable('delete notes');
        const kind = filter.kind ?? null;
        const prefix = filter.keyPrefix ?? null;
        const result = await sql`
          DELETE FROM ${t.notes} WHERE (${kind}::text IS NULL OR kind = ${kind}::text) AND (${prefix}::text IS NULL OR starts_with(key, ${prefix}::text))`.execute(db);
        return Number(result.numAffectedRows ?? 0);
      }),

    recordFeedback: (records: readonly FeedbackRecord[]) =>
      run('recordFeedback', async () => {
        writable('record feedback');
        if (records.length === 0) return;
        const now = Date.now();
        for (const r of records) {
          if (typeof r.symbol !== 'string' || typeof r.useful !== 'boolean' || typeof r.session !== 'string') {
            throw storeError(ErrorCode.InvalidArgument, `${target.where}: feedback needs a string symbol and session and a boolean useful`);
          }
        }
        await sql`
          INSERT INTO ${t.feedback} (symbol, useful, session, neighborhood_root, keyword_cluster, at)
          SELECT * FROM unnest(${records.map((r) => r.symbol)}::text[], ${records.map((r) => r.useful)}::boolean[], ${records.map((r) => r.session)}::text[],
            ${records.map((r) => r.neighborhoodRoot ?? null)}::text[], ${records.map((r) => r.keywordCluster ?? null)}::text[],
            ${records.map((r) => r.at ?? now)}::bigint[])`.execute(db);
      }),

    feedbackFor: (symbols, options) =>
      run('feedbackFor', async () => {
        const out = new Map<NodeId, FeedbackTally>();
        if (symbols.length === 0) return out;
        const cluster = options?.keywordCluster ?? null;
        const found = await rows<{ symbol: string; root: string | null; useful: number; total: number }>(sql`
          SELECT symbol, neighborhood_root AS root, count(*) FILTER (WHERE useful)::int AS useful, count(*)::int AS total FROM ${t.feedback}
          WHERE symbol = ANY(${[...symbols]}::text[]) AND (${cluster}::text IS NULL OR keyword_cluster = ${cluster}::text)
          GROUP BY symbol, neighborhood_root`);
        for (const row of found) {
          // Rows stamped with a neighbourhood root expire once the symbol's neighbourhood changed.
          const current = options?.currentRoots?.get(row.symbol);
          if (row.root !== null && current !== undefined && row.root !== current) continue;
          const prev = out.get(row.symbol) ?? { useful: 0, notUseful: 0 };
          out.set(row.symbol, { useful: prev.useful + row.useful, notUseful: prev.notUseful + (row.total - row.useful) });
        }
        return out;
      }),

    recordVocab: (entries) =>
      run('recordVocab', async () => {
        writable('record vocabulary');
        // One row per pair, with how many times the batch saw it (an upsert may touch a row once).
        const pairs = new Map<string, { keyword: string; symbol: string; symbolName: string; cluster: string | null; packageRoot: string | null; n: number }>();
        for (const e of entries) {
          if (typeof e.keyword !== 'string' || e.keyword.length === 0 || typeof e.symbol !== 'string') {
            throw storeError(ErrorCode.InvalidArgument, `${target.where}: vocabulary entries need a non-empty keyword and a symbol`);
          }
          const key = `${e.keyword}\0${e.symbol}`;
          const prev = pairs.get(key);
          pairs.set(key, {
            keyword: e.keyword,
            symbol: e.symbol,
            symbolName: e.symbolName,
            cluster: e.cluster ?? prev?.cluster ?? null,
            packageRoot: e.packageRoot ?? prev?.packageRoot ?? null,
            n: (prev?.n ?? 0) + 1,
          });
        }
        if (pairs.size === 0) return;
        const list = [...pairs.values()];
        await sql`
          INSERT INTO ${t.vocab} AS v (keyword, symbol, symbol_name, count, cluster, package_root, last_seen)
          SELECT *, ${Date.now()}::bigint FROM unnest(${list.map((p) => p.keyword)}::text[], ${list.map((p) => p.symbol)}::text[],
            ${list.map((p) => p.symbolName)}::text[], ${list.map((p) => p.n)}::int[], ${list.map((p) => p.cluster)}::text[],
            ${list.map((p) => p.packageRoot)}::text[])
          ON CONFLICT (keyword, symbol) DO UPDATE SET count = v.count + excluded.count, symbol_name = excluded.symbol_name,
            cluster = coalesce(excluded.cluster, v.cluster), package_root = coalesce(excluded.package_root, v.package_root),
            last_seen = excluded.last_seen`.execute(db);
      }),

    vocabFor: (keywords, options) =>
      run('vocabFor', async (): Promise<VocabAssociation[]> => {
        if (keywords.length === 0) return [];
        const cluster = options?.cluster ?? null;
        const found = await rows<{ keyword: string; symbol: string; symbol_name: string; count: number; cluster: string | null; package_root: string | null }>(sql`
          SELECT keyword, symbol, symbol_name, count, cluster, package_root FROM ${t.vocab}
          WHERE keyword = ANY(${[...keywords]}::text[]) AND count >= ${options?.minCount ?? 2}::int AND (${cluster}::text IS NULL OR cluster = ${cluster}::text)
          ORDER BY count DESC, keyword, symbol`);
        return found.map((r) => ({ keyword: r.keyword, symbol: r.symbol, symbolName: r.symbol_name, count: r.count, cluster: r.cluster, packageRoot: r.package_root }));
      }),

    currentSnapshot: () =>
      run('currentSnapshot', async (): Promise<Snapshot | null> => {
        const [row] = await rows<SnapshotRow>(sql`
          SELECT generation, id, root, created_at::float8 AS created_at, node_count, edge_count FROM ${t.snapshots} ORDER BY generation DESC LIMIT 1`);
        return row === undefined ? null : toSnapshot(row);
      }),

    packageRoots: () =>
      run('packageRoots', async () => new Map((await rows<{ package: string; root: string }>(sql`SELECT package, root FROM ${t.merkle_packages}`)).map((r) => [r.package, r.root]))),

    subgraphRoot: (packages) =>
      run('subgraphRoot', async () => {
        const found = await rows<{ root: string }>(sql`SELECT root FROM ${t.merkle_packages} WHERE package = ANY(${[...new Set(packages)]}::text[])`);
        return merkleRoot(found.map((r) => r.root));
      }),

    fileHashes: () =>
      run('fileHashes', async () => new Map((await rows<{ path: string; content_hash: string }>(sql`SELECT path, content_hash FROM ${t.files}`)).map((r) => [r.path, r.content_hash]))),

    pruneCacheNotes: () =>
      run('pruneCacheNotes', async () => {
        writable('prune cache notes');
        return db.transaction().execute(async (trx) => {
          let deleted = 0;
          for (const [kind, bound] of settings.cacheNotes) deleted += Number((await pruneNotes(trx, kind, null, bound)).rows[0]?.n ?? 0);
          return deleted;
        });
      }),

    close: async () => {
      if (closed) return;
      closed = true;
      // Iterations the consumer abandoned hold a connection each: give them back (destroyed).
      for (const [client, state] of streams) {
        state.released = true;
        (client.release as (destroy?: boolean) => void)(true);
      }
      streams.clear();
      // A pool the caller passed is theirs to end.
      if (ownPool) await db.destroy().catch(() => {});
    },
  };
  return store;
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
