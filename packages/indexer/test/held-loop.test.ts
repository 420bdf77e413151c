import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withLoopHeld } from '../src/held-loop.js';
import { indexRepository } from '../src/index.js';
import { createMemoryStore } from './helpers/memory-store.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'python');

/** Timers that keep this process's event loop alive now. */
const liveTimers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('withLoopHeld', () => {
  it('holds a loop handle while the work runs and lets it go once the work resolves', async () => {
    const before = liveTimers();
    let during = -1;
    const value = await withLoopHeld(async () => {
      await Promise.resolve();
      during = liveTimers();
      return 'done';
    });
    expect(value).toBe('done');
    expect(during).toBe(before + 1);
    expect(liveTimers()).toBe(before);
  });

  it('lets the handle go when the work throws, and passes the error on', async () => {
    const before = liveTimers();
    const error = await withLoopHeld(async () => {
      throw new Error('parse failed');
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('parse failed');
    expect(liveTimers()).toBe(before);
  });
});

describe('indexRepository', () => {
  it('keeps the event loop held from its first step to its last, and releases it after', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'knowing-held-loop-'));
    try {
      await cp(path.join(fixtures, 'shop'), root, { recursive: true });
      const before = liveTimers();
      const seen = new Set<number>();
      await indexRepository({ root, store: createMemoryStore(), workers: 1, onProgress: () => seen.add(liveTimers() - before) });
      // Every progress event, from the walk to the write, saw the held timer (and no other
      // the run leaves behind): the loop never ran dry while the grammar compiled.
      expect([...seen]).toEqual([1]);
      expect(liveTimers()).toBe(before);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
