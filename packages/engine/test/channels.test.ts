import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractKeywordSet, primaryKeywords } from '@knowing/keywords';
import type { KeywordSet } from '@knowing/keywords';
import { createClassRegistry, defineEquivalenceClasses } from '@knowing/equivalence';
import { createBm25Channel, createPathChannel, createTieredChannel } from '../src/index.js';
import type { Channel } from '../src/index.js';
import { fuseChannels } from '../src/fusion.js';
import { createEquivalenceStage } from '../src/equivalence-stage.js';
import { GraphStateCache } from '../src/graph-state.js';
import { noiseReason, selectSeeds, focusCandidates } from '../src/seeds.js';
import { DEFAULT_ENGINE_OPTIONS } from '../src/options.js';
import type { GraphNode } from '@knowing/graph';
import type { ChannelHit } from '../src/types.js';
import { indexedFixture } from './helpers.js';

type Fixture = Awaited<ReturnType<typeof indexedFixture>>;
const path = (h: ChannelHit): string => h.node.qualifiedName.slice(h.node.file.length + 1);
const o = DEFAULT_ENGINE_OPTIONS;

describe('retrieval channels on an indexed fixture', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await indexedFixture();
  }, 60_000);
  afterAll(async () => fixture?.cleanup());

  /** A channel's hits for a task (keywords extracted from it unless given), and the query it reported. */
  async function run(channel: Channel, task: string, keywords: KeywordSet = extractKeywordSet(task)): Promise<{ hits: readonly ChannelHit[]; query: string }> {
    let query = '';
    const hits = await channel.run({ store: fixture.store, task, keywords, aboutTests: false, reportQuery: (q) => (query = q) });
    return { hits, query };
  }
  const tiered = createTieredChannel(o.tiered);

  it('tiered: a compound keyword matches exactly first, before its parts are tried', async () => {
    const { hits } = await run(tiered, 'add a `before_request` hook');
    expect(hits[0]).toMatchObject({ detail: 'exact' });
    expect(path(hits[0]!)).toBe('Scaffold.before_request');
    // `before_request_funcs` comes through the prefix tier, never ahead of the exact match
    const funcs = hits.findIndex((h) => path(h) === 'Scaffold.before_request_funcs');
    expect(funcs).toBeGreaterThan(0);
    expect(hits[funcs]!.detail).toBe('prefix');
  });

  it('tiered: a dotted keyword keeps only nodes under the named qualifier', async () => {
    const keywords = { exact: ['Blueprint.add_url_rule'], compounds: [], components: [], priority: [] };
    const { hits } = await run(tiered, '`Blueprint.add_url_rule`', keywords);
    const exact = hits.filter((h) => h.detail === 'exact').map(path);
    expect(exact).toEqual(['Blueprint.add_url_rule']);
  });

  it('tiered: falls back to components when no primary keyword matches', async () => {
    const task = 'look at how the parse cookies helper works';
    expect(primaryKeywords(extractKeywordSet(task))).toEqual([]);
    const { hits } = await run(tiered, task);
    expect(hits.map(path)).toContain('parse_cookies');
  });

  it('bm25: ranks symbols by their names and docstrings', async () => {
    const result = await run(createBm25Channel({ limit: 30, keywords: 'primary' }), 'save the session into a signed cookie on the response');
    expect(result.query).toContain('session');
    expect(result.hits.slice(0, 5).map(path)).toContain('SessionInterface.save_session');
  });

  it('bm25: searches the plain words of a task too when it names an identifier', async () => {
    const result = await run(createBm25Channel({ limit: 30, keywords: o.seeds.bm25Keywords }), '`before_request` hooks should see the signed cookie');
    expect(result.query).toContain('before_request');
    expect(result.query).toContain('cookie');
  });

  it('bm25: decomposes a compound that finds nothing into its parts', async () => {
    const result = await run(createBm25Channel({ limit: 30, keywords: 'primary' }), 'the `NoSuchFinalizeRequest` is broken');
    expect(result.hits.map(path)).toContain('App.finalize_request');
  });

  it('path: finds types under directories and files named like the task terms, types with members first', async () => {
    const { hits } = await run(createPathChannel(o.path), 'routing', extractKeywordSet(''));
    const first = hits[0]!;
    expect(first.node.file).toBe('tinyweb/routing.py');
    expect(['class'].includes(first.node.kind)).toBe(true);
    expect(hits.every((h) => h.node.file.includes('routing'))).toBe(true);
  });

  it('fusion: a node found by several channels outranks single-channel hits', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((id) => ({ node: { id, name: id } as never, detail: 'x' }));
    const fused = fuseChannels({ tiered: [a!, b!], bm25: [c!, b!], equiv: [], path: [], vector: [] }, o.channels, 60, 40);
    expect(fused.map((f) => f.node.id)).toEqual(['b', 'a', 'c']);
    expect(fused[0]!.channels).toEqual(['tiered', 'bm25']);
    const weighted = fuseChannels({ tiered: [a!], bm25: [c!] }, { ...o.channels, bm25: 0 }, 60, 40);
    expect(weighted.map((f) => f.node.id)).toEqual(['a']);
  });

  it('equivalence: a plugin class maps task phrases to symbols, and a strong match is forced', async () => {
    const registry = createClassRegistry([
      defineEquivalenceClasses({
        framework: 'tinyweb',
        language: 'python',
        classes: [{ concept: 'TINYWEB_HOOKS', phrases: ['request hook', 'hook before request'], targets: ['Scaffold.before_request', 'preprocess_request'] }],
      }),
    ]);
    const stage = createEquivalenceStage(registry, o.equivalence);
    const state = await new GraphStateCache(fixture.store, o.walk).get();
    const task = 'add a request hook that runs a hook before request dispatch';
    const keywords = extractKeywordSet(task);
    const outcome = await stage.run({ store: fixture.store, task, keywords, tiered: [], keywordCluster: 'c', state });
    expect(outcome.matched.find((m) => m.concept === 'TINYWEB_HOOKS')?.strong).toBe(true);
    expect(outcome.forced.map((n) => n.name).sort()).toEqual(['before_request', 'preprocess_request']);
    expect(outcome.capped(0).map(path)).toContain('App.preprocess_request');
  });

  it('seeds: noise is dropped, the largest package cluster leads, test code comes last', async () => {
    // A test function first in the channel's order: seeding must still put it after the code.
    const keywords = { exact: ['test_dispatch_request', 'dispatch_request', 'full_dispatch_request'], compounds: [], components: [], priority: [] };
    const { hits } = await run(tiered, '', keywords);
    expect(hits[0]!.node.isTest).toBe(true);
    const fused = fuseChannels({ tiered: hits }, o.channels, 60, 40);
    const seeds = selectSeeds(fused, [], 100, o.seeds, 0.3, false);
    const firstTest = seeds.findIndex((s) => s.node.isTest);
    // The fixture's tests call dispatch_request, so test code is among the candidates: it must come last.
    expect(firstTest).toBeGreaterThan(0);
    expect(seeds.slice(firstTest).every((s) => s.node.isTest)).toBe(true);
    expect(seeds.every((s) => noiseReason(s.node) === null)).toBe(true);
    expect(seeds[0]!.weight).toBe(1);
    const at = (file: string): { node: GraphNode } => ({ node: { file } as GraphNode });
    const focused = focusCandidates([at('x/a.py'), at('y/b.py'), at('y/c.py')]);
    expect(focused.map((c) => c.node.file)).toEqual(['y/b.py', 'y/c.py', 'x/a.py']);
  });
});
