/** The in-memory store's two searches, ordered as the SQLite store orders them. */
import { compareSearchHits, lexicalFieldRecord, lexicalIds, TEXT_COLUMNS } from './store-kit.js';
import { conceptTokens, countPhrase, indexTokens, parseQuery, phrasesOf } from './memory-text.js';
import type { QueryNode } from './memory-text.js';
import { compareText, invalid, limitOf, weightsOf, type MemoryState, type StoredNode } from './memory-state.js';
import { LEXICAL_FIELDS } from './types.js';
import type { GraphNode, LexicalSearchOptions, NodeId, TextColumn, TextHit, TextSearchOptions } from './types.js';

const K1 = 1.2;
const B = 0.75;
const DEFAULT_SEARCH_LIMIT = 30;
const DEFAULT_LEXICAL_LIMIT = 50;

/** FTS5's idf, clamped the way its bm25() clamps it. */
function ftsIdf(total: number, matching: number): number {
  return Math.max(1e-6, Math.log((total - matching + 0.5) / (matching + 0.5)));
}

/** The always-positive idf of the lexical index (see `LexicalSearch`). */
function lexicalIdf(total: number, matching: number): number {
  return Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
}

function saturate(frequency: number, length: number, averageLength: number): number {
  return (frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * length) / averageLength));
}

function textOf(stored: StoredNode): Readonly<Record<TextColumn, readonly string[]>> {
  if (!stored.text) {
    const { node } = stored;
    stored.text = {
      name: indexTokens(node.name),
      concepts: conceptTokens(node.file),
      path: indexTokens(node.file),
      qualified_name: indexTokens(node.qualifiedName),
      doc: indexTokens(node.doc),
      signature: indexTokens(node.signature),
    };
  }
  return stored.text;
}

/** `search` over the FTS5 subset, scored as FTS5's bm25() scores. */
export function searchText(
  state: MemoryState,
  columnWeights: Readonly<Record<TextColumn, number>>,
  query: string,
  o: TextSearchOptions = {},
): TextHit[] {
  const { nodes } = state;
  if (typeof query !== 'string') throw invalid('search query must be a string');
  const weights = weightsOf(columnWeights, TEXT_COLUMNS, o.columnWeights, 'search columnWeights');
  const limit = limitOf(o.limit, DEFAULT_SEARCH_LIMIT, 'search');
  const tree = parseQuery(query);
  if (tree === null) return [];
  const phrases = phrasesOf(tree);
  // Externals are not in the full-text index.
  const docs = [...nodes.values()].filter((s) => !s.node.external);
  const counts = docs.map((stored) => {
    const text = textOf(stored);
    let length = 0;
    for (const column of TEXT_COLUMNS) length += text[column].length;
    const perPhrase = phrases.map((p) => {
      const perColumn = {} as Record<TextColumn, number>;
      for (const column of TEXT_COLUMNS) {
        perColumn[column] = p.column === null || p.column === column ? countPhrase(text[column], p.terms, p.prefix) : 0;
      }
      return perColumn;
    });
    return { stored, length, perPhrase };
  });
  const total = docs.length;
  const average = counts.reduce((sum, d) => sum + d.length, 0) / Math.max(1, total);
  const idf = phrases.map((_, i) => {
    const matching = counts.filter((d) => TEXT_COLUMNS.some((c) => d.perPhrase[i]![c] > 0)).length;
    return ftsIdf(total, matching);
  });
  const matches = (node: QueryNode, d: (typeof counts)[number]): boolean => {
    if (node.op === 'phrase') {
      const i = phrases.indexOf(node);
      return TEXT_COLUMNS.some((c) => d.perPhrase[i]![c] > 0);
    }
    if (node.op === 'and') return matches(node.left, d) && matches(node.right, d);
    if (node.op === 'or') return matches(node.left, d) || matches(node.right, d);
    return matches(node.left, d) && !matches(node.right, d);
  };
  const kinds = o.kinds === undefined ? undefined : new Set<string>(o.kinds);
  const hits: { node: GraphNode; score: number }[] = [];
  for (const d of counts) {
    if (kinds !== undefined && !kinds.has(d.stored.node.kind)) continue;
    if (!matches(tree, d)) continue;
    let score = 0;
    phrases.forEach((_, i) => {
      let frequency = 0;
      for (const column of TEXT_COLUMNS) frequency += weights[column] * d.perPhrase[i]![column];
      score += idf[i]! * saturate(frequency, d.length, average);
    });
    hits.push({ node: d.stored.node, score: Math.round(score * 1e9) / 1e9 });
  }
  hits.sort(compareSearchHits);
  return hits.slice(0, limit);
}

/** `lexicalSearch`: Okapi BM25 over the lexical documents, any term matching. */
export function searchLexical(state: MemoryState, terms: readonly string[], o: LexicalSearchOptions = {}): TextHit[] {
  const { nodes, lexical } = state;
  if (!Array.isArray(terms)) throw invalid('lexicalSearch: terms must be an array of strings');
  const distinct = new Set<string>();
  for (const term of terms) {
    if (typeof term !== 'string') throw invalid(`lexicalSearch: terms must be strings, got ${typeof term}`);
    if (term.trim() !== '') distinct.add(term.trim());
  }
  const fieldWeights = weightsOf({ name: 1, path: 1, signature: 1, doc: 1, body: 1, members: 1 }, LEXICAL_FIELDS, o.fieldWeights, 'lexicalSearch fieldWeights');
  const limit = limitOf(o.limit, DEFAULT_LEXICAL_LIMIT, 'lexicalSearch');
  const only = lexicalIds(o.ids, 'memory store: lexicalSearch', 'graph');
  if (distinct.size === 0 || lexical.size === 0) return [];
  const total = lexical.size;
  let lengths = 0;
  for (const entry of lexical.values()) lengths += entry.length;
  const average = lengths / total;
  const scores = new Map<NodeId, number>();
  const fields = new Map<NodeId, number[]>();
  for (const term of distinct) {
    const frequencies: [NodeId, number, number[]][] = [];
    for (const [id, entry] of lexical) {
      let frequency = 0;
      let present = false;
      const counts = LEXICAL_FIELDS.map((field) => {
        let count = 0;
        for (const t of entry.terms[field]) if (t === term) count++;
        if (count > 0) present = true;
        frequency += fieldWeights[field] * count;
        return count;
      });
      if (present) frequencies.push([id, frequency, counts]);
    }
    if (frequencies.length === 0) continue;
    const idf = lexicalIdf(total, frequencies.length);
    // Every match counts in the term's rarity; only the symbols asked for are scored.
    for (const [id, frequency, counts] of frequencies) {
      if (only !== undefined && !only.has(id)) continue;
      const length = lexical.get(id)!.length;
      const value = idf * saturate(frequency, length, average);
      if (value > 0) scores.set(id, (scores.get(id) ?? 0) + value);
      if (o.perField !== true) continue;
      let perId = fields.get(id);
      if (!perId) fields.set(id, (perId = LEXICAL_FIELDS.map(() => 0)));
      counts.forEach((count, f) => (perId![f]! += idf * saturate(count, length, average)));
    }
  }
  const kinds = o.kinds === undefined ? undefined : new Set<string>(o.kinds);
  // Rounded, so documents with the same terms tie exactly whatever the summation order.
  const round = (value: number): number => Math.round(value * 1e9) / 1e9;
  const hits: TextHit[] = [];
  for (const [id, raw] of scores) {
    const node = nodes.get(id)!.node;
    if (node.external || (node.isTest && o.includeTests !== true) || (kinds !== undefined && !kinds.has(node.kind))) continue;
    const perId = fields.get(id);
    hits.push(perId ? { node, score: round(raw), fields: lexicalFieldRecord(perId.map(round)) } : { node, score: round(raw) });
  }
  hits.sort((a, b) => b.score - a.score || compareText(a.node.qualifiedName, b.node.qualifiedName) || compareText(a.node.id, b.node.id));
  return hits.slice(0, limit);
}
