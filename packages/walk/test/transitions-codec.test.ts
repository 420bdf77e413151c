import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@knowing/graph';
import { deserializeTransitions, randomWalkWithRestart, serializeTransitions, weightedTransitions } from '../src/index.js';
import { codeOf, graphOf, rng } from './fixtures.js';
import type { EdgeSpec } from './fixtures.js';

function generated(nodeCount: number, edgeCount: number, seed: number) {
  const random = rng(seed);
  const nodes = Array.from({ length: nodeCount }, (_, i) => `n${i}`);
  const types = ['calls', 'imports', 'extends', 'references'];
  const edges: EdgeSpec[] = [];
  for (let e = 0; e < edgeCount; e++) {
    const source = nodes[Math.floor(random() * nodeCount)]!;
    const target = nodes[Math.floor(random() * nodeCount)]!;
    edges.push([source, target, types[e % types.length], e % 5 === 0 ? 'lsp_resolved' : 'ast_resolved']);
  }
  return graphOf(nodes, edges);
}

describe('serializeTransitions / deserializeTransitions', () => {
  const adjacency = generated(200, 900, 7);
  const transitions = weightedTransitions(adjacency, { lspWeight: 0.3, edgeWeights: { imports: 0.5 } });
  const key = 'lsp 0.3, imports 0.5';

  it('gives back the same transitions, and the same walk', () => {
    const bytes = serializeTransitions(transitions, key);
    // Stored in a note, read back at any offset of a larger buffer.
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    const back = deserializeTransitions(shifted.subarray(3), { adjacency, key })!;
    expect(back).toEqual(transitions);
    const seeds = [{ id: 'n1' }, { id: 'n42', weight: 2 }];
    expect(randomWalkWithRestart(adjacency, seeds, { transitions: back }).scores).toEqual(randomWalkWithRestart(adjacency, seeds, { transitions }).scores);
  });

  it('reads bytes at a multiple of 8 in place, as a note is read, and copies them otherwise', () => {
    const bytes = serializeTransitions(transitions, key);
    for (const shift of [0, 4, 8, 16]) {
      const shifted = new Uint8Array(bytes.length + shift);
      shifted.set(bytes, shift);
      const back = deserializeTransitions(shifted.subarray(shift), { adjacency, key })!;
      expect(back).toEqual(transitions);
      expect([back.weights.buffer === shifted.buffer, back.neighbors.buffer === shifted.buffer]).toEqual([shift % 8 === 0, shift % 8 === 0]);
    }
  });

  it('returns nothing for transitions weighed with other settings', () => {
    expect(deserializeTransitions(serializeTransitions(transitions, key), { adjacency, key: 'lsp 1' })).toBeUndefined();
  });

  it('refuses bytes that are not transitions, or not of this adjacency', () => {
    const bytes = serializeTransitions(transitions, key);
    const other = generated(201, 900, 7);
    expect(codeOf(() => deserializeTransitions(bytes, { adjacency: other, key }))).toBe(ErrorCode.BadFormat);
    expect(codeOf(() => deserializeTransitions(bytes.subarray(0, bytes.length - 8), { adjacency, key }))).toBe(ErrorCode.BadFormat);
    expect(codeOf(() => deserializeTransitions(new TextEncoder().encode('not transitions at all, long enough'), { adjacency, key }))).toBe(ErrorCode.BadFormat);
    const outOfRange = bytes.slice();
    new DataView(outOfRange.buffer).setInt32(outOfRange.length - 4, 10_000, true);
    expect(codeOf(() => deserializeTransitions(outOfRange, { adjacency, key }))).toBe(ErrorCode.BadFormat);
  });
});
