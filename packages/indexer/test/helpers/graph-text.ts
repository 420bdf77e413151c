/**
 * Render a stored graph as sorted text lines, for exact comparisons in tests:
 * `node <kind> <qualified name>` and `edge <type> <source QN> -> <target QN>`.
 */
import type { GraphEdge, GraphNode, GraphStore } from '@knowing/graph';

export interface GraphText {
  readonly nodes: string[];
  readonly edges: string[];
  /** Full records (every field), for identical-graph comparisons. */
  readonly nodeRecords: string[];
  readonly edgeRecords: string[];
}

export async function graphText(store: GraphStore): Promise<GraphText> {
  const nodes: GraphNode[] = [];
  for await (const node of store.allNodes()) nodes.push(node);
  const edges: GraphEdge[] = [];
  for await (const edge of store.allEdges()) edges.push(edge);
  const qn = new Map(nodes.map((node) => [node.id, node.qualifiedName]));
  return {
    nodes: nodes.map((node) => `node ${node.kind} ${node.qualifiedName}`).sort(),
    edges: edges.map((edge) => `edge ${edge.type} ${qn.get(edge.source) ?? edge.source} -> ${qn.get(edge.target) ?? edge.target}`).sort(),
    nodeRecords: nodes.map((node) => JSON.stringify(node)).sort(),
    edgeRecords: edges
      .map((edge) => JSON.stringify({ ...edge, source: qn.get(edge.source) ?? edge.source, target: qn.get(edge.target) ?? edge.target }))
      .sort(),
  };
}

/** Edges of one type, as `source -> target` lines. */
export function edgesOfType(text: GraphText, type: string): string[] {
  const prefix = `edge ${type} `;
  return text.edges.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length));
}
