import {
  ErrorCode,
  LEXICAL_FIELDS,
  merkleRoot,
  type LexicalField,
  type LexicalSearchOptions,
  type EdgeQueryOptions,
  type FeedbackRecord,
  type FeedbackTally,
  type FindByNameOptions,
  type GraphCounts,
  type GraphEdge,
  type GraphOutline,
  type GraphNode,
  type Note,
  type NodeCounts,
  type NodeId,
  type NodeKind,
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
import { DEFAULT_COLUMN_WEIGHTS, SQLITE_STORE_DEFAULTS, TEXT_COLUMNS } from './defaults.js';
import { isBusy, storeError, translateError, type ErrorContext } from './errors.js';
import { sizeOf } from './files.js';
import { recordWriter } from './meta.js';
import { openDatabase, type OpenSettings } from './open.js';
import {
  EDGE_COLUMNS,
  NODE_COLUMNS,
  asciiLower,
  prefixUpperBound,
  toEdge,
  toFile,
  toNode,
  type EdgeRow,
  type FileRow,
  type NodeRow,
} from './rows.js';
import type { CacheNoteLimit, IntegrityReport, SqliteGraphStore, SqliteStoreOptions, StoreUsage } from './types.js';
import { thisBuild } from './version.js';
import { validateBatch } from './validate.js';
import { createLexicalScorer } from './lexical.js';
import { createBatchWriter, toSnapshot, type BatchWriter, type SnapshotRow } from './write.js';

/** Rows fetched per step by allNodes/allEdges. */
const PAGE_SIZE = 2000;
const DEFAULT_NAME_LIMIT = 100;
const DEFAULT_SEARCH_LIMIT = 30;
const DEFAULT_LEXICAL_LIMIT = 50;

/** Field weights of a lexical search, in table column order; every field weighs 1 unless given. */
function lexicalWeights(override: Readonly<Partial<Record<LexicalField, number>>> | undefined, where: string): number[] {
  const weights: Record<LexicalField, number> = { name: 1, path: 1, signature: 1, doc: 1, body: 1, members: 1 };
  for (const [field, weight] of Object.entries(override ?? {})) {
    if (!LEXICAL_FIELDS.includes(field as LexicalField)) {
      throw storeError(ErrorCode.InvalidArgument, `${where}: unknown field '${field}'`, `use one of ${LEXICAL_FIELDS.join(', ')}`);
    }
    if (weight === undefined) continue;
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      throw storeError(ErrorCode.InvalidArgument, `${where}: weight of '${field}' must be a finite number ≥ 0, got ${String(weight)}`);
    }
    weights[field as LexicalField] = weight;
  }
  return LEXICAL_FIELDS.map((field) => weights[field]);
}

/** Nodes read per page while filling a lexical result past filtered rows. */
const LEXICAL_PAGE = 200;

/** The distinct, non-empty terms of a lexical query. */
function lexicalTermsOf(terms: readonly string[], where: string): string[] {
  if (!Array.isArray(terms)) throw storeError(ErrorCode.InvalidArgument, `${where}: terms must be an array of strings`);
  const distinct = new Set<string>();
  for (const term of terms) {
    if (typeof term !== 'string') throw storeError(ErrorCode.InvalidArgument, `${where}: terms must be strings, got ${typeof term}`);
    const trimmed = term.trim();
    if (trimmed !== '') distinct.add(trimmed);
  }
  return [...distinct];
}
/** SQLite reads a negative LIMIT as "no limit". */
const NO_LIMIT = -1;

/** A cache kind's bound as SQL parameters: -1 for "no bound". */
interface CacheBound {
  readonly maxCount: number;
  readonly maxBytes: number;
}

interface StoreSettings extends OpenSettings {
  readonly columnWeights: Record<TextColumn, number>;
  readonly cacheNotes: ReadonlyMap<string, CacheBound>;
  readonly cacheWriteTimeoutMs: number;
}

function resolveOptions(options: SqliteStoreOptions): StoreSettings {
  const fail = (what: string): never => {
    throw storeError(ErrorCode.InvalidArgument, `createSqliteStore: ${what}`, 'see SqliteStoreOptions for valid values');
  };
  if (typeof options !== 'object' || options === null) fail('options must be an object with a path');
  if (typeof options.path !== 'string' || options.path.length === 0) fail('path must be a non-empty string');
  const readonly = options.readonly ?? SQLITE_STORE_DEFAULTS.readonly;
  if (readonly && options.path === ':memory:') fail('a read-only in-memory store would always be empty; pass a file path');
  const count = (value: number | undefined, fallback: number, name: string): number => {
    const v = value ?? fallback;
    if (!Number.isInteger(v) || v < 0) fail(`${name} must be a non-negative integer, got ${String(v)}`);
    return v;
  };
  return {
    path: options.path,
    readonly,
    busyTimeoutMs: count(options.busyTimeoutMs, SQLITE_STORE_DEFAULTS.busyTimeoutMs, 'busyTimeoutMs'),
    cacheSizeKib: count(options.cacheSizeKib, SQLITE_STORE_DEFAULTS.cacheSizeKib, 'cacheSizeKib'),
    mmapSizeBytes: count(options.mmapSizeBytes, SQLITE_STORE_DEFAULTS.mmapSizeBytes, 'mmapSizeBytes'),
    walLimitBytes: count(options.walLimitBytes, SQLITE_STORE_DEFAULTS.walLimitBytes, 'walLimitBytes'),
    columnWeights: mergeWeights(DEFAULT_COLUMN_WEIGHTS, options.columnWeights, 'createSqliteStore: columnWeights'),
    cacheNotes: cacheBounds(options.cacheNotes ?? SQLITE_STORE_DEFAULTS.cacheNotes, fail),
    cacheWriteTimeoutMs: count(options.cacheWriteTimeoutMs, SQLITE_STORE_DEFAULTS.cacheWriteTimeoutMs, 'cacheWriteTimeoutMs'),
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

function mergeWeights(
  base: Readonly<Record<TextColumn, number>>,
  override: Readonly<Partial<Record<TextColumn, number>>> | undefined,
  where: string,
): Record<TextColumn, number> {
  const merged = { ...base };
  if (override === undefined) return merged;
  for (const [column, weight] of Object.entries(override)) {
    if (!TEXT_COLUMNS.includes(column as TextColumn)) {
      throw storeError(ErrorCode.InvalidArgument, `${where}: unknown column '${column}'`, `use one of ${TEXT_COLUMNS.join(', ')}`);
    }
    if (weight === undefined) continue;
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      throw storeError(ErrorCode.InvalidArgument, `${where}: weight of '${column}' must be a finite number ≥ 0, got ${String(weight)}`);
    }
    merged[column as TextColumn] = weight;
  }
  return merged;
}

function limitOf(limit: number | undefined, fallback: number, where: string): number {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 0) {
    throw storeError(ErrorCode.InvalidArgument, `${where}: limit must be a non-negative integer, got ${String(limit)}`);
  }
  return limit;
}

/** Filters that take a list are bound as one JSON array (json_each), so statements stay prepared. */
function jsonList(values: readonly string[] | undefined): string | null {
  return values === undefined ? null : JSON.stringify(values);
}

/**
 * Open the embedded SQLite store of one repository: creates the file (and its directory)
 * when missing, migrates older knowing schemas, and refuses files it cannot safely use with
 * a {@link KnowingError} (`STORE_NOT_A_DATABASE`, `STORE_SCHEMA_TOO_NEW`, `STORE_READ_ONLY`,
 * `STORE_LOCKED`, `PATH_NOT_FOUND`, `NO_INDEX`).
 *
 * @example
 * ```ts
 * import { createSqliteStore } from '@knowing/store-sqlite';
 *
 * const store = await createSqliteStore({ path: '.knowing/graph.db' });
 * await store.applyBatch({ files: [{ file, nodes, edges }] });
 * const hits = await store.search('name:"before_request" OR config', { limit: 10 });
 * await store.close();
 * ```
 */
export async function createSqliteStore(options: SqliteStoreOptions): Promise<SqliteGraphStore> {
  const settings = resolveOptions(options);
  const opened = await openDatabase(settings);
  const { db, path, schemaVersion } = opened;
  let writtenBy = opened.writtenBy;
  const ctx: ErrorContext = { path, busyTimeoutMs: settings.busyTimeoutMs };
  const readonly = settings.readonly;
  let closed = false;

  let writer: BatchWriter | undefined;
  let st: ReturnType<typeof prepareReaders>;
  const lexicalScores = createLexicalScorer(db);
  try {
    st = prepareReaders();
    if (!readonly) writer = createBatchWriter(db, path);
  } catch (error) {
    db.close();
    throw translateError(error, ctx, 'preparing statements');
  }

  function prepareReaders() {
    return {
      repo: db.prepare('SELECT id, root, commit_sha, indexed_at FROM repos WHERE slot = 1'),
      nodeById: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.id = ?`),
      nodesByIds: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.id IN (SELECT value FROM json_each(?))`),
      byName: {
        exact: db.prepare(
          `SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.name_lower = @lower AND n.name = @name
             AND (@external = 1 OR n.external = 0) AND (@kinds IS NULL OR n.kind IN (SELECT value FROM json_each(@kinds)))
           ORDER BY n.external, n.file, n.start_line, n.seq LIMIT @limit`,
        ),
        exact_ci: db.prepare(
          `SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.name_lower = @lower
             AND (@external = 1 OR n.external = 0) AND (@kinds IS NULL OR n.kind IN (SELECT value FROM json_each(@kinds)))
           ORDER BY n.external, n.file, n.start_line, n.seq LIMIT @limit`,
        ),
        prefix: db.prepare(
          `SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.name_lower >= @lower AND n.name_lower < @upper
             AND (@external = 1 OR n.external = 0) AND (@kinds IS NULL OR n.kind IN (SELECT value FROM json_each(@kinds)))
           ORDER BY length(n.name), n.name_lower, n.file, n.start_line, n.seq LIMIT @limit`,
        ),
        // No index can serve a substring; the planner scans the small name_lower index
        // (covering) rather than the table.
        substring: db.prepare(
          `SELECT ${NODE_COLUMNS} FROM nodes n WHERE instr(n.name_lower, @lower) > 0
             AND (@external = 1 OR n.external = 0) AND (@kinds IS NULL OR n.kind IN (SELECT value FROM json_each(@kinds)))
           ORDER BY length(n.name), n.name_lower, n.file, n.start_line, n.seq LIMIT @limit`,
        ),
      },
      byQualifiedName: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.qualified_name = ? ORDER BY n.seq`),
      inFile: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.file = ? ORDER BY n.start_line, n.seq`),
      underPath: db.prepare(
        `SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.file >= @lower AND n.file < @upper AND n.external = 0
           AND (@kinds IS NULL OR n.kind IN (SELECT value FROM json_each(@kinds)))
         ORDER BY n.file, n.start_line, n.seq LIMIT @limit`,
      ),
      edgesFrom: db.prepare(
        `SELECT ${EDGE_COLUMNS} FROM nodes s JOIN edges e ON e.src = s.seq JOIN nodes t ON t.seq = e.dst
         WHERE s.id = @id AND (@types IS NULL OR e.type IN (SELECT value FROM json_each(@types)))
         ORDER BY e.type, e.dst LIMIT @limit`,
      ),
      edgesTo: db.prepare(
        `SELECT ${EDGE_COLUMNS} FROM nodes t JOIN edges e ON e.dst = t.seq JOIN nodes s ON s.seq = e.src
         WHERE t.id = @id AND (@types IS NULL OR e.type IN (SELECT value FROM json_each(@types)))
         ORDER BY e.type, e.src LIMIT @limit`,
      ),
      file: db.prepare('SELECT path, language, content_hash, size_bytes, indexed_at, syntax_errors FROM files WHERE path = ?'),
      files: db.prepare('SELECT path, language, content_hash, size_bytes, indexed_at, syntax_errors FROM files ORDER BY path'),
      countNodes: db.prepare('SELECT kind, language, count(*) AS n FROM nodes GROUP BY kind, language'),
      countEdges: db.prepare('SELECT type, count(*) AS n FROM edges GROUP BY type'),
      countFiles: db.prepare('SELECT count(*) FROM files').pluck(),
      nodesPage: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.seq > ? ORDER BY n.seq LIMIT ?`),
      outlineNodes: db.prepare('SELECT seq, id, kind, is_test, external FROM nodes ORDER BY seq').raw(),
      // The primary key's order, as allEdges pages them; no join: endpoints map through the nodes.
      outlineEdges: db.prepare('SELECT src, dst, type, provenance, confidence FROM edges ORDER BY src, type, dst').raw(),
      // CROSS JOIN pins edges as the outer loop: the keyset cursor must seek the primary key.
      // Left to the planner, some statistics drive the join from nodes and sort every
      // remaining edge per page (quadratic: 92 s instead of ~4 s over rails' 1.2M edges).
      edgesPage: db.prepare(
        `SELECT e.src, e.dst, ${EDGE_COLUMNS} FROM edges e CROSS JOIN nodes s ON s.seq = e.src CROSS JOIN nodes t ON t.seq = e.dst
         WHERE (e.src, e.type, e.dst) > (?, ?, ?) ORDER BY e.src, e.type, e.dst LIMIT ?`,
      ),
      // Rank inside the FTS table and join only the top rows: joining every match to nodes
      // first costs a row fetch per match, thousands for a common term.
      search: db.prepare(
        `SELECT ${NODE_COLUMNS}, r.rank FROM (
           SELECT rowid, bm25(nodes_fts, @w0, @w1, @w2, @w3, @w4, @w5) AS rank
           FROM nodes_fts WHERE nodes_fts MATCH @query ORDER BY rank LIMIT @limit
         ) r JOIN nodes n ON n.seq = r.rowid ORDER BY r.rank`,
      ),
      nodesBySeqs: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.seq IN (SELECT value FROM json_each(?))`),
      // With a kind filter the filter must apply before the limit, so every match is joined.
      searchKinds: db.prepare(
        `SELECT ${NODE_COLUMNS}, bm25(nodes_fts, @w0, @w1, @w2, @w3, @w4, @w5) AS rank
         FROM nodes_fts JOIN nodes n ON n.seq = nodes_fts.rowid
         WHERE nodes_fts MATCH @query AND n.kind IN (SELECT value FROM json_each(@kinds))
         ORDER BY rank LIMIT @limit`,
      ),
      noteGet: db.prepare('SELECT key, kind, value, snapshot, updated_at FROM notes WHERE key = ?'),
      notePut: db.prepare(
        `INSERT INTO notes (key, kind, value, snapshot, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET kind = excluded.kind, value = excluded.value, snapshot = excluded.snapshot, updated_at = excluded.updated_at`,
      ),
      noteDelete: db.prepare('DELETE FROM notes WHERE key = ?'),
      // The notes of a cache kind beyond its bound, newest kept first (and `keep`, the note
      // just written, before them all).
      notesPrune: db.prepare(
        `DELETE FROM notes WHERE kind = @kind AND key IS NOT @keep AND key IN (
           SELECT key FROM (
             SELECT key, row_number() OVER w AS n, sum(length(value)) OVER w AS bytes FROM notes WHERE kind = @kind
             WINDOW w AS (ORDER BY coalesce(key = @keep, 0) DESC, updated_at DESC, key DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
           ) WHERE (@maxCount >= 0 AND n > @maxCount) OR (@maxBytes >= 0 AND bytes > @maxBytes)
         )`,
      ),
      noteUsage: db.prepare('SELECT kind, count(*) AS count, sum(length(value)) AS bytes FROM notes GROUP BY kind ORDER BY bytes DESC, kind'),
      notesDelete: db.prepare(
        `DELETE FROM notes WHERE (@kind IS NULL OR kind = @kind) AND (@lower IS NULL OR (key >= @lower AND key < @upper))`,
      ),
      feedbackInsert: db.prepare(
        `INSERT INTO feedback (symbol, useful, session, neighborhood_root, keyword_cluster, at) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      feedbackTally: db.prepare(
        `SELECT symbol, neighborhood_root AS root, sum(useful) AS useful, count(*) AS total FROM feedback
         WHERE symbol IN (SELECT value FROM json_each(@symbols)) AND (@cluster IS NULL OR keyword_cluster = @cluster)
         GROUP BY symbol, neighborhood_root`,
      ),
      vocabUpsert: db.prepare(
        `INSERT INTO vocab (keyword, symbol, symbol_name, count, cluster, package_root, last_seen) VALUES (?, ?, ?, 1, ?, ?, ?)
         ON CONFLICT (keyword, symbol) DO UPDATE SET count = count + 1, symbol_name = excluded.symbol_name,
           cluster = coalesce(excluded.cluster, cluster), package_root = coalesce(excluded.package_root, package_root),
           last_seen = excluded.last_seen`,
      ),
      vocabFor: db.prepare(
        `SELECT keyword, symbol, symbol_name, count, cluster, package_root FROM vocab
         WHERE keyword IN (SELECT value FROM json_each(@keywords)) AND count >= @minCount AND (@cluster IS NULL OR cluster = @cluster)
         ORDER BY count DESC, keyword, symbol`,
      ),
      snapshotLatest: db.prepare(
        'SELECT generation, id, root, created_at, node_count, edge_count FROM snapshots ORDER BY generation DESC LIMIT 1',
      ),
      packageRoots: db.prepare('SELECT package, root FROM merkle_packages').raw(),
      packageRootsOf: db.prepare('SELECT root FROM merkle_packages WHERE package IN (SELECT value FROM json_each(?))').pluck(),
      fileHashes: db.prepare('SELECT path, content_hash FROM files').raw(),
    };
  }

  function countNodes(): NodeCounts {
    const byKind = st.countNodes.all() as { kind: string; language: string; n: number }[];
    const nodesByKind: Record<string, number> = {};
    const nodesByLanguage: Record<string, number> = {};
    let nodes = 0;
    for (const row of byKind) {
      const n = Number(row.n);
      nodes += n;
      // Own-property reads: a kind named `constructor` must not find Object.prototype's.
      nodesByKind[row.kind] = (Object.hasOwn(nodesByKind, row.kind) ? nodesByKind[row.kind]! : 0) + n;
      // Placeholders have no language; they are counted under their kind only.
      if (row.language !== '') {
        nodesByLanguage[row.language] = (Object.hasOwn(nodesByLanguage, row.language) ? nodesByLanguage[row.language]! : 0) + n;
      }
    }
    return { nodes, files: Number(st.countFiles.get()), nodesByKind, nodesByLanguage };
  }

  /** Every public method runs through here: closed check, then driver errors → KnowingError. */
  function run<T>(action: string, fn: () => T): Promise<T> {
    try {
      if (closed) {
        throw storeError(ErrorCode.StoreClosed, `${path}: ${action} after the store was closed`, 'open a new store with createSqliteStore()');
      }
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(translateError(error, ctx, action));
    }
  }

  function writable(action: string): BatchWriter {
    if (writer === undefined) {
      throw storeError(ErrorCode.ReadOnly, `${path} was opened read-only; cannot ${action}`, 'open the store without readonly: true to write');
    }
    return writer;
  }

  function nodes(rows: unknown[]): GraphNode[] {
    return (rows as NodeRow[]).map(toNode);
  }

  function edges(rows: unknown[]): GraphEdge[] {
    return (rows as EdgeRow[]).map(toEdge);
  }

  function edgeQuery(which: 'edgesFrom' | 'edgesTo', id: NodeId, options: EdgeQueryOptions | undefined): GraphEdge[] {
    return edges(
      st[which].all({
        id,
        types: jsonList(options?.types),
        limit: limitOf(options?.limit, NO_LIMIT, which),
      }),
    );
  }

  /** Run `fn` waiting at most `ms` for another writer's lock, then wait as configured again. */
  function waitingAtMost<T>(ms: number, fn: () => T): T {
    db.pragma(`busy_timeout = ${ms}`);
    try {
      return fn();
    } finally {
      db.pragma(`busy_timeout = ${settings.busyTimeoutMs}`);
    }
  }

  const putCacheNote = db.transaction(
    (key: string, kind: string, value: Uint8Array, snapshot: string | null, bound: CacheBound): void => {
      st.notePut.run(key, kind, value, snapshot, Date.now());
      st.notesPrune.run({ kind, keep: key, maxCount: bound.maxCount, maxBytes: bound.maxBytes });
    },
  );

  const store: SqliteGraphStore = {
    path,
    schemaVersion,
    readonly,
    get writtenBy() {
      return writtenBy;
    },

    repo: () =>
      run('repo', (): RepoInfo | null => {
        const row = st.repo.get() as { id: string; root: string; commit_sha: string | null; indexed_at: number | null } | undefined;
        return row === undefined ? null : { id: row.id, root: row.root, commit: row.commit_sha, indexedAt: row.indexed_at };
      }),

    getNode: (id) =>
      run('getNode', () => {
        const row = st.nodeById.get(id) as NodeRow | undefined;
        return row === undefined ? undefined : toNode(row);
      }),

    getNodes: (ids) =>
      run('getNodes', () => {
        if (ids.length === 0) return [];
        const byId = new Map<string, GraphNode>();
        for (const node of nodes(st.nodesByIds.all(JSON.stringify(ids)))) byId.set(node.id, node);
        const out: GraphNode[] = [];
        for (const id of ids) {
          const node = byId.get(id);
          if (node !== undefined) out.push(node);
        }
        return out;
      }),

    findNodesByName: (name, options?: FindByNameOptions) =>
      run('findNodesByName', () => {
        const match = options?.match ?? 'exact';
        const statement = st.byName[match];
        if (statement === undefined) {
          throw storeError(ErrorCode.InvalidArgument, `${path}: findNodesByName: unknown match '${String(match)}'`, 'use exact, exact_ci, prefix or substring');
        }
        const lower = asciiLower(name);
        return nodes(
          statement.all({
            name,
            lower,
            ...(match === 'prefix' ? { upper: prefixUpperBound(lower) } : {}),
            external: options?.includeExternal === true ? 1 : 0,
            kinds: jsonList(options?.kinds),
            limit: limitOf(options?.limit, DEFAULT_NAME_LIMIT, 'findNodesByName'),
          }),
        );
      }),

    findNodesByQualifiedName: (qualifiedName) => run('findNodesByQualifiedName', () => nodes(st.byQualifiedName.all(qualifiedName))),

    nodesInFile: (file) => run('nodesInFile', () => (file === '' ? [] : nodes(st.inFile.all(file)))),

    nodesUnderPath: (prefix, options?: { readonly kinds?: readonly NodeKind[]; readonly limit?: number }) =>
      run('nodesUnderPath', () =>
        nodes(
          st.underPath.all({
            lower: prefix,
            upper: prefixUpperBound(prefix),
            kinds: jsonList(options?.kinds),
            limit: limitOf(options?.limit, NO_LIMIT, 'nodesUnderPath'),
          }),
        ),
      ),

    edgesFrom: (id, options) => run('edgesFrom', () => edgeQuery('edgesFrom', id, options)),
    edgesTo: (id, options) => run('edgesTo', () => edgeQuery('edgesTo', id, options)),

    getFile: (file) =>
      run('getFile', () => {
        const row = st.file.get(file) as FileRow | undefined;
        return row === undefined ? undefined : toFile(row);
      }),

    listFiles: () => run('listFiles', () => (st.files.all() as FileRow[]).map(toFile)),

    nodeCounts: () => run('nodeCounts', countNodes),

    counts: () =>
      run('counts', (): GraphCounts => {
        const { nodes, files, nodesByKind, nodesByLanguage } = countNodes();
        const byType = st.countEdges.all() as { type: string; n: number }[];
        const edgesByType: Record<string, number> = {};
        let edgeTotal = 0;
        for (const row of byType) {
          edgesByType[row.type] = Number(row.n);
          edgeTotal += Number(row.n);
        }
        return { nodes, edges: edgeTotal, files, nodesByKind, nodesByLanguage, edgesByType };
      }),

    allNodes: () => ({
      // Pages by primary key instead of holding one statement open: better-sqlite3 refuses
      // writes on a connection while an iterator is open, and a consumer may well await a
      // write (a note, a batch) between two nodes. Memory stays bounded by the page size.
      async *[Symbol.asyncIterator]() {
        let after = 0;
        for (;;) {
          const page = await run('allNodes', () => st.nodesPage.all(after, PAGE_SIZE) as NodeRow[]);
          for (const row of page) yield toNode(row);
          if (page.length < PAGE_SIZE) return;
          after = page[page.length - 1]!.seq;
        }
      },
    }),

    graphOutline: () =>
      run('graphOutline', (): GraphOutline => {
        const idOf = new Map<number, NodeId>();
        const nodes = (st.outlineNodes.all() as [number, NodeId, NodeKind, number, number][]).map(([seq, id, kind, isTest, external]) => {
          idOf.set(seq, id);
          return { id, kind, isTest: isTest === 1, external: external === 1 };
        });
        const edges = (st.outlineEdges.all() as [number, number, string, Provenance, number][]).map(([src, dst, type, provenance, confidence]) => ({
          source: idOf.get(src)!,
          target: idOf.get(dst)!,
          type,
          provenance,
          confidence,
        }));
        return { nodes, edges };
      }),

    allEdges: () => ({
      async *[Symbol.asyncIterator]() {
        let cursor: [number, string, number] = [0, '', 0];
        for (;;) {
          const page = await run(
            'allEdges',
            () => st.edgesPage.all(cursor[0], cursor[1], cursor[2], PAGE_SIZE) as (EdgeRow & { src: number; dst: number })[],
          );
          for (const row of page) yield toEdge(row);
          if (page.length < PAGE_SIZE) return;
          const last = page[page.length - 1]!;
          cursor = [last.src, last.type, last.dst];
        }
      },
    }),

    applyBatch: (batch: WriteBatch) =>
      run('applyBatch', (): WriteResult => {
        const w = writable('apply a batch');
        validateBatch(batch, path);
        const result = w.apply(batch);
        if (writtenBy !== thisBuild()) {
          try {
            recordWriter(db);
            writtenBy = thisBuild();
          } catch {
            // Who wrote the file only explains later errors; the batch itself is committed.
          }
        }
        return result;
      }),

    search: (query: string, options?: TextSearchOptions) =>
      run('search', (): TextHit[] => {
        if (typeof query !== 'string') throw storeError(ErrorCode.InvalidArgument, `${path}: search query must be a string`);
        if (query.trim() === '') return [];
        const weights = mergeWeights(settings.columnWeights, options?.columnWeights, `${path}: search columnWeights`);
        const kinds = jsonList(options?.kinds);
        const params = {
          query,
          ...(kinds === null ? {} : { kinds }),
          limit: limitOf(options?.limit, DEFAULT_SEARCH_LIMIT, 'search'),
          w0: weights.name,
          w1: weights.concepts,
          w2: weights.path,
          w3: weights.qualified_name,
          w4: weights.doc,
          w5: weights.signature,
        };
        let rows: (NodeRow & { rank: number })[];
        try {
          rows = (kinds === null ? st.search : st.searchKinds).all(params) as (NodeRow & { rank: number })[];
        } catch (error) {
          if (isBusy(error)) throw error;
          // The query text is FTS5 syntax written by a caller; whatever SQLite rejects
          // about it (syntax, unknown column) is the caller's argument, not a store fault.
          const detail = error instanceof Error ? error.message : String(error);
          throw storeError(
            ErrorCode.InvalidArgument,
            `${path}: malformed full-text query ${JSON.stringify(query)}: ${detail}`,
            `quote terms with special characters ("like:this") and use only the columns ${TEXT_COLUMNS.join(', ')}`,
            error,
          );
        }
        // bm25() is lower-is-better; the contract wants higher-is-better.
        return rows.map((row) => ({ node: toNode(row), score: -row.rank }));
      }),

    lexicalSearch: (terms: readonly string[], options?: LexicalSearchOptions) =>
      run('lexicalSearch', (): TextHit[] => {
        const distinct = lexicalTermsOf(terms, `${path}: lexicalSearch`);
        const weights = lexicalWeights(options?.fieldWeights, `${path}: lexicalSearch fieldWeights`);
        const limit = limitOf(options?.limit, DEFAULT_LEXICAL_LIMIT, 'lexicalSearch');
        const kinds = options?.kinds === undefined ? undefined : new Set<string>(options.kinds);
        const scored = lexicalScores(distinct, weights);
        // Filters apply before the limit: read the best rows a page at a time until it is met,
        // and past it while scores tie with the last one kept, so that ties are broken by name
        // (row numbers depend on the index's history: the same tree must give the same answer).
        const hits: TextHit[] = [];
        let full = false;
        for (let at = 0; at < scored.length && !full; at += LEXICAL_PAGE) {
          const page = scored.slice(at, at + LEXICAL_PAGE);
          const rows = new Map((st.nodesBySeqs.all(JSON.stringify(page.map((p) => p.seq))) as NodeRow[]).map((row) => [row.seq, row]));
          for (const { seq, score } of page) {
            if (hits.length >= limit && score < hits[limit - 1]!.score) {
              full = true;
              break;
            }
            const row = rows.get(seq);
            if (row === undefined || row.external === 1 || (row.is_test === 1 && options?.includeTests !== true)) continue;
            if (kinds !== undefined && !kinds.has(row.kind)) continue;
            hits.push({ node: toNode(row), score });
          }
        }
        hits.sort((a, b) => b.score - a.score || (a.node.qualifiedName < b.node.qualifiedName ? -1 : a.node.qualifiedName > b.node.qualifiedName ? 1 : a.node.id < b.node.id ? -1 : 1));
        return hits.slice(0, limit);
      }),

    getNote: (key) =>
      run('getNote', (): Note | undefined => {
        const row = st.noteGet.get(key) as
          | { key: string; kind: string; value: Buffer; snapshot: string | null; updated_at: number }
          | undefined;
        if (row === undefined) return undefined;
        // A plain Uint8Array view: callers compare and serialise it like any other bytes.
        const value = new Uint8Array(row.value.buffer, row.value.byteOffset, row.value.byteLength);
        return { key: row.key, kind: row.kind, value, snapshot: row.snapshot, updatedAt: row.updated_at };
      }),

    putNote: (key, kind, value, snapshot = null) =>
      run('putNote', () => {
        writable('put a note');
        if (!(value instanceof Uint8Array)) throw storeError(ErrorCode.InvalidArgument, `${path}: note '${key}' value must be a Uint8Array`);
        const bound = settings.cacheNotes.get(kind);
        if (bound === undefined) st.notePut.run(key, kind, value, snapshot, Date.now());
        else {
          try {
            waitingAtMost(settings.cacheWriteTimeoutMs, () => putCacheNote.immediate(key, kind, value, snapshot, bound));
          } catch (error) {
            throw translateError(error, { path, busyTimeoutMs: settings.cacheWriteTimeoutMs }, `putNote (of the cache kind '${kind}')`);
          }
        }
      }),

    deleteNote: (key) =>
      run('deleteNote', () => {
        writable('delete a note');
        return st.noteDelete.run(key).changes > 0;
      }),

    deleteNotes: (filter) =>
      run('deleteNotes', () => {
        writable('delete notes');
        const prefix = filter.keyPrefix;
        return st.notesDelete.run({
          kind: filter.kind ?? null,
          lower: prefix ?? null,
          upper: prefix === undefined ? null : prefixUpperBound(prefix),
        }).changes;
      }),

    recordFeedback: (records: readonly FeedbackRecord[]) =>
      run('recordFeedback', () => {
        writable('record feedback');
        const now = Date.now();
        const insert = db.transaction((list: readonly FeedbackRecord[]) => {
          for (const r of list) {
            if (typeof r.symbol !== 'string' || typeof r.useful !== 'boolean' || typeof r.session !== 'string') {
              throw storeError(ErrorCode.InvalidArgument, `${path}: feedback needs a string symbol and session and a boolean useful`);
            }
            st.feedbackInsert.run(r.symbol, r.useful ? 1 : 0, r.session, r.neighborhoodRoot ?? null, r.keywordCluster ?? null, r.at ?? now);
          }
        });
        insert.immediate(records);
      }),

    feedbackFor: (symbols, options) =>
      run('feedbackFor', () => {
        const out = new Map<NodeId, FeedbackTally>();
        if (symbols.length === 0) return out;
        const rows = st.feedbackTally.all({ symbols: JSON.stringify(symbols), cluster: options?.keywordCluster ?? null }) as {
          symbol: string;
          root: string | null;
          useful: number;
          total: number;
        }[];
        for (const row of rows) {
          // Rows stamped with a neighbourhood root expire once the symbol's neighbourhood changed.
          const current = options?.currentRoots?.get(row.symbol);
          if (row.root !== null && current !== undefined && row.root !== current) continue;
          const prev = out.get(row.symbol) ?? { useful: 0, notUseful: 0 };
          out.set(row.symbol, { useful: prev.useful + row.useful, notUseful: prev.notUseful + (row.total - row.useful) });
        }
        return out;
      }),

    recordVocab: (entries) =>
      run('recordVocab', () => {
        writable('record vocabulary');
        const now = Date.now();
        const upsert = db.transaction((list: typeof entries) => {
          for (const e of list) {
            if (typeof e.keyword !== 'string' || e.keyword.length === 0 || typeof e.symbol !== 'string') {
              throw storeError(ErrorCode.InvalidArgument, `${path}: vocabulary entries need a non-empty keyword and a symbol`);
            }
            st.vocabUpsert.run(e.keyword, e.symbol, e.symbolName, e.cluster ?? null, e.packageRoot ?? null, now);
          }
        });
        upsert.immediate(entries);
      }),

    vocabFor: (keywords, options) =>
      run('vocabFor', (): VocabAssociation[] => {
        if (keywords.length === 0) return [];
        const rows = st.vocabFor.all({
          keywords: JSON.stringify(keywords),
          minCount: options?.minCount ?? 2,
          cluster: options?.cluster ?? null,
        }) as { keyword: string; symbol: string; symbol_name: string; count: number; cluster: string | null; package_root: string | null }[];
        return rows.map((r) => ({
          keyword: r.keyword,
          symbol: r.symbol,
          symbolName: r.symbol_name,
          count: r.count,
          cluster: r.cluster,
          packageRoot: r.package_root,
        }));
      }),

    currentSnapshot: () =>
      run('currentSnapshot', (): Snapshot | null => {
        const row = st.snapshotLatest.get() as SnapshotRow | undefined;
        return row === undefined ? null : toSnapshot(row);
      }),

    packageRoots: () => run('packageRoots', () => new Map(st.packageRoots.all() as [string, string][])),

    subgraphRoot: (packages) =>
      run('subgraphRoot', () => merkleRoot(st.packageRootsOf.all(JSON.stringify([...new Set(packages)])) as string[])),

    fileHashes: () =>
      run('fileHashes', () => new Map(st.fileHashes.all() as [string, string][])),

    checkIntegrity: (options?: { readonly full?: boolean }) =>
      run('checkIntegrity', (): IntegrityReport => {
        const check = options?.full === true ? 'integrity_check' : 'quick_check';
        const started = performance.now();
        let problems: string[];
        try {
          const rows = db.pragma(`${check}(100)`) as Record<string, unknown>[];
          problems = rows.map((row) => String(Object.values(row)[0])).filter((line) => line !== 'ok');
        } catch (error) {
          // Damage SQLite meets before it can list it (a broken schema page) is a finding too.
          const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : '';
          if (!code.startsWith('SQLITE_CORRUPT') && code !== 'SQLITE_NOTADB') throw error;
          problems = [`${(error as Error).message} (${code})`];
        }
        return { ok: problems.length === 0, check, problems, ms: Math.round(performance.now() - started) };
      }),

    usage: () =>
      run('usage', (): StoreUsage => {
        const pageSize = db.pragma('page_size', { simple: true }) as number;
        const freePages = db.pragma('freelist_count', { simple: true }) as number;
        const notes = (st.noteUsage.all() as { kind: string; count: number; bytes: number | null }[]).map((row) => ({
          kind: row.kind,
          count: Number(row.count),
          bytes: Number(row.bytes ?? 0),
        }));
        const file = path === ':memory:' ? 0 : sizeOf(path);
        return { fileBytes: file, walBytes: path === ':memory:' ? 0 : sizeOf(`${path}-wal`), freeBytes: pageSize * freePages, notes };
      }),

    pruneCacheNotes: () =>
      run('pruneCacheNotes', () => {
        writable('prune cache notes');
        let deleted = 0;
        const prune = db.transaction(() => {
          for (const [kind, bound] of settings.cacheNotes) {
            deleted += st.notesPrune.run({ kind, keep: null, maxCount: bound.maxCount, maxBytes: bound.maxBytes }).changes;
          }
        });
        prune.immediate();
        return deleted;
      }),

    vacuum: () =>
      run('vacuum', () => {
        writable('vacuum');
        db.exec(`INSERT INTO nodes_fts (nodes_fts) VALUES ('optimize')`);
        db.exec('VACUUM');
        db.pragma('wal_checkpoint(TRUNCATE)');
      }),

    close: async () => {
      if (closed) return;
      closed = true;
      try {
        // Lets SQLite refresh planner statistics for the tables this connection used, if no
        // other process holds the write lock: a reader must not wait for a long index run.
        if (!readonly) {
          db.pragma('busy_timeout = 0');
          db.pragma('optimize');
        }
      } catch {
        // Best effort: failing to optimise must not keep the file open.
      }
      db.close();
    },
  };
  return store;
}
