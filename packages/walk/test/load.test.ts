import { beforeEach, describe, expect, it } from 'vitest';
import { NodeFlag, nodeId } from '@knowing/graph';
import type { GraphEdge, GraphNode, Note, NoteStore, NodeKind } from '@knowing/graph';
import { ADJACENCY_NOTE_KIND } from '../src/load.js';
import { forgetAdjacency, loadAdjacency } from '../src/index.js';
import type { AdjacencyReader } from '../src/index.js';

function node(name: string, kind: NodeKind, extra: Partial<GraphNode> = {}): GraphNode {
  const file = extra.external ? '' : 'src/app.ts';
  return {
    id: nodeId('repo', `${file}.${name}`, kind),
    name,
    qualifiedName: `${file}.${name}`,
    kind,
    language: extra.external ? '' : 'typescript',
    file,
    startLine: 1,
    endLine: 2,
    signature: name,
    doc: '',
    isTest: false,
    external: false,
    ...extra,
  };
}

/** A tiny in-memory graph reader that counts full scans, with a snapshot it can advance. */
class FakeGraph implements AdjacencyReader {
  scans = 0;
  snapshot = 'snap-1';
  constructor(
    public nodes: GraphNode[],
    public edges: GraphEdge[],
  ) {}
  async *allNodes(): AsyncIterable<GraphNode> {
    this.scans++;
    yield* this.nodes;
  }
  async *allEdges(): AsyncIterable<GraphEdge> {
    yield* this.edges;
  }
}

class FakeNotes implements NoteStore {
  notes = new Map<string, Note>();
  writes = 0;
  failWrites = false;
  async getNote(key: string) {
    return this.notes.get(key);
  }
  async putNote(key: string, kind: string, value: Uint8Array, snapshot: string | null = null) {
    if (this.failWrites) throw new Error('read-only');
    this.writes++;
    this.notes.set(key, { key, kind, value: value.slice(), snapshot, updatedAt: Date.now() });
  }
  async deleteNote(key: string) {
    return this.notes.delete(key);
  }
  async deleteNotes() {
    return 0;
  }
}

const service = node('Service', 'class');
const run = node('Service.run', 'method');
const testRun = node('test_run', 'function', { isTest: true, file: 'test/app.test.ts' });
const lib = node('lib.fetch', 'external', { external: true });
const edges: GraphEdge[] = [
  { source: service.id, target: run.id, type: 'contains', confidence: 1, provenance: 'derived' },
  { source: testRun.id, target: run.id, type: 'tests', confidence: 0.9, provenance: 'ast_resolved' },
  { source: run.id, target: lib.id, type: 'calls', confidence: 0.7, provenance: 'lsp_resolved' },
];

let graph: FakeGraph;
let notes: FakeNotes;
beforeEach(() => {
  graph = new FakeGraph([service, run, testRun, lib], edges);
  notes = new FakeNotes();
});

describe('loadAdjacency', () => {
  it('builds from the store with node flags and keeps a stamped note', async () => {
    const loaded = await loadAdjacency(graph, { notes, snapshotId: 'snap-1' });
    expect(loaded.source).toBe('store');
    const { adjacency } = loaded;
    expect(adjacency.nodeCount).toBe(4);
    expect(adjacency.edgeCount).toBe(3);
    expect(adjacency.nodeFlags[adjacency.indexOf(service.id)]).toBe(NodeFlag.TypeLike);
    expect(adjacency.nodeFlags[adjacency.indexOf(testRun.id)]).toBe(NodeFlag.Test);
    expect(adjacency.nodeFlags[adjacency.indexOf(lib.id)]).toBe(NodeFlag.External);
    expect(adjacency.nodeFlags[adjacency.indexOf(run.id)]).toBe(0);
    const note = notes.notes.get('adjacency');
    expect(note?.kind).toBe(ADJACENCY_NOTE_KIND);
    expect(note?.snapshot).toBe('snap-1');
  });

  it('reuses the in-memory adjacency for the same reader and snapshot', async () => {
    const first = await loadAdjacency(graph, { notes, snapshotId: 'snap-1' });
    const second = await loadAdjacency(graph, { notes, snapshotId: 'snap-1' });
    expect(second.source).toBe('memory');
    expect(second.adjacency).toBe(first.adjacency);
    expect(graph.scans).toBe(1);
    expect(notes.writes).toBe(1);
  });

  it('shares one build between concurrent calls', async () => {
    const [a, b] = await Promise.all([loadAdjacency(graph, { notes, snapshotId: 'snap-1' }), loadAdjacency(graph, { notes, snapshotId: 'snap-1' })]);
    expect(a.adjacency).toBe(b.adjacency);
    expect(graph.scans).toBe(1);
  });

  it('reads the note in a new process (a new reader) when its stamp matches', async () => {
    const first = await loadAdjacency(graph, { notes, snapshotId: 'snap-1' });
    const restarted = new FakeGraph(graph.nodes, graph.edges);
    const loaded = await loadAdjacency(restarted, { notes, snapshotId: 'snap-1' });
    expect(loaded.source).toBe('note');
    expect(restarted.scans).toBe(0);
    expect([...loaded.adjacency.ids]).toEqual([...first.adjacency.ids]);
    expect([...loaded.adjacency.outTargets]).toEqual([...first.adjacency.outTargets]);
    expect([...loaded.adjacency.nodeFlags]).toEqual([...first.adjacency.nodeFlags]);
  });

  it('rebuilds when the snapshot changed, and restamps the note', async () => {
    await loadAdjacency(graph, { notes, snapshotId: 'snap-1' });
    const extra = node('helper', 'function');
    graph.nodes = [...graph.nodes, extra];
    graph.edges = [...graph.edges, { source: run.id, target: extra.id, type: 'calls', confidence: 1, provenance: 'ast_resolved' }];
    const loaded = await loadAdjacency(graph, { notes, snapshotId: 'snap-2' });
    expect(loaded.source).toBe('store');
    expect(loaded.adjacency.indexOf(extra.id)).toBeGreaterThanOrEqual(0);
    expect(graph.scans).toBe(2);
    expect(notes.notes.get('adjacency')?.snapshot).toBe('snap-2');
    // A new process on the old snapshot does not trust the restamped note either way.
    const stale = new FakeGraph(graph.nodes, graph.edges);
    expect((await loadAdjacency(stale, { notes, snapshotId: 'snap-1' })).source).toBe('store');
  });

  it('rebuilds when the note fails to decode', async () => {
    await loadAdjacency(graph, { notes, snapshotId: 'snap-1' });
    const note = notes.notes.get('adjacency')!;
    const damaged = note.value.slice(0, note.value.length - 3);
    notes.notes.set('adjacency', { ...note, value: damaged });
    const restarted = new FakeGraph(graph.nodes, graph.edges);
    const loaded = await loadAdjacency(restarted, { notes, snapshotId: 'snap-1' });
    expect(loaded.source).toBe('store');
    expect(restarted.scans).toBe(1);
    expect(notes.notes.get('adjacency')!.value.length).toBe(note.value.length);
  });

  it('rebuilds when the note was written by another loader version', async () => {
    await loadAdjacency(graph, { notes, snapshotId: 'snap-1' });
    const note = notes.notes.get('adjacency')!;
    const otherVersion = note.value.slice();
    otherVersion[4] = 99;
    notes.notes.set('adjacency', { ...note, value: otherVersion });
    const restarted = new FakeGraph(graph.nodes, graph.edges);
    expect((await loadAdjacency(restarted, { notes, snapshotId: 'snap-1' })).source).toBe('store');
  });

  it('asks the reader for its snapshot when none is given', async () => {
    const store = Object.assign(graph, { currentSnapshot: async () => ({ id: graph.snapshot }) });
    expect((await loadAdjacency(store, { notes })).snapshotId).toBe('snap-1');
    expect((await loadAdjacency(store, { notes })).source).toBe('memory');
    graph.snapshot = 'snap-2';
    expect((await loadAdjacency(store, { notes })).source).toBe('store');
  });

  it('caches nothing without a snapshot id', async () => {
    const a = await loadAdjacency(graph, { notes });
    const b = await loadAdjacency(graph, { notes });
    expect([a.source, b.source]).toEqual(['store', 'store']);
    expect(notes.writes).toBe(0);
    expect(a.snapshotId).toBeNull();
  });

  it('still returns the adjacency when the note cannot be written', async () => {
    notes.failWrites = true;
    const loaded = await loadAdjacency(graph, { notes, snapshotId: 'snap-1' });
    expect(loaded.adjacency.nodeCount).toBe(4);
    expect(loaded.persistError).toBeInstanceOf(Error);
  });

  it('forgets a reader on request', async () => {
    await loadAdjacency(graph, { snapshotId: 'snap-1' });
    forgetAdjacency(graph);
    expect((await loadAdjacency(graph, { snapshotId: 'snap-1' })).source).toBe('store');
    expect(graph.scans).toBe(2);
  });
});

describe('adjacency order', () => {
  it('is the same whatever order the store numbered the graph in (a fresh index and one kept up to date)', async () => {
    const helper = node('helper', 'function');
    const more: GraphEdge[] = [
      ...edges,
      { source: helper.id, target: run.id, type: 'calls', confidence: 0.8, provenance: 'ast_resolved' },
      { source: helper.id, target: run.id, type: 'calls', confidence: 0.6, provenance: 'ast_inferred' },
      { source: run.id, target: helper.id, type: 'references', confidence: 1, provenance: 'ast_resolved' },
    ];
    const fresh = await loadAdjacency(new FakeGraph([service, run, testRun, lib, helper], more));
    const updated = await loadAdjacency(new FakeGraph([lib, helper, testRun, run, service], [...more].reverse()));
    expect([...updated.adjacency.ids]).toEqual([...fresh.adjacency.ids]);
    expect(updated.adjacency).toEqual(fresh.adjacency);
    // Of two edges of one type between the same symbols, the stronger one is kept either way.
    const a = updated.adjacency;
    const from = a.ids.indexOf(helper.id);
    const to = a.ids.indexOf(run.id);
    const calls = a.typeNames.indexOf('calls');
    const kept: number[] = [];
    for (let e = a.outOffsets[from]!; e < a.outOffsets[from + 1]!; e++) if (a.outTargets[e] === to && a.outTypes[e] === calls) kept.push(a.outConfidence[e]!);
    expect(kept).toEqual([expect.closeTo(0.8, 6)]);
  });
});
