/**
 * Index a fixture tree into the in-memory store and read the graph back, for the end-to-end
 * graph tests of the language modules.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { GraphEdge, GraphNode } from '@knowing/graph';
import { derive } from '../../src/derive.js';
import { discoverFiles } from '../../src/discover.js';
import { indexRepository } from '../../src/index.js';
import { BUILTIN_LANGUAGES } from '../../src/languages/registry.js';
import type { LanguageModule } from '../../src/languages/types.js';
import { createParser, withTree } from '../../src/parser.js';
import { Project, externalNode } from '../../src/resolve.js';
import type { OwnerOutput, ProjectFile, TestTargets } from '../../src/resolve.js';
import { graphText } from './graph-text.js';
import type { GraphText } from './graph-text.js';
import { createMemoryStore } from './memory-store.js';
import type { MemoryStore } from './memory-store.js';

/** The repository id every fixture is indexed under. */
export const REPO = 'fixture';

/**
 * Index `root` with one language module. Through `indexRepository` once the registry lists
 * the module; until then through the same stages in-process (discover, extract, resolve,
 * derive, one write batch), so the expected graph is the same either way.
 */
export async function indexFixture(root: string, module: LanguageModule, store: MemoryStore): Promise<void> {
  if (BUILTIN_LANGUAGES.includes(module)) {
    await indexRepository({ root, store, repoId: REPO, workers: 0, languages: [module.id] });
    return;
  }
  const discovery = await discoverFiles({ root, accept: (file) => module.extensions.some((ext) => file.endsWith(ext)) });
  const files: ProjectFile[] = [];
  for (const file of discovery.files) {
    const source = await readFile(file.absolutePath, 'utf8');
    const parser = await createParser(module.grammarFor(file.path));
    const extraction = withTree(parser, source, (tree) => module.extract(tree.rootNode, source, file.path));
    files.push({ path: file.path, extraction, language: module });
  }
  const goMod = await readFile(path.join(root, 'go.mod'), 'utf8').catch(() => '');
  const goModulePath = /^\s*module\s+(\S+)/m.exec(goMod)?.[1];
  const project = new Project(REPO, files, { allPaths: discovery.files.map((f) => f.path), ...(goModulePath ? { goModulePath } : {}) });
  const testTargets: TestTargets = new Map();
  const externals = new Map<string, GraphNode>();
  const collect = (output: OwnerOutput): void => {
    for (const name of output.externals) if (!externals.has(name)) externals.set(name, externalNode(REPO, name));
  };
  const writes = project.units.map((unit) => {
    const output = project.edgesOf(unit, testTargets);
    collect(output);
    const file = discovery.files.find((f) => f.path === unit.path)!;
    return {
      file: { path: unit.path, language: module.id, contentHash: file.contentHash, sizeBytes: file.sizeBytes, indexedAt: 0, syntaxErrors: unit.ext.syntaxErrors },
      nodes: project.nodesOf(unit),
      edges: output.edges,
    };
  });
  const derived = derive(project, testTargets);
  for (const output of derived.values()) collect(output);
  await store.applyBatch({
    files: writes,
    ownedEdges: [...derived].map(([owner, output]) => ({ owner, edges: output.edges })),
    externalNodes: [...externals.values()],
    repo: { id: REPO, root, commit: null, indexedAt: 0 },
  });
}

async function readAll(store: MemoryStore): Promise<{ nodes: GraphNode[]; edges: GraphEdge[] }> {
  const nodes: GraphNode[] = [];
  for await (const node of store.allNodes()) nodes.push(node);
  const edges: GraphEdge[] = [];
  for await (const edge of store.allEdges()) edges.push(edge);
  return { nodes, edges };
}

/** A stored graph as text lines (see `graph-text.ts`) and as records. */
export async function readGraph(store: MemoryStore): Promise<{ text: GraphText; nodes: GraphNode[]; edges: GraphEdge[] }> {
  const { nodes, edges } = await readAll(store);
  return { text: await graphText(store), nodes, edges };
}

/** The fixture's graph as text lines (see `graph-text.ts`) and as records. */
export async function fixtureGraph(root: string, module: LanguageModule): Promise<{ text: GraphText; nodes: GraphNode[]; edges: GraphEdge[] }> {
  const store = createMemoryStore();
  await indexFixture(root, module, store);
  return readGraph(store);
}

export interface RepoGraph {
  readonly nodes: GraphNode[];
  readonly edges: GraphEdge[];
  /** `kind qualifiedName` of every non-external node, sorted. */
  readonly nodeLines: string[];
  /** Edge type → sorted `source -> target` lines between repository nodes. */
  readonly edgeLines: Map<string, string[]>;
  readonly qn: Map<string, string>;
}

/** The fixture's graph, with the repository's own nodes and the edges between them as sorted lines. */
export async function repoGraph(root: string, module: LanguageModule): Promise<RepoGraph> {
  const store = createMemoryStore();
  await indexFixture(root, module, store);
  const { nodes, edges } = await readAll(store);
  const qn = new Map(nodes.map((node) => [node.id, node.qualifiedName]));
  const internal = new Set(nodes.filter((node) => !node.external).map((node) => node.id));
  const edgeLines = new Map<string, string[]>();
  for (const edge of edges) {
    if (!internal.has(edge.source) || !internal.has(edge.target)) continue;
    edgeLines.set(edge.type, [...(edgeLines.get(edge.type) ?? []), `${qn.get(edge.source)} -> ${qn.get(edge.target)}`]);
  }
  for (const lines of edgeLines.values()) lines.sort();
  const nodeLines = nodes.filter((node) => !node.external).map((node) => `${node.kind} ${node.qualifiedName}`).sort();
  return { nodes, edges, nodeLines, edgeLines, qn };
}
