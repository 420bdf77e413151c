import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { warmGraph } from '../src/warm.js';
import { indexedFixture } from './helpers.js';

type Fixture = Awaited<ReturnType<typeof indexedFixture>>;

/** The notes a warm-up leaves, as comparable values: the adjacency and the communities of the snapshot. */
async function warmNotes(fixture: Fixture): Promise<Record<string, { kind: string; snapshot: string | null; bytes: string }>> {
  const notes: Record<string, { kind: string; snapshot: string | null; bytes: string }> = {};
  for (const key of ['adjacency', 'communities']) {
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
});
