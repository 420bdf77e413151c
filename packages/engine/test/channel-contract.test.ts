import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_PLUGINS } from '@knowing/equivalence';
import { createEngine, createLexicalChannel } from '../src/index.js';
import type { Channel } from '../src/index.js';
import { indexedFixture } from './helpers.js';

type Fixture = Awaited<ReturnType<typeof indexedFixture>>;

describe('channels', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await indexedFixture();
  }, 60_000);
  afterAll(async () => fixture?.cleanup());

  it('the lexical channel finds a method by words only its body uses, and the ranking weighs it', async () => {
    const engine = createEngine({ store: fixture.store });
    const task = 'tampered payloads must fail the hmac digest comparison';
    const result = await engine.forTask(task, { trace: true });
    const lexical = result.trace!.channels['lexical']!;
    const openSession = 'tinyweb/sessions.py.SessionInterface.open_session';
    // The class holding the method matches through its members' text too.
    expect(lexical.slice(0, 2).map((h) => h.node.qualifiedName).sort()).toEqual(['tinyweb/sessions.py.SessionInterface', openSession]);
    expect(lexical[0]!.score).toBeGreaterThan(0);
    const ownTextOnly = await createLexicalChannel({ fieldWeights: { members: 0 } }).run({ store: fixture.store, task, keywords: result.trace!.keywords, aboutTests: false });
    expect(ownTextOnly[0]!.node.qualifiedName).toBe(openSession);
    const ranked = result.ranked.findIndex((s) => s.node.name === 'open_session');
    expect(ranked).toBeGreaterThanOrEqual(0);
    expect(ranked).toBeLessThan(3);
    expect(result.ranked[ranked]!.components['lexical']).toBeGreaterThan(0);
  });

  it('the traces channel resolves a pasted traceback to the frames inside the repository, innermost first', async () => {
    const engine = createEngine({ store: fixture.store });
    const task = [
      'Logging in breaks after upgrading, this is what we get:',
      'Traceback (most recent call last):',
      '  File "/srv/site/.venv/lib/python3.12/site-packages/gunicorn/workers/sync.py", line 135, in handle',
      '  File "/srv/site/vendor/tinyweb/app.py", line 20, in wsgi_app',
      '  File "/srv/site/vendor/tinyweb/sessions.py", line 24, in open_session',
      'ValueError: not enough values to unpack',
    ].join('\n');
    const result = await engine.forTask(task, { trace: true, fresh: true });
    const frames = result.trace!.channels['traces']!;
    expect(frames[0]!.node.qualifiedName).toBe('tinyweb/sessions.py.SessionInterface.open_session');
    expect(frames[0]!.detail).toBe('frame 0');
    expect(frames.every((h) => h.node.file.startsWith('tinyweb/'))).toBe(true);
    expect(result.ranked[0]!.node.qualifiedName).toBe('tinyweb/sessions.py.SessionInterface.open_session');
    // Without a trace the channel finds nothing.
    const plain = await engine.forTask('logging in breaks after upgrading', { trace: true, fresh: true });
    expect(plain.trace!.channels['traces']).toEqual([]);
  });

  it('ranking.testTaskWords decides whether the task is about tests, for the channels too', async () => {
    const task = 'add an e2e check that dispatch request stops when before request returns';
    const testHits = async (engine: ReturnType<typeof createEngine>): Promise<number> =>
      (await engine.forTask(task, { trace: true, fresh: true })).trace!.channels['lexical']!.filter((h) => h.node.isTest).length;
    expect(await testHits(createEngine({ store: fixture.store }))).toBe(0);
    expect(await testHits(createEngine({ store: fixture.store, options: { ranking: { testTaskWords: ['e2e'] } } }))).toBeGreaterThan(0);
  });

  it('a registered channel runs for every task, its hits are fused and traced', async () => {
    const sign = (await fixture.store.findNodesByName('sign'))[0]!;
    const calls: string[] = [];
    const pinned: Channel = {
      name: 'pinned',
      fingerprint: () => 'pinned@1',
      async run({ task }) {
        calls.push(task);
        return [{ node: sign, detail: 'pinned' }];
      },
    };
    const engine = createEngine({ store: fixture.store, channels: [pinned] });
    const result = await engine.forTask('register a route for the index page', { trace: true });
    expect(calls).toEqual(['register a route for the index page']);
    expect(result.trace!.channels['pinned']!.map((h) => h.node.id)).toEqual([sign.id]);
    expect(result.trace!.fused.find((c) => c.node.id === sign.id)?.channels).toContain('pinned');
    // Weight 0 turns it off.
    const off = createEngine({ store: fixture.store, channels: [pinned], options: { channels: { pinned: 0 } } });
    await off.forTask('register a route for the about page', { trace: true });
    expect(calls).toHaveLength(1);
  });

  it('a channel may not take the vocabulary stage name or be registered twice; one named lexical replaces the default', () => {
    const fake = (name: string): Channel => ({ name, fingerprint: () => name, run: async () => [] });
    expect(() => createEngine({ store: fixture.store, channels: [fake('equiv')] })).toThrow(/reserved/);
    expect(() => createEngine({ store: fixture.store, channels: [fake('x'), fake('x')] })).toThrow(/twice/);
    expect(() => createEngine({ store: fixture.store, channels: [{ name: 'broken' } as unknown as Channel] })).toThrow(/fingerprint/);
    expect(() => createEngine({ store: fixture.store, channels: [createLexicalChannel({ limit: 5 })] })).not.toThrow();
  });

  it('a channel named like a built-in name channel replaces it, and its hits are read where the built-in ones were', async () => {
    const sign = (await fixture.store.findNodesByName('sign'))[0]!;
    const tiered: Channel = { name: 'tiered', fingerprint: () => 'pinned-tiered@1', run: async () => [{ node: sign, detail: 'exact' }] };
    const result = await createEngine({ store: fixture.store, channels: [tiered] }).forTask('register a route for the index page', { trace: true, fresh: true });
    expect(result.trace!.channels.tiered.map((h) => h.node.id)).toEqual([sign.id]);
    expect(result.trace!.fused.find((c) => c.node.id === sign.id)?.details['tiered']).toBe('exact');
  });

  it('answers cached under one set of channels or vocabulary are not served under another', async () => {
    const task = 'how are sessions saved into the signed cookie';
    const plain = createEngine({ store: fixture.store });
    expect((await plain.forTask(task)).cached).toBe(false);
    expect((await createEngine({ store: fixture.store }).forTask(task)).cached).toBe(true);

    const narrow = createEngine({ store: fixture.store, channels: [createLexicalChannel({ limit: 3 })] });
    expect((await narrow.forTask(task)).cached).toBe(false);

    const noVocabulary = createEngine({ store: fixture.store, classes: [] });
    expect((await noVocabulary.forTask(task)).cached).toBe(false);

    // Registering a plugin at runtime changes the key of the next answer too.
    const growing = createEngine({ store: fixture.store, classes: [] });
    expect((await growing.forTask(task)).cached).toBe(true);
    growing.classes.register(BUILTIN_PLUGINS[0]!);
    expect((await growing.forTask(task)).cached).toBe(false);
  });
});
