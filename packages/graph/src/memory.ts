/**
 * An in-memory {@link GraphStore}: the whole contract in plain maps, for examples, tests and
 * tools that index a small tree and throw it away. It passes the conformance kit of
 * `@knowing/graph/testing`. Lookups scan, so it is meant for graphs of thousands of nodes, not
 * hundreds of thousands; nothing is persisted.
 */
import { ErrorCode, KnowingError } from './errors.js';
import { edgeKey, merkleRoot, snapshotId } from './identity.js';
import { TEXT_COLUMNS, conceptTokens, countPhrase, indexTokens, parseQuery, phrasesOf } from './memory-text.js';
import type { QueryNode } from './memory-text.js';
import { packageOf } from './names.js';
import { LEXICAL_FIELDS } from './types.js';
import type {
  FeedbackRecord,
  FeedbackTally,
  FileRecord,
  FileWrite,
  GraphCounts,
  NodeCounts,
  GraphEdge,
  GraphNode,
  GraphStore,
  LexicalDocument,
  LexicalField,
  LexicalSearchOptions,
  Note,
  NodeId,
  OwnedEdges,
  RepoInfo,
  Snapshot,
  TextColumn,
  TextHit,
  TextSearchOptions,
  VocabAssociation,
  WriteBatch,
  WriteResult,
} from './types.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * Default per-column weights of `search`, merged over {@link DEFAULT_MEMORY_STORE_OPTIONS}'s.
   * @default { name: 10, concepts: 5, path: 4, qualified_name: 3, doc: 3, signature: 1 }
   */
  readonly columnWeights?: Readonly<Partial<Record<TextColumn, number>>>;
  /** Clock for snapshot and note timestamps (milliseconds). @default Date.now */
  readonly now?: () => number;
}

/**
 * Defaults of {@link createMemoryStore}: the SQLite store's column weights.
 *
 * @example
 * ```ts
 * const store = createMemoryStore({ columnWeights: { doc: DEFAULT_MEMORY_STORE_OPTIONS.columnWeights.doc * 2 } });
 * ```
 */
export const DEFAULT_MEMORY_STORE_OPTIONS: Readonly<{ columnWeights: Readonly<Record<TextColumn, number>> }> = Object.freeze({
  columnWeights: Object.freeze({ name: 10, concepts: 5, path: 4, qualified_name: 3, doc: 3, signature: 1 }),
});

const SOURCE = 'graph';
const K1 = 1.2;
const B = 0.75;
const DEFAULT_SEARCH_LIMIT = 30;
const DEFAULT_LEXICAL_LIMIT = 50;
const DEFAULT_NAME_LIMIT = 100;
const FILE_OWNER = 'file:';
const PASS_OWNER = 'owner:';

function invalid(message: string, hint?: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, `memory store: ${message}`, { source: SOURCE, ...(hint ? { hint } : {}) });
}

function limitOf(limit: number | undefined, fallback: number, where: string): number {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 0) throw invalid(`${where}: limit must be a non-negative integer, got ${String(limit)}`);
  return limit;
}

function weightsOf<K extends string>(
  base: Readonly<Record<K, number>>,
  keys: readonly K[],
  override: Readonly<Partial<Record<K, number>>> | undefined,
  where: string,
): Record<K, number> {
  const merged: Record<K, number> = { ...base };
  for (const [key, weight] of Object.entries(override ?? {}) as [string, number | undefined][]) {
    if (!keys.includes(key as K)) throw invalid(`${where}: unknown column '${key}'`, `use one of ${keys.join(', ')}`);
    if (weight === undefined) continue;
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      throw invalid(`${where}: weight of '${key}' must be a finite number ≥ 0, got ${String(weight)}`);
    }
    merged[key as K] = weight;
  }
  return merged;
}

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

function sameNode(a: GraphNode, b: GraphNode): boolean {
  return (
    a.name === b.name &&
    a.qualifiedName === b.qualifiedName &&
    a.kind === b.kind &&
    a.language === b.language &&
    a.file === b.file &&
    a.startLine === b.startLine &&
    a.endLine === b.endLine &&
    a.signature === b.signature &&
    a.doc === b.doc &&
    a.isTest === b.isTest &&
    a.external === b.external
  );
}

function sameEdge(a: GraphEdge, b: GraphEdge): boolean {
  return a.confidence === b.confidence && a.provenance === b.provenance && (a.line ?? 0) === (b.line ?? 0);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface StoredNode {
  readonly node: GraphNode;
  /** Insertion order, the last tie-breaker of every ordered result. */
  readonly seq: number;
  /** Tokens per text column, computed on first search. */
  text?: Readonly<Record<TextColumn, readonly string[]>>;
}

interface StoredEdge {
  readonly edge: GraphEdge;
  readonly owner: string;
  /** The Merkle leaf: `edgeKey(source, target, type)`. */
  readonly leaf: string;
}

interface LexicalEntry {
  readonly terms: Readonly<Record<LexicalField, readonly string[]>>;
  readonly length: number;
}

interface FeedbackRow {
  readonly symbol: NodeId;
  readonly useful: boolean;
  readonly root: string | null;
  readonly cluster: string | null;
}

/**
 * An empty in-memory {@link GraphStore}. It keeps the contract's semantics (atomic batches,
 * cascades, external pruning, the Merkle layout of snapshots, BM25 text and lexical search)
 * and orders results as the SQLite store does, so code written against it behaves the same on
 * a real store. `search` reads the FTS5 subset the engine writes: words, "phrases", `prefix*`,
 * `column:` filters, `AND`, `OR`, `NOT` and parentheses.
 *
 * @example
 * ```ts
 * import { createMemoryStore } from '@knowing/graph/memory';
 *
 * const store = createMemoryStore();
 * await store.applyBatch({ repo, files: [{ file, nodes, edges }] });
 * const hits = await store.search('name:"refresh_token" OR session');
 * await store.close();
 * ```
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): GraphStore {
  const columnWeights = weightsOf(DEFAULT_MEMORY_STORE_OPTIONS.columnWeights, TEXT_COLUMNS, options.columnWeights, 'createMemoryStore columnWeights');
  const now = options.now ?? Date.now;

  let closed = false;
  let repo: RepoInfo | null = null;
  let nextSeq = 1;
  const nodes = new Map<NodeId, StoredNode>();
  const nodesByFile = new Map<string, Set<NodeId>>();
  const files = new Map<string, FileRecord>();
  const edges = new Map<string, StoredEdge>();
  const outgoing = new Map<NodeId, Set<string>>();
  const incoming = new Map<NodeId, Set<string>>();
  const owned = new Map<string, Set<string>>();
  const lexical = new Map<NodeId, LexicalEntry>();
  const notes = new Map<string, Note>();
  const feedback: FeedbackRow[] = [];
  const vocab = new Map<string, VocabAssociation>();
  let snapshot: Snapshot | null = null;

  const open = (action: string): void => {
    if (closed) {
      throw new KnowingError(ErrorCode.StoreClosed, `memory store: ${action} after the store was closed`, {
        source: SOURCE,
        hint: 'create a new store with createMemoryStore()',
      });
    }
  };
  function countAll(): GraphCounts {
    // Null-prototype records, so a kind called `constructor` counts like any other.
    const byKind: Record<string, number> = Object.create(null);
    const byLanguage: Record<string, number> = Object.create(null);
    const byType: Record<string, number> = Object.create(null);
    for (const { node } of nodes.values()) {
      byKind[node.kind] = (byKind[node.kind] ?? 0) + 1;
      // Placeholders have no language; they are counted under their kind only.
      if (node.language !== '') byLanguage[node.language] = (byLanguage[node.language] ?? 0) + 1;
    }
    for (const { edge } of edges.values()) byType[edge.type] = (byType[edge.type] ?? 0) + 1;
    return {
      nodes: nodes.size,
      edges: edges.size,
      files: files.size,
      nodesByKind: { ...byKind },
      nodesByLanguage: { ...byLanguage },
      edgesByType: { ...byType },
    };
  }

  /** Every method runs through here, so a closed store or a bad argument rejects instead of throwing. */
  const run = <T>(action: string, fn: () => T): Promise<T> => {
    try {
      open(action);
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(error);
    }
  };

  const edgeKeyOf = (e: GraphEdge): string => `${e.source}\0${e.type}\0${e.target}`;
  const indexAdd = (index: Map<string, Set<string>>, key: string, value: string): void => {
    let set = index.get(key);
    if (!set) index.set(key, (set = new Set()));
    set.add(value);
  };
  const indexDelete = (index: Map<string, Set<string>>, key: string, value: string): void => {
    const set = index.get(key);
    if (set && set.delete(value) && set.size === 0) index.delete(key);
  };

  /** Batch bookkeeping: what changed, for the write result and the snapshot. */
  const tally = { nodesWritten: 0, nodesDeleted: 0, edgesWritten: 0, edgesDeleted: 0 };

  function deleteEdge(key: string): void {
    const stored = edges.get(key);
    if (!stored) return;
    edges.delete(key);
    indexDelete(outgoing, stored.edge.source, key);
    indexDelete(incoming, stored.edge.target, key);
    indexDelete(owned, stored.owner, key);
    tally.edgesDeleted++;
  }

  function deleteNode(id: NodeId): void {
    const stored = nodes.get(id);
    if (!stored) return;
    for (const key of [...(outgoing.get(id) ?? []), ...(incoming.get(id) ?? [])]) deleteEdge(key);
    nodes.delete(id);
    if (!stored.node.external) indexDelete(nodesByFile, stored.node.file, id);
    lexical.delete(id);
    tally.nodesDeleted++;
  }

  function putNode(node: GraphNode): void {
    const existing = nodes.get(node.id);
    if (existing && sameNode(existing.node, node)) return;
    if (existing && !existing.node.external) indexDelete(nodesByFile, existing.node.file, node.id);
    nodes.set(node.id, { node: Object.freeze({ ...node }), seq: existing?.seq ?? nextSeq++ });
    if (!node.external) indexAdd(nodesByFile, node.file, node.id);
    tally.nodesWritten++;
  }

  function replaceOwned(owner: string, list: readonly GraphEdge[]): void {
    const wanted = new Map<string, GraphEdge>();
    for (const e of list) {
      // An edge whose endpoint does not exist is not kept.
      if (nodes.has(e.source) && nodes.has(e.target)) wanted.set(edgeKeyOf(e), e);
    }
    for (const key of [...(owned.get(owner) ?? [])]) if (!wanted.has(key)) deleteEdge(key);
    for (const [key, e] of wanted) {
      const existing = edges.get(key);
      if (existing && existing.owner === owner && sameEdge(existing.edge, e)) continue;
      if (existing) {
        indexDelete(owned, existing.owner, key);
      } else {
        indexAdd(outgoing, e.source, key);
        indexAdd(incoming, e.target, key);
      }
      const edge: GraphEdge = Object.freeze({ source: e.source, target: e.target, type: e.type, confidence: e.confidence, provenance: e.provenance, line: e.line ?? 0 });
      edges.set(key, { edge, owner, leaf: existing?.leaf ?? edgeKey(e.source, e.target, e.type) });
      indexAdd(owned, owner, key);
      tally.edgesWritten++;
    }
  }

  function packageRootsNow(): Map<string, string> {
    const groups = new Map<string, Map<string, string[]>>();
    for (const { edge, leaf } of edges.values()) {
      const source = nodes.get(edge.source)!.node;
      const pkg = source.external || source.file === '' ? '' : packageOf(source.file);
      let types = groups.get(pkg);
      if (!types) groups.set(pkg, (types = new Map()));
      const leaves = types.get(edge.type);
      if (leaves) leaves.push(leaf);
      else types.set(edge.type, [leaf]);
    }
    const roots = new Map<string, string>();
    for (const pkg of [...groups.keys()].sort(compareText)) {
      roots.set(pkg, merkleRoot([...groups.get(pkg)!.values()].map((leaves) => merkleRoot(leaves))));
    }
    return roots;
  }

  /** Shape checks before anything changes, so a bad batch leaves the store as it was. */
  function checkBatch(batch: WriteBatch): void {
    if (typeof batch !== 'object' || batch === null) throw invalid('applyBatch takes a WriteBatch object');
    const list = (value: unknown, what: string): readonly unknown[] => {
      if (value === undefined) return [];
      if (!Array.isArray(value)) throw invalid(`applyBatch: ${what} must be an array`);
      return value;
    };
    const isNode = (n: unknown): boolean => typeof n === 'object' && n !== null && typeof (n as GraphNode).id === 'string' && typeof (n as GraphNode).file === 'string';
    const isEdge = (e: unknown): boolean =>
      typeof e === 'object' && e !== null && typeof (e as GraphEdge).source === 'string' && typeof (e as GraphEdge).target === 'string' && typeof (e as GraphEdge).type === 'string';
    for (const path of list(batch.deleteFiles, 'deleteFiles')) if (typeof path !== 'string') throw invalid('applyBatch: deleteFiles holds a non-string path');
    for (const w of list(batch.files, 'files') as FileWrite[]) {
      if (typeof w?.file?.path !== 'string') throw invalid('applyBatch: a file write needs file.path');
      if (!list(w.nodes, `nodes of ${w.file.path}`).every(isNode)) throw invalid(`applyBatch: ${w.file.path} holds a node without a string id and file`);
      if (!list(w.edges, `edges of ${w.file.path}`).every(isEdge)) throw invalid(`applyBatch: ${w.file.path} holds an edge without source, target and type`);
    }
    for (const o of list(batch.ownedEdges, 'ownedEdges') as OwnedEdges[]) {
      if (typeof o?.owner !== 'string') throw invalid('applyBatch: ownedEdges entries need an owner');
      if (!list(o.edges, `edges of ${o.owner}`).every(isEdge)) throw invalid(`applyBatch: owner ${o.owner} holds an edge without source, target and type`);
    }
    if (!list(batch.externalNodes, 'externalNodes').every(isNode)) throw invalid('applyBatch: externalNodes holds a node without a string id');
  }

  function applyBatch(batch: WriteBatch): WriteResult {
    checkBatch(batch);
    tally.nodesWritten = tally.nodesDeleted = tally.edgesWritten = tally.edgesDeleted = 0;
    if (batch.repo !== undefined) repo = Object.freeze({ ...batch.repo });

    // 1. Deleted files lose their record, nodes (edges cascade) and owned edges.
    for (const path of batch.deleteFiles ?? []) {
      for (const id of [...(nodesByFile.get(path) ?? [])]) deleteNode(id);
      replaceOwned(FILE_OWNER + path, []);
      files.delete(path);
    }
    // 2. Written files: upsert their nodes, remove the ones that are gone, replace lexical documents.
    const writes = new Map((batch.files ?? []).map((w) => [w.file.path, w]));
    for (const [path, w] of writes) {
      files.set(path, Object.freeze({ ...w.file }));
      const keep = new Set(w.nodes.map((n) => n.id));
      for (const id of [...(nodesByFile.get(path) ?? [])]) if (!keep.has(id)) deleteNode(id);
      for (const node of w.nodes) putNode(node);
      for (const node of w.nodes) {
        const doc = w.lexical?.get(node.id);
        if (doc === undefined) lexical.delete(node.id);
        else lexical.set(node.id, lexicalEntry(doc));
      }
    }
    // 3. External placeholders, before the edges so edges to them resolve. A real symbol is
    // never downgraded to a placeholder.
    for (const node of batch.externalNodes ?? []) {
      const existing = nodes.get(node.id);
      if (existing === undefined || existing.node.external) putNode(node);
    }
    // 4. Each owner's edges are replaced.
    for (const [path, w] of writes) replaceOwned(FILE_OWNER + path, w.edges);
    for (const o of batch.ownedEdges ?? []) replaceOwned(PASS_OWNER + o.owner, o.edges);
    // 5. External nodes no edge touches any more.
    for (const [id, stored] of [...nodes]) {
      if (stored.node.external && !outgoing.has(id) && !incoming.has(id)) deleteNode(id);
    }

    const changed = tally.nodesWritten + tally.nodesDeleted + tally.edgesWritten + tally.edgesDeleted > 0;
    if (snapshot === null || changed) {
      const root = merkleRoot([...packageRootsNow().values()]);
      snapshot = Object.freeze({
        id: snapshotId(root),
        root,
        generation: (snapshot?.generation ?? 0) + 1,
        createdAt: now(),
        nodeCount: nodes.size,
        edgeCount: edges.size,
      });
    }
    return { ...tally, snapshot };
  }

  function lexicalEntry(doc: LexicalDocument): LexicalEntry {
    let length = 0;
    const terms = {} as Record<LexicalField, readonly string[]>;
    for (const field of LEXICAL_FIELDS) {
      const list = (doc[field] ?? '').split(' ').filter((t) => t !== '');
      terms[field] = list;
      length += list.length;
    }
    return { terms, length };
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

  function search(query: string, o: TextSearchOptions = {}): TextHit[] {
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
    const hits: { node: GraphNode; score: number; seq: number }[] = [];
    for (const d of counts) {
      if (kinds !== undefined && !kinds.has(d.stored.node.kind)) continue;
      if (!matches(tree, d)) continue;
      let score = 0;
      phrases.forEach((_, i) => {
        let frequency = 0;
        for (const column of TEXT_COLUMNS) frequency += weights[column] * d.perPhrase[i]![column];
        score += idf[i]! * saturate(frequency, d.length, average);
      });
      hits.push({ node: d.stored.node, score, seq: d.stored.seq });
    }
    hits.sort((a, b) => b.score - a.score || a.seq - b.seq);
    return hits.slice(0, limit).map(({ node, score }) => ({ node, score }));
  }

  function lexicalSearch(terms: readonly string[], o: LexicalSearchOptions = {}): TextHit[] {
    if (!Array.isArray(terms)) throw invalid('lexicalSearch: terms must be an array of strings');
    const distinct = new Set<string>();
    for (const term of terms) {
      if (typeof term !== 'string') throw invalid(`lexicalSearch: terms must be strings, got ${typeof term}`);
      if (term.trim() !== '') distinct.add(term.trim());
    }
    const fieldWeights = weightsOf({ name: 1, path: 1, signature: 1, doc: 1, body: 1, members: 1 }, LEXICAL_FIELDS, o.fieldWeights, 'lexicalSearch fieldWeights');
    const limit = limitOf(o.limit, DEFAULT_LEXICAL_LIMIT, 'lexicalSearch');
    if (distinct.size === 0 || lexical.size === 0) return [];
    const total = lexical.size;
    let lengths = 0;
    for (const entry of lexical.values()) lengths += entry.length;
    const average = lengths / total;
    const scores = new Map<NodeId, number>();
    for (const term of distinct) {
      const frequencies: [NodeId, number][] = [];
      for (const [id, entry] of lexical) {
        let frequency = 0;
        let present = false;
        for (const field of LEXICAL_FIELDS) {
          let count = 0;
          for (const t of entry.terms[field]) if (t === term) count++;
          if (count > 0) present = true;
          frequency += fieldWeights[field] * count;
        }
        if (present) frequencies.push([id, frequency]);
      }
      if (frequencies.length === 0) continue;
      const idf = lexicalIdf(total, frequencies.length);
      for (const [id, frequency] of frequencies) {
        const value = idf * saturate(frequency, lexical.get(id)!.length, average);
        if (value > 0) scores.set(id, (scores.get(id) ?? 0) + value);
      }
    }
    const kinds = o.kinds === undefined ? undefined : new Set<string>(o.kinds);
    const hits: TextHit[] = [];
    for (const [id, raw] of scores) {
      const node = nodes.get(id)!.node;
      if (node.external || (node.isTest && o.includeTests !== true) || (kinds !== undefined && !kinds.has(node.kind))) continue;
      // Rounded, so documents with the same terms tie exactly whatever the summation order.
      hits.push({ node, score: Math.round(raw * 1e9) / 1e9 });
    }
    hits.sort((a, b) => b.score - a.score || compareText(a.node.qualifiedName, b.node.qualifiedName) || compareText(a.node.id, b.node.id));
    return hits.slice(0, limit);
  }

  const byPosition = (a: StoredNode, b: StoredNode): number =>
    compareText(a.node.file, b.node.file) || a.node.startLine - b.node.startLine || a.seq - b.seq;

  const store: GraphStore = {
    repo: () => run('repo', () => repo),
    getNode: (id) => run('getNode', () => nodes.get(id)?.node),
    getNodes: (ids) => run('getNodes', () => ids.flatMap((id) => (nodes.has(id) ? [nodes.get(id)!.node] : []))),
    findNodesByName: (name, o = {}) =>
      run('findNodesByName', () => {
        if (typeof name !== 'string') throw invalid('findNodesByName: name must be a string');
        const limit = limitOf(o.limit, DEFAULT_NAME_LIMIT, 'findNodesByName');
        const match = o.match ?? 'exact';
        const lower = name.toLowerCase();
        const test = (n: GraphNode): boolean => {
          const l = n.name.toLowerCase();
          switch (match) {
            case 'exact':
              return n.name === name;
            case 'exact_ci':
              return l === lower;
            case 'prefix':
              return l.startsWith(lower);
            case 'substring':
              return l.includes(lower);
            default:
              throw invalid(`findNodesByName: unknown match '${String(match)}'`, 'use exact, exact_ci, prefix or substring');
          }
        };
        const kinds = o.kinds === undefined ? undefined : new Set<string>(o.kinds);
        const found = [...nodes.values()].filter((s) => (o.includeExternal || !s.node.external) && (!kinds || kinds.has(s.node.kind)) && test(s.node));
        // Exact matches in source order, externals last; partial ones shortest name first.
        found.sort(
          match === 'exact' || match === 'exact_ci'
            ? (a, b) => Number(a.node.external) - Number(b.node.external) || byPosition(a, b)
            : (a, b) => a.node.name.length - b.node.name.length || compareText(a.node.name.toLowerCase(), b.node.name.toLowerCase()) || byPosition(a, b),
        );
        return found.slice(0, limit).map((s) => s.node);
      }),
    findNodesByQualifiedName: (qualifiedName) =>
      run('findNodesByQualifiedName', () =>
        [...nodes.values()].filter((s) => s.node.qualifiedName === qualifiedName).sort((a, b) => a.seq - b.seq).map((s) => s.node),
      ),
    nodesInFile: (path) =>
      run('nodesInFile', () =>
        [...(nodesByFile.get(path) ?? [])]
          .map((id) => nodes.get(id)!)
          .sort((a, b) => a.node.startLine - b.node.startLine || a.seq - b.seq)
          .map((s) => s.node),
      ),
    nodesUnderPath: (prefix, o = {}) =>
      run('nodesUnderPath', () => {
        const limit = limitOf(o.limit, Number.MAX_SAFE_INTEGER, 'nodesUnderPath');
        const kinds = o.kinds === undefined ? undefined : new Set<string>(o.kinds);
        const found: StoredNode[] = [];
        for (const [file, ids] of nodesByFile) {
          if (!file.startsWith(prefix)) continue;
          for (const id of ids) {
            const stored = nodes.get(id)!;
            if (!kinds || kinds.has(stored.node.kind)) found.push(stored);
          }
        }
        return found.sort(byPosition).slice(0, limit).map((s) => s.node);
      }),
    edgesFrom: (id, o = {}) =>
      run('edgesFrom', () => {
        const limit = limitOf(o.limit, Number.MAX_SAFE_INTEGER, 'edgesFrom');
        const types = o.types === undefined ? undefined : new Set<string>(o.types);
        return [...(outgoing.get(id) ?? [])]
          .map((key) => edges.get(key)!.edge)
          .filter((e) => !types || types.has(e.type))
          .sort((a, b) => compareText(a.type, b.type) || nodes.get(a.target)!.seq - nodes.get(b.target)!.seq)
          .slice(0, limit);
      }),
    edgesTo: (id, o = {}) =>
      run('edgesTo', () => {
        const limit = limitOf(o.limit, Number.MAX_SAFE_INTEGER, 'edgesTo');
        const types = o.types === undefined ? undefined : new Set<string>(o.types);
        return [...(incoming.get(id) ?? [])]
          .map((key) => edges.get(key)!.edge)
          .filter((e) => !types || types.has(e.type))
          .sort((a, b) => compareText(a.type, b.type) || nodes.get(a.source)!.seq - nodes.get(b.source)!.seq)
          .slice(0, limit);
      }),
    getFile: (path) => run('getFile', () => files.get(path)),
    listFiles: () => run('listFiles', () => [...files.values()].sort((a, b) => compareText(a.path, b.path))),
    nodeCounts: () =>
      run('nodeCounts', (): NodeCounts => {
        const { edges: _edges, edgesByType: _edgesByType, ...nodeSide } = countAll();
        return nodeSide;
      }),
    counts: () => run('counts', countAll),
    allNodes: () => ({
      async *[Symbol.asyncIterator]() {
        open('allNodes');
        // A copy, so writing while iterating neither skips nor repeats nodes.
        for (const stored of [...nodes.values()].sort((a, b) => a.seq - b.seq)) yield stored.node;
      },
    }),
    allEdges: () => ({
      async *[Symbol.asyncIterator]() {
        open('allEdges');
        for (const { edge } of [...edges.values()]) yield edge;
      },
    }),
    applyBatch: (batch) => run('applyBatch', () => applyBatch(batch)),
    search: (query, o) => run('search', () => search(query, o)),
    lexicalSearch: (terms, o) => run('lexicalSearch', () => lexicalSearch(terms, o)),
    getNote: (key) =>
      run('getNote', () => {
        const note = notes.get(key);
        return note === undefined ? undefined : { ...note, value: new Uint8Array(note.value) };
      }),
    putNote: (key, kind, value, noteSnapshot = null) =>
      run('putNote', () => {
        if (!(value instanceof Uint8Array)) throw invalid(`note '${key}' value must be a Uint8Array`);
        notes.set(key, { key, kind, value: new Uint8Array(value), snapshot: noteSnapshot, updatedAt: now() });
      }),
    deleteNote: (key) => run('deleteNote', () => notes.delete(key)),
    deleteNotes: (filter) =>
      run('deleteNotes', () => {
        let deleted = 0;
        for (const [key, note] of [...notes]) {
          if (filter.kind !== undefined && note.kind !== filter.kind) continue;
          if (filter.keyPrefix !== undefined && !key.startsWith(filter.keyPrefix)) continue;
          notes.delete(key);
          deleted++;
        }
        return deleted;
      }),
    recordFeedback: (records: readonly FeedbackRecord[]) =>
      run('recordFeedback', () => {
        for (const r of records) {
          if (typeof r.symbol !== 'string' || typeof r.useful !== 'boolean' || typeof r.session !== 'string') {
            throw invalid('feedback needs a string symbol and session and a boolean useful');
          }
        }
        for (const r of records) feedback.push({ symbol: r.symbol, useful: r.useful, root: r.neighborhoodRoot ?? null, cluster: r.keywordCluster ?? null });
      }),
    feedbackFor: (symbols, o = {}) =>
      run('feedbackFor', () => {
        const wanted = new Set(symbols);
        const out = new Map<NodeId, FeedbackTally>();
        for (const row of feedback) {
          if (!wanted.has(row.symbol)) continue;
          if (o.keywordCluster !== undefined && row.cluster !== o.keywordCluster) continue;
          // Rows stamped with a neighbourhood root expire once the symbol's neighbourhood changed.
          const current = o.currentRoots?.get(row.symbol);
          if (row.root !== null && current !== undefined && row.root !== current) continue;
          const tallied = out.get(row.symbol) ?? { useful: 0, notUseful: 0 };
          out.set(row.symbol, row.useful ? { ...tallied, useful: tallied.useful + 1 } : { ...tallied, notUseful: tallied.notUseful + 1 });
        }
        return out;
      }),
    recordVocab: (entries) =>
      run('recordVocab', () => {
        for (const e of entries) {
          if (typeof e.keyword !== 'string' || e.keyword.length === 0 || typeof e.symbol !== 'string') {
            throw invalid('vocabulary entries need a non-empty keyword and a symbol');
          }
        }
        for (const e of entries) {
          const key = `${e.keyword}\0${e.symbol}`;
          const old = vocab.get(key);
          vocab.set(key, {
            keyword: e.keyword,
            symbol: e.symbol,
            symbolName: e.symbolName,
            count: (old?.count ?? 0) + 1,
            cluster: e.cluster ?? old?.cluster ?? null,
            packageRoot: e.packageRoot ?? old?.packageRoot ?? null,
          });
        }
      }),
    vocabFor: (keywords, o = {}) =>
      run('vocabFor', () => {
        const wanted = new Set(keywords);
        const minCount = o.minCount ?? 2;
        return [...vocab.values()]
          .filter((v) => wanted.has(v.keyword) && v.count >= minCount && (o.cluster === undefined || v.cluster === o.cluster))
          .sort((a, b) => b.count - a.count || compareText(a.keyword, b.keyword) || compareText(a.symbol, b.symbol));
      }),
    currentSnapshot: () => run('currentSnapshot', () => snapshot),
    packageRoots: () => run('packageRoots', () => packageRootsNow()),
    subgraphRoot: (packages) =>
      run('subgraphRoot', () => {
        const roots = packageRootsNow();
        return merkleRoot([...new Set(packages)].flatMap((p) => (roots.has(p) ? [roots.get(p)!] : [])));
      }),
    close: async () => {
      closed = true;
    },
  };
  return store;
}
