/**
 * Shared by the TypeScript and JavaScript tests: extraction of fixture files, extraction output
 * rendered one line per item, and the graph the core builds from a fixture's extractions.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { GraphEdge, GraphNode } from '@knowing/graph';
import { derive } from '../../src/derive.js';
import type { FileExtraction, LanguageModule, NameRef } from '../../src/languages/types.js';
import { externalNode, Project } from '../../src/resolve.js';
import { extractFile } from './extraction.js';

export { extractFile };

/** Every file under `root` (relative, `/`-separated), sorted. */
export async function listFiles(root: string, directory = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(root, directory), { withFileTypes: true })) {
    const relative = directory ? `${directory}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(root, relative)));
    else out.push(relative);
  }
  return out.sort();
}

export const refText = (ref: NameRef): string => [...ref.qualifier, ref.name].join('.');

export interface Rendered {
  readonly symbols: string[];
  readonly references: string[];
  readonly imports: string[];
}

export function render(extraction: FileExtraction): Rendered {
  const symbols = extraction.symbols;
  const qualified = (index: number): string => (index < 0 ? '<file>' : [...symbols[index]!.scope, symbols[index]!.name].join('.'));
  return {
    symbols: symbols.map((s, index) => {
      let line = `${s.kind} ${qualified(index)} ${s.startLine}-${s.endLine}`;
      if (s.exported) line += ' exported';
      if (s.isTest) line += ' test';
      if (s.parent >= 0) line += ` in ${qualified(s.parent)}`;
      for (const supertype of s.supertypes ?? []) line += ` ${supertype.relation} ${refText(supertype)}`;
      for (const decorator of s.decorators ?? []) line += ` @${refText(decorator)}`;
      if (s.typeHints) line += ` hints ${s.typeHints.map(refText).join(',')}`;
      if (s.valueType) line += ` : ${refText(s.valueType)}`;
      if (s.overrides) line += ' override';
      return line;
    }),
    references: extraction.references.map(
      (r) => `${qualified(r.from)} ${r.kind} ${refText(r)} @${r.line}${r.receiverType ? ` : ${refText(r.receiverType)}` : ''}`,
    ),
    imports: extraction.imports.map((decl) => {
      let line = `${decl.line} ${decl.reexport ? 'export' : 'import'} ${decl.source}`;
      if (decl.names.length > 0) line += ` {${decl.names.map((n) => (n.imported === n.local ? n.local : `${n.imported} as ${n.local}`)).join(', ')}}`;
      if (decl.moduleAlias !== undefined) line += ` * as ${decl.moduleAlias}`;
      return line;
    }),
  };
}

export interface Graph {
  readonly nodes: GraphNode[];
  readonly edges: GraphEdge[];
  /** `kind qualifiedName`, sorted. */
  readonly nodeLines: string[];
  /** `type source -> target` by qualified name, sorted. */
  readonly edgeLines: string[];
}

/**
 * The graph `indexRepository` writes, assembled from the same parts: extraction (each file by
 * `moduleFor(file)`), the core's resolver, its derived passes.
 */
export async function buildGraph(root: string, moduleFor: (file: string) => LanguageModule): Promise<Graph> {
  const files = [];
  for (const file of await listFiles(root)) {
    const language = moduleFor(file);
    files.push({ path: file, language, extraction: await extractFile(language, root, file) });
  }
  const project = new Project('fixture', files);
  const nodes = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  const testTargets = new Map();
  const collect = (output: { edges: GraphEdge[]; externals: Set<string> }): void => {
    edges.push(...output.edges);
    for (const name of output.externals) {
      const node = externalNode('fixture', name);
      nodes.set(node.id, node);
    }
  };
  for (const unit of project.units) {
    for (const node of project.nodesOf(unit)) nodes.set(node.id, node);
    collect(project.edgesOf(unit, testTargets));
  }
  for (const output of derive(project, testTargets).values()) collect(output);
  const name = (id: string): string => nodes.get(id)?.qualifiedName ?? id;
  return {
    nodes: [...nodes.values()],
    edges,
    nodeLines: [...nodes.values()].map((node) => `${node.kind} ${node.qualifiedName}`).sort(),
    edgeLines: edges.map((edge) => `${edge.type} ${name(edge.source)} -> ${name(edge.target)}`).sort(),
  };
}

/** Edges of one type, as `source -> target` lines. */
export function edgesOf(graph: { edgeLines: string[] }, type: string): string[] {
  return graph.edgeLines.filter((line) => line.startsWith(`${type} `)).map((line) => line.slice(type.length + 1));
}
