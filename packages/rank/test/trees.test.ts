import { describe, expect, it } from 'vitest';
import type { GraphNode } from '@knowing/graph';
import { LEARNED_FEATURES, createLearnedRanker, trainLearnedModel, trainTreeModel } from '../src/index.js';
import { learnedFeatures, learnedLogit } from '../src/features.js';
import type { RankInput, TrainingGroup, TreeModel } from '../src/index.js';
import { testRanker } from '../src/testing.js';

const index = (f: (typeof LEARNED_FEATURES)[number]): number => LEARNED_FEATURES.indexOf(f);

function vector(values: Partial<Record<(typeof LEARNED_FEATURES)[number], number>>): Float64Array {
  const x = new Float64Array(LEARNED_FEATURES.length);
  for (const [name, value] of Object.entries(values)) x[index(name as (typeof LEARNED_FEATURES)[number])] = value;
  return x;
}

/**
 * Tasks whose right answer is the candidate with middling lexical evidence, between a weak
 * match and a strong one that is wrong (say, a test with the task's words in every line): no
 * single weight on `lexical` puts the middle first, two splits do.
 */
function middleBandGroups(count: number): TrainingGroup[] {
  return Array.from({ length: count }, (_, g) => {
    const jitter = (g % 7) / 100;
    const features = [vector({ lexical: 0.1 + jitter }), vector({ lexical: 0.5 + jitter }), vector({ lexical: 0.9 + jitter }), vector({ lexical: 0.05 + jitter })];
    return { features, labels: [false, true, false, false] };
  });
}

const firstIsRight = (score: (x: Float64Array) => number, groups: readonly TrainingGroup[]): number =>
  groups.filter((group) => {
    const scores = group.features.map(score);
    const best = scores.indexOf(Math.max(...scores));
    return group.labels[best];
  }).length;

function node(name: string, file = 'src/app.py'): GraphNode {
  return { id: name.padEnd(32, '0'), name, qualifiedName: `${file}.${name}`, kind: 'function', language: 'python', file, startLine: 1, endLine: 2, signature: '', doc: '', isTest: false, external: false };
}

const small = { trees: 40, depth: 2, minLeaf: 5, learningRate: 0.3 };

testRanker('knowing-learned (trees)', () => createLearnedRanker({ model: trainTreeModel(middleBandGroups(40), small) }));

describe('tree learner', () => {
  it('learns a rule no linear model can: the middle of a feature’s range', () => {
    const groups = middleBandGroups(60);
    const trees = trainTreeModel(groups, small);
    const linear = trainLearnedModel(groups);
    expect(firstIsRight((x) => learnedLogit(trees, x), groups)).toBe(60);
    expect(firstIsRight((x) => learnedLogit(linear, x), groups)).toBeLessThan(60);
  });

  it('is deterministic', () => {
    const groups = middleBandGroups(30);
    expect(JSON.stringify(trainTreeModel(groups, small))).toBe(JSON.stringify(trainTreeModel(groups, small)));
  });

  it('explains a score as each feature’s share, and the shares sum to the logit', async () => {
    const model = trainTreeModel(middleBandGroups(40), small);
    const ranker = createLearnedRanker({ model });
    const inputs: RankInput[] = [
      { node: node('weak'), rwr: 0.2, distance: 1, isSeed: false, lexical: 0.12 },
      { node: node('middle'), rwr: 0.2, distance: 1, isSeed: false, lexical: 0.52 },
      { node: node('strong'), rwr: 0.2, distance: 1, isSeed: false, lexical: 0.93 },
    ];
    const context = { task: 'parse the header' };
    expect((await ranker.rank(inputs, context)).map((s) => s.node.name)[0]).toBe('middle');
    const vectors = learnedFeatures(inputs, context);
    const explained = (await ranker.explain!(inputs[1]!.node.id, inputs, context))!;
    const shares = LEARNED_FEATURES.map((f) => explained.factors![f]!);
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(learnedLogit(model, vectors[1]!), 9);
    // Only the feature the trees split on carries a share.
    expect(shares.filter((share) => share !== 0).length).toBe(1);
    expect(explained.factors!['lexical']).not.toBe(0);
  });

  it('refuses a malformed tree model, naming what is wrong', () => {
    const model = trainTreeModel(middleBandGroups(20), small);
    const tree = model.trees[0]!;
    const withTree = (changes: Partial<(typeof model.trees)[number]>): TreeModel => ({ ...model, trees: [{ ...tree, ...changes }, ...model.trees.slice(1)] });
    const root = tree.feature[0]!;
    expect(root).toBeGreaterThanOrEqual(0);
    // A child pointing back at its parent would make scoring loop for ever.
    expect(() => createLearnedRanker({ model: withTree({ left: [0, ...tree.left.slice(1)] }) })).toThrow(/well-formed trees/);
    expect(() => createLearnedRanker({ model: withTree({ feature: [LEARNED_FEATURES.length, ...tree.feature.slice(1)] }) })).toThrow(/well-formed trees/);
    expect(() => createLearnedRanker({ model: withTree({ value: tree.value.slice(1) }) })).toThrow(/well-formed trees/);
    expect(() => createLearnedRanker({ model: { ...model, trees: [] } })).toThrow(/well-formed trees/);
  });

  it('a different ensemble is a different ranker name, so cached answers are not shared', () => {
    const a = createLearnedRanker({ model: trainTreeModel(middleBandGroups(20), small) });
    const b = createLearnedRanker({ model: trainTreeModel(middleBandGroups(20), { ...small, trees: 10 }) });
    expect(a.name).not.toBe(b.name);
  });
});
