import type Database from 'better-sqlite3';


/** One scored row of the lexical index. */
export interface LexicalScore {
  readonly seq: number;
  readonly score: number;
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
 */
export function createLexicalScorer(db: Database.Database): (terms: readonly string[], weights: readonly number[]) => LexicalScore[] {
  let prepared:
    | { rows: Database.Statement; docFrequency: Database.Statement; termRows: Database.Statement }
    | null
    | undefined;
  const prepare = () => {
    if (prepared !== undefined) return prepared;
    const exists = db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'lexical_fts'`).get();
    if (exists === undefined) return (prepared = null);
    // A vocabulary view per connection (temp schema: nothing written to the file, fine read-only).
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.lexical_vocab USING fts5vocab(main, lexical_fts, 'row')`);
    prepared = {
      rows: db.prepare('SELECT count(*) FROM lexical_fts_docsize').pluck(),
      docFrequency: db.prepare('SELECT doc FROM temp.lexical_vocab WHERE term = ?').pluck(),
      termRows: db.prepare('SELECT rowid, bm25(lexical_fts, ?, ?, ?, ?, ?, ?) AS rank FROM lexical_fts WHERE lexical_fts MATCH ?').raw(),
    };
    return prepared;
  };

  return (terms, weights) => {
    const st = prepare();
    if (st === null || terms.length === 0) return [];
    const total = Number(st.rows.get());
    if (total === 0) return [];
    const scores = new Map<number, number>();
    for (const term of terms) {
      const n = Number(st.docFrequency.get(term) ?? 0);
      if (n === 0) continue;
      const ftsIdf = Math.max(1e-6, Math.log((total - n + 0.5) / (n + 0.5)));
      const idf = Math.log(1 + (total - n + 0.5) / (n + 0.5));
      const factor = idf / ftsIdf;
      for (const [seq, rank] of st.termRows.iterate(...weights, `"${term.replaceAll('"', '""')}"`) as Iterable<[number, number]>) {
        // bm25() is negative for a match, lower is better.
        const value = -rank * factor;
        if (value > 0) scores.set(seq, (scores.get(seq) ?? 0) + value);
      }
    }
    // Rounded, so documents with the same terms tie exactly whatever the summation's last bits.
    const out: LexicalScore[] = [];
    for (const [seq, score] of scores) out.push({ seq, score: Math.round(score * 1e9) / 1e9 });
    return out.sort((a, b) => b.score - a.score || a.seq - b.seq);
  };
}

