import type {
  EdgeQueryOptions,
  FindByNameOptions,
  GraphEdge,
  GraphNode,
  GraphReader,
  LanguageId,
  NodeKind,
  VocabAssociation,
  VocabStore,
} from '@knowing/graph';

/** A node for tests: qualified name = `<file>.<scopes…>.<name>`, as the indexer writes it. */
export function node(
  file: string,
  path: string,
  kind: NodeKind = 'function',
  extra: Partial<GraphNode> = {},
): GraphNode {
  const name = path.split(/\.|::/).pop()!;
  const language: LanguageId = file.endsWith('.py') ? 'python' : file.endsWith('.go') ? 'go' : file.endsWith('.rs') ? 'rust' : 'typescript';
  return {
    id: `${file}#${path}#${kind}`,
    name,
    qualifiedName: `${file}.${path}`,
    kind,
    language,
    file,
    startLine: 1,
    endLine: 2,
    signature: '',
    doc: '',
    isTest: false,
    external: false,
    ...extra,
  };
}

export function edge(source: GraphNode, target: GraphNode, type = 'calls'): GraphEdge {
  return { source: source.id, target: target.id, type, confidence: 1, provenance: 'ast_resolved' };
}

/**
 * An in-memory GraphReader with just enough behaviour for these tests (the real store is
 * written elsewhere): name lookups honour `match`, `kinds`, `includeExternal` and `limit`,
 * and count calls so tests can check lookups are shared.
 */
export class FakeGraph implements GraphReader {
  readonly nodes: GraphNode[];
  readonly edges: GraphEdge[];
  readonly nameLookups: string[] = [];

  constructor(nodes: GraphNode[], edges: GraphEdge[] = []) {
    this.nodes = nodes;
    this.edges = edges;
  }

  async repo() {
    return null;
  }
  async getNode(id: string) {
    return this.nodes.find((n) => n.id === id);
  }
  async getNodes(ids: readonly string[]) {
    return ids.flatMap((id) => this.nodes.filter((n) => n.id === id));
  }
  async findNodesByName(name: string, options: FindByNameOptions = {}) {
    this.nameLookups.push(name);
    const match = options.match ?? 'exact';
    const lower = name.toLowerCase();
    const hits = this.nodes.filter((n) => {
      if (n.external && !options.includeExternal) return false;
      if (options.kinds && !options.kinds.includes(n.kind)) return false;
      const candidate = n.name.toLowerCase();
      switch (match) {
        case 'exact':
          return n.name === name;
        case 'exact_ci':
          return candidate === lower;
        case 'prefix':
          return candidate.startsWith(lower);
        case 'substring':
          return candidate.includes(lower);
      }
    });
    return hits.slice(0, options.limit ?? 100);
  }
  async findNodesByQualifiedName(qualifiedName: string) {
    return this.nodes.filter((n) => n.qualifiedName === qualifiedName);
  }
  async nodesInFile(path: string) {
    return this.nodes.filter((n) => n.file === path);
  }
  async nodesUnderPath(prefix: string) {
    return this.nodes.filter((n) => n.file.startsWith(prefix));
  }
  private select(edges: GraphEdge[], options: EdgeQueryOptions = {}) {
    const typed = options.types ? edges.filter((e) => options.types!.includes(e.type)) : edges;
    return options.limit === undefined ? typed : typed.slice(0, options.limit);
  }
  async edgesFrom(id: string, options?: EdgeQueryOptions) {
    return this.select(this.edges.filter((e) => e.source === id), options);
  }
  async edgesTo(id: string, options?: EdgeQueryOptions) {
    return this.select(this.edges.filter((e) => e.target === id), options);
  }
  async getFile() {
    return undefined;
  }
  async listFiles() {
    return [];
  }
  async counts() {
    return { nodes: this.nodes.length, edges: this.edges.length, files: 0, nodesByKind: {}, nodesByLanguage: {}, edgesByType: {} };
  }
  async *allNodes() {
    yield* this.nodes;
  }
  async *allEdges() {
    yield* this.edges;
  }
}

/** A VocabStore over a fixed list of associations, filtering as the contract says. */
export class FakeVocab implements VocabStore {
  readonly calls: { keywords: readonly string[]; options: { minCount?: number; cluster?: string } | undefined }[] = [];
  constructor(private readonly rows: VocabAssociation[]) {}
  async recordVocab() {}
  async vocabFor(keywords: readonly string[], options?: { readonly minCount?: number; readonly cluster?: string }) {
    this.calls.push({ keywords, options });
    return this.rows
      .filter((r) => keywords.includes(r.keyword))
      .filter((r) => r.count >= (options?.minCount ?? 1))
      .filter((r) => options?.cluster === undefined || r.cluster === options.cluster)
      .sort((a, b) => b.count - a.count);
  }
}
