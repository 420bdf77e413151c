import { ErrorCode, type LexicalField, type LexicalSearchOptions, type TextHit, type TextSearchOptions } from '@knowing/graph';
import { LEXICAL_FIELDS, asciiLower, checkLimit, compareSearchHits, lexicalFieldRecord, lexicalFieldWeights, lexicalIds, mergeColumnWeights, nodeFromRow, TEXT_COLUMNS, type NodeRow } from '@knowing/graph/store-kit';
import { sql } from 'kysely';
import type { StoreCore } from './core.js';
import { SOURCE, storeError } from './errors.js';
import { listParam } from './options.js';
import { QuerySyntaxError, parseQuery } from './query.js';
import { bm25, lexemesOf, parseHits } from './rank.js';
import { NODE_COLUMNS } from './rows.js';
import type { PostgresGraphStore } from './types.js';

const DEFAULT_SEARCH_LIMIT = 30;
const DEFAULT_LEXICAL_LIMIT = 50;

/** `search` (the FTS5 query subset over `search_docs`, see query.ts and rank.ts) and `lexicalSearch`. */
export function textSearches(core: StoreCore): Pick<PostgresGraphStore, 'search' | 'lexicalSearch'> {
  return {
    search: (query: string, options?: TextSearchOptions) => core.run('search', () => searchText(core, query, options)),
    lexicalSearch: (terms: readonly string[], options?: LexicalSearchOptions) => core.run('lexicalSearch', () => searchLexical(core, terms, options)),
  };
}

/** Matches are counted and read over one snapshot, then scored here by BM25 over their positions. */
async function searchText({ t, settings, target, snapshotRead }: StoreCore, query: string, options: TextSearchOptions | undefined): Promise<TextHit[]> {
  if (typeof query !== 'string') throw storeError(ErrorCode.InvalidArgument, `${target.where}: search query must be a string`);
  const weights = mergeColumnWeights(settings.columnWeights, options?.columnWeights, `${target.where}: search columnWeights`, SOURCE);
  const limit = checkLimit(options?.limit, DEFAULT_SEARCH_LIMIT, 'search', SOURCE);
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
    // As the SQLite store ranks: scores rounded to 1e-9, best first, ties in source order (file,
    // line), then by qualified name and id — never by the order rows were stored in, which
    // differs between stores.
    const scored = matches.map((m) => ({ seq: m.seq, score: Math.round(bm25(parsed.phrases, parseHits(m.hits), m.len, corpus, weights) * 1e9) / 1e9 }));
    scored.sort((a, b) => b.score - a.score);
    // Only the top rows and those tied with the last of them can make the limit.
    const cut = scored.length > limit ? scored[limit - 1]!.score : -Infinity;
    const candidates = scored.filter((s) => s.score >= cut);
    const found = await read<NodeRow & { seq: string }>(sql`
      SELECT n.seq::text AS seq, ${NODE_COLUMNS} FROM ${t.nodes} n WHERE n.seq = ANY(${candidates.map((s) => s.seq)}::bigint[])`);
    const bySeq = new Map(found.map((row) => [row.seq, nodeFromRow(row)]));
    const hits = candidates.flatMap(({ seq, score }) => {
      const node = bySeq.get(seq);
      return node === undefined ? [] : [{ node, score }];
    });
    hits.sort(compareSearchHits);
    return hits.slice(0, limit);
  });
}

/** Okapi BM25 over the lexical terms, scored in one statement. */
async function searchLexical({ t, target, rows }: StoreCore, terms: readonly string[], options: LexicalSearchOptions | undefined): Promise<TextHit[]> {
  if (!Array.isArray(terms)) throw storeError(ErrorCode.InvalidArgument, `${target.where}: lexicalSearch: terms must be an array of strings`);
  const distinct = new Set<string>();
  for (const term of terms) {
    if (typeof term !== 'string') throw storeError(ErrorCode.InvalidArgument, `${target.where}: lexicalSearch: terms must be strings, got ${typeof term}`);
    const folded = asciiLower(term.trim());
    if (folded !== '') distinct.add(folded);
  }
  const w = lexicalFieldWeights(options?.fieldWeights, `${target.where}: lexicalSearch fieldWeights`, SOURCE);
  const limit = checkLimit(options?.limit, DEFAULT_LEXICAL_LIMIT, 'lexicalSearch', SOURCE);
  if (distinct.size === 0 || limit === 0) return [];
  const kinds = listParam(options?.kinds);
  const only = lexicalIds(options?.ids, `${target.where}: lexicalSearch`, SOURCE);
  if (only?.size === 0) return [];
  const among = only === undefined ? null : [...only];
  // Okapi BM25 (k1 1.2, b 0.75) with idf ln(1 + (N − n + 0.5) / (n + 0.5)); each field's
  // occurrences count its weight; the length is the whole document's, over the average.
  const perField = options?.perField === true;
  // Each field alone (`perField`): its own occurrences, saturated over the same length.
  const fieldSums = perField
    ? sql`, ${sql.join(LEXICAL_FIELDS.map((f) => sql`sum(b.idf * ${sql.ref(`l.tf_${f}`)} * 2.2 / (${sql.ref(`l.tf_${f}`)} + b.norm)) AS ${sql.id(`f_${f}`)}`))}`
    : sql``;
  const fieldColumns = perField ? sql`, ${sql.join(LEXICAL_FIELDS.map((f) => sql`round(${sql.ref(`s.f_${f}`)}::numeric, 9)::float8 AS ${sql.id(`f_${f}`)}`))}` : sql``;
  const found = await rows<NodeRow & { score: number } & Partial<Record<`f_${LexicalField}`, number>>>(sql`
    WITH q AS (SELECT DISTINCT unnest(${[...distinct]}::text[]) AS term),
    st AS (
      SELECT lexical_docs::float8 AS n,
        CASE WHEN lexical_docs > 0 THEN lexical_tokens::float8 / lexical_docs ELSE 0 END AS avgdl
      FROM ${t.stats}),
    df AS (SELECT l.term, count(*)::float8 AS df FROM ${t.lexical_terms} l JOIN q ON q.term = l.term GROUP BY l.term),
    scored AS (
      SELECT l.seq,
        sum(b.idf * f.tf * 2.2 / (f.tf + b.norm)) AS score${fieldSums}
      FROM ${t.lexical_terms} l JOIN df ON df.term = l.term JOIN ${t.lexical_docs} d ON d.seq = l.seq CROSS JOIN st
      CROSS JOIN LATERAL (
        SELECT (l.tf_name * ${w[0]}::float8 + l.tf_path * ${w[1]}::float8 + l.tf_signature * ${w[2]}::float8
          + l.tf_doc * ${w[3]}::float8 + l.tf_body * ${w[4]}::float8 + l.tf_members * ${w[5]}::float8) AS tf) f
      CROSS JOIN LATERAL (
        SELECT ln(1 + (st.n - df.df + 0.5) / (df.df + 0.5)) AS idf,
          1.2 * (0.25 + 0.75 * CASE WHEN st.avgdl > 0 THEN d.len / st.avgdl ELSE 0 END) AS norm) b
      -- Per field, a term the weights leave out still counts in its own field.
      WHERE (f.tf > 0 OR ${perField}) AND (${among}::text[] IS NULL OR l.seq IN (SELECT seq FROM ${t.nodes} WHERE id = ANY(${among}::text[])))
      GROUP BY l.seq)
    SELECT ${NODE_COLUMNS}, round(s.score::numeric, 9)::float8 AS score${fieldColumns}
    FROM scored s JOIN ${t.nodes} n ON n.seq = s.seq
    WHERE s.score > 0 AND NOT n.external AND (${options?.includeTests === true} OR NOT n.is_test)
      AND (${kinds}::text[] IS NULL OR n.kind = ANY(${kinds}::text[]))
    ORDER BY round(s.score::numeric, 9) DESC, n.qualified_name, n.id
    LIMIT ${limit}::bigint`);
  return found.map((row) =>
    perField
      ? { node: nodeFromRow(row), score: row.score, fields: lexicalFieldRecord(LEXICAL_FIELDS.map((f) => row[`f_${f}`] ?? 0)) }
      : { node: nodeFromRow(row), score: row.score },
  );
}
