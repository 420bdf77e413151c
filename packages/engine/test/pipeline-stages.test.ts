import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphStore, RankedSymbol } from '@knowing/graph';
import { createEngine } from '../src/index.js';
import type { Engine } from '../src/index.js';
import { indexedFixture } from './helpers.js';

type Fixture = Awaited<ReturnType<typeof indexedFixture>>;

const symbolPath = (s: RankedSymbol): string => s.node.qualifiedName.slice(s.node.file.length + 1);

/** The store with every method call counted by name. */
function countingStore(store: GraphStore): { store: GraphStore; calls: Map<string, number>; total(): number } {
  const calls = new Map<string, number>();
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        calls.set(property, (calls.get(property) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: wrapped, calls, total: () => [...calls.values()].reduce((a, b) => a + b, 0) };
}

const SHARED_STAGES = ['walk', 'hits', 'inputs', 'rank', 'pack'];

describe('one pipeline, three seedings', () => {
  let fixture: Fixture;
  let engine: Engine;

  beforeAll(async () => {
    fixture = await indexedFixture();
    engine = createEngine({ store: fixture.store });
  }, 60_000);
  afterAll(async () => fixture?.cleanup());

  it('a file query runs the shared stages: walk, HITS, term and text match, ranking, packing, traced with timings', async () => {
    const result = await engine.forFiles(['tinyweb/routing.py'], { trace: true });
    const trace = result.trace!;
    expect(trace.kind).toBe('files');
    for (const stage of SHARED_STAGES) expect(trace.timings[stage], stage).toBeGreaterThanOrEqual(0);
    expect(trace.seeds.every((s) => s.origin === 'file' && s.node.file === 'tinyweb/routing.py')).toBe(true);
    expect(trace.walk.size).toBeGreaterThan(0);
    expect(trace.hits.size).toBeGreaterThan(0);
    // Every symbol of the file and each direct caller, scored by the walk (no fixed rwr of 1 and 0.5 any more).
    const byName = new Map(result.ranked.map((s) => [symbolPath(s), s]));
    expect(byName.get('Map.bind')?.distance).toBe(0);
    expect(byName.get('App.dispatch_request')?.distance).toBe(1);
    expect(byName.get('App.dispatch_request')!.components['blast_radius']).toBeGreaterThan(0);
    expect(result.ranked.some((s) => (s.components['hits_authority'] ?? 0) !== 0 || (s.components['hits_hub'] ?? 0) !== 0)).toBe(true);
    // "routing" is a term of the query: the file's symbols name it in their text (their path), a caller's doc may too.
    expect(byName.get('Map.bind')!.components['text_match']).toBeGreaterThan(0);
    expect(byName.get('Map.bind')!.components['text_match']).toBeGreaterThan(byName.get('App.dispatch_request')!.components['text_match'] ?? 0);
  });

  it('a PR query runs the same stages after its own seeding', async () => {
    const result = await engine.forPR(['tinyweb/sessions.py'], { trace: true });
    const trace = result.trace!;
    expect(trace.kind).toBe('pr');
    for (const stage of SHARED_STAGES) expect(trace.timings[stage], stage).toBeGreaterThanOrEqual(0);
    expect(trace.seeds.length).toBeGreaterThan(0);
    expect(trace.seeds.every((s) => s.origin === 'file')).toBe(true);
  });

  it('a task query traces the same shared stages after its channels', async () => {
    const trace = (await engine.forTask('where are URL rules matched against the request path', { trace: true })).trace!;
    expect(trace.kind).toBe('task');
    for (const stage of [...SHARED_STAGES, 'keywords', 'seeds']) expect(trace.timings[stage], stage).toBeGreaterThanOrEqual(0);
  });

  it('file answers are cached by kind and file set, in any order, and never served for a PR of the same files', async () => {
    const files = ['tinyweb/routing.py', 'tinyweb/app.py'];
    const first = await engine.forFiles(files);
    const again = await engine.forFiles([...files].reverse());
    expect(again.cached).toBe(true);
    expect(again.pack.packRoot).toBe(first.pack.packRoot);
    const pr = await engine.forPR(files);
    expect(pr.cached).toBe(false);
    expect(pr.pack.tokenBudget).toBe(8000);
  });

  it('forFiles reads the store a bounded number of times, not once per symbol', async () => {
    const counted = countingStore(fixture.store);
    const quiet = createEngine({ store: counted.store });
    await quiet.warm();
    const files = ['tinyweb/routing.py', 'tinyweb/app.py', 'tinyweb/sessions.py'];
    const symbols = (await Promise.all(files.map((f) => fixture.store.nodesInFile(f)))).flat().filter((n) => n.kind !== 'file');
    counted.calls.clear();
    const result = await quiet.forFiles(files, { fresh: true });
    expect(result.ranked.length).toBeGreaterThan(0);
    // Callers come from the in-memory adjacency: no edge query at all.
    expect(counted.calls.get('edgesTo') ?? 0).toBe(0);
    expect(counted.calls.get('nodesInFile')).toBe(files.length);
    expect(counted.calls.get('getNodes')).toBe(1);
    // One query per file, then a fixed handful (snapshot, nodes, feedback): far below one per symbol.
    expect(counted.total()).toBeLessThanOrEqual(files.length + 5);
    expect(symbols.length).toBeGreaterThan(counted.total());
  });
});
