import { describe, expect, it } from 'vitest';
import { LEARNED_FEATURES } from '../src/learned.js';
import { TREE_LEARNED_MODEL } from '../src/learned-trees-model.js';
import { TREE_KERNEL, encodeTreeKernel, treeShares } from '../src/tree-kernel.js';
import { addTreeShares, fitTreeEnsemble } from '../src/trees.js';

/** Vectors that reach every kind of split: values around the model's own thresholds, and zeros. */
function vectors(count: number, seed: number): Float64Array[] {
  let state = seed;
  const random = (): number => ((state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const thresholds = LEARNED_FEATURES.map((_, f) => TREE_LEARNED_MODEL.trees.flatMap((tree) => tree.threshold.filter((_, k) => tree.feature[k] === f)));
  return Array.from({ length: count }, () =>
    Float64Array.from(LEARNED_FEATURES, (_, f) => {
      const near = thresholds[f]!;
      if (near.length === 0 || random() < 0.2) return random() < 0.5 ? 0 : random();
      const threshold = near[Math.floor(random() * near.length)]!;
      return random() < 0.3 ? threshold : threshold + (random() - 0.5) * 0.1;
    }),
  );
}

describe('treeShares', () => {
  it("equals addTreeShares bit for bit on the shipped model, in WebAssembly and in TypeScript", () => {
    const xs = vectors(300, 7);
    const expected = xs.map((x) => {
      const shares = new Float64Array(x.length);
      for (const tree of TREE_LEARNED_MODEL.trees) addTreeShares(tree, x, shares);
      return [...shares];
    });
    for (const engine of ['webassembly', 'typescript'] as const) {
      expect(treeShares(TREE_LEARNED_MODEL.trees, xs, LEARNED_FEATURES.length, engine).map((row) => [...row])).toEqual(expected);
    }
    // The vectors take both branches of many splits: the candidates' shares differ.
    expect(new Set(expected.map((row) => row.join(','))).size).toBeGreaterThan(50);
  });

  it('credits each split to its feature along the path, for a freshly fitted ensemble', () => {
    const groups = Array.from({ length: 30 }, (_, g) => {
      const features = vectors(20, g + 1).map((x) => x.subarray(0, 4).slice());
      return { features, labels: features.map((x) => x[0]! + x[2]! > 0.6) };
    });
    const trees = fitTreeEnsemble(groups, 4, { trees: 20, minLeaf: 5 });
    const xs = groups.flatMap((group) => group.features);
    const shares = treeShares(trees, xs, 4);
    const root = trees.reduce((sum, tree) => sum + tree.value[0]!, 0);
    xs.forEach((x, i) => {
      const plain = new Float64Array(4);
      for (const tree of trees) addTreeShares(tree, x, plain);
      expect([...shares[i]!]).toEqual([...plain]);
      // The shares and the roots add up to the ensemble's value.
      const total = trees.reduce((sum, tree) => {
        let node = 0;
        while (tree.feature[node]! >= 0) node = x[tree.feature[node]!]! <= tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
        return sum + tree.value[node]!;
      }, 0);
      expect(shares[i]!.reduce((a, b) => a + b, root)).toBeCloseTo(total, 9);
    });
  });

  it('gives nothing for no candidates', () => {
    expect(treeShares(TREE_LEARNED_MODEL.trees, [], LEARNED_FEATURES.length)).toEqual([]);
  });
});

describe('the tree kernel module', () => {
  it('is stored as the emitter writes it', () => {
    const emitted = Buffer.from(encodeTreeKernel()).toString('base64');
    expect(TREE_KERNEL, `emitted anew; set TREE_KERNEL in src/tree-kernel.ts to '${emitted}'`).toBe(emitted);
  });
});
