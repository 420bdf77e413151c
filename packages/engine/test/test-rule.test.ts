import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphNode } from '@knowing/graph';
import { LEARNED_FEATURES, createDefaultRanker } from '@knowing/rank';
import { learnedFeatures } from '@knowing/rank/features';
import type { RankInput } from '@knowing/rank';
import { createEngine, createTieredChannel } from '../src/index.js';
import type { Seed } from '../src/index.js';
import { fuseChannels } from '../src/fusion.js';
import { selectSeeds } from '../src/seeds.js';
import { DEFAULT_ENGINE_OPTIONS as o } from '../src/options.js';
import { indexedFixture } from './helpers.js';

type Fixture = Awaited<ReturnType<typeof indexedFixture>>;

/**
 * One rule for test code, `node.isTest` from the language module, in seeding and in ranking:
 * a library function the Python module flags as a test (`def test_client`, as in Flask) is
 * seeded after the code and demoted by both rankers; a library's own `testing` package
 * (`tinyweb/testing/`, shipped API as `flask.testing` is), which nothing flags, is neither.
 */
describe('the test rule agrees between seeds and ranking', () => {
  let fixture: Fixture;
  let flagged: GraphNode;
  let unflagged: GraphNode;

  beforeAll(async () => {
    fixture = await indexedFixture();
    appendFileSync(
      join(fixture.root, 'tinyweb/app.py'),
      '\n\ndef test_client(app):\n    """A client that dispatches requests to the app without a server."""\n    return app\n',
    );
    mkdirSync(join(fixture.root, 'tinyweb', 'testing'), { recursive: true });
    writeFileSync(
      join(fixture.root, 'tinyweb/testing/harness.py'),
      'def dispatch_harness(app, path):\n    """A harness that dispatches requests to the app for a path."""\n    return app.dispatch_request(path)\n',
    );
    await fixture.reindex();
    flagged = (await fixture.store.findNodesByName('test_client'))[0]!;
    unflagged = (await fixture.store.findNodesByName('dispatch_harness'))[0]!;
  }, 60_000);
  afterAll(async () => fixture?.cleanup());

  /** Seeds chosen from name hits for the helpers and the code around them, for a task not about tests. */
  async function seeds(): Promise<Seed[]> {
    const keywords = { exact: ['test_client', 'dispatch_harness', 'dispatch_request', 'add_url_rule', 'preprocess_request'], compounds: [], components: [], priority: [] };
    const hits = await createTieredChannel(o.tiered).run({ store: fixture.store, task: '', keywords, aboutTests: false });
    return selectSeeds(fuseChannels({ tiered: hits }, o.channels, o.seeds.rrfK, 40), [], 100, o.seeds, o.path.supplementalWeight, false);
  }
  const inputs = (nodes: readonly GraphNode[]): RankInput[] => nodes.map((node) => ({ node, rwr: 0.5, distance: 0, isSeed: true }));
  const context = { task: 'build a client that dispatches requests to the app', now: 0, aboutTests: false };

  it('the language module flags the library helper and not the harness', () => {
    expect(flagged?.isTest).toBe(true);
    expect(flagged?.file).toBe('tinyweb/app.py');
    expect(unflagged?.isTest).toBe(false);
    expect(unflagged?.file).toBe('tinyweb/testing/harness.py');
  });

  it('seeding puts exactly the flagged helper after the code', async () => {
    const order = (await seeds()).map((s) => s.node.id);
    const code = order.filter((id) => id !== flagged.id);
    expect(order.indexOf(flagged.id)).toBe(order.length - 1);
    expect(code).toContain(unflagged.id);
  });

  it('the formula ranker penalises exactly what seeding puts last', async () => {
    const ranked = await createDefaultRanker().rank(inputs([flagged, unflagged]), context);
    const penalty = (node: GraphNode) => ranked.find((s) => s.node.id === node.id)!.components['test_penalty'];
    expect(penalty(flagged)).toBeLessThan(0);
    expect(penalty(unflagged)).toBe(0);
  });

  it('the learned ranker counts exactly those as test code too', () => {
    const testCode = LEARNED_FEATURES.indexOf('test_code');
    const [x, y] = learnedFeatures(inputs([flagged, unflagged]), context);
    expect([x![testCode], y![testCode]]).toEqual([1, 0]);
  });

  it('auxiliary code (benchmarks, examples) is not test code but seeds last and is demoted alike, under its own name', async () => {
    const at = (file: string): GraphNode => ({ ...unflagged, id: file.padEnd(32, '0'), file, qualifiedName: `${file}.run`, name: 'run' });
    const [example, code] = [at('examples/demo/app.py'), at('tinyweb/run.py')];
    const candidates = [example, code].map((node, i) => ({ node, score: 1 - i / 10, channels: ['tiered'], details: {} }));
    expect(selectSeeds(candidates, [], 100, o.seeds, 0.3, false).map((s) => s.node.file)).toEqual(['tinyweb/run.py', 'examples/demo/app.py']);
    const ranked = await createDefaultRanker().rank(inputs([example, code]), context);
    const demoted = ranked.find((s) => s.node.id === example.id)!;
    expect(demoted.components['auxiliary_penalty']).toBeLessThan(0);
    expect(demoted.components['test_penalty']).toBe(0);
    const [x] = learnedFeatures(inputs([example]), context);
    expect([x![LEARNED_FEATURES.indexOf('test_code')], x![LEARNED_FEATURES.indexOf('auxiliary_code')]]).toEqual([0, 1]);
  });

  it('a file query demotes exactly the flagged symbols: the helper among its file\'s code, and the tests that call that code', async () => {
    const engine = createEngine({ store: fixture.store });
    const result = await engine.forFiles(['tinyweb/app.py'], { fresh: true });
    const penalised = result.ranked.filter((s) => (s.components['test_penalty'] ?? 0) < 0);
    expect(penalised.map((s) => s.node.id)).toContain(flagged.id);
    expect(penalised.map((s) => s.node.id).sort()).toEqual(result.ranked.filter((s) => s.node.isTest).map((s) => s.node.id).sort());
  });
});
