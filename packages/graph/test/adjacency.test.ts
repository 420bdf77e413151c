import { describe, expect, it } from 'vitest';
import { adjacencyIdBytes, buildAdjacency, deserializeAdjacency, serializeAdjacency, NodeFlag, ErrorCode, isKnowingError } from '../src/index.js';
import type { AdjacencyEdge } from '../src/index.js';

const edge = (source: string, target: string, type = 'calls', provenance: AdjacencyEdge['provenance'] = 'ast_resolved', confidence = 0.9): AdjacencyEdge => ({
  source,
  target,
  type,
  provenance,
  confidence,
});

function outNeighbours(adj: ReturnType<typeof buildAdjacency>, id: string): string[] {
  const i = adj.indexOf(id);
  const result: string[] = [];
  for (let e = adj.outOffsets[i]!; e < adj.outOffsets[i + 1]!; e++) result.push(adj.ids[adj.outTargets[e]!]!);
  return result.sort();
}

function inNeighbours(adj: ReturnType<typeof buildAdjacency>, id: string): string[] {
  const i = adj.indexOf(id);
  const result: string[] = [];
  for (let e = adj.inOffsets[i]!; e < adj.inOffsets[i + 1]!; e++) result.push(adj.ids[adj.inSources[e]!]!);
  return result.sort();
}

describe('buildAdjacency', () => {
  const nodes = ['a', 'b', 'c', 'd'].map((id) => ({ id, flags: id === 'd' ? NodeFlag.External : 0 }));
  const adj = buildAdjacency(nodes, [
    edge('a', 'b'),
    edge('a', 'c', 'imports'),
    edge('b', 'c'),
    edge('c', 'a', 'extends', 'lsp_resolved', 0.5),
    edge('a', 'b'), // duplicate
    edge('a', 'zz'), // unknown endpoint
    edge('d', 'a'),
  ]);

  it('groups out-edges by source and skips duplicates and unknown endpoints', () => {
    expect(adj.nodeCount).toBe(4);
    expect(adj.edgeCount).toBe(5);
    expect(outNeighbours(adj, 'a')).toEqual(['b', 'c']);
    expect(outNeighbours(adj, 'b')).toEqual(['c']);
    expect(outNeighbours(adj, 'd')).toEqual(['a']);
  });

  it('indexes in-edges back to their out-edge attributes', () => {
    expect(inNeighbours(adj, 'a')).toEqual(['c', 'd']);
    expect(inNeighbours(adj, 'c')).toEqual(['a', 'b']);
    const a = adj.indexOf('a');
    const fromC = [...Array(adj.inOffsets[a + 1]! - adj.inOffsets[a]!).keys()]
      .map((k) => adj.inEdges[adj.inOffsets[a]! + k]!)
      .find((e) => adj.typeNames[adj.outTypes[e]!] === 'extends');
    expect(fromC).toBeDefined();
    expect(adj.outConfidence[fromC!]).toBeCloseTo(0.5);
  });

  it('keeps node flags and answers -1 for unknown ids', () => {
    expect(adj.nodeFlags[adj.indexOf('d')]).toBe(NodeFlag.External);
    expect(adj.indexOf('nope')).toBe(-1);
  });
});

describe('adjacency serialization', () => {
  it('round-trips structure, attributes and flags', () => {
    const ids = Array.from({ length: 50 }, (_, i) => `n${i}`);
    const edges: AdjacencyEdge[] = [];
    for (let i = 0; i < 50; i++) {
      edges.push(edge(`n${i}`, `n${(i * 7 + 3) % 50}`, i % 3 ? 'calls' : 'references', i % 2 ? 'derived' : 'ast_inferred', (i % 10) / 10));
      edges.push(edge(`n${i}`, `n${(i + 1) % 50}`, 'contains'));
    }
    const original = buildAdjacency(ids.map((id, i) => ({ id, flags: i % 4 })), edges);
    const copy = deserializeAdjacency(serializeAdjacency(original));
    expect(copy.ids).toEqual(original.ids);
    expect(copy.typeNames).toEqual(original.typeNames);
    expect([...copy.nodeFlags]).toEqual([...original.nodeFlags]);
    expect([...copy.outOffsets]).toEqual([...original.outOffsets]);
    expect([...copy.outTargets]).toEqual([...original.outTargets]);
    expect([...copy.outTypes]).toEqual([...original.outTypes]);
    expect([...copy.outProvenance]).toEqual([...original.outProvenance]);
    expect([...copy.outConfidence]).toEqual([...original.outConfidence]);
    expect([...copy.inSources]).toEqual([...original.inSources]);
  });

  it('round-trips an empty graph', () => {
    const copy = deserializeAdjacency(serializeAdjacency(buildAdjacency([], [])));
    expect(copy.nodeCount).toBe(0);
    expect(copy.edgeCount).toBe(0);
  });

  it('decodes from an unaligned view, copying, and from an aligned one (as a note is read) without a copy', () => {
    const original = buildAdjacency([{ id: 'x' }, { id: 'y' }, { id: 'z' }], [edge('x', 'y'), edge('y', 'z', 'references', 'derived', 0.5)]);
    const bytes = serializeAdjacency(original);
    for (const shift of [1, 2, 4, 8]) {
      const shifted = new Uint8Array(bytes.length + shift);
      shifted.set(bytes, shift);
      const copy = deserializeAdjacency(shifted.subarray(shift));
      expect([copy.edgeCount, [...copy.outTargets], [...copy.outConfidence], [...copy.outTypes]]).toEqual([2, [...original.outTargets], [...original.outConfidence], [...original.outTypes]]);
      // A multiple of 4: the arrays are views of the bytes given.
      expect(copy.outTargets.buffer === shifted.buffer).toBe(shift % 4 === 0);
    }
  });

  it.each([
    ['garbage', new TextEncoder().encode('not an adjacency blob at all, no')],
    ['truncated', serializeAdjacency(buildAdjacency([{ id: 'x' }, { id: 'y' }], [edge('x', 'y')])).subarray(0, 30)],
  ])('rejects %s bytes with BAD_FORMAT', (_name, bytes) => {
    let caught: unknown;
    try {
      deserializeAdjacency(bytes);
    } catch (error) {
      caught = error;
    }
    expect(isKnowingError(caught, ErrorCode.BadFormat)).toBe(true);
  });

  it('rejects a newer format version', () => {
    const bytes = serializeAdjacency(buildAdjacency([{ id: 'x' }], []));
    new DataView(bytes.buffer).setUint16(6, 99, true);
    expect(() => deserializeAdjacency(bytes)).toThrow(/version 99/);
  });
});

describe('adjacencyIdBytes', () => {
  it('gives the bytes a decoded adjacency read its ids from, and nothing for a built one', () => {
    const ids = ['a', 'b.\u00e9t\u00e9', '\u{1F600}', 'pkg/x.go.T.m'];
    const built = buildAdjacency(ids.map((id) => ({ id })), [edge('a', 'pkg/x.go.T.m', 'calls')]);
    expect(adjacencyIdBytes(built)).toBeUndefined();
    const decoded = deserializeAdjacency(serializeAdjacency(built));
    expect(new TextDecoder().decode(adjacencyIdBytes(decoded))).toBe(ids.join('\n'));
    // Unaligned input is copied once; the id bytes still say the same.
    const bytes = serializeAdjacency(built);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(new TextDecoder().decode(adjacencyIdBytes(deserializeAdjacency(shifted.subarray(1))))).toBe(ids.join('\n'));
  });
});

describe('indexOf', () => {
  const ids = (n: number, order: 'ascending' | 'shuffled'): string[] => {
    const list = Array.from({ length: n }, (_, i) => `n${String(i * 7).padStart(4, '0')}`);
    if (order === 'shuffled') for (let i = list.length - 1; i > 0; i--) [list[i], list[(i * 13) % (i + 1)]] = [list[(i * 13) % (i + 1)]!, list[i]!];
    return list;
  };
  for (const order of ['ascending', 'shuffled'] as const) {
    it(`finds every node and no other id when the ids are ${order}`, () => {
      const list = ids(200, order);
      const adj = buildAdjacency(list.map((id) => ({ id })), []);
      for (const id of list) expect(adj.ids[adj.indexOf(id)]).toBe(id);
      // Between, before and after the stored ids: absent.
      for (const id of ['n0001', 'n0000a', 'a', 'n9999', 'n1393 ']) expect(adj.indexOf(id)).toBe(-1);
    });
  }
});
