/**
 * Every built-in channel passes the conformance kit users run on their own channels, on the
 * indexed fixture; and the kit fails channels that break the contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lexicalQueryTerms } from '@knowing/keywords/lexical';
import {
  createBm25Channel,
  createLexicalChannel,
  createPathChannel,
  createTieredChannel,
  createTraceChannel,
  createPastedChannel,
  createVectorChannel,
  DEFAULT_ENGINE_OPTIONS as o,
} from '../src/index.js';
import type { Channel, VectorChannel } from '../src/index.js';
import { checkChannel, testChannel } from '../src/testing.js';
import type { ChannelFixture } from '../src/testing.js';
import { indexedFixture } from './helpers.js';

let fixture: Awaited<ReturnType<typeof indexedFixture>>;
beforeAll(async () => {
  fixture = await indexedFixture();
}, 60_000);
afterAll(async () => fixture?.cleanup());

const TASKS = [
  'add a `before_request` hook that checks the session cookie',
  'how does the routing table match a url rule',
  'tests for dispatch_request should cover a missing route',
  [
    'Saving the session fails:',
    'Traceback (most recent call last):',
    '  File "/srv/site/vendor/tinyweb/app.py", line 20, in wsgi_app',
    '  File "/srv/site/vendor/tinyweb/sessions.py", line 24, in open_session',
    'ValueError: not enough values to unpack',
  ].join('\n'),
  'Sessions are not saved:\n\n```python\napp = App(__name__)\napp.session_interface.save_session(app, session, response)\n```',
];
const channelFixture = (): ChannelFixture => ({ store: fixture.store, tasks: TASKS });

/** A stand-in semantic search: the lexical index's best symbols, after an id no store has. */
const search: VectorChannel = {
  async search(task, { limit }) {
    const hits = await fixture.store.lexicalSearch(lexicalQueryTerms(task), { limit });
    return ['no-such-node', ...hits.map((h) => h.node.id)];
  },
};

testChannel(createTieredChannel(o.tiered), channelFixture);
testChannel(createBm25Channel({ limit: o.seeds.bm25Limit, keywords: o.seeds.bm25Keywords }), channelFixture);
testChannel(createPathChannel(o.path), channelFixture, { testCode: 'never' });
testChannel(createVectorChannel(search), channelFixture);
testChannel(createLexicalChannel(), channelFixture, { testCode: 'when-about-tests' });
testChannel(createTraceChannel(), channelFixture);
testChannel(createPastedChannel(), channelFixture);

describe('the channel kit', () => {
  it('names the rules a broken channel breaks', async () => {
    const sign = (await fixture.store.findNodesByName('sign'))[0]!;
    const ghost = { ...sign, id: 'ghost' };
    let calls = 0;
    const broken: Channel = {
      name: 'broken',
      fingerprint: () => 'broken@1',
      async run({ task }) {
        calls++;
        if (task.trim() === '') throw new Error('no task');
        return calls % 2 === 0 ? [{ node: sign, detail: 'a' }, { node: sign, detail: 'b' }] : [{ node: sign, detail: 'a' }];
      },
    };
    const violations = await checkChannel(broken, channelFixture());
    expect([...new Set(violations.map((v) => v.rule))].sort()).toEqual(['deterministic', 'runs', 'unique']);
    expect(violations.every((v) => v.message.startsWith('[knowing:engine/testing] channel "broken":'))).toBe(true);

    const ghosts = (score: number): Channel => ({ name: 'ghosts', fingerprint: () => 'ghosts@1', run: async () => [{ node: ghost, detail: 'ghost', score }] });
    expect(new Set((await checkChannel(ghosts(1), channelFixture())).map((v) => v.rule))).toEqual(new Set(['known']));
    expect(new Set((await checkChannel(ghosts(Number.NaN), channelFixture())).map((v) => v.rule))).toEqual(new Set(['hits', 'finds']));

    const nameless: Channel = { name: ' ', fingerprint: () => '', run: async () => [] };
    expect((await checkChannel(nameless, channelFixture())).map((v) => v.rule).sort()).toEqual(['finds', 'fingerprint', 'name']);
    expect((await checkChannel({ ...ghosts(1), name: 'equiv' }, channelFixture())).map((v) => v.rule)).toContain('name');
  });

  it('checks a test-code rule only when told the channel has one', async () => {
    const testNode = (await fixture.store.findNodesByName('test_dispatch_request'))[0]!;
    expect(testNode.isTest).toBe(true);
    const tests: Channel = { name: 'tests', fingerprint: () => 'tests@1', run: async () => [{ node: testNode, detail: 'test' }] };
    expect(await checkChannel(tests, channelFixture())).toEqual([]);
    const rules = (await checkChannel(tests, channelFixture(), { testCode: 'when-about-tests' })).map((v) => v.rule);
    expect(new Set(rules)).toEqual(new Set(['testCode']));
  });
});
