import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalkCache } from '@knowing/walk';
import { GraphStateCache } from '../src/graph-state.js';
import { walkFromSeeds } from '../src/pipeline.js';
import type { CachedWalk } from '../src/pipeline.js';
import { DEFAULT_ENGINE_OPTIONS } from '../src/options.js';
import { indexedFixture } from './helpers.js';

type Fixture = Awaited<ReturnType<typeof indexedFixture>>;

describe('walk cache', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await indexedFixture();
  }, 60_000);
  afterAll(async () => fixture?.cleanup());

  async function seedsNamed(...names: string[]) {
    const nodes = await Promise.all(names.map((n) => fixture.store.findNodesByName(n, { match: 'exact' })));
    return nodes.map((found) => ({ node: found.find((n) => !n.isTest)!, weight: 1 }));
  }

  it('reuses a walk while the seeds’ packages are unchanged, and recomputes when one changes', async () => {
    const cache = createWalkCache<CachedWalk>();
    const options = DEFAULT_ENGINE_OPTIONS;
    const states = new GraphStateCache(fixture.store, options.walk);
    const seeds = await seedsNamed('open_session', 'save_session');
    const first = walkFromSeeds(await states.get(), seeds, options, options.walk.minScore, cache);
    const again = walkFromSeeds(await states.get(), seeds, options, options.walk.minScore, cache);
    expect(again).toBe(first);

    // A change outside the seeds' package keeps the key: the result is re-indexed by id.
    mkdirSync(join(fixture.root, 'scripts'), { recursive: true });
    writeFileSync(join(fixture.root, 'scripts/tool.py'), 'def banner():\n    """Print a banner."""\n    return "tinyweb"\n');
    await fixture.reindex();
    const elsewhere = await states.get();
    const reused = walkFromSeeds(elsewhere, seeds, options, options.walk.minScore, cache);
    expect(reused).not.toBe(first);
    // Same candidates, by id (minus any node the edit removed), at their new indices.
    expect(reused.byId.size).toBeGreaterThan(0);
    for (const c of reused.candidates) {
      expect(first.byId.get(c.id)).toEqual({ score: c.score, hops: c.hops });
      expect(elsewhere.adjacency.ids[c.index]).toBe(c.id);
    }

    // An edit in the seeds' package changes its Merkle root: a fresh walk.
    appendFileSync(join(fixture.root, 'tinyweb/sessions.py'), '\n\ndef forget_session(app, response):\n    """Drop the cookie."""\n    response.set_cookie("session", "")\n');
    await fixture.reindex();
    const changed = await states.get();
    const fresh = walkFromSeeds(changed, seeds, options, options.walk.minScore, cache);
    expect(fresh).not.toBe(first);
    expect(fresh.byId.size).toBeGreaterThan(0);
    expect(walkFromSeeds(changed, seeds, options, options.walk.minScore, cache)).toBe(fresh);
  });
});
