/**
 * Each feature's share of a tree ensemble's score, for every candidate of a query at once, as
 * WebAssembly: the learned ranker walks its 300 trees for each of a few hundred candidates, and
 * in a fresh process V8 interpreted that walk (about 25 ms of a cold query on caddy). The kernel
 * adds the same differences in the same order as {@link addTreeShares}, so the shares are equal
 * bit for bit (the tests compare both).
 */
import { FunctionBuilder, KernelLayout, Op, encodeModule, kernel, kernelBytes } from '@knowing/graph/wasm';
import { addTreeShares } from './trees.js';
import type { RegressionTree } from './trees.js';

/**
 * shares(trees, roots, feature, threshold, left, right, value, x, featureCount, rows, out): for
 * each row of `x` (featureCount values), the sum over the trees of each split's change of the
 * node value along the row's path, credited to the split's feature, into the same row of `out`
 * (zeroed). Node indices are the ensemble's: each tree's start at `roots`.
 */
function sharesFunction(): FunctionBuilder {
  const f = new FunctionBuilder(
    [
      ['trees', 'i32'],
      ['roots', 'i32'],
      ['feature', 'i32'],
      ['threshold', 'i32'],
      ['left', 'i32'],
      ['right', 'i32'],
      ['value', 'i32'],
      ['x', 'i32'],
      ['featureCount', 'i32'],
      ['rows', 'i32'],
      ['out', 'i32'],
    ],
    undefined,
  );
  f.locals('i32', 'row', 'tree', 'node', 'next', 'split', 'input', 'output', 'at');
  f.block('rowsDone', () =>
    f.loop('row', () => {
      f.get('row').get('rows').op(Op.i32GeS).brIf('rowsDone');
      // This row's values and shares: x + row·featureCount·8, out + the same.
      f.get('row').get('featureCount').op(Op.i32Mul).i32(3).op(Op.i32Shl).set('at');
      f.get('x').get('at').op(Op.i32Add).set('input');
      f.get('out').get('at').op(Op.i32Add).set('output');
      f.i32(0).set('tree');
      f.block('treesDone', () =>
        f.loop('tree', () => {
          f.get('tree').get('trees').op(Op.i32GeS).brIf('treesDone');
          f.loadI32('roots', 'tree').set('node');
          f.block('leaf', () =>
            f.loop('descend', () => {
              f.loadI32('feature', 'node').tee('split').i32(0).op(Op.i32LtS).brIf('leaf');
              f.loadF64('input', 'split').loadF64('threshold', 'node').op(Op.f64Le);
              f.if(
                () => f.loadI32('left', 'node').set('next'),
                () => f.loadI32('right', 'node').set('next'),
              );
              f.storeF64('output', 'split', () => {
                f.loadF64('output', 'split');
                f.loadF64('value', 'next').loadF64('value', 'node').op(Op.f64Sub, Op.f64Add);
              });
              f.get('next').set('node');
              f.br('descend');
            }),
          );
          f.get('tree').i32(1).op(Op.i32Add).set('tree');
          f.br('tree');
        }),
      );
      f.get('row').i32(1).op(Op.i32Add).set('row');
      f.br('row');
    }),
  );
  return f;
}

/** The kernel's module, emitted from the functions above. */
export function encodeTreeKernel(): Uint8Array {
  return encodeModule([['shares', sharesFunction()]]);
}

/**
 * {@link encodeTreeKernel}'s bytes (base64), kept here: emitting them runs the builder as
 * cold code in every query process. The tests check that the two agree.
 */
export const TREE_KERNEL = 'AGFzbQEAAAABDwFgC39/f39/f39/f39/AAIPAQNlbnYGbWVtb3J5AgABAwIBAAcKAQZzaGFyZXMAAArdAQHaAQEIfwJAA0AgCyAJTg0BIAsgCGxBA3QhEiAHIBJqIRAgCiASaiERQQAhDAJAA0AgDCAATg0BIAEgDEECdGooAgAhDQJAA0AgAiANQQJ0aigCACIPQQBIDQEgECAPQQN0aisDACADIA1BA3RqKwMAZQRAIAQgDUECdGooAgAhDgUgBSANQQJ0aigCACEOCyARIA9BA3RqIBEgD0EDdGorAwAgBiAOQQN0aisDACAGIA1BA3RqKwMAoaA5AwAgDiENDAALCyAMQQFqIQwMAAsLIAtBAWohCwwACwsL';

const instantiate = kernel(() => kernelBytes(TREE_KERNEL));

/** An ensemble's trees in one set of arrays, child indices counted from the first tree's root. */
interface FlatEnsemble {
  readonly roots: Int32Array;
  readonly feature: Int32Array;
  readonly threshold: Float64Array;
  readonly left: Int32Array;
  readonly right: Int32Array;
  readonly value: Float64Array;
}

const flattened = new WeakMap<readonly RegressionTree[], FlatEnsemble>();

function flatten(trees: readonly RegressionTree[]): FlatEnsemble {
  const known = flattened.get(trees);
  if (known) return known;
  let total = 0;
  for (const tree of trees) total += tree.feature.length;
  const flat = {
    roots: new Int32Array(trees.length),
    feature: new Int32Array(total),
    threshold: new Float64Array(total),
    left: new Int32Array(total),
    right: new Int32Array(total),
    value: new Float64Array(total),
  };
  let base = 0;
  trees.forEach((tree, t) => {
    flat.roots[t] = base;
    flat.feature.set(tree.feature, base);
    flat.threshold.set(tree.threshold, base);
    flat.value.set(tree.value, base);
    for (let k = 0; k < tree.feature.length; k++) {
      flat.left[base + k] = tree.left[k]! + base;
      flat.right[base + k] = tree.right[k]! + base;
    }
    base += tree.feature.length;
  });
  flattened.set(trees, flat);
  return flat;
}

/**
 * Each feature's share of the ensemble's score for every vector (what {@link addTreeShares} adds
 * up tree by tree), in the kernel where it runs, else in TypeScript.
 *
 * @example
 * ```ts
 * const shares = treeShares(model.trees, vectors, LEARNED_FEATURES.length);
 * shares[0]![LEARNED_FEATURES.indexOf('lexical')]; // the first candidate's lexical share
 * ```
 */
export function treeShares(trees: readonly RegressionTree[], vectors: readonly Float64Array[], featureCount: number, engine: 'webassembly' | 'typescript' = 'webassembly'): Float64Array[] {
  const rows = vectors.length;
  if (engine === 'webassembly' && rows > 0 && trees.length > 0) {
    const flat = flatten(trees);
    const nodes = flat.feature.length;
    const layout = new KernelLayout();
    const at = {
      roots: layout.take(4 * trees.length),
      feature: layout.take(4 * nodes),
      threshold: layout.take(8 * nodes),
      left: layout.take(4 * nodes),
      right: layout.take(4 * nodes),
      value: layout.take(8 * nodes),
      x: layout.take(8 * rows * featureCount),
      out: layout.take(8 * rows * featureCount),
    };
    const instance = instantiate(layout.bytes);
    if (instance) {
      const buffer = instance.memory.buffer;
      new Int32Array(buffer, at.roots, trees.length).set(flat.roots);
      new Int32Array(buffer, at.feature, nodes).set(flat.feature);
      new Float64Array(buffer, at.threshold, nodes).set(flat.threshold);
      new Int32Array(buffer, at.left, nodes).set(flat.left);
      new Int32Array(buffer, at.right, nodes).set(flat.right);
      new Float64Array(buffer, at.value, nodes).set(flat.value);
      const x = new Float64Array(buffer, at.x, rows * featureCount);
      vectors.forEach((vector, row) => x.set(vector.subarray(0, featureCount), row * featureCount));
      const shares = instance.exports['shares'] as (...args: number[]) => void;
      shares(trees.length, at.roots, at.feature, at.threshold, at.left, at.right, at.value, at.x, featureCount, rows, at.out);
      const out = new Float64Array(buffer, at.out, rows * featureCount);
      return vectors.map((_, row) => out.slice(row * featureCount, (row + 1) * featureCount));
    }
  }
  return vectors.map((vector) => {
    const shares = new Float64Array(featureCount);
    for (const tree of trees) addTreeShares(tree, vector, shares);
    return shares;
  });
}
