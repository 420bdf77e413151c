import type Database from 'better-sqlite3';
import { ErrorCode, type FeedbackRecord, type FeedbackTally, type Note, type NoteWrite, type NodeId, type VocabAssociation } from '@knowing/graph';
import { tallyFeedback, type FeedbackGroup } from '@knowing/graph/store-kit';
import type { StoreCore } from './core.js';
import { storeError, translateError } from './errors.js';
import { prefixUpperBound } from './rows.js';
import type { SqliteGraphStore } from './types.js';

/** Run `fn` waiting at most `ms` for another writer's lock, then `configuredMs` again. */
function waitingAtMost<T>(db: Database.Database, ms: number, configuredMs: number, fn: () => T): T {
  db.pragma(`busy_timeout = ${ms}`);
  try {
    return fn();
  } finally {
    db.pragma(`busy_timeout = ${configuredMs}`);
  }
}

/** Notes by key, with the cache kinds kept within their bounds on every write. */
export function noteMethods({ db, path, settings, run, writable }: StoreCore): Pick<
  SqliteGraphStore,
  'getNote' | 'putNote' | 'putNotes' | 'deleteNote' | 'deleteNotes' | 'pruneCacheNotes'
> {
  const st = {
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
    notesDelete: db.prepare(
      `DELETE FROM notes WHERE (@kind IS NULL OR kind = @kind) AND (@lower IS NULL OR (key >= @lower AND key < @upper))`,
    ),
  };

  /** One note written, its cache kind (if it is one) kept within its bound; the caller holds the transaction. */
  const writeNote = (key: string, kind: string, value: Uint8Array, snapshot: string | null): void => {
    st.notePut.run(key, kind, value, snapshot, Date.now());
    const bound = settings.cacheNotes.get(kind);
    if (bound !== undefined) st.notesPrune.run({ kind, keep: key, maxCount: bound.maxCount, maxBytes: bound.maxBytes });
  };
  const putCacheNote = db.transaction(writeNote);
  // One commit for many notes: committing each on its own cost a first index of caddy (314
  // extraction notes) ~45 ms of its parse.
  const putMany = db.transaction((notes: readonly NoteWrite[]): void => {
    for (const { key, kind, value, snapshot = null } of notes) writeNote(key, kind, value, snapshot);
  });

  const checkValue = (key: string, value: unknown): void => {
    if (!(value instanceof Uint8Array)) throw storeError(ErrorCode.InvalidArgument, `${path}: note '${key}' value must be a Uint8Array`);
  };

  return {
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
        checkValue(key, value);
        if (!settings.cacheNotes.has(kind)) st.notePut.run(key, kind, value, snapshot, Date.now());
        else {
          try {
            waitingAtMost(db, settings.cacheWriteTimeoutMs, settings.busyTimeoutMs, () => putCacheNote.immediate(key, kind, value, snapshot));
          } catch (error) {
            throw translateError(error, { path, busyTimeoutMs: settings.cacheWriteTimeoutMs }, `putNote (of the cache kind '${kind}')`);
          }
        }
      }),

    putNotes: (notes) =>
      run('putNotes', () => {
        writable('put notes');
        for (const note of notes) checkValue(note.key, note.value);
        if (notes.length > 0) putMany.immediate(notes);
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
  };
}

/** Feedback on symbols and the keyword vocabulary learned from it. */
export function feedbackAndVocabulary({ db, path, run, writable }: StoreCore): Pick<
  SqliteGraphStore,
  'recordFeedback' | 'feedbackFor' | 'recordVocab' | 'vocabFor'
> {
  const st = {
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
  };
  return {
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
        if (symbols.length === 0) return new Map<NodeId, FeedbackTally>();
        const groups = st.feedbackTally.all({ symbols: JSON.stringify(symbols), cluster: options?.keywordCluster ?? null }) as FeedbackGroup[];
        return tallyFeedback(groups, options?.currentRoots);
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
  };
}
