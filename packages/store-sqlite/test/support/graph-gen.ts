import { nodeId, qualifiedName, type FileWrite, type GraphEdge, type GraphNode, type RepoInfo } from '@knowing/graph';

export const REPO: RepoInfo = { id: 'github.com/acme/generated', root: '/tmp/generated', commit: null, indexedAt: 1_700_000_000_000 };

/** A function node of a generated file. */
export function fn(file: string, name: string, line: number, doc = ''): GraphNode {
  const qn = qualifiedName(file, [], name);
  return {
    id: nodeId(REPO.id, qn, 'function'),
    name,
    qualifiedName: qn,
    kind: 'function',
    language: 'python',
    file,
    startLine: line,
    endLine: line + 3,
    signature: `def ${name}():`,
    doc,
    isTest: false,
    external: false,
  };
}

/** An external placeholder, as the indexer writes one for a name outside the repository. */
export function external(name: string): GraphNode {
  return {
    id: nodeId(REPO.id, `external://${name}`, 'external'),
    name,
    qualifiedName: `external://${name}`,
    kind: 'external',
    language: '',
    file: '',
    startLine: 0,
    endLine: 0,
    signature: '',
    doc: '',
    isTest: false,
    external: true,
  };
}

export function calls(a: GraphNode, b: GraphNode, type = 'calls'): GraphEdge {
  return { source: a.id, target: b.id, type, confidence: 0.9, provenance: 'ast_resolved', line: a.startLine + 1 };
}

/**
 * `files` files of `perFile` functions in `dirs` directories; each function calls the next
 * one in its file and the first function of the previous file. `tag` changes every name.
 */
export function generate(files: number, perFile: number, tag = 'v0', dirs = 5): FileWrite[] {
  const writes: FileWrite[] = [];
  let previous: GraphNode | undefined;
  for (let f = 0; f < files; f++) {
    const path = `src/pkg${f % dirs}/module_${f}.py`;
    const nodes: GraphNode[] = [];
    for (let i = 0; i < perFile; i++) {
      nodes.push(fn(path, `handle_${tag}_${f}_${i}`, 1 + i * 5, `Handles ${tag} case ${i} of module ${f}.`));
    }
    const edges: GraphEdge[] = [];
    for (let i = 0; i + 1 < nodes.length; i++) edges.push(calls(nodes[i]!, nodes[i + 1]!));
    if (previous) edges.push(calls(nodes[0]!, previous, 'references'));
    previous = nodes[0];
    writes.push({
      file: { path, language: 'python', contentHash: `${tag}-${f}`, sizeBytes: 100 * perFile, indexedAt: 1_700_000_000_000, syntaxErrors: 0 },
      nodes,
      edges,
    });
  }
  return writes;
}
