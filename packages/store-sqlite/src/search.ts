import {
  ErrorCode,
  type LexicalField,
  type LexicalSearchOptions,
  type TextHit,
  type TextSearchOptions,
} from '@knowing/graph';
import { checkLimit, lexicalFieldRecord, lexicalFieldWeights, lexicalIds, mergeColumnWeights, nodeFromRow, TEXT_COLUMNS } from '@knowing/graph/store-kit';
import type { StoreCore } from './core.js';
import { isBusy, SOURCE, storeError } from './errors.js';
import { createLexicalScorer } from './lexical.js';
import { jsonList } from './options.js';
import { NODE_COLUMNS, type NodeRow } from './rows.js';
import type { SqliteGraphStore } from './types.js';

const DEFAULT_SEARCH_LIMIT = 30;
const DEFAULT_LEXICAL_LIMIT = 50;

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

/** `search` (FTS5 queries over `nodes_fts`, ranked by bm25()) and `lexicalSearch` (see lexical.ts). */
export function textSearches({ db, path, settings, run }: StoreCore): Pick<SqliteGraphStore, 'search' | 'lexicalSearch'> {
  const lexicalScores = createLexicalScorer(db);
  const st = {
    // Rank inside the FTS table and join only the rows that can make the limit — the top ones
    // and any tied with the last of them: joining every match to nodes first costs a row fetch
    // per match, thousands for a common term. Scores are rounded to 1e-9 and ties go in source
    // order (file, line), then by qualified name and id, so the last bits of a float sum and the
    // order rows were stored in decide nothing: another store computing the same BM25 returns
    // the same hits.
    search: db.prepare(
      `WITH ranked AS MATERIALIZED (
         SELECT rowid, round(bm25(nodes_fts, @w0, @w1, @w2, @w3, @w4, @w5), 9) AS rank
         FROM nodes_fts WHERE nodes_fts MATCH @query
       ),
       cut AS (SELECT rank FROM ranked ORDER BY rank LIMIT 1 OFFSET @limit - 1)
       SELECT ${NODE_COLUMNS}, r.rank FROM ranked r JOIN nodes n ON n.seq = r.rowid
       WHERE r.rank <= coalesce((SELECT rank FROM cut), 1e308)
       ORDER BY r.rank, n.file, n.start_line, n.qualified_name, n.id LIMIT @limit`,
    ),
    seqsByIds: db.prepare('SELECT seq FROM nodes WHERE id IN (SELECT value FROM json_each(?))').pluck(),
    nodesBySeqs: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.seq IN (SELECT value FROM json_each(?))`),
    // With a kind filter the filter must apply before the limit, so every match is joined.
    searchKinds: db.prepare(
      `SELECT ${NODE_COLUMNS}, round(bm25(nodes_fts, @w0, @w1, @w2, @w3, @w4, @w5), 9) AS rank
       FROM nodes_fts JOIN nodes n ON n.seq = nodes_fts.rowid
       WHERE nodes_fts MATCH @query AND n.kind IN (SELECT value FROM json_each(@kinds))
       ORDER BY rank, n.file, n.start_line, n.qualified_name, n.id LIMIT @limit`,
    ),
  };
  return {
    search: (query: string, options?: TextSearchOptions) =>
      run('search', (): TextHit[] => {
        if (typeof query !== 'string') throw storeError(ErrorCode.InvalidArgument, `${path}: search query must be a string`);
        if (query.trim() === '') return [];
        const weights = mergeColumnWeights(settings.columnWeights, options?.columnWeights, `${path}: search columnWeights`, SOURCE);
        const kinds = jsonList(options?.kinds);
        const params = {
          query,
          ...(kinds === null ? {} : { kinds }),
          limit: checkLimit(options?.limit, DEFAULT_SEARCH_LIMIT, 'search', SOURCE),
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
        return rows.map((row) => ({ node: nodeFromRow(row), score: -row.rank }));
      }),

    lexicalSearch: (terms: readonly string[], options?: LexicalSearchOptions) =>
      run('lexicalSearch', (): TextHit[] => {
        const distinct = lexicalTermsOf(terms, `${path}: lexicalSearch`);
        const weights = lexicalFieldWeights(options?.fieldWeights, `${path}: lexicalSearch fieldWeights`, SOURCE);
        const limit = checkLimit(options?.limit, DEFAULT_LEXICAL_LIMIT, 'lexicalSearch', SOURCE);
        const kinds = options?.kinds === undefined ? undefined : new Set<string>(options.kinds);
        const only = lexicalIds(options?.ids, `${path}: lexicalSearch`, SOURCE);
        const seqs = only === undefined ? undefined : new Set(st.seqsByIds.all(JSON.stringify([...only])) as number[]);
        const keeps = (row: NodeRow | undefined): row is NodeRow =>
          row !== undefined && row.external !== 1 && (row.is_test !== 1 || options?.includeTests === true) && (kinds === undefined || kinds.has(row.kind));
        // Each row is read once: those the pruning's filter reads are the best ones, which the
        // pages below take again.
        const read = new Map<number, NodeRow | undefined>();
        const readRows = (some: readonly number[]): void => {
          const missing = some.filter((seq) => !read.has(seq));
          if (missing.length === 0) return;
          for (const seq of missing) read.set(seq, undefined);
          for (const row of st.nodesBySeqs.all(JSON.stringify(missing)) as NodeRow[]) read.set(row.seq, row);
        };
        const admits = (some: readonly number[]): Set<number> => {
          readRows(some);
          return new Set(some.filter((seq) => keeps(read.get(seq))));
        };
        const scored = lexicalScores(distinct, weights, { ...(seqs ? { seqs } : {}), perField: options?.perField === true, top: { count: limit, admits } });
        // Filters apply before the limit: read the best rows a page at a time until it is met,
        // and past it while scores tie with the last one kept, so that ties are broken by name
        // (row numbers depend on the index's history: the same tree must give the same answer).
        const hits: TextHit[] = [];
        let full = false;
        for (let at = 0; at < scored.length && !full; at += LEXICAL_PAGE) {
          const page = scored.slice(at, at + LEXICAL_PAGE);
          readRows(page.map((p) => p.seq));
          for (const { seq, score, fields } of page) {
            if (hits.length >= limit && score < hits[limit - 1]!.score) {
              full = true;
              break;
            }
            const row = read.get(seq);
            if (!keeps(row)) continue;
            hits.push(fields ? { node: nodeFromRow(row), score, fields: lexicalFieldRecord(fields) } : { node: nodeFromRow(row), score });
          }
        }
        hits.sort((a, b) => b.score - a.score || (a.node.qualifiedName < b.node.qualifiedName ? -1 : a.node.qualifiedName > b.node.qualifiedName ? 1 : a.node.id < b.node.id ? -1 : 1));
        return hits.slice(0, limit);
      }),
  };
}
