/**
 * Namespace credit: rule 4 of the matching (dot-bounded containment, ../shared/bench/MATCHING.md)
 * credits a returned `module Rack` for every ground-truth entry below `Rack`, whatever the task.
 * A system that returns the namespace wrappers a Ruby file reopens (`module Rack` around `class
 * Rack::Lint`) scores those hits without pointing at anything. The retrieval benchmark prints
 * every system's figures also with that credit left out. A wrapper is what the engine itself
 * neither seeds nor returns: a module whose members are all types (`namespaceWrappers`).
 */
import { namespaceWrappers } from '@knowing/engine';
import type { GraphNode, GraphStore, NodeId } from '@knowing/graph';
import { normalizeSymbol } from './matching.js';

const terminalName = (symbol: string): string => symbol.replace(/::/g, '.').split('.').pop()!.toLowerCase();

/**
 * The returned list as the namespaceless figures score it: a namespace wrapper among the first
 * ten keeps its name only for a task whose ground truth names that namespace itself (same last
 * component); else an empty name, which matches nothing and keeps every other symbol's rank.
 * `memo` caches the wrapper test per node until the next index.
 */
export async function withoutNamespaceCredit(store: GraphStore, nodes: readonly GraphNode[], groundTruth: readonly string[], memo: Map<NodeId, boolean>): Promise<string[]> {
  const named = new Set(groundTruth.map((g) => terminalName(normalizeSymbol(g))));
  const wrappers = await namespaceWrappers(store, nodes.slice(0, 10), memo);
  return nodes.map((node) => (wrappers.has(node.id) && !named.has(terminalName(normalizeSymbol(node.qualifiedName))) ? '' : node.qualifiedName));
}
