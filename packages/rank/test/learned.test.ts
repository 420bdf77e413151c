import { describe, expect, it } from 'vitest';
import type { GraphNode } from '@knowing/graph';
import { DEFAULT_LEARNED_MODEL, LEARNED_FEATURES, createLearnedRanker, trainLearnedModel } from '../src/index.js';
import { SHIPPED_MODEL_DIGEST, checkModel, modelDigest } from '../src/learned.js';
import { learnedFeatures, taskShape } from '../src/features.js';
import type { LearnedModel, LinearModel, RankInput, TrainingGroup, TreeModel } from '../src/index.js';
import { fixtureNode, testRanker } from '../src/testing.js';

const neutral = (): LinearModel => ({
  version: 1,
  features: [...LEARNED_FEATURES],
  mean: LEARNED_FEATURES.map(() => 0),
  scale: LEARNED_FEATURES.map(() => 1),
  weights: LEARNED_FEATURES.map((f) => (f === 'lexical' ? 2 : f === 'rwr' ? 1 : f === 'test_code' ? -1 : 0)),
});

testRanker('knowing-learned', () => createLearnedRanker({ model: neutral() }));

function node(name: string, kind: GraphNode['kind'] = 'function', file = 'src/app.py', isTest = false): GraphNode {
  return { id: name.padEnd(32, '0'), name, qualifiedName: `${file}.${name}`, kind, language: 'python', file, startLine: 1, endLine: 2, signature: '', doc: '', isTest, external: false };
}

const index = (f: (typeof LEARNED_FEATURES)[number]): number => LEARNED_FEATURES.indexOf(f);

describe('learned ranker', () => {
  it('features follow the documented definitions', () => {
    const inputs: RankInput[] = [
      { node: node('a'), rwr: 0.2, distance: 0, isSeed: true, seedWeight: 0.5, lexical: 1, channelRanks: { lexical: 0, tiered: 3 } },
      { node: node('b', 'class'), rwr: 0.9, distance: 2, isSeed: false, termMatches: 8 },
      { node: node('test_b', 'function', 'tests/test_app.py', true), rwr: 0.1, distance: 1, isSeed: false },
    ];
    const [a, b, t] = learnedFeatures(inputs, { task: 'fix the parser when a quoted string spans two lines' });
    expect(a![index('lexical')]).toBe(1);
    expect(a![index('lexical_rank')]).toBe(1);
    expect(a![index('tiered_rank')]).toBe(0.25);
    expect(a![index('seed_weight')]).toBe(0.5);
    expect(a![index('lexical_long_task')]).toBeCloseTo(taskShape('fix the parser when a quoted string spans two lines').length);
    expect(b![index('rwr_rank')]).toBe(1); // the best walk score among the candidates
    expect(a![index('rwr_rank')]).toBe(0.5);
    expect(b![index('term_matches')]).toBe(1); // capped at 4 matches
    expect(b![index('type_like')]).toBe(1);
    expect(b![index('far')]).toBe(1);
    expect(t![index('test_code')]).toBe(1);
    expect(learnedFeatures(inputs.slice(2), { task: 'add a test for the parser' })[0]![index('test_code')]).toBe(0);
  });

  it('every feature has a definition: some candidate of a varied set gets each one a value other than 0', () => {
    const file = 'src/parser.py';
    const inputs: RankInput[] = [
      {
        node: fixtureNode(file, 'parse_args'),
        rwr: 0.5,
        distance: 0,
        isSeed: true,
        seedWeight: 0.8,
        lexical: 1,
        channelRanks: { lexical: 0, tiered: 0, bm25: 0, equiv: 0, path: 0 },
        authority: 0.3,
        hub: 0.2,
        termMatches: 2,
        textMatch: 0.5,
        callerCount: 3,
        forced: true,
        equivalenceClasses: ['PARSE'],
        lexicalFields: { name: 1, path: 1, signature: 1, doc: 1, body: 1, members: 1 },
        fileHistory: 0.5,
        fileChurn: 0.4,
      },
      { node: fixtureNode(file, 'Parser', { kind: 'class' }), rwr: 0.2, distance: 2, isSeed: false, lexical: 0.5 },
      { node: fixtureNode(file, 'Parser.parse', { kind: 'method' }), rwr: 0.1, distance: 1, isSeed: false, lexical: 0.7 },
      { node: fixtureNode(file, 'Parser.mode', { kind: 'field' }), rwr: 0.1, distance: 1, isSeed: false, lexical: 0.3 },
      { node: fixtureNode('tests/test_parser.py', 'test_parse', { isTest: true }), rwr: 0.1, distance: 1, isSeed: false },
      { node: fixtureNode('examples/demo.py', 'demo'), rwr: 0.1, distance: 1, isSeed: false },
    ];
    const task = 'parse_args() drops the last flag when the parser reads a quoted value that spans two lines of the config file';
    const vectors = learnedFeatures(inputs, { task });
    const unset = LEARNED_FEATURES.filter((_, f) => vectors.every((x) => x[f] === 0));
    expect(unset).toEqual([]);
    for (const x of vectors) expect(x.length).toBe(LEARNED_FEATURES.length);
  });

  it("a candidate's owner, best member and best sibling lend it their lexical evidence, relative to the best candidate's", () => {
    const at = (symbol: string, lexical: number | undefined, file = 'src/app.py'): RankInput => ({
      node: fixtureNode(file, symbol, { kind: symbol.includes('.') ? 'method' : 'class' }),
      rwr: 0.1,
      distance: 1,
      isSeed: false,
      ...(lexical === undefined ? {} : { lexical }),
    });
    const inputs = [at('Session', 2), at('Session.send', 4), at('Session.close', 1), at('Session.mount', undefined), at('Adapter', 3, 'src/adapters.py')];
    const [session, send, close, mount, adapter] = learnedFeatures(inputs, { task: 'retry a request when the connection drops' });
    const related = (x: Float64Array) => [x[index('owner_lexical')], x[index('member_lexical')], x[index('sibling_lexical')]];
    // The class: no owner among the candidates, its best member is send (4 of the best 4), no other class in its file.
    expect(related(session!)).toEqual([0, 1, 0]);
    // send: its owner Session (2 of 4); its best sibling is close, not itself.
    expect(related(send!)).toEqual([0.5, 0, 0.25]);
    expect(related(close!)).toEqual([0.5, 0, 1]);
    // A member without lexical evidence still has its relatives'.
    expect(related(mount!)).toEqual([0.5, 0, 1]);
    // Alone in its file.
    expect(related(adapter!)).toEqual([0, 0, 0]);
  });

  it('test code is the indexer flag; benchmarks and examples are a feature of their own', () => {
    const at = (file: string, isTest: boolean): RankInput => ({ node: node(`f_${file}`, 'function', file, isTest), rwr: 0.1, distance: 1, isSeed: false });
    const task = { task: 'fix the parser when a quoted string spans two lines' };
    const [pathOnly, flagged, example, exampleTest] = learnedFeatures(
      [at('tests/test_parser.py', false), at('src/parser.py', true), at('examples/parse.py', false), at('examples/tests/test_parse.py', true)],
      task,
    );
    expect([pathOnly![index('test_code')], pathOnly![index('auxiliary_code')]]).toEqual([0, 0]);
    expect([flagged![index('test_code')], flagged![index('auxiliary_code')]]).toEqual([1, 0]);
    expect([example![index('test_code')], example![index('auxiliary_code')]]).toEqual([0, 1]);
    expect([exampleTest![index('test_code')], exampleTest![index('auxiliary_code')]]).toEqual([1, 0]);
  });

  it('task shape tells prose from identifiers', () => {
    expect(taskShape('Blueprint.add_url_rule getAttr').identifiers).toBe(1);
    expect(taskShape('the parser fails when a string spans lines').identifiers).toBe(0);
    expect(taskShape('a b').length).toBeLessThan(taskShape('one two three four five six seven eight nine ten eleven twelve').length);
  });

  it('training finds the feature that separates right answers, and ranks by it', () => {
    // In every group the right answer has the highest lexical score but the lowest walk score.
    const groups: TrainingGroup[] = [];
    for (let g = 0; g < 20; g++) {
      const features: Float64Array[] = [];
      const labels: boolean[] = [];
      for (let c = 0; c < 10; c++) {
        const x = new Float64Array(LEARNED_FEATURES.length);
        const right = c === g % 10;
        x[index('lexical')] = right ? 0.9 : ((c * 7 + g) % 8) / 10;
        x[index('rwr')] = right ? 0.05 : 0.2 + ((c * 3 + g) % 7) / 10;
        features.push(x);
        labels.push(right);
      }
      groups.push({ features, labels });
    }
    const model = trainLearnedModel(groups, { epochs: 150 });
    expect(model.weights[index('lexical')]).toBeGreaterThan(0);
    expect(model.weights[index('rwr')]).toBeLessThan(0);
    expect(trainLearnedModel(groups, { epochs: 150 })).toEqual(model); // deterministic

    const inputs: RankInput[] = [
      { node: node('walked'), rwr: 0.8, distance: 1, isSeed: false, lexical: 0.3 },
      { node: node('said'), rwr: 0.05, distance: 1, isSeed: false, lexical: 0.9 },
    ];
    const ranked = createLearnedRanker({ model }).rank(inputs, { task: 'x' }) as { node: GraphNode; score: number }[];
    expect(ranked.map((s) => s.node.name)).toEqual(['said', 'walked']);
    for (const s of ranked) expect(s.score).toBeGreaterThan(0);
  });

  it('reads a model trained before auxiliary_code was split from test_code as it was trained', () => {
    const current = neutral();
    const at = index('auxiliary_code');
    // Such a model also predates every feature after auxiliary_code.
    const trained: LinearModel = {
      ...current,
      features: current.features.slice(0, at),
      mean: current.mean.slice(0, at),
      scale: current.scale.slice(0, at),
      weights: current.weights.slice(0, at),
    };
    const inputs: RankInput[] = [
      { node: node('example', 'function', 'examples/app.py'), rwr: 0.5, distance: 1, isSeed: false, lexical: 0.5 },
      { node: node('test_x', 'function', 'tests/test_app.py', true), rwr: 0.5, distance: 1, isSeed: false, lexical: 0.5 },
      { node: node('code'), rwr: 0.5, distance: 1, isSeed: false, lexical: 0.5 },
    ];
    const scores = (model: LearnedModel) => Object.fromEntries((createLearnedRanker({ model }).rank(inputs, { task: 'x' }) as { node: GraphNode; score: number }[]).map((s) => [s.node.name, s.score]));
    const old = scores(trained);
    // Benchmarks and examples were test code to that model: they score as a flagged test does.
    expect(old['example']).toBeCloseTo(old['test_x']!, 12);
    expect(old['code']).toBeGreaterThan(old['example']!);
    expect(old).toEqual(scores({ ...current, weights: current.weights.map((w, i) => (i === at ? -1 : w)) }));
  });

  it('reads a model trained before the per-field lexical features as it was trained, linear or trees', () => {
    const at = index('field_name');
    const inputs: RankInput[] = [
      { node: node('a'), rwr: 0.5, distance: 1, isSeed: false, lexical: 0.2, lexicalFields: { name: 9, body: 1 } },
      { node: node('b'), rwr: 0.5, distance: 1, isSeed: false, lexical: 0.8, lexicalFields: { body: 4 } },
    ];
    const scores = (model: LearnedModel) => (createLearnedRanker({ model }).rank(inputs, { task: 'x' }) as { node: GraphNode; score: number }[]).map((s) => [s.node.name, s.score]);
    const current = neutral();
    const older: LinearModel = { ...current, features: current.features.slice(0, at), mean: current.mean.slice(0, at), scale: current.scale.slice(0, at), weights: current.weights.slice(0, at) };
    expect(scores(older)).toEqual(scores(current));
    expect(scores(older)[0]![0]).toBe('b');
    // A tree splitting on `lexical` only: the same whether or not its model lists the new features.
    const tree = { feature: [index('lexical'), -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, -1, 1] };
    const trees: TreeModel = { version: 1, kind: 'trees', features: LEARNED_FEATURES.slice(0, at), trees: [tree] };
    expect(scores(trees)).toEqual(scores({ ...trees, features: [...LEARNED_FEATURES] }));
    // The new features do reach a model that weighs them.
    const byName = { ...current, weights: current.weights.map((w, i) => (i === at ? 1 : 0)) };
    expect(scores(byName)[0]![0]).toBe('a');
  });

  it('refuses a model of another feature set', () => {
    const model = neutral();
    expect(() => createLearnedRanker({ model: { ...model, features: model.features.slice(1) } })).toThrow(/features/);
    // A prefix of the list that no earlier version had is not an older model.
    const cut = (n: number): LinearModel => ({ ...model, features: model.features.slice(0, n), mean: model.mean.slice(0, n), scale: model.scale.slice(0, n), weights: model.weights.slice(0, n) });
    expect(() => createLearnedRanker({ model: cut(1) })).toThrow(/features/);
    expect(() => createLearnedRanker({ model: cut(index('field_name') + 1) })).toThrow(/features/);
    expect(() => createLearnedRanker({ model: { ...model, scale: model.scale.map(() => 0) } })).toThrow(/scale/);
  });
});

describe('the shipped model', () => {
  it('is well formed and its written digest is its weights\' (the ranker skips both at start-up)', () => {
    expect(() => checkModel(DEFAULT_LEARNED_MODEL)).not.toThrow();
    expect(modelDigest(DEFAULT_LEARNED_MODEL), 'the shipped model changed: update SHIPPED_MODEL_DIGEST in src/learned.ts').toBe(SHIPPED_MODEL_DIGEST);
    expect(createLearnedRanker().name).toBe(`knowing-learned@${SHIPPED_MODEL_DIGEST}`);
    expect(createLearnedRanker({ model: DEFAULT_LEARNED_MODEL, name: 'x' }).name).toBe(`x@${SHIPPED_MODEL_DIGEST}`);
  });
});

describe('the learned ranker’s components', () => {
  it('are, for every ranked symbol, the groups of the per-feature shares explain gives, forced symbols included', async () => {
    const ranker = createLearnedRanker();
    const files = ['src/app.py', 'src/http/client.py', 'tests/test_app.py'];
    const inputs: RankInput[] = Array.from({ length: 40 }, (_, i) => ({
      node: node(`sym${String(i).padStart(2, '0')}`, i % 5 === 0 ? 'class' : i % 3 === 0 ? 'method' : 'function', files[i % 3]!, i % 3 === 2),
      rwr: ((i * 37) % 100) / 100,
      distance: i % 4,
      isSeed: i % 4 === 0,
      ...(i % 2 === 0 ? { lexical: ((i * 13) % 17) / 3, lexicalFields: { name: i % 3, path: 0, signature: 1, doc: 0, body: (i * 7) % 11, members: 0 } } : {}),
      ...(i % 6 === 0 ? { channelRanks: { lexical: i, tiered: i % 5, pasted: 2, ...(i % 4 === 0 ? { traces: 0 } : {}) } } : {}),
      ...(i % 9 === 0 ? { feedback: { useful: 3, notUseful: 1 } } : {}),
      ...(i === 7 || i === 21 ? { forced: true } : {}),
      ...(i % 8 === 0 ? { sessionBoost: 0.5 } : {}),
    }));
    const context = { task: 'the client retries a request when the connection drops' };
    const ranked = await ranker.rank(inputs, context);
    expect(ranked).toHaveLength(40);
    // The forced two come first.
    expect(ranked.slice(0, 2).map((s) => s.node.name).sort()).toEqual(['sym07', 'sym21']);
    for (const symbol of ranked) {
      const explained = (await ranker.explain!(symbol.node.id, inputs, context))!;
      expect(symbol.score).toBe(explained.score);
      expect(symbol.components).toEqual(explained.components);
    }
  });
});
