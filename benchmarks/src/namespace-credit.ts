/**
 * Namespace credit: rule 4 of the matching (dot-bounded containment, ../shared/bench/MATCHING.md)
 * credits a returned `module Rack` for every ground-truth entry below `Rack`, whatever the task.
 * A system that returns the namespace wrappers a Ruby file reopens (`module Rack` around `class
 * Rack::Lint`) scores those hits without pointing at anything. The retrieval benchmark prints
 * every system's figures also with that credit left out.
 */
import type { GraphNode, GraphStore } from '@knowing/graph';
import { normalizeSymbol } from './matching.js';

/** Member kinds that make a module a namespace around other declarations. */
const DECLARED_TYPE_KINDS = new Set<string>(['class', 'struct', 'interface', 'trait', 'enum', 'module']);
/** Member kinds that make a module code of its own (a mixin, a utility module). */
const CODE_KINDS = new Set<string>(['function', 'method', 'constructor']);

/**
 * Whether a returned symbol is a namespace wrapper: a module declaration that encloses other
 * types or modules and no code of its own (Ruby's `module Rack` reopened around `class
 * Rack::Lint` in each file). Rule 4 of the matching (dot-bounded containment) credits such a
 * symbol for every ground-truth entry below the namespace, whatever the task, so the benchmark
 * also prints each system's figures with that credit left out (see `namespaceless`).
 */
export async function isNamespaceWrapper(store: GraphStore, node: GraphNode, known: Map<string, boolean>): Promise<boolean> {
  if (node.kind !== 'module') return false;
  let wrapper = known.get(node.id);
  if (wrapper === undefined) {
    const members = await store.getNodes((await store.edgesFrom(node.id, { types: ['contains'] })).map((e) => e.target));
    wrapper = members.some((member) => DECLARED_TYPE_KINDS.has(member.kind)) && !members.some((member) => CODE_KINDS.has(member.kind));
    known.set(node.id, wrapper);
  }
  return wrapper;
}

const terminalName = (symbol: string): string => symbol.replace(/::/g, '.').split('.').pop()!.toLowerCase();

/**
 * The returned list as the namespaceless figures score it: a namespace wrapper keeps its name
 * only for a task whose ground truth names that namespace itself (same last component); else an
 * empty name, which matches nothing and keeps every other symbol's rank.
 */
export async function withoutNamespaceCredit(store: GraphStore, nodes: readonly GraphNode[], groundTruth: readonly string[], known: Map<string, boolean>): Promise<string[]> {
  const named = new Set(groundTruth.map((g) => terminalName(normalizeSymbol(g))));
  return Promise.all(
    nodes.map(async (node, rank) =>
      rank < 10 && !named.has(terminalName(normalizeSymbol(node.qualifiedName))) && (await isNamespaceWrapper(store, node, known)) ? '' : node.qualifiedName,
    ),
  );
}
