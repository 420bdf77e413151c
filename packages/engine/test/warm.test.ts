import { afterEach, describe, expect, it } from 'vitest';
import { loadAdjacency, serializeTransitions, weightedTransitions } from '@knowing/walk';
import { createEngine } from '../src/index.js';
import { warmGraph } from '../src/warm.js';
import { indexedFixture } from './helpers.js';

type Fixture = Awaited<ReturnType<typeof indexedFixture>>;

/** The notes a warm-up leaves, as comparable values: the adjacency, the communities and the nodes per language of the snapshot. */
async function warmNotes(fixture: Fixture): Promise<Record<string, { kind: string; snapshot: string | null; bytes: string }>> {
  const notes: Record<string, { kind: string; snapshot: string | null; bytes: string }> = {};
  for (const key of ['adjacency', 'communities', 'node-languages']) {
    const note = await fixture.store.getNote(key);
    expect(note, `note ${key}`).toBeDefined();
    notes[key] = { kind: note!.kind, snapshot: note!.snapshot, bytes: Buffer.from(note!.value).toString('base64') };
  }
  return notes;
}

describe('warmGraph (@knowing/engine/warm)', () => {
  const fixtures: Fixture[] = [];
  afterEach(async () => {
    for (const fixture of fixtures.splice(0)) await fixture.cleanup();
  });

  it("stores the same adjacency and communities as an engine's warm(), stamped with the current snapshot", { timeout: 60_000 }, async () => {
    const light = await indexedFixture();
    const full = await indexedFixture();
    fixtures.push(light, full);
    const summary = await warmGraph(light.store);
    expect(await createEngine({ store: full.store }).warm()).toEqual(summary);
    expect(summary.nodes).toBeGreaterThan(50);
    expect(summary.communities).toBeGreaterThan(0);
    const notes = await warmNotes(light);
    expect(notes['adjacency']!.snapshot).toBe((await light.store.currentSnapshot())!.id);
    expect(await warmNotes(full)).toEqual(notes);
  });

  it('weighs the communities with the walk options it is given, as an engine with those options does', { timeout: 60_000 }, async () => {
    const light = await indexedFixture();
    const full = await indexedFixture();
    fixtures.push(light, full);
    const walk = { ...createEngine({ store: light.store }).options.walk, edgeWeights: { calls: 0.05, imports: 3 } };
    const summary = await warmGraph(light.store, { walk });
    expect(await createEngine({ store: full.store, options: { walk: { edgeWeights: { calls: 0.05, imports: 3 } } } }).warm()).toEqual(summary);
    const weighted = await warmNotes(light);
    expect(await warmNotes(full)).toEqual(weighted);
    // The weights matter: with the defaults the communities come out otherwise.
    const plain = await indexedFixture();
    fixtures.push(plain);
    await warmGraph(plain.store);
    expect((await warmNotes(plain))['communities']).not.toEqual(weighted['communities']);
  });

  it('stores no walk transitions, deletes those an older version stored when it warms, and never reads them', { timeout: 60_000 }, async () => {
    const fixture = await indexedFixture();
    fixtures.push(fixture);
    const task = 'Add a before_request hook that rejects requests without an API key header';
    const answer = async (walk: { lspWeight?: number; edgeWeights?: Record<string, number> } = {}) => {
      const result = await createEngine({ store: fixture.store, options: { walk } }).forTask(task, { fresh: true, budget: 2000 });
      return result.ranked.map((s) => [s.node.qualifiedName, s.score, s.rwr]);
    };
    const computed = await answer();
    const otherWeights = await answer({ edgeWeights: { calls: 0.05 } });
    expect(otherWeights).not.toEqual(computed);
    // Transitions weighed otherwise, as an older version's warm-up stored them: not read.
    const snapshot = (await fixture.store.currentSnapshot())!.id;
    const { adjacency } = await loadAdjacency(fixture.store, { notes: fixture.store, snapshotId: snapshot });
    const misweighed = serializeTransitions(weightedTransitions(adjacency, { edgeWeights: { calls: 0.05 } }), JSON.stringify({ edgeWeights: [], lspWeight: 0.3 }));
    await fixture.store.putNote('walk-transitions', 'walk-transitions', misweighed, snapshot);
    expect(await answer()).toEqual(computed);
    expect(await answer({ edgeWeights: { calls: 0.05 } })).toEqual(otherWeights);
    // A warm-up (as after every index run) deletes the note, whether or not the graph changed.
    await warmGraph(fixture.store);
    expect(await fixture.store.getNote('walk-transitions')).toBeUndefined();
    expect(await answer()).toEqual(computed);
  });

  it('stores the nodes per language, and the vocabulary stage scopes its classes by them', { timeout: 60_000 }, async () => {
    const fixture = await indexedFixture();
    fixtures.push(fixture);
    const task = 'Add a before_request hook that rejects requests without an API key header';
    const answer = async () => {
      const result = await createEngine({ store: fixture.store }).forTask(task, { fresh: true, budget: 2000 });
      return result.ranked.map((s) => [s.node.qualifiedName, s.score]);
    };
    const computed = await answer();
    await warmGraph(fixture.store);
    const note = await fixture.store.getNote('node-languages');
    expect(note?.snapshot).toBe((await fixture.store.currentSnapshot())!.id);
    const stored = JSON.parse(new TextDecoder().decode(note!.value)) as Record<string, number>;
    expect(stored).toEqual((await fixture.store.nodeCounts!()).nodesByLanguage);
    expect(stored['python']).toBeGreaterThan(50);
    expect(await answer()).toEqual(computed);
    // The answer does read them: counts naming another language drop the Python classes.
    const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
    await fixture.store.putNote('node-languages', 'node-languages', encode({ go: 10_000 }), note!.snapshot);
    expect(await answer()).not.toEqual(computed);
    // A damaged note, or one of another snapshot, is counted around, not trusted.
    await fixture.store.putNote('node-languages', 'node-languages', encode({ go: 'many' }), note!.snapshot);
    expect(await answer()).toEqual(computed);
    await fixture.store.putNote('node-languages', 'node-languages', encode({ go: 10_000 }), 'another snapshot');
    expect(await answer()).toEqual(computed);
  });
});
