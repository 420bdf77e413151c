import { ErrorCode, type FeedbackRecord, type FeedbackTally, type Note, type NodeId, type VocabAssociation } from '@knowing/graph';
import { tallyFeedback, type CacheBound, type FeedbackGroup } from '@knowing/graph/store-kit';
import { sql, type Kysely } from 'kysely';
import type { StoreCore } from './core.js';
import { storeError } from './errors.js';
import type { Tables } from './tables.js';
import type { PostgresGraphStore } from './types.js';

/** Delete the notes of a cache kind beyond its bound, newest kept first (and `keep`, the note just written, before them all). */
function pruneNotes(executor: Kysely<unknown>, t: Tables, kind: string, keep: string | null, bound: CacheBound) {
  return sql<{ n: number }>`
    WITH gone AS (
      DELETE FROM ${t.notes} WHERE kind = ${kind} AND key IS DISTINCT FROM ${keep} AND key IN (
        SELECT key FROM (
          SELECT key, row_number() OVER w AS n, sum(octet_length(value)) OVER w AS bytes FROM ${t.notes} WHERE kind = ${kind}
          WINDOW w AS (ORDER BY coalesce(key = ${keep}, false) DESC, updated_at DESC, key DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
        ) ranked
        WHERE (${bound.maxCount}::int >= 0 AND n > ${bound.maxCount}::int) OR (${bound.maxBytes}::bigint >= 0 AND bytes > ${bound.maxBytes}::bigint))
      RETURNING 1)
    SELECT count(*)::int AS n FROM gone`.execute(executor);
}

/** Notes by key, with the cache kinds kept within their bounds on every write. */
export function noteMethods({ db, t, settings, target, run, writable, rows }: StoreCore): Pick<
  PostgresGraphStore,
  'getNote' | 'putNote' | 'deleteNote' | 'deleteNotes' | 'pruneCacheNotes'
> {
  return {
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
          await pruneNotes(trx, t, kind, key, bound);
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

    pruneCacheNotes: () =>
      run('pruneCacheNotes', async () => {
        writable('prune cache notes');
        return db.transaction().execute(async (trx) => {
          let deleted = 0;
          for (const [kind, bound] of settings.cacheNotes) deleted += Number((await pruneNotes(trx, t, kind, null, bound)).rows[0]?.n ?? 0);
          return deleted;
        });
      }),
  };
}

/** Feedback on symbols and the keyword vocabulary learned from it. */
export function feedbackAndVocabulary({ db, t, target, run, writable, rows }: StoreCore): Pick<
  PostgresGraphStore,
  'recordFeedback' | 'feedbackFor' | 'recordVocab' | 'vocabFor'
> {
  return {
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
        if (symbols.length === 0) return new Map<NodeId, FeedbackTally>();
        const cluster = options?.keywordCluster ?? null;
        const groups = await rows<FeedbackGroup>(sql`
          SELECT symbol, neighborhood_root AS root, count(*) FILTER (WHERE useful)::int AS useful, count(*)::int AS total FROM ${t.feedback}
          WHERE symbol = ANY(${[...symbols]}::text[]) AND (${cluster}::text IS NULL OR keyword_cluster = ${cluster}::text)
          GROUP BY symbol, neighborhood_root`);
        return tallyFeedback(groups, options?.currentRoots);
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
  };
}
