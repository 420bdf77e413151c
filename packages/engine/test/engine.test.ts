import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, isKnowingError } from '@knowing/graph';
import type { RankedSymbol } from '@knowing/graph';
import { packDensity } from '@knowing/pack';
import { createEngine } from '../src/index.js';
import type { Engine } from '../src/index.js';
import { indexedFixture } from './helpers.js';

type Fixture = Awaited<ReturnType<typeof indexedFixture>>;

const symbolPath = (s: RankedSymbol): string => s.node.qualifiedName.slice(s.node.file.length + 1);
const names = (symbols: readonly RankedSymbol[]): string[] => symbols.map(symbolPath);
const HOOK_TASK = 'Add a before_request hook that rejects requests without an API key header';

describe('engine over an indexed fixture repository', () => {
  let fixture: Fixture;
  let engine: Engine;

  beforeAll(async () => {
    fixture = await indexedFixture();
    engine = createEngine({ store: fixture.store });
  }, 60_000);
  afterAll(async () => fixture?.cleanup());

  describe('forTask', () => {
    it('ranks the hook registration and the code that runs hooks first', async () => {
      const result = await engine.forTask(HOOK_TASK, { fresh: true });
      const top = names(result.ranked.slice(0, 5));
      expect(top).toContain('Scaffold.before_request');
      expect(names(result.ranked.slice(0, 10))).toContain('App.preprocess_request');
      expect(result.pack.tokensUsed).toBeLessThanOrEqual(result.pack.tokenBudget);
      expect(result.pack.packRoot).toMatch(/^[0-9a-f]{64}$/);
    });

    it('packs within a small budget, keeping the best symbols', async () => {
      const result = await engine.forTask(HOOK_TASK, { budget: 60, fresh: true });
      expect(result.pack.tokensUsed).toBeLessThanOrEqual(60);
      expect(result.pack.symbols.length).toBeGreaterThan(0);
      expect(result.pack.symbols.length).toBeLessThan(result.ranked.length);
    });

    it('fills the share of the budget pack.rankedShare gives it in score order, then by density', async () => {
      const result = await engine.forTask(HOOK_TASK, { fresh: true });
      const select = (budget: number, rankedShare: number) => names(packDensity(result.ranked, { budget, rankedShare, format: 'xml' }).symbols);
      // A budget at which score order and density choose differently on this fixture.
      const budget = [60, 90, 120, 160, 240, 320, 480].find((b) => select(b, 1).join() !== select(b, 0).join());
      expect(budget).toBeDefined();
      for (const rankedShare of [0, 1]) {
        const shared = createEngine({ store: fixture.store, options: { pack: { rankedShare } } });
        const pack = (await shared.forTask(HOOK_TASK, { budget, fresh: true })).pack;
        expect(names(pack.symbols)).toEqual(select(budget!, rankedShare));
        expect(pack.tokensUsed).toBeLessThanOrEqual(budget!);
      }
      // With the whole budget in score order, the pack follows the ranking: each symbol in turn
      // that still fits, from the first.
      const place = new Map(names(result.ranked).map((name, i) => [name, i]));
      const places = select(budget!, 1).map((name) => place.get(name)!);
      expect(places[0]).toBe(0);
      expect(places).toEqual([...places].sort((a, b) => a - b));
    });

    it('reports every stage in a trace', async () => {
      const result = await engine.forTask(HOOK_TASK, { trace: true });
      expect(result.trace).toBeDefined();
      const trace = result.trace!;
      expect(trace.keywords.compounds).toContain('before_request');
      expect(trace.channels.tiered.map((h) => h.node.name)).toContain('before_request');
      expect(trace.seeds.length).toBeGreaterThan(0);
      expect(trace.walk.size).toBeGreaterThan(trace.seeds.length);
    });

    it('rejects an empty task with INVALID_ARGUMENT', async () => {
      const error = await engine.forTask('   ').catch((e: unknown) => e);
      expect(isKnowingError(error, ErrorCode.InvalidArgument)).toBe(true);
    });
  });

  describe('caches', () => {
    it('serves a repeated task from the cache and goes stale after a re-index that changes the graph', async () => {
      const task = 'how are sessions saved into a signed cookie';
      const first = await engine.forTask(task);
      const second = await engine.forTask(task);
      expect(first.cached).toBe(false);
      expect(second.cached).toBe(true);
      expect(second.pack.packRoot).toBe(first.pack.packRoot);

      const fresh = createEngine({ store: fixture.store });
      expect((await fresh.forTask(task)).cached).toBe(true); // persisted as a note

      appendFileSync(join(fixture.root, 'tinyweb/sessions.py'), '\n\ndef rotate_session_key(app):\n    """Rotate the signing key."""\n    return app.secret_key[::-1]\n');
      await fixture.reindex();
      const after = await engine.forTask(task);
      expect(after.cached).toBe(false);
      expect(after.snapshotId).not.toBe(first.snapshotId);
    });
  });

  describe('forFiles', () => {
    it('returns the file symbols as targets and their callers as related', async () => {
      const result = await engine.forFiles(['tinyweb/routing.py']);
      const byName = new Map(result.ranked.map((s) => [symbolPath(s), s]));
      expect(byName.get('Map.bind')?.distance).toBe(0);
      expect(byName.get('App.dispatch_request')?.distance).toBe(1);
    });

    it('rejects an empty file list', async () => {
      const error = await engine.forFiles([]).catch((e: unknown) => e);
      expect(isKnowingError(error, ErrorCode.InvalidArgument)).toBe(true);
    });
  });

  describe('forPR', () => {
    it('walks from every changed symbol to the code that uses it, within the PR budget', async () => {
      const result = await engine.forPR(['tinyweb/sessions.py']);
      const all = names(result.ranked);
      expect(all).toContain('SessionInterface.open_session');
      expect(all).toContain('App.wsgi_app');
      expect(result.pack.tokenBudget).toBe(8000);
    });
  });

  describe('explainSymbol', () => {
    it('explains a packed symbol with its seed, walk and score components', async () => {
      const explanation = await engine.explainSymbol(HOOK_TASK, 'Scaffold.before_request');
      expect(explanation.stage).toBe('packed');
      expect(explanation.rank).toBeGreaterThan(0);
      expect(explanation.seed).not.toBeNull();
      expect(explanation.channelDetails.tiered).toBe('exact');
      expect(Object.keys(explanation.components).length).toBeGreaterThan(3);
      expect(explanation.walk?.score).toBeGreaterThan(0);
    });

    it('says when a symbol is not in the graph', async () => {
      const explanation = await engine.explainSymbol(HOOK_TASK, 'NoSuchSymbolAnywhere');
      expect(explanation.stage).toBe('not_in_graph');
      expect(explanation.symbol).toBeNull();
    });

    it('places a far-away symbol at a stage before packing or with a low rank', async () => {
      const explanation = await engine.explainSymbol(HOOK_TASK, 'parse_cookies', { budget: 60 });
      expect(explanation.symbol?.name).toBe('parse_cookies');
      expect(explanation.stage).not.toBe('packed');
    });
  });

  describe('testScope', () => {
    it('finds the tests that reach symbols of a changed file through calls', async () => {
      const scope = await engine.testScope(['tinyweb/routing.py']);
      const tests = scope.tests.map((t) => t.test.name);
      expect(tests).toContain('test_dispatch_request');
      expect(tests).toContain('test_blueprint_routes');
      expect(scope.testFiles).toEqual(['tests/test_app.py']);
    });
  });

  describe('learning loop', () => {
    it('turns symbols the agent used into positive feedback that raises them in a later answer', async () => {
      const task = 'where are URL rules matched against the request path';
      const baseline = await createEngine({ store: fixture.store }).forTask(task, { fresh: true });
      const learning = createEngine({ store: fixture.store });
      const shown = await learning.forTask(task, { session: 'agent-1' });
      const target = shown.pack.symbols.find((s) => s.node.name === 'match') ?? shown.pack.symbols[0]!;
      learning.observe('agent-1', `I edited ${target.node.name} to handle trailing slashes`);
      await learning.forTask('an unrelated follow-up question about cookies', { session: 'agent-1' }); // flushes agent-1
      const later = await createEngine({ store: fixture.store }).forTask(task, { fresh: true });
      const before = baseline.ranked.find((s) => s.node.id === target.node.id)!;
      const after = later.ranked.find((s) => s.node.id === target.node.id)!;
      expect(after.components.feedback).toBeGreaterThan(0);
      expect(after.score).toBeGreaterThan(before.score);
    });
  });
});
