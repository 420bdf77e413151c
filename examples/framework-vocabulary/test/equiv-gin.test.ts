import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '@knowing/engine';
import { BUILTIN_PLUGINS, FRAMEWORK_FILES, defineEquivalenceClasses, matchClasses, resolveTargets } from '@knowing/equivalence';
import { ErrorCode, isKnowingError } from '@knowing/graph';
import type { SqliteGraphStore } from '@knowing/store-sqlite';
import { symbolPath, viewTask } from '../src/compare.js';
import type { TaskView } from '../src/compare.js';
import gin from '../src/equiv_gin.js';
import { indexSample } from '../src/project.js';

const KEYS_TASK = 'share request scoped values between middleware';
const AUTH_TASK = 'use basic authentication for an authorized group of admin routes';
const CONTEXT_KEYS = ['Context.Set', 'Context.Get', 'Context.MustGet', 'Context.Keys'];

describe('equiv_gin.ts as a plugin', () => {
  it('is a framework the shipped vocabulary does not cover', () => {
    expect(BUILTIN_PLUGINS.map((p) => p.framework)).not.toContain('gin');
    expect(FRAMEWORK_FILES.length).toBeGreaterThan(0);
    expect(FRAMEWORK_FILES).toContain('equiv_flask');
    expect(FRAMEWORK_FILES).not.toContain('equiv_gin');
    expect(gin.classes.every((c) => c.concept.startsWith('GIN_') && c.source === 'plugin' && c.weight === 0.9)).toBe(true);
  });

  it('applies to Go repositories only', () => {
    expect(matchClasses(KEYS_TASK, gin.classes, { language: 'go' }).map((m) => m.equivalenceClass.concept)).toEqual(['GIN_CONTEXT_KEYS']);
    expect(matchClasses(KEYS_TASK, gin.classes, { language: 'python' })).toEqual([]);
  });

  it('is validated when defined: a bare generic target is refused, naming the plugin', () => {
    let error: unknown;
    try {
      defineEquivalenceClasses({ framework: 'gin-typo', language: 'go', classes: [{ concept: 'GIN_BAD', phrases: ['call next handler'], targets: ['Next'] }] });
    } catch (e) {
      error = e;
    }
    expect(isKnowingError(error, ErrorCode.PluginInvalid)).toBe(true);
    expect((error as Error).message).toContain('gin-typo');
  });
});

describe('the Gin vocabulary on an indexed Gin-style project', () => {
  let sample: { store: SqliteGraphStore; close(): Promise<void> };

  beforeAll(async () => {
    sample = await indexSample({ workers: 0 });
  }, 60_000);
  afterAll(async () => sample?.close());

  it('resolves at least one target of every class in the sample', async () => {
    const matches = gin.classes.map((equivalenceClass) => ({
      equivalenceClass,
      phrases: equivalenceClass.phrases,
      phraseCount: 1,
      longestPhraseWords: 1,
    }));
    const resolved = await resolveTargets(sample.store, matches);
    const empty = resolved.filter((r) => r.nodes.length === 0).map((r) => r.match.equivalenceClass.concept);
    expect(empty).toEqual([]);
  });

  describe(`"${KEYS_TASK}"`, () => {
    let without: TaskView;
    let withGin: TaskView;

    beforeAll(async () => {
      without = await viewTask(sample.store, KEYS_TASK);
      withGin = await viewTask(sample.store, KEYS_TASK, [gin]);
    });

    it('matches the Gin class only when the plugin is registered', () => {
      expect(without.matchedClasses.map((m) => m.concept)).not.toContain('GIN_CONTEXT_KEYS');
      const match = withGin.matchedClasses.find((m) => m.concept === 'GIN_CONTEXT_KEYS');
      expect(match?.strong).toBe(true);
      expect(match?.phrases).toEqual(['request scoped value']);
    });

    it('seeds the walk from the context-key methods only with the plugin', () => {
      // Without it, the lexical channel may find `Set` by its doc comment, not the four together.
      const seeded = (view: TaskView): string[] => view.seeds.filter((s) => CONTEXT_KEYS.includes(s));
      expect(seeded(without).length).toBeLessThan(2);
      expect(seeded(withGin).length).toBeGreaterThanOrEqual(3);
    });

    it('forces those methods to the top of the ranking', () => {
      expect(without.forced).toEqual([]);
      expect([...withGin.forced].sort()).toEqual([...CONTEXT_KEYS].sort());
      expect(withGin.ranked.slice(0, 4).map((s) => symbolPath(s.node)).sort()).toEqual([...CONTEXT_KEYS].sort());
      // Without the plugin the doc comment of `Set` ("stores a value for this request") can
      // bring it up by text, but not the four context-key methods together.
      expect(without.ranked.slice(0, 4).map((s) => symbolPath(s.node)).filter((s) => CONTEXT_KEYS.includes(s)).length).toBeLessThan(CONTEXT_KEYS.length);
    });
  });

  it(`puts BasicAuth and its accounts first for "${AUTH_TASK}"`, async () => {
    const without = await viewTask(sample.store, AUTH_TASK);
    const withGin = await viewTask(sample.store, AUTH_TASK, [gin]);
    expect(withGin.matchedClasses.find((m) => m.concept === 'GIN_BASIC_AUTH')?.phrases).toEqual(['basic authentication', 'authorized group']);
    expect(withGin.seeds).toContain('Accounts');
    expect(without.seeds).not.toContain('Accounts');
    expect(withGin.ranked.slice(0, 3).map((s) => symbolPath(s.node)).sort()).toEqual(['Accounts', 'AuthUserKey', 'BasicAuth']);
    // Without the vocabulary the text alone can find BasicAuth, but not the accounts it guards.
    expect(without.ranked.slice(0, 3).map((s) => symbolPath(s.node)).sort()).not.toEqual(['Accounts', 'AuthUserKey', 'BasicAuth']);
  });

  it('can be unregistered again at runtime', async () => {
    const engine = createEngine({ store: sample.store });
    engine.classes.register(gin);
    expect(engine.classes.list().map((p) => p.name)).toContain('gin');
    expect(engine.classes.unregister('gin')).toBe(true);
    const { trace } = await engine.forTask(KEYS_TASK, { trace: true });
    expect(trace!.matchedClasses.map((m) => m.concept)).not.toContain('GIN_CONTEXT_KEYS');
  });
});
