import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { indexedFixture } from './helpers.js';

describe('the answer cache', () => {
  let fixture: Awaited<ReturnType<typeof indexedFixture>>;
  beforeEach(async () => {
    fixture = await indexedFixture();
  });
  afterEach(async () => {
    await fixture.cleanup();
  });

  it('misses after an edit inside a function body, which leaves the graph (and its snapshot root) as it was', async () => {
    const task = 'store the session in a signed cookie';
    const engine = createEngine({ store: fixture.store });
    const first = await engine.forTask(task);
    expect(first.cached).toBe(false);
    expect((await engine.forTask(task)).cached).toBe(true);

    // A body-only edit: same definitions, same calls, new words in the body.
    const file = join(fixture.root, 'tinyweb', 'sessions.py');
    const source = readFileSync(file, 'utf8');
    const edited = source.replace(/(\n    def [^\n]*:\n)/, '$1        zebracrossing = "zebra crossing marker"\n');
    expect(edited).not.toBe(source);
    writeFileSync(file, edited);
    await fixture.reindex();
    expect((await fixture.store.currentSnapshot())?.id).toBe(first.snapshotId);

    // A fresh engine reads the cache from the store, as the next CLI process would.
    const after = await createEngine({ store: fixture.store }).forTask(task);
    expect(after.cached).toBe(false);
    const marked = await createEngine({ store: fixture.store }).forTask('zebracrossing marker');
    expect(marked.pack.symbols[0]?.node.file).toBe('tinyweb/sessions.py');
  });
});
