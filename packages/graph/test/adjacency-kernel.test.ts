import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildAdjacency, deserializeAdjacency, serializeAdjacency } from '../src/index.js';
import type { Adjacency, AdjacencyEdge } from '../src/index.js';
import { ADJACENCY_KERNEL, encodeAdjacencyKernel } from '../src/adjacency-kernel.js';
import { kernelBytes } from '../src/wasm.js';

/** A random multigraph of `n` nodes and about `m` edges of three types and two provenances. */
function randomGraph(seed: number, n: number, m: number): Adjacency {
  let state = seed;
  const random = (): number => ((state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const ids = Array.from({ length: n }, (_, i) => `n${i}`);
  const edges: AdjacencyEdge[] = Array.from({ length: m }, () => ({
    source: ids[Math.floor(random() * n)]!,
    target: ids[Math.floor(random() * n)]!,
    type: ['calls', 'imports', 'references'][Math.floor(random() * 3)]!,
    provenance: random() < 0.3 ? 'lsp_resolved' : 'ast_resolved',
    confidence: 0.5,
  }));
  return buildAdjacency(ids.map((id) => ({ id })), edges);
}

/** The in-edge index by its definition: every edge, ordered by target, then source, then edge. */
function expectedInEdges(adjacency: Adjacency): { offsets: number[]; sources: number[]; edges: number[] } {
  const triples: [number, number, number][] = [];
  for (let source = 0; source < adjacency.nodeCount; source++) {
    for (let e = adjacency.outOffsets[source]!; e < adjacency.outOffsets[source + 1]!; e++) triples.push([adjacency.outTargets[e]!, source, e]);
  }
  triples.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const offsets = new Array<number>(adjacency.nodeCount + 1).fill(0);
  for (const [target] of triples) offsets[target + 1]!++;
  for (let i = 0; i < adjacency.nodeCount; i++) offsets[i + 1]! += offsets[i]!;
  return { offsets, sources: triples.map((t) => t[1]), edges: triples.map((t) => t[2]) };
}

const inEdgesOf = (adjacency: Adjacency) => ({ offsets: [...adjacency.inOffsets], sources: [...adjacency.inSources], edges: [...adjacency.inEdges] });

/** A serialized graph with one of its arrays changed (offsets at `offsetsAt`, targets at `targetsAt` bytes). */
function corrupt(adjacency: Adjacency, change: (view: DataView, offsetsAt: number, targetsAt: number) => void): Uint8Array {
  const bytes = serializeAdjacency(adjacency);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const align4 = (x: number) => (x + 3) & ~3;
  const offsetsAt = 24 + align4(view.getUint32(16, true)) + align4(view.getUint32(20, true)) + align4(adjacency.nodeCount);
  change(view, offsetsAt, offsetsAt + 4 * (adjacency.nodeCount + 1));
  return bytes;
}

const messageOf = (decode: (bytes: Uint8Array) => unknown, bytes: Uint8Array): string => {
  try {
    decode(bytes);
  } catch (error) {
    return (error as Error).message;
  }
  return 'decoded';
};

describe('the adjacency kernels', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('index the in-edges by target, then source, when built and when decoded', () => {
    for (const [seed, n, m] of [
      [1, 300, 1500],
      [2, 50, 2000],
      [3, 1000, 400],
    ] as const) {
      const built = randomGraph(seed, n, m);
      expect(inEdgesOf(built)).toEqual(expectedInEdges(built));
      expect(inEdgesOf(deserializeAdjacency(serializeAdjacency(built)))).toEqual(expectedInEdges(built));
    }
  });

  it('name what is wrong with a damaged blob: offsets that do not span the edges, decrease, or an edge out of range', () => {
    const graph = randomGraph(4, 40, 120);
    const n = graph.nodeCount;
    const m = graph.edgeCount;
    const cases: [Uint8Array, string][] = [
      [corrupt(graph, (view, offsets) => view.setInt32(offsets + 4 * n, m - 1, true)), 'offsets do not span the edges'],
      [corrupt(graph, (view, offsets) => view.setInt32(offsets + 4 * 7, view.getInt32(offsets + 4 * 8, true) + 1, true)), 'offsets decrease at node 7'],
      [corrupt(graph, (view, _offsets, targets) => view.setInt32(targets + 4 * 33, n, true)), 'edge 33 is out of range'],
      [corrupt(graph, (view, _offsets, targets) => view.setInt32(targets + 4 * 5, -1, true)), 'edge 5 is out of range'],
    ];
    for (const [bytes, message] of cases) expect(messageOf(deserializeAdjacency, bytes)).toContain(message);
  });

  it('give what the TypeScript loops give where WebAssembly is missing', async () => {
    const graph = randomGraph(5, 400, 2500);
    const bytes = serializeAdjacency(graph);
    const damaged = corrupt(graph, (view, offsets) => view.setInt32(offsets + 4 * 11, view.getInt32(offsets + 4 * 12, true) + 2, true));
    vi.stubGlobal('WebAssembly', undefined);
    vi.resetModules();
    const withoutKernel = await import('../src/index.js');
    const decoded = withoutKernel.deserializeAdjacency(bytes);
    expect(inEdgesOf(decoded)).toEqual(expectedInEdges(graph));
    expect(messageOf(withoutKernel.deserializeAdjacency, damaged)).toBe(messageOf(deserializeAdjacency, damaged));
    expect(messageOf(withoutKernel.deserializeAdjacency, damaged)).toContain('offsets decrease at node 11');
  });
});

describe('the adjacency kernel module', () => {
  it('is stored as the emitter writes it', () => {
    const emitted = Buffer.from(encodeAdjacencyKernel()).toString('base64');
    expect(ADJACENCY_KERNEL, `emitted anew; set ADJACENCY_KERNEL in src/adjacency-kernel.ts to '${emitted}'`).toBe(emitted);
    expect([...kernelBytes(ADJACENCY_KERNEL)]).toEqual([...encodeAdjacencyKernel()]);
  });
});
