import type Database from 'better-sqlite3';
import { readVarints } from './fts-totals.js';

/** One scored row of the lexical index. */
export interface LexicalScore {
  readonly seq: number;
  readonly score: number;
  /** Each field's score alone, in `LEXICAL_FIELDS` order, when asked for. */
  readonly fields?: readonly number[];
}

/** What a lexical scoring covers besides the terms and weights. */
export interface LexicalScorerOptions {
  /** Score only these rows (the statistics stay the whole index's). */
  readonly seqs?: ReadonlySet<number>;
  /** Score each field alone too. */
  readonly perField?: boolean;
}

/**
 * BM25F over `lexical_fts` with the idf ln(1 + (N − n + 0.5) / (n + 0.5)).
 *
 * FTS5's own bm25() uses ln((N − n + 0.5) / (n + 0.5)) and clamps it to 1e-6 once a term is in
 * half the rows, so a term common in a repository (`flask` in flask, `request` in a web
 * framework) counts for nothing while a task leans on it. bm25() of a one-term query is
 * exactly FTS5's idf times the term's saturated, field-weighted, length-normalised frequency;
 * each term is queried alone, that factor recovered and weighted by the other idf, and the
 * terms summed here. Rows are all the matches of each term: the same work FTS5 does to rank
 * an OR query.
 *
 * FTS5's own row count is read from its averages record, not counted. The writer keeps that
 * record equal to the live rows (fts-totals.ts), but an index last written by an older version
 * and opened read-only may still count every row ever written; with FTS5's count the idf
 * cancels exactly whatever the record says.
 */
export function createLexicalScorer(db: Database.Database): (terms: readonly string[], weights: readonly number[], options?: LexicalScorerOptions) => LexicalScore[] {
  let prepared:
    | {
        rows: Database.Statement;
        ftsRows: Database.Statement;
        docFrequency: Database.Statement;
        termRows: Database.Statement;
        termRowsByField: Database.Statement;
        termRowsAmong: Database.Statement;
        termRowsByFieldAmong: Database.Statement;
      }
    | null
    | undefined;
  const prepare = () => {
    if (prepared !== undefined) return prepared;
    const exists = db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'lexical_fts'`).get();
    if (exists === undefined) return (prepared = null);
    // A vocabulary view per connection (temp schema: nothing written to the file, fine read-only).
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.lexical_vocab USING fts5vocab(main, lexical_fts, 'row')`);
    const fieldAlone = [0, 1, 2, 3, 4, 5].map((f) => `bm25(lexical_fts, ${[0, 1, 2, 3, 4, 5].map((g) => (g === f ? 1 : 0)).join(', ')})`);
    const scored = `SELECT rowid, bm25(lexical_fts, ?, ?, ?, ?, ?, ?) AS rank FROM lexical_fts WHERE lexical_fts MATCH ?`;
    const scoredByField = `SELECT rowid, bm25(lexical_fts, ?, ?, ?, ?, ?, ?) AS rank, ${fieldAlone.join(', ')} FROM lexical_fts WHERE lexical_fts MATCH ?`;
    // A restriction to some rows filters the term's matches before bm25() runs, which costs far
    // more per row than the scan: the unary `+` keeps the rowid test out of FTS5's planning, where
    // an IN list becomes one new cursor per id, each computing every bm25()'s statistics again.
    const among = ' AND +rowid IN (SELECT value FROM json_each(?))';
    prepared = {
      rows: db.prepare('SELECT count(*) FROM lexical_fts_docsize').pluck(),
      ftsRows: db.prepare('SELECT block FROM lexical_fts_data WHERE id = 1').pluck(),
      docFrequency: db.prepare('SELECT doc FROM temp.lexical_vocab WHERE term = ?').pluck(),
      termRows: db.prepare(scored).raw(),
      termRowsByField: db.prepare(scoredByField).raw(),
      termRowsAmong: db.prepare(scored + among).raw(),
      termRowsByFieldAmong: db.prepare(scoredByField + among).raw(),
    };
    return prepared;
  };

  return (terms, weights, options = {}) => {
    const { seqs, perField = false } = options;
    const st = prepare();
    if (st === null || terms.length === 0 || seqs?.size === 0) return [];
    const total = Number(st.rows.get());
    if (total === 0) return [];
    const averages = st.ftsRows.get() as Uint8Array | undefined;
    const ftsTotal = (averages && readVarints(averages)[0]) || total;
    const scores = new Map<number, number>();
    const fields = new Map<number, number[]>();
    const amongSeqs = seqs === undefined ? undefined : JSON.stringify([...seqs]);
    for (const term of terms) {
      const n = Number(st.docFrequency.get(term) ?? 0);
      if (n === 0) continue;
      const ftsIdf = Math.max(1e-6, Math.log((ftsTotal - n + 0.5) / (n + 0.5)));
      const idf = Math.log(1 + (total - n + 0.5) / (n + 0.5));
      const factor = idf / ftsIdf;
      const phrase = `"${term.replaceAll('"', '""')}"`;
      // all() rather than iterate(): a common term matches thousands of rows, and stepping the
      // cursor from JavaScript row by row costs more than taking them in one call.
      const rows = (
        amongSeqs === undefined
          ? (perField ? st.termRowsByField : st.termRows).all(...weights, phrase)
          : (perField ? st.termRowsByFieldAmong : st.termRowsAmong).all(...weights, phrase, amongSeqs)
      ) as number[][];
      for (const row of rows) {
        const seq = row[0]!;
        // bm25() is negative for a match, lower is better.
        const value = -row[1]! * factor;
        if (value > 0) scores.set(seq, (scores.get(seq) ?? 0) + value);
        if (!perField) continue;
        let perSeq = fields.get(seq);
        if (!perSeq) fields.set(seq, (perSeq = [0, 0, 0, 0, 0, 0]));
        for (let f = 0; f < 6; f++) perSeq[f]! += Math.max(0, -row[f + 2]! * factor);
      }
    }
    // Rounded, so documents with the same terms tie exactly whatever the summation's last bits.
    const round = (value: number): number => Math.round(value * 1e9) / 1e9;
    const out: LexicalScore[] = [];
    for (const [seq, score] of scores) {
      const perSeq = fields.get(seq);
      out.push(perSeq ? { seq, score: round(score), fields: perSeq.map(round) } : { seq, score: round(score) });
    }
    return out.sort((a, b) => b.score - a.score || a.seq - b.seq);
  };
}
