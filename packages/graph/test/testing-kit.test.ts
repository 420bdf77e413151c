/**
 * The conformance kit run against a deliberately naive in-memory store. The store makes
 * different choices from the SQLite one wherever the contract leaves room (result order,
 * what counts as "written", a new generation for every batch), so passing here shows the kit
 * checks the contract and not one implementation.
 */
import { edgeKey, merkleRoot, packageOf, snapshotId } from '../src/index.js';
import type {
  FeedbackTally,
  FileRecord,
  GraphEdge,
  GraphNode,
  GraphStore,
  Note,
  RepoInfo,
  Snapshot,
  TextColumn,
  LexicalDocument,
  VocabAssociation,
} from '../src/index.js';
import { testGraphStore } from '../src/testing.js';
import { lexicalFieldRecord, lexicalIds } from '../src/store-kit.js';
import { LEXICAL_FIELDS } from '../src/types.js';

const WEIGHTS: Record<TextColumn, number> = { name: 10, concepts: 5, path: 4, qualified_name: 3, doc: 3, signature: 1 };

function tokens(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
}

function createMemoryStore(): GraphStore {
  let repo: RepoInfo | null = null;
  const files = new Map<string, FileRecord>();
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, { edge: GraphEdge; owner: string }>();
  const notes = new Map<string, Note>();
  const feedback: { symbol: string; useful: boolean; root: string | null; cluster: string | null }[] = [];
  const vocab = new Map<string, VocabAssociation>();
  const snapshots: Snapshot[] = [];
  const lexical = new Map<string, LexicalDocument>();
  const key = (e: GraphEdge): string => `${e.source}|${e.type}|${e.target}`;
  const replaceOwned = (owner: string, list: readonly GraphEdge[]): void => {
    for (const [k, v] of edges) if (v.owner === owner) edges.delete(k);
    for (const e of list) edges.set(key(e), { edge: { ...e, line: e.line ?? 0 }, owner });
  };
  const roots = (): Map<string, string> => {
    const groups = new Map<string, Map<string, string[]>>();
    for (const { edge } of edges.values()) {
      const src = nodes.get(edge.source)!;
      const pkg = src.external ? '' : packageOf(src.file);
      const types = groups.get(pkg) ?? new Map<string, string[]>();
      groups.set(pkg, types);
      types.set(edge.type, [...(types.get(edge.type) ?? []), edgeKey(edge.source, edge.target, edge.type)]);
    }
    return new Map([...groups].map(([pkg, t]) => [pkg, merkleRoot([...t.values()].map((l) => merkleRoot(l)))]));
  };
  const sorted = (list: GraphNode[]): GraphNode[] => list.sort((a, b) => b.id.localeCompare(a.id));

  return {
    async repo() {
      return repo;
    },
    async getNode(id) {
      return nodes.get(id);
    },
    async getNodes(ids) {
      return ids.flatMap((id) => (nodes.has(id) ? [nodes.get(id)!] : []));
    },
    async findNodesByName(name, o = {}) {
      const lower = name.toLowerCase();
      const match = (n: string): boolean => {
        const l = n.toLowerCase();
        switch (o.match ?? 'exact') {
          case 'exact': return n === name;
          case 'exact_ci': return l === lower;
          case 'prefix': return l.startsWith(lower);
          case 'substring': return l.includes(lower);
        }
      };
      return sorted([...nodes.values()].filter((n) => match(n.name) && (o.includeExternal || !n.external) && (!o.kinds || o.kinds.includes(n.kind)))).slice(0, o.limit ?? 100);
    },
    async findNodesByQualifiedName(qn) {
      return [...nodes.values()].filter((n) => n.qualifiedName === qn);
    },
    async nodesInFile(path) {
      return [...nodes.values()].filter((n) => n.file === path && !n.external).sort((a, b) => a.startLine - b.startLine);
    },
    async nodesUnderPath(prefix, o = {}) {
      return sorted([...nodes.values()].filter((n) => !n.external && n.file.startsWith(prefix) && (!o.kinds || o.kinds.includes(n.kind)))).slice(0, o.limit ?? Infinity);
    },
    async edgesFrom(id, o = {}) {
      return [...edges.values()].map((v) => v.edge).filter((e) => e.source === id && (!o.types || o.types.includes(e.type))).reverse().slice(0, o.limit ?? Infinity);
    },
    async edgesTo(id, o = {}) {
      return [...edges.values()].map((v) => v.edge).filter((e) => e.target === id && (!o.types || o.types.includes(e.type))).reverse().slice(0, o.limit ?? Infinity);
    },
    async getFile(path) {
      return files.get(path);
    },
    async listFiles() {
      return [...files.values()].reverse();
    },
    async counts() {
      const count = (keys: string[]): Record<string, number> => keys.reduce<Record<string, number>>((acc, k) => ({ ...acc, [k]: (Object.hasOwn(acc, k) ? acc[k]! : 0) + 1 }), {});
      const all = [...nodes.values()];
      return {
        nodes: nodes.size,
        edges: edges.size,
        files: files.size,
        nodesByKind: count(all.map((n) => n.kind)),
        nodesByLanguage: count(all.map((n) => n.language || 'none')),
        edgesByType: count([...edges.values()].map((v) => v.edge.type)),
      };
    },
    async *allNodes() {
      // A Map keeps an id where it was first set until it is deleted: the contract's order.
      yield* nodes.values();
    },
    async *allEdges() {
      const place = new Map([...nodes.keys()].map((id, i) => [id, i]));
      const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
      yield* [...edges.values()]
        .map((v) => v.edge)
        .sort((a, b) => place.get(a.source)! - place.get(b.source)! || byCodeUnits(a.type, b.type) || place.get(a.target)! - place.get(b.target)!);
    },
    async applyBatch(batch) {
      const nodesBefore = new Map(nodes);
      const edgesBefore = new Set(edges.keys());
      let nodesWritten = 0;
      if (batch.repo) repo = batch.repo;
      for (const path of batch.deleteFiles ?? []) {
        files.delete(path);
        for (const [id, n] of nodes) if (n.file === path && !n.external) nodes.delete(id);
        replaceOwned(`file:${path}`, []);
      }
      for (const w of batch.files ?? []) {
        files.set(w.file.path, w.file);
        const keep = new Set(w.nodes.map((n) => n.id));
        for (const [id, n] of nodes) if (n.file === w.file.path && !keep.has(id)) nodes.delete(id);
        for (const n of w.nodes) nodes.set(n.id, n);
        for (const n of w.nodes) {
          const doc = w.lexical?.get(n.id);
          if (doc) lexical.set(n.id, doc);
          else lexical.delete(n.id);
        }
        nodesWritten += w.nodes.length;
        replaceOwned(`file:${w.file.path}`, w.edges);
      }
      for (const o of batch.ownedEdges ?? []) replaceOwned(`owner:${o.owner}`, o.edges);
      for (const n of batch.externalNodes ?? []) {
        if (!nodes.get(n.id) || nodes.get(n.id)!.external) nodes.set(n.id, n);
        nodesWritten++;
      }
      for (const [k, { edge }] of edges) if (!nodes.has(edge.source) || !nodes.has(edge.target)) edges.delete(k);
      const touched = new Set([...edges.values()].flatMap(({ edge }) => [edge.source, edge.target]));
      for (const [id, n] of nodes) if (n.external && !touched.has(id)) nodes.delete(id);
      for (const id of lexical.keys()) if (!nodes.has(id)) lexical.delete(id);
      const root = merkleRoot([...roots().values()]);
      const snapshot: Snapshot = { id: snapshotId(root), root, generation: snapshots.length + 1, createdAt: Date.now(), nodeCount: nodes.size, edgeCount: edges.size };
      snapshots.push(snapshot);
      return {
        nodesWritten,
        edgesWritten: [...edges.keys()].filter((k) => !edgesBefore.has(k)).length,
        nodesDeleted: [...nodesBefore.keys()].filter((id) => !nodes.has(id)).length,
        edgesDeleted: [...edgesBefore].filter((k) => !edges.has(k)).length,
        snapshot,
      };
    },
    async search(query, o = {}) {
      const weights = { ...WEIGHTS, ...o.columnWeights };
      const terms = query.split(/\s+/).filter((t) => t && t !== 'OR').map((t) => {
        const [col, term] = t.includes(':') ? t.split(':') : [undefined, t];
        return { col: col as TextColumn | undefined, term: term!.replace(/"/g, '').toLowerCase() };
      });
      const hits = [...nodes.values()].filter((n) => !n.external && (!o.kinds || o.kinds.includes(n.kind))).map((n) => {
        const text: Record<TextColumn, string[]> = {
          name: tokens(n.name), concepts: tokens(packageOf(n.file)), path: tokens(n.file),
          qualified_name: tokens(n.qualifiedName), doc: tokens(n.doc), signature: tokens(n.signature),
        };
        let score = 0;
        for (const { col, term } of terms) {
          for (const c of Object.keys(text) as TextColumn[]) if (!col || col === c) score += weights[c] * text[c].filter((t) => t === term).length;
        }
        return { node: n, score };
      });
      const byCodeUnits = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
      return hits
        .filter((h) => h.score > 0)
        .sort(
          (a, b) =>
            b.score - a.score ||
            byCodeUnits(a.node.file, b.node.file) ||
            a.node.startLine - b.node.startLine ||
            byCodeUnits(a.node.qualifiedName, b.node.qualifiedName) ||
            byCodeUnits(a.node.id, b.node.id),
        )
        .slice(0, o.limit ?? 30);
    },
    async lexicalSearch(query, o = {}) {
      // Plain BM25 with the always-positive idf ln(1 + (N - n + .5) / (n + .5)): another choice
      // than FTS5's where the contract leaves room.
      const weights: Record<string, number> = { name: 1, path: 1, signature: 1, doc: 1, body: 1, members: 1, ...o.fieldWeights };
      const only = lexicalIds(o.ids, 'lexicalSearch', 'naive-store');
      const docs = [...lexical].map(([id, d]) => {
        const tf = new Map<string, number>();
        let length = 0;
        for (const [field, text] of Object.entries(d)) {
          for (const term of text.split(' ').filter(Boolean)) {
            tf.set(term, (tf.get(term) ?? 0) + weights[field]!);
            length++;
          }
        }
        const byField = new Map(Object.entries(d).map(([field, text]) => [field, text.split(' ').filter(Boolean)]));
        return { node: nodes.get(id)!, tf, length, byField };
      });
      const avg = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, docs.length);
      const terms = [...new Set(query)];
      const idf = new Map(terms.map((t) => {
        const n = docs.filter((d) => d.tf.has(t)).length;
        return [t, Math.log(1 + (docs.length - n + 0.5) / (n + 0.5))];
      }));
      const bm25 = (d: (typeof docs)[number], frequency: (t: string) => number) =>
        terms.reduce((sum, t) => {
          const f = frequency(t);
          return sum + (idf.get(t)! * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / avg));
        }, 0);
      return docs
        .filter((d) => (o.includeTests || !d.node.isTest) && (!o.kinds || o.kinds.includes(d.node.kind)) && (!only || only.has(d.node.id)) && terms.some((t) => d.tf.has(t)))
        .map((d) => ({
          node: d.node,
          score: bm25(d, (t) => d.tf.get(t) ?? 0),
          ...(o.perField
            ? { fields: lexicalFieldRecord(LEXICAL_FIELDS.map((field) => bm25(d, (t) => d.byField.get(field)!.filter((x) => x === t).length))) }
            : {}),
        }))
        .filter((h) => h.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, o.limit ?? 50);
    },
    async getNote(k) {
      return notes.get(k);
    },
    async putNote(k, kind, value, snapshot = null) {
      notes.set(k, { key: k, kind, value: new Uint8Array(value), snapshot, updatedAt: Date.now() });
    },
    async deleteNote(k) {
      return notes.delete(k);
    },
    async deleteNotes(f) {
      let n = 0;
      for (const [k, v] of notes) if ((!f.kind || v.kind === f.kind) && (!f.keyPrefix || k.startsWith(f.keyPrefix)) && notes.delete(k)) n++;
      return n;
    },
    async recordFeedback(records) {
      for (const r of records) feedback.push({ symbol: r.symbol, useful: r.useful, root: r.neighborhoodRoot ?? null, cluster: r.keywordCluster ?? null });
    },
    async feedbackFor(symbols, o = {}) {
      const out = new Map<string, FeedbackTally>();
      for (const s of symbols) {
        const rows = feedback.filter((r) => r.symbol === s && (!o.keywordCluster || r.cluster === o.keywordCluster) && (r.root === null || !o.currentRoots?.has(s) || o.currentRoots.get(s) === r.root));
        // Unlike the SQLite store, every asked symbol gets an entry.
        out.set(s, { useful: rows.filter((r) => r.useful).length, notUseful: rows.filter((r) => !r.useful).length });
      }
      return out;
    },
    async recordVocab(entries) {
      for (const e of entries) {
        const k = `${e.keyword}|${e.symbol}`;
        const old = vocab.get(k);
        vocab.set(k, { keyword: e.keyword, symbol: e.symbol, symbolName: e.symbolName, count: (old?.count ?? 0) + 1, cluster: e.cluster ?? old?.cluster ?? null, packageRoot: e.packageRoot ?? old?.packageRoot ?? null });
      }
    },
    async vocabFor(keywords, o = {}) {
      return [...vocab.values()]
        .filter((v) => keywords.includes(v.keyword) && v.count >= (o.minCount ?? 2) && (!o.cluster || v.cluster === o.cluster))
        .sort((a, b) => b.count - a.count);
    },
    async currentSnapshot() {
      return snapshots[snapshots.length - 1] ?? null;
    },
    async packageRoots() {
      return roots();
    },
    async subgraphRoot(packages) {
      const all = roots();
      return merkleRoot([...new Set(packages)].flatMap((p) => (all.has(p) ? [all.get(p)!] : [])));
    },
    async close() {},
  };
}

testGraphStore('naive in-memory reference', async () => createMemoryStore());
