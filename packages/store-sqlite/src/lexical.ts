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
  /**
   * Only the best `count` rows that `admits` lets through are wanted (without `seqs` or
   * `perField`): every row that can be among them is scored exactly as without this, others may
   * be left out. See {@link bestRows}.
   */
  readonly top?: LexicalTop;
}

/** The rows a caller keeps of a lexical scoring: its best `count` among those `admits` lets through. */
export interface LexicalTop {
  readonly count: number;
  /** Which of the given rows the caller would keep (not external, not a test, of a wanted kind…). */
  readonly admits: (seqs: readonly number[]) => ReadonlySet<number>;
}

/** FTS5's bm25() saturates a term's weighted frequency: one term adds less than (k1 + 1) × its idf, k1 = 1.2. */
const SATURATION = 2.2;
/** Rows scored at a time while looking for the score a row must beat to be kept. */
const ADMIT_PAGE = 200;

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
    const weighed: WeighedTerm[] = [];
    for (const term of terms) {
      const n = Number(st.docFrequency.get(term) ?? 0);
      if (n === 0) continue;
      const ftsIdf = Math.max(1e-6, Math.log((ftsTotal - n + 0.5) / (n + 0.5)));
      const idf = Math.log(1 + (total - n + 0.5) / (n + 0.5));
      weighed.push({ phrase: `"${term.replaceAll('"', '""')}"`, factor: idf / ftsIdf, bound: idf * SATURATION });
    }
    if (options.top && amongSeqs === undefined && !perField) {
      const best = bestRows(weighed, options.top, (term) => st.termRows.all(...weights, term.phrase) as number[][], (term, among) => st.termRowsAmong.all(...weights, term.phrase, among) as number[][]);
      return ordered(best);
    }
    for (const { phrase, factor } of weighed) {
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
    return ordered(scores, fields);
  };
}

/** A query term as the scorer weighs it. */
export interface WeighedTerm {
  /** The term as an FTS5 phrase. */
  readonly phrase: string;
  /** Its idf over FTS5's, to turn bm25() into this scorer's BM25. */
  readonly factor: number;
  /** More than the most it can add to a row's score. */
  readonly bound: number;
}

// Rounded, so documents with the same terms tie exactly whatever the summation's last bits.
const round = (value: number): number => Math.round(value * 1e9) / 1e9;

/** Scores (and per-field scores) as the scorer returns them: rounded, best first, then by row. */
function ordered(scores: ReadonlyMap<number, number>, fields: ReadonlyMap<number, readonly number[]> = new Map()): LexicalScore[] {
  const out: LexicalScore[] = [];
  for (const [seq, score] of scores) {
    const perSeq = fields.get(seq);
    out.push(perSeq ? { seq, score: round(score), fields: perSeq.map(round) } : { seq, score: round(score) });
  }
  return out.sort((a, b) => b.score - a.score || a.seq - b.seq);
}

/**
 * The scores of every row that can be among the best `top.count` admitted ones (max-score
 * pruning). Terms are read from the one that can add most to the one that can add least; once
 * the terms still unread could not together lift a row that none of the read ones matched to
 * the score of the `count`-th best admitted row so far, they are read only for the rows already
 * found — a common word ("error", "file") matches thousands of rows, and bm25() is the costly
 * part of reading them. Every row kept has every term's share, summed in the query's order,
 * so its score is the one a full scoring gives.
 */
export function bestRows(
  terms: readonly WeighedTerm[],
  top: LexicalTop,
  allRows: (term: WeighedTerm) => number[][],
  rowsAmong: (term: WeighedTerm, among: string) => number[][],
): Map<number, number> {
  const byBound = terms.map((_, i) => i).sort((a, b) => terms[b]!.bound - terms[a]!.bound || a - b);
  // Each found row's share of each term, one row after another in one array (a common word
  // finds thousands of rows: an array apiece was most of this function's garbage).
  const width = terms.length;
  const found = new Map<number, number>();
  const seqs: number[] = [];
  let shares = new Float64Array(256 * width);
  const add = (rows: readonly number[][], slot: number, factor: number): void => {
    for (const row of rows) {
      // bm25() is negative for a match, lower is better.
      const value = -row[1]! * factor;
      if (!(value > 0)) continue;
      const seq = row[0]!;
      let at = found.get(seq);
      if (at === undefined) {
        at = seqs.length;
        found.set(seq, at);
        seqs.push(seq);
        if ((at + 1) * width > shares.length) {
          const grown = new Float64Array(shares.length * 2);
          grown.set(shares);
          shares = grown;
        }
      }
      shares[at * width + slot] = value;
    }
  };
  // A row's score from its terms' shares, in the query's order (a term it lacks adds 0).
  const scoreAt = (at: number): number => {
    let score = 0;
    for (let t = at * width, end = t + width; t < end; t++) score += shares[t]!;
    return score;
  };
  // A margin for the sums' last bits: a row left out must fall short by more than rounding.
  const short = (most: number, needed: number): boolean => most * (1 + 1e-9) + 1e-9 < needed;
  const admitted = new Map<number, boolean>();
  const admit = (candidates: readonly number[]): void => {
    const unknown = candidates.map((at) => seqs[at]!).filter((seq) => !admitted.has(seq));
    if (unknown.length === 0) return;
    const yes = top.admits(unknown);
    for (const seq of unknown) admitted.set(seq, yes.has(seq));
  };
  // A lower bound of the score of the count-th best admitted row: the scores so far only grow.
  // `unread` first: while it is above the count-th best score of any row, the rows need not be
  // checked against the caller's filters (the score to beat can only be lower). Only the best
  // rows are put in order, the first ADMIT_PAGE of them, or all when the caller turns down more.
  const toBeat = (unread: number): number => {
    if (top.count <= 0) return Number.POSITIVE_INFINITY;
    const rows = seqs.length;
    if (rows < top.count) return 0;
    const scores = new Float64Array(rows);
    for (let at = 0; at < rows; at++) scores[at] = scoreAt(at);
    if (!short(unread, largest(scores, top.count))) return 0;
    for (let wanted = Math.max(ADMIT_PAGE, top.count); ; wanted *= 4) {
      const best = bestFirst(scores, Math.min(wanted, rows));
      let kept = 0;
      for (let from = 0; from < best.length; from += ADMIT_PAGE) {
        const page = best.slice(from, from + ADMIT_PAGE);
        admit(page);
        for (const at of page) if (admitted.get(seqs[at]!) && ++kept === top.count) return scores[at]!;
      }
      if (best.length === rows) return 0;
    }
  };
  let unread = terms.reduce((sum, term) => sum + term.bound, 0);
  let next = 0;
  let needed = 0;
  while (next < byBound.length) {
    const slot = byBound[next++]!;
    unread -= terms[slot]!.bound;
    add(allRows(terms[slot]!), slot, terms[slot]!.factor);
    if (next < byBound.length && short(unread, (needed = toBeat(unread)))) break;
  }
  // Rows the unread terms could still lift to the score to beat are the only ones worth reading them for.
  const kept = next < byBound.length ? seqs.map((_, at) => at).filter((at) => !short(scoreAt(at) + unread, needed)) : seqs.map((_, at) => at);
  if (next < byBound.length) {
    // Only rows of `among` come back, so no row is added below: `found` keeps its slots.
    const among = JSON.stringify(kept.map((at) => seqs[at]!));
    for (; next < byBound.length; next++) add(rowsAmong(terms[byBound[next]!]!, among), byBound[next]!, terms[byBound[next]!]!.factor);
  }
  return new Map(kept.map((at) => [seqs[at]!, scoreAt(at)]));
}

/** The `k`-th largest of `values` (k ≥ 1, at most their number), by a heap of the k largest. */
function largest(values: Float64Array, k: number): number {
  const heap = new Float64Array(k);
  let size = 0;
  for (const value of values) {
    if (size < k) {
      // Sift up into the min-heap.
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent]! <= value) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = value;
    } else if (value > heap[0]!) {
      // Replace the smallest and sift down.
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= k) break;
        const right = left + 1;
        const child = right < k && heap[right]! < heap[left]! ? right : left;
        if (heap[child]! >= value) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = value;
    }
  }
  return heap[0]!;
}

/** Indices of the `count` highest scores, highest first (ties: the lower index first). */
function bestFirst(scores: Float64Array, count: number): number[] {
  const threshold = largest(scores, count);
  const above: number[] = [];
  const at: number[] = [];
  for (let i = 0; i < scores.length; i++) {
    if (scores[i]! > threshold) above.push(i);
    else if (scores[i] === threshold) at.push(i);
  }
  above.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return above.concat(at.slice(0, count - above.length));
}
