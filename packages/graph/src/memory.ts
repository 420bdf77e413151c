/**
 * An in-memory {@link GraphStore}: the whole contract in plain maps, for examples, tests and
 * tools that index a small tree and throw it away. It passes the conformance kit of
 * `@knowing/graph/testing`. Lookups scan, so it is meant for graphs of thousands of nodes, not
 * hundreds of thousands; nothing is persisted.
 */
import { merkleRoot } from './identity.js';
import { searchLexical, searchText } from './memory-search.js';
import {
  closedError,
  compareText,
  emptyMemoryState,
  invalid,
  limitOf,
  packageRootsOf,
  weightsOf,
  type MemoryState,
  type StoredNode,
} from './memory-state.js';
import { applyMemoryBatch } from './memory-write.js';
import { STORE_COLUMN_WEIGHTS, tallyFeedback, TEXT_COLUMNS } from './store-kit.js';
import type { EdgeQueryOptions, FeedbackRecord, GraphCounts, GraphEdge, GraphNode, GraphStore, NodeCounts, NodeId, TextColumn } from './types.js';

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
 * Defaults of {@link createMemoryStore}: the column weights every knowing store shares.
 *
 * @example
 * ```ts
 * const store = createMemoryStore({ columnWeights: { doc: DEFAULT_MEMORY_STORE_OPTIONS.columnWeights.doc * 2 } });
 * ```
 */
export const DEFAULT_MEMORY_STORE_OPTIONS: Readonly<{ columnWeights: Readonly<Record<TextColumn, number>> }> = Object.freeze({
  columnWeights: STORE_COLUMN_WEIGHTS,
});

const DEFAULT_NAME_LIMIT = 100;

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
  const state = emptyMemoryState();
  const guard = guardOf(state);
  const { run } = guard;
  return {
    ...nodeReads(state, guard),
    ...edgeAndFileReads(state, guard),
    applyBatch: (batch) => run('applyBatch', () => applyMemoryBatch(state, batch, now)),
    search: (query, o) => run('search', () => searchText(state, columnWeights, query, o)),
    lexicalSearch: (terms, o) => run('lexicalSearch', () => searchLexical(state, terms, o)),
    ...noteMethods(state, guard, now),
    ...feedbackAndVocabulary(state, guard),
    ...snapshotMethods(state, guard),
    close: async () => {
      state.closed = true;
    },
  };
}

interface Guard {
  /** Throws once the store is closed. */
  open(action: string): void;
  /** Every method runs through here, so a closed store or a bad argument rejects instead of throwing. */
  run<T>(action: string, fn: () => T): Promise<T>;
}

function guardOf(state: MemoryState): Guard {
  const open = (action: string): void => {
    if (state.closed) throw closedError(action);
  };
  return {
    open,
    run<T>(action: string, fn: () => T): Promise<T> {
      try {
        open(action);
        return Promise.resolve(fn());
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

const byPosition = (a: StoredNode, b: StoredNode): number =>
  compareText(a.node.file, b.node.file) || a.node.startLine - b.node.startLine || a.seq - b.seq;

/** Nodes by id, name, qualified name, file and path, and every node in insertion order. */
function nodeReads(state: MemoryState, { open, run }: Guard): Pick<
  GraphStore,
  'repo' | 'getNode' | 'getNodes' | 'findNodesByName' | 'findNodesByQualifiedName' | 'nodesInFile' | 'nodesUnderPath' | 'allNodes'
> {
  const { nodes, nodesByFile } = state;
  return {
    repo: () => run('repo', () => state.repo),
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
    allNodes: () => ({
      async *[Symbol.asyncIterator]() {
        open('allNodes');
        // A copy, so writing while iterating neither skips nor repeats nodes.
        for (const stored of [...nodes.values()].sort((a, b) => a.seq - b.seq)) yield stored.node;
      },
    }),
  };
}

/** Edges around a node, every edge, files and the counts over them. */
function edgeAndFileReads(state: MemoryState, { open, run }: Guard): Pick<
  GraphStore,
  'edgesFrom' | 'edgesTo' | 'getFile' | 'listFiles' | 'nodeCounts' | 'counts' | 'allEdges'
> {
  const { nodes, edges, outgoing, incoming, files } = state;
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
  /**
   * The edges at `id` in one direction (`index`: outgoing or incoming), ordered by type, then
   * by the insertion order of the node at their other end (`far`).
   */
  function edgesAt(operation: string, index: Map<NodeId, Set<string>>, far: 'source' | 'target', id: NodeId, o: EdgeQueryOptions): GraphEdge[] {
    const limit = limitOf(o.limit, Number.MAX_SAFE_INTEGER, operation);
    const types = o.types === undefined ? undefined : new Set<string>(o.types);
    return [...(index.get(id) ?? [])]
      .map((key) => edges.get(key)!.edge)
      .filter((e) => !types || types.has(e.type))
      .sort((a, b) => compareText(a.type, b.type) || nodes.get(a[far])!.seq - nodes.get(b[far])!.seq)
      .slice(0, limit);
  }
  return {
    edgesFrom: (id, o = {}) => run('edgesFrom', () => edgesAt('edgesFrom', outgoing, 'target', id, o)),
    edgesTo: (id, o = {}) => run('edgesTo', () => edgesAt('edgesTo', incoming, 'source', id, o)),
    getFile: (path) => run('getFile', () => files.get(path)),
    listFiles: () => run('listFiles', () => [...files.values()].sort((a, b) => compareText(a.path, b.path))),
    nodeCounts: () =>
      run('nodeCounts', (): NodeCounts => {
        const { edges: _edges, edgesByType: _edgesByType, ...nodeSide } = countAll();
        return nodeSide;
      }),
    counts: () => run('counts', countAll),
    allEdges: () => ({
      async *[Symbol.asyncIterator]() {
        open('allEdges');
        // The contract's order: by source, type and target, endpoints in allNodes() order.
        const seq = (id: NodeId): number => nodes.get(id)!.seq;
        const ordered = [...edges.values()].sort(
          (a, b) => seq(a.edge.source) - seq(b.edge.source) || compareText(a.edge.type, b.edge.type) || seq(a.edge.target) - seq(b.edge.target),
        );
        for (const { edge } of ordered) yield edge;
      },
    }),
  };
}

function noteMethods(state: MemoryState, { run }: Guard, now: () => number): Pick<GraphStore, 'getNote' | 'putNote' | 'deleteNote' | 'deleteNotes'> {
  const { notes } = state;
  return {
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
  };
}

function feedbackAndVocabulary(state: MemoryState, { run }: Guard): Pick<GraphStore, 'recordFeedback' | 'feedbackFor' | 'recordVocab' | 'vocabFor'> {
  const { feedback, vocab } = state;
  return {
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
        const groups = feedback
          .filter((row) => wanted.has(row.symbol) && (o.keywordCluster === undefined || row.cluster === o.keywordCluster))
          .map((row) => ({ symbol: row.symbol, root: row.root, useful: row.useful ? 1 : 0, total: 1 }));
        return tallyFeedback(groups, o.currentRoots);
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
  };
}

function snapshotMethods(state: MemoryState, { run }: Guard): Pick<GraphStore, 'currentSnapshot' | 'packageRoots' | 'subgraphRoot'> {
  return {
    currentSnapshot: () => run('currentSnapshot', () => state.snapshot),
    packageRoots: () => run('packageRoots', () => packageRootsOf(state)),
    subgraphRoot: (packages) =>
      run('subgraphRoot', () => {
        const roots = packageRootsOf(state);
        return merkleRoot([...new Set(packages)].flatMap((p) => (roots.has(p) ? [roots.get(p)!] : [])));
      }),
  };
}
