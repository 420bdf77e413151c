import type { TextColumn } from '@knowing/graph';
import type { Phrase } from './query.js';
import { COLUMN_CODE } from './text.js';

/*
 * BM25 as SQLite's FTS5 computes `bm25()`: per phrase of the query, idf = ln((N − n + 0.5) /
 * (n + 0.5)) (at least 1e-6), n the documents matching the phrase alone; its frequency in a
 * document is the sum over its instances of the weight of the column each is in; the
 * document's length is its token count over all columns, normalised by the average. ts_rank
 * has no idf, so PostgreSQL finds the documents (tsquery over a GIN index) and the store
 * scores them from the positions the tsvector keeps.
 */

const K1 = 1.2;
const B = 0.75;

/** The lexemes whose positions scoring needs: exact ones and prefixes. */
export function lexemesOf(phrases: readonly Phrase[]): { readonly exact: string[]; readonly prefixes: string[] } {
  const exact = new Set<string>();
  const prefixes = new Set<string>();
  for (const phrase of phrases) {
    for (const column of phrase.columns) {
      phrase.tokens.forEach((token, i) => {
        const lexeme = `${COLUMN_CODE[column]}:${token}`;
        if (phrase.prefix && i === phrase.tokens.length - 1) prefixes.add(lexeme);
        else exact.add(lexeme);
      });
    }
  }
  return { exact: [...exact], prefixes: [...prefixes] };
}

/** Positions by lexeme, parsed from `lexeme=1,2;lexeme=3` as the search query returns them. */
export function parseHits(text: string | null): Map<string, readonly number[]> {
  const out = new Map<string, readonly number[]>();
  if (!text) return out;
  for (const entry of text.split(';')) {
    const eq = entry.lastIndexOf('=');
    out.set(entry.slice(0, eq), entry.slice(eq + 1).split(',').map(Number));
  }
  return out;
}

/** Instances of a phrase in one column: start positions from which every token follows in turn. */
function instances(phrase: Phrase, column: TextColumn, hits: ReadonlyMap<string, readonly number[]>): number {
  const code = COLUMN_CODE[column];
  const last = phrase.tokens.length - 1;
  const sets: Set<number>[] = phrase.tokens.map((token, i) => {
    const lexeme = `${code}:${token}`;
    if (!(phrase.prefix && i === last)) return new Set(hits.get(lexeme) ?? []);
    const union = new Set<number>();
    for (const [key, positions] of hits) if (key.startsWith(lexeme)) for (const p of positions) union.add(p);
    return union;
  });
  if (sets[0]!.size === 0) return 0;
  let count = 0;
  for (const start of sets[0]!) {
    let ok = true;
    for (let i = 1; i < sets.length && ok; i++) ok = sets[i]!.has(start + i);
    if (ok) count++;
  }
  return count;
}

/** The statistics BM25 needs beyond one document. */
export interface CorpusStats {
  /** Documents in the index. */
  readonly documents: number;
  /** Tokens over all documents. */
  readonly tokens: number;
  /** Documents matching each phrase alone. */
  readonly phraseDocuments: readonly number[];
}

/** BM25 of one document (higher is better). */
export function bm25(
  phrases: readonly Phrase[],
  hits: ReadonlyMap<string, readonly number[]>,
  length: number,
  stats: CorpusStats,
  weights: Readonly<Record<TextColumn, number>>,
): number {
  const n = stats.documents;
  const average = n > 0 ? stats.tokens / n : 1;
  const norm = K1 * (1 - B + (B * length) / (average || 1));
  let score = 0;
  phrases.forEach((phrase, i) => {
    let frequency = 0;
    for (const column of phrase.columns) {
      const w = weights[column];
      if (w !== 0) frequency += w * instances(phrase, column, hits);
    }
    if (frequency === 0) return;
    const matching = stats.phraseDocuments[i] ?? 0;
    const idf = Math.max(1e-6, Math.log((n - matching + 0.5) / (matching + 0.5)));
    score += (idf * (frequency * (K1 + 1))) / (frequency + norm);
  });
  return score;
}
