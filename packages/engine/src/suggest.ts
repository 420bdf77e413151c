import type { GraphNode, GraphStore, NodeId } from '@knowing/graph';

/** One indexed symbol as the suggestion search compares it: lower-cased, separators unified. */
export interface NameEntry {
  readonly id: NodeId;
  /** The terminal name, lower-cased. */
  readonly name: string;
  /** The qualified name, lower-cased, with `/`, `\`, `::` and `#` written as `.`. */
  readonly qualified: string;
  /** Where each dot segment of `qualified` starts, so a suffix of k segments is one slice. */
  readonly segmentStarts: readonly number[];
}

/** The names of one snapshot of the graph, loaded once and searched per unknown symbol. */
export interface NameIndex {
  readonly entries: readonly NameEntry[];
}

/** Most names a suggestion list offers. */
export const SUGGESTION_LIMIT = 8;

function normalizeQualified(text: string): string {
  return text
    .toLowerCase()
    .replace(/::|[/\\#]/g, '.')
    .replace(/\.{2,}/g, '.')
    .replace(/^\.|\.$/g, '');
}

export function nameEntry(node: Pick<GraphNode, 'id' | 'name' | 'qualifiedName'>): NameEntry {
  const qualified = normalizeQualified(node.qualifiedName);
  const segmentStarts = [0];
  for (let i = 0; i < qualified.length; i++) if (qualified[i] === '.') segmentStarts.push(i + 1);
  return { id: node.id, name: node.name.toLowerCase(), qualified, segmentStarts };
}

/** Every non-external symbol of the store (one pass over its nodes). */
export async function loadNameIndex(store: GraphStore): Promise<NameIndex> {
  const entries: NameEntry[] = [];
  for await (const node of store.allNodes()) {
    if (!node.external) entries.push(nameEntry(node));
  }
  return { entries };
}

/**
 * Edits allowed between a query and a name: one for short names, up to three for long ones,
 * so `run` does not suggest every three-letter name while `befor_request` finds `before_request`.
 */
export function maxEdits(length: number): number {
  return length <= 5 ? 1 : length <= 11 ? 2 : 3;
}

// Three rows of the distance table, reused across calls (grown as needed): a search over 50k
// names computes tens of thousands of distances and should not allocate for each.
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), or `limit + 1`
 * as soon as it must exceed `limit`. Only the diagonal band `|i - j| <= limit` is computed, and
 * most names are rejected after a few rows.
 */
export function boundedEditDistance(a: string, b: string, limit: number): number {
  const over = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return over;
  if (a === b) return 0;
  const width = b.length + 1;
  if (rows[0]!.length < width + 1) rows = [new Int32Array(width * 2), new Int32Array(width * 2), new Int32Array(width * 2)];
  let [before, previous, current] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j < width; j++) previous[j] = j <= limit ? j : over;
  previous[width] = over;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    current[from - 1] = from === 1 ? i : over;
    let rowMin = from === 1 ? i : over;
    const ai = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = previous[j - 1]! + (ai === bj ? 0 : 1);
      const deletion = previous[j]! + 1;
      if (deletion < d) d = deletion;
      const insertion = current[j - 1]! + 1;
      if (insertion < d) d = insertion;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && before[j - 2]! + 1 < d) d = before[j - 2]! + 1;
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    // Cells right of the band read as "too far" by the next row.
    if (to < width) current[to + 1] = over;
    if (rowMin > limit) return over;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, over);
}

interface Scored {
  readonly entry: NameEntry;
  /** Edits to reach it; names found only by containment score after every edit-distance match. */
  readonly score: number;
  /** Tie-break: how far the name's length is from the query's. */
  readonly lengthGap: number;
}

/**
 * The ids of the names closest to `query`, best first: by edit distance of the terminal name
 * (and, for a qualified query such as `Scafold.before_request`, of the qualified name's suffix
 * with as many segments), then names that contain the query's terminal name. A cheap length
 * check rejects most names before any distance is computed.
 *
 * @example
 * ```ts
 * closestNames(index, 'befor_request'); // ids of …Scaffold.before_request, …
 * ```
 */
export function closestNames(index: NameIndex, query: string, limit = SUGGESTION_LIMIT): NodeId[] {
  const normalized = normalizeQualified(query.trim());
  const segments = normalized.split('.').filter((s) => s.length > 0);
  const terminal = segments[segments.length - 1] ?? '';
  if (terminal === '' || limit <= 0) return [];
  const qualified = segments.length > 1;
  const terminalLimit = maxEdits(terminal.length);
  const fullLimit = maxEdits(normalized.length);
  // Containment only for terms long enough to mean something (`id` is in every other name).
  const containment = terminal.length >= 3;
  const scored: Scored[] = [];
  for (const entry of index.entries) {
    let score = Infinity;
    const nameDistance = boundedEditDistance(terminal, entry.name, terminalLimit);
    if (nameDistance <= terminalLimit) score = qualified ? nameDistance + 1 : nameDistance;
    if (qualified && entry.segmentStarts.length >= segments.length) {
      const suffix = entry.qualified.slice(entry.segmentStarts[entry.segmentStarts.length - segments.length]!);
      const fullDistance = boundedEditDistance(normalized, suffix, fullLimit);
      if (fullDistance <= fullLimit && fullDistance < score) score = fullDistance;
    }
    if (score === Infinity && containment && entry.name.includes(terminal)) score = Math.max(terminalLimit, fullLimit) + 1;
    if (score !== Infinity) scored.push({ entry, score, lengthGap: Math.abs(entry.name.length - terminal.length) });
  }
  scored.sort((a, b) => a.score - b.score || a.lengthGap - b.lengthGap || (a.entry.qualified < b.entry.qualified ? -1 : a.entry.qualified > b.entry.qualified ? 1 : 0));
  const ids: NodeId[] = [];
  const seen = new Set<string>();
  for (const { entry } of scored) {
    // Overloads share a qualified name; one of them is enough to point the way.
    if (seen.has(entry.qualified)) continue;
    seen.add(entry.qualified);
    ids.push(entry.id);
    if (ids.length >= limit) break;
  }
  return ids;
}

/** The symbols closest to `query`, as nodes, best first. */
export async function suggestSymbols(store: GraphStore, index: NameIndex, query: string, limit = SUGGESTION_LIMIT): Promise<GraphNode[]> {
  const ids = closestNames(index, query, limit);
  if (ids.length === 0) return [];
  const nodes = new Map((await store.getNodes(ids)).map((n) => [n.id, n]));
  return ids.map((id) => nodes.get(id)).filter((n): n is GraphNode => n !== undefined);
}
