/**
 * An in-memory GraphStore for the indexer's tests, following the WriteBatch semantics of
 * @knowing/graph: deleted files lose their nodes and owned edges; a written file's nodes
 * replace the old ones and its owned edges are replaced; owned-edge entries replace their
 * owner's edges; dangling edges and untouched external nodes are dropped. Text search,
 * feedback and vocab are minimal.
 */
import { edgeKey, merkleRoot, packageOf, snapshotId } from '@knowing/graph';
import type {
  EdgeQueryOptions,
  FileRecord,
  FindByNameOptions,
  GraphCounts,
  GraphEdge,
  GraphNode,
  GraphStore,
  Note,
  NodeId,
  RepoInfo,
  Snapshot,
  LexicalDocument,
  WriteBatch,
  WriteResult,
} from '@knowing/graph';

export interface MemoryStore extends GraphStore {
  /** How many batches were applied. */
  readonly batches: number;
  /** Owners with at least one edge. */
  owners(): string[];
  /** The lexical document last written for a node. */
  lexical(id: NodeId): LexicalDocument | undefined;
}

export function createMemoryStore(): MemoryStore {
  let repo: RepoInfo | null = null;
  const files = new Map<string, FileRecord>();
  const nodes = new Map<NodeId, GraphNode>();
  const nodesByFile = new Map<string, Set<NodeId>>();
  const owned = new Map<string, GraphEdge[]>();
  const notes = new Map<string, Note>();
  const lexical = new Map<NodeId, LexicalDocument>();
  let snapshot: Snapshot | null = null;
  let batches = 0;
  let closed = false;

  function allEdges(): GraphEdge[] {
    const out: GraphEdge[] = [];
    for (const edges of owned.values()) out.push(...edges);
    return out;
  }

  function removeFileNodes(file: string): number {
    const ids = nodesByFile.get(file);
    if (!ids) return 0;
    for (const id of ids) nodes.delete(id);
    nodesByFile.delete(file);
    return ids.size;
  }

  function computeSnapshot(): Snapshot {
    const byPackage = new Map<string, string[]>();
    for (const edge of allEdges()) {
      const source = nodes.get(edge.source);
      const pkg = source?.file ? packageOf(source.file) : '_external';
      const list = byPackage.get(pkg) ?? [];
      list.push(edgeKey(edge.source, edge.target, edge.type));
      byPackage.set(pkg, list);
    }
    const roots = [...byPackage.values()].map((leaves) => merkleRoot(leaves));
    const root = merkleRoot(roots);
    return {
      id: snapshotId(root),
      root,
      generation: (snapshot?.generation ?? 0) + 1,
      createdAt: Date.now(),
      nodeCount: nodes.size,
      edgeCount: allEdges().length,
    };
  }

  const store: MemoryStore = {
    get batches() {
      return batches;
    },
    lexical: (id) => (nodes.has(id) ? lexical.get(id) : undefined),
    owners: () => [...owned.entries()].filter(([, edges]) => edges.length > 0).map(([owner]) => owner).sort(),
    async repo() {
      return repo;
    },
    async getNode(id) {
      return nodes.get(id);
    },
    async getNodes(ids) {
      return ids.map((id) => nodes.get(id)).filter((node): node is GraphNode => node !== undefined);
    },
    async findNodesByName(name: string, options: FindByNameOptions = {}) {
      const match = options.match ?? 'exact';
      const lower = name.toLowerCase();
      const out: GraphNode[] = [];
      for (const node of nodes.values()) {
        if (node.external && !options.includeExternal) continue;
        if (options.kinds && !options.kinds.includes(node.kind)) continue;
        const candidate = node.name.toLowerCase();
        const ok =
          match === 'exact'
            ? node.name === name
            : match === 'exact_ci'
              ? candidate === lower
              : match === 'prefix'
                ? candidate.startsWith(lower)
                : candidate.includes(lower);
        if (ok) out.push(node);
        if (out.length >= (options.limit ?? 100)) break;
      }
      return out;
    },
    async findNodesByQualifiedName(qualifiedName) {
      return [...nodes.values()].filter((node) => node.qualifiedName === qualifiedName);
    },
    async nodesInFile(path) {
      return [...(nodesByFile.get(path) ?? [])].map((id) => nodes.get(id)!).sort((a, b) => a.startLine - b.startLine);
    },
    async nodesUnderPath(prefix, options = {}) {
      return [...nodes.values()]
        .filter((node) => node.file.startsWith(prefix) && (!options.kinds || options.kinds.includes(node.kind)))
        .slice(0, options.limit ?? Infinity);
    },
    async edgesFrom(id, options: EdgeQueryOptions = {}) {
      return allEdges()
        .filter((edge) => edge.source === id && (!options.types || options.types.includes(edge.type)))
        .slice(0, options.limit ?? Infinity);
    },
    async edgesTo(id, options: EdgeQueryOptions = {}) {
      return allEdges()
        .filter((edge) => edge.target === id && (!options.types || options.types.includes(edge.type)))
        .slice(0, options.limit ?? Infinity);
    },
    async getFile(path) {
      return files.get(path);
    },
    async listFiles() {
      return [...files.values()];
    },
    async counts(): Promise<GraphCounts> {
      const nodesByKind: Record<string, number> = Object.create(null) as Record<string, number>;
      const nodesByLanguage: Record<string, number> = Object.create(null) as Record<string, number>;
      for (const node of nodes.values()) {
        nodesByKind[node.kind] = (nodesByKind[node.kind] ?? 0) + 1;
        if (node.language) nodesByLanguage[node.language] = (nodesByLanguage[node.language] ?? 0) + 1;
      }
      const edgesByType: Record<string, number> = Object.create(null) as Record<string, number>;
      const edges = allEdges();
      for (const edge of edges) edgesByType[edge.type] = (edgesByType[edge.type] ?? 0) + 1;
      return { nodes: nodes.size, edges: edges.length, files: files.size, nodesByKind, nodesByLanguage, edgesByType };
    },
    async *allNodes() {
      yield* [...nodes.values()];
    },
    async *allEdges() {
      yield* allEdges();
    },
    async applyBatch(batch: WriteBatch): Promise<WriteResult> {
      if (closed) throw new Error('store closed');
      batches++;
      let nodesWritten = 0;
      let edgesWritten = 0;
      let nodesDeleted = 0;
      const edgesBefore = allEdges().length;
      for (const file of batch.deleteFiles ?? []) {
        files.delete(file);
        nodesDeleted += removeFileNodes(file);
        owned.delete(file);
      }
      for (const write of batch.files ?? []) {
        files.set(write.file.path, write.file);
        const before = nodesByFile.get(write.file.path) ?? new Set<NodeId>();
        const after = new Set(write.nodes.map((node) => node.id));
        for (const id of before) {
          if (!after.has(id)) {
            nodes.delete(id);
            nodesDeleted++;
          }
        }
        for (const node of write.nodes) nodes.set(node.id, node);
        for (const node of write.nodes) {
          const doc = write.lexical?.get(node.id);
          if (doc) lexical.set(node.id, doc);
          else lexical.delete(node.id);
        }
        nodesByFile.set(write.file.path, after);
        nodesWritten += write.nodes.length;
        owned.set(write.file.path, [...write.edges]);
        edgesWritten += write.edges.length;
      }
      for (const entry of batch.ownedEdges ?? []) {
        owned.set(entry.owner, [...entry.edges]);
        edgesWritten += entry.edges.length;
      }
      for (const node of batch.externalNodes ?? []) {
        nodes.set(node.id, node);
        nodesWritten++;
      }
      // Dangling edges go, then external nodes nothing touches any more.
      for (const [owner, edges] of owned) owned.set(owner, edges.filter((edge) => nodes.has(edge.source) && nodes.has(edge.target)));
      const touched = new Set<NodeId>();
      for (const edge of allEdges()) {
        touched.add(edge.source);
        touched.add(edge.target);
      }
      for (const node of [...nodes.values()]) {
        if (node.external && !touched.has(node.id)) {
          nodes.delete(node.id);
          nodesDeleted++;
        }
      }
      if (batch.repo) repo = batch.repo;
      snapshot = computeSnapshot();
      const edgesAfter = allEdges().length;
      return {
        nodesWritten,
        edgesWritten,
        nodesDeleted,
        edgesDeleted: Math.max(0, edgesBefore + edgesWritten - edgesAfter),
        snapshot,
      };
    },
    async search() {
      return [];
    },
    async lexicalSearch() {
      return [];
    },
    async getNote(key) {
      return notes.get(key);
    },
    async putNote(key, kind, value, snapshotIdValue = null) {
      notes.set(key, { key, kind, value: new Uint8Array(value), snapshot: snapshotIdValue, updatedAt: Date.now() });
    },
    async deleteNote(key) {
      return notes.delete(key);
    },
    async deleteNotes(filter) {
      let count = 0;
      for (const note of [...notes.values()]) {
        if ((filter.kind === undefined || note.kind === filter.kind) && (filter.keyPrefix === undefined || note.key.startsWith(filter.keyPrefix))) {
          notes.delete(note.key);
          count++;
        }
      }
      return count;
    },
    async recordFeedback() {},
    async feedbackFor() {
      return new Map();
    },
    async recordVocab() {},
    async vocabFor() {
      return [];
    },
    async currentSnapshot() {
      return snapshot;
    },
    async packageRoots() {
      return new Map();
    },
    async subgraphRoot() {
      return merkleRoot([]);
    },
    async close() {
      closed = true;
    },
  };
  return store;
}
