import type { GraphNode, GraphStore, NodeId } from '@knowing/graph';
import { runnableTest, storeTestGraph } from './test-runners.js';
import type { RunnableTest } from './test-runners.js';
import type { TestHit, TestScopeResult } from './types.js';

/** Edge types a test reaches code through, followed backwards. */
const REACH_TYPES = ['calls', 'tests'] as const;

/**
 * Tests that reach the changed symbols: a breadth-first search backwards over call edges (and
 * the indexer's `tests` edges) up to `depth` hops. Every node reached stands for the test its
 * language's runner would run for it (`runnableTest`: the node itself, or the test function a
 * helper is nested in); fixtures, module-level helpers and non-test code named like a test
 * stand for none. A changed symbol that is itself a test reaches itself at depth 0.
 */
export async function findTests(
  store: GraphStore,
  files: readonly string[],
  changed: readonly GraphNode[],
  depth: number,
): Promise<TestScopeResult> {
  /** Node reached → changed symbol → fewest hops. */
  const reached = new Map<NodeId, Map<NodeId, number>>();
  const nodes = new Map<NodeId, GraphNode>();
  const reach = (from: NodeId, symbol: NodeId, d: number): void => {
    const bySymbol = reached.get(from) ?? new Map<NodeId, number>();
    if (!bySymbol.has(symbol)) bySymbol.set(symbol, d);
    reached.set(from, bySymbol);
  };
  for (const symbol of changed) {
    nodes.set(symbol.id, symbol);
    reach(symbol.id, symbol.id, 0);
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
          reach(edge.source, symbol.id, d);
        }
      }
      frontier = next;
    }
  }

  const graph = storeTestGraph(store);
  const byTest = new Map<NodeId, { test: RunnableTest; reaches: Map<NodeId, number> }>();
  for (const node of await store.getNodes([...reached.keys()])) {
    const test = await runnableTest(node, graph);
    if (!test) continue;
    const entry = byTest.get(test.test.id) ?? { test, reaches: new Map<NodeId, number>() };
    for (const [symbol, d] of reached.get(node.id)!) entry.reaches.set(symbol, Math.min(d, entry.reaches.get(symbol) ?? d));
    byTest.set(test.test.id, entry);
  }

  const tests: TestHit[] = [...byTest.values()].map(({ test, reaches }) => ({
    test: test.test,
    runner: test.runner,
    id: test.id,
    reaches: [...reaches.entries()]
      .map(([id, d]) => ({ symbol: nodes.get(id)!, depth: d }))
      .sort((a, b) => a.depth - b.depth || a.symbol.qualifiedName.localeCompare(b.symbol.qualifiedName)),
  }));
  tests.sort((a, b) => a.reaches[0]!.depth - b.reaches[0]!.depth || a.test.qualifiedName.localeCompare(b.test.qualifiedName));
  return {
    files: [...files],
    changedSymbols: changed.length,
    tests,
    testFiles: [...new Set(tests.map((t) => t.test.file))].sort(),
  };
}
