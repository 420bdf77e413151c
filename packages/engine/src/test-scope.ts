import type { GraphNode, GraphStore, NodeId } from '@knowing/graph';
import { CALLABLE_KINDS } from '@knowing/graph';
import type { TestHit, TestScopeResult } from './types.js';

/** Edge types a test reaches code through, followed backwards. */
const REACH_TYPES = ['calls', 'tests'] as const;

/**
 * Tests that reach the changed symbols: a breadth-first search backwards over call edges (and
 * the indexer's `tests` edges) up to `depth` hops. A node counts as a test when the indexer
 * flagged it (each language's path and name conventions) and it is callable, so this works for
 * every language, not only Go's `Test*` functions.
 */
export async function findTests(
  store: GraphStore,
  files: readonly string[],
  changed: readonly GraphNode[],
  depth: number,
): Promise<TestScopeResult> {
  const reached = new Map<NodeId, Map<NodeId, number>>();
  const nodes = new Map<NodeId, GraphNode>();
  for (const symbol of changed) {
    nodes.set(symbol.id, symbol);
    let frontier: NodeId[] = [symbol.id];
    const seen = new Set<NodeId>(frontier);
    for (let d = 1; d <= depth && frontier.length > 0; d++) {
      const next: NodeId[] = [];
      for (const id of frontier) {
        const edges = await store.edgesTo(id, { types: [...REACH_TYPES] });
        for (const edge of edges) {
          if (seen.has(edge.source)) continue;
          seen.add(edge.source);
          next.push(edge.source);
          const byTest = reached.get(edge.source) ?? new Map<NodeId, number>();
          if (!byTest.has(symbol.id)) byTest.set(symbol.id, d);
          reached.set(edge.source, byTest);
        }
      }
      frontier = next;
    }
  }
  const callers = await store.getNodes([...reached.keys()]);
  const tests: TestHit[] = [];
  for (const caller of callers) {
    if (!caller.isTest || !CALLABLE_KINDS.has(caller.kind)) continue;
    const reaches = [...reached.get(caller.id)!.entries()]
      .map(([id, d]) => ({ symbol: nodes.get(id)!, depth: d }))
      .sort((a, b) => a.depth - b.depth || a.symbol.qualifiedName.localeCompare(b.symbol.qualifiedName));
    tests.push({ test: caller, reaches });
  }
  tests.sort((a, b) => a.reaches[0]!.depth - b.reaches[0]!.depth || a.test.qualifiedName.localeCompare(b.test.qualifiedName));
  return {
    files: [...files],
    changedSymbols: changed.length,
    tests,
    testFiles: [...new Set(tests.map((t) => t.test.file))].sort(),
  };
}
