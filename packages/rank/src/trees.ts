/**
 * The tree learner: a boosted ensemble of small regression trees over the learned ranker's
 * features, fitted with LambdaMART (each round's trees follow the gradient of a pairwise loss
 * weighted by how much swapping the pair would change the task's NDCG). Trees can use a
 * feature in one way for short identifier-like tasks and in another for long prose, and a
 * candidate's kind or test flag can switch which evidence counts — interactions a linear model
 * only sees where they were written as features by hand.
 */

/** One regression tree, as parallel arrays over its nodes (node 0 is the root). */
export interface RegressionTree {
  /** Split feature per node (an index into the model's features); −1 at a leaf. */
  readonly feature: readonly number[];
  /** A vector goes left when its value is ≤ the threshold. */
  readonly threshold: readonly number[];
  readonly left: readonly number[];
  readonly right: readonly number[];
  /**
   * What the tree would answer if it stopped at the node: the leaf's value at a leaf. Internal
   * values let a score be split into each split feature's share (the change along the path).
   */
  readonly value: readonly number[];
}

/** Settings of {@link fitTreeEnsemble}. */
export interface TreeTrainOptions {
  /** Boosting rounds (one tree each). @default 300 */
  readonly trees: number;
  /** Largest depth of a tree (2^depth leaves at most). @default 3 */
  readonly depth: number;
  /** Shrinkage of each tree's values. @default 0.05 */
  readonly learningRate: number;
  /** Fewest candidates in a leaf: larger values keep trees from fitting single tasks. @default 100 */
  readonly minLeaf: number;
  /** Split points tried per feature (quantiles of its values). @default 64 */
  readonly bins: number;
}

export const DEFAULT_TREE_TRAIN_OPTIONS: TreeTrainOptions = Object.freeze({ trees: 300, depth: 3, learningRate: 0.05, minLeaf: 100, bins: 64 });

/** The candidates of one task: feature vectors and whether each is a right answer. */
interface Group {
  readonly features: readonly Float64Array[];
  readonly labels: readonly boolean[];
}

/** The value a tree gives a feature vector. */
export function treeValue(tree: RegressionTree, x: ArrayLike<number>): number {
  let node = 0;
  while (tree.feature[node]! >= 0) node = x[tree.feature[node]!]! <= tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
  return tree.value[node]!;
}

/**
 * Add each feature's share of a tree's value to `shares` (the change of the node value at each
 * split on the path, credited to the split's feature) and return the root's value, which no
 * feature explains.
 */
export function addTreeShares(tree: RegressionTree, x: ArrayLike<number>, shares: Float64Array): number {
  let node = 0;
  while (tree.feature[node]! >= 0) {
    const f = tree.feature[node]!;
    const next = x[f]! <= tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
    shares[f]! += tree.value[next]! - tree.value[node]!;
    node = next;
  }
  return tree.value[0]!;
}

/** Training rows: every group's candidates in one list, with the groups as ranges of it. */
interface Rows {
  readonly x: readonly Float64Array[];
  readonly positive: Uint8Array;
  readonly groups: readonly (readonly [number, number])[];
}

function flatten(groups: readonly Group[]): Rows {
  const x: Float64Array[] = [];
  const labels: number[] = [];
  const ranges: [number, number][] = [];
  for (const group of groups) {
    const start = x.length;
    group.features.forEach((vector, i) => {
      x.push(vector);
      labels.push(group.labels[i] ? 1 : 0);
    });
    ranges.push([start, x.length]);
  }
  return { x, positive: Uint8Array.from(labels), groups: ranges };
}

/** Per feature: candidate thresholds (distinct quantiles) and each row's bin among them. */
function binFeatures(rows: Rows, featureCount: number, bins: number): { thresholds: Float64Array[]; bin: Uint8Array[] } {
  const n = rows.x.length;
  const thresholds: Float64Array[] = [];
  const bin: Uint8Array[] = [];
  for (let f = 0; f < featureCount; f++) {
    const sorted = Float64Array.from(rows.x, (x) => x[f]!).sort();
    const cuts: number[] = [];
    for (let q = 1; q < bins; q++) {
      const value = sorted[Math.floor((q * n) / bins)];
      if (value !== undefined && (cuts.length === 0 || value > cuts[cuts.length - 1]!)) cuts.push(value);
    }
    // The largest value is no split point: every row would go left.
    if (cuts.length > 0 && cuts[cuts.length - 1]! >= sorted[n - 1]!) cuts.pop();
    const own = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const value = rows.x[i]![f]!;
      let lo = 0;
      let hi = cuts.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (value <= cuts[mid]!) hi = mid;
        else lo = mid + 1;
      }
      own[i] = lo;
    }
    thresholds.push(Float64Array.from(cuts));
    bin.push(own);
  }
  return { thresholds, bin };
}

/**
 * LambdaMART's gradients: for each (right answer, other candidate) pair of a task, the pairwise
 * logistic loss's pull, weighted by |ΔNDCG| of swapping the two in the current order. `lambda`
 * is the direction to move each score, `weight` the loss's curvature (for Newton leaf values).
 */
function lambdas(rows: Rows, score: Float64Array, lambda: Float64Array, weight: Float64Array): void {
  lambda.fill(0);
  weight.fill(0);
  for (const [start, end] of rows.groups) {
    let positives = 0;
    for (let i = start; i < end; i++) positives += rows.positive[i]!;
    if (positives === 0 || positives === end - start) continue;
    const order = Array.from({ length: end - start }, (_, k) => start + k).sort((a, b) => score[b]! - score[a]! || a - b);
    const gain = new Float64Array(end - start);
    order.forEach((row, rank) => (gain[row - start] = 1 / Math.log2(rank + 2)));
    let ideal = 0;
    for (let r = 0; r < positives; r++) ideal += 1 / Math.log2(r + 2);
    for (let i = start; i < end; i++) {
      if (!rows.positive[i]) continue;
      for (let j = start; j < end; j++) {
        if (rows.positive[j]) continue;
        const delta = Math.abs(gain[i - start]! - gain[j - start]!) / ideal;
        const rho = 1 / (1 + Math.exp(score[i]! - score[j]!));
        lambda[i]! += rho * delta;
        lambda[j]! -= rho * delta;
        const curvature = rho * (1 - rho) * delta;
        weight[i]! += curvature;
        weight[j]! += curvature;
      }
    }
  }
}

/** Grow one tree on the gradients, splitting where the Newton gain is largest. */
function growTree(
  binned: { readonly thresholds: readonly Float64Array[]; readonly bin: readonly Uint8Array[] },
  lambda: Float64Array,
  weight: Float64Array,
  rowCount: number,
  o: TreeTrainOptions,
): RegressionTree {
  const feature: number[] = [];
  const threshold: number[] = [];
  const left: number[] = [];
  const right: number[] = [];
  const value: number[] = [];
  const grow = (rows: Int32Array, depth: number): number => {
    const id = feature.length;
    feature.push(-1);
    threshold.push(0);
    left.push(-1);
    right.push(-1);
    let g = 0;
    let h = 0;
    for (const r of rows) {
      g += lambda[r]!;
      h += weight[r]!;
    }
    // +1 regularises the Newton step of a leaf with little curvature.
    value.push((o.learningRate * g) / (h + 1));
    if (depth >= o.depth || rows.length < 2 * o.minLeaf) return id;
    const parentGain = (g * g) / (h + 1);
    let best = 1e-12;
    let bestFeature = -1;
    let bestBin = -1;
    binned.bin.forEach((bin, f) => {
      const size = binned.thresholds[f]!.length + 1;
      const sumG = new Float64Array(size);
      const sumH = new Float64Array(size);
      const count = new Int32Array(size);
      for (const r of rows) {
        sumG[bin[r]!]! += lambda[r]!;
        sumH[bin[r]!]! += weight[r]!;
        count[bin[r]!]!++;
      }
      let gl = 0;
      let hl = 0;
      let cl = 0;
      for (let b = 0; b < size - 1; b++) {
        gl += sumG[b]!;
        hl += sumH[b]!;
        cl += count[b]!;
        if (cl < o.minLeaf || rows.length - cl < o.minLeaf) continue;
        const gain = (gl * gl) / (hl + 1) + ((g - gl) * (g - gl)) / (h - hl + 1) - parentGain;
        if (gain > best) {
          best = gain;
          bestFeature = f;
          bestBin = b;
        }
      }
    });
    if (bestFeature < 0) return id;
    const bin = binned.bin[bestFeature]!;
    feature[id] = bestFeature;
    threshold[id] = binned.thresholds[bestFeature]![bestBin]!;
    const leftChild = grow(rows.filter((r) => bin[r]! <= bestBin), depth + 1);
    const rightChild = grow(rows.filter((r) => bin[r]! > bestBin), depth + 1);
    left[id] = leftChild;
    right[id] = rightChild;
    return id;
  };
  grow(Int32Array.from({ length: rowCount }, (_, i) => i), 0);
  const round = (x: number): number => Math.round(x * 1e7) / 1e7;
  return { feature, threshold, left, right, value: value.map(round) };
}

/**
 * Fit a boosted tree ensemble to ranking groups with LambdaMART. Deterministic: the same
 * groups and options give the same trees.
 */
export function fitTreeEnsemble(groups: readonly Group[], featureCount: number, options: Partial<TreeTrainOptions> = {}): RegressionTree[] {
  const o = { ...DEFAULT_TREE_TRAIN_OPTIONS, ...options };
  const rows = flatten(groups);
  const binned = binFeatures(rows, featureCount, o.bins);
  const n = rows.x.length;
  const score = new Float64Array(n);
  const lambda = new Float64Array(n);
  const weight = new Float64Array(n);
  const trees: RegressionTree[] = [];
  for (let round = 0; round < o.trees && n > 0; round++) {
    lambdas(rows, score, lambda, weight);
    const tree = growTree(binned, lambda, weight, n, o);
    trees.push(tree);
    for (let i = 0; i < n; i++) score[i]! += treeValue(tree, rows.x[i]!);
  }
  return trees;
}
