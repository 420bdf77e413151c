import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withLoopHeld } from '../src/held-loop.js';
import { indexRepository } from '../src/index.js';
import { createMemoryStore } from './helpers/memory-store.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'python');
const realSetInterval = globalThis.setInterval;
const realClearInterval = globalThis.clearInterval;

/**
 * The interval handles made and cleared from now on. Counting the process's live timers instead
 * would also see whatever else the test process starts or stops meanwhile.
 */
function watchIntervals(): { made: NodeJS.Timeout[]; cleared: Set<unknown>; heldNow: () => boolean } {
  const made: NodeJS.Timeout[] = [];
  const cleared = new Set<unknown>();
  vi.spyOn(globalThis, 'setInterval').mockImplementation(((handler: () => void, ms?: number) => {
    const handle = realSetInterval(handler, ms);
    made.push(handle);
    return handle;
  }) as typeof setInterval);
  vi.spyOn(globalThis, 'clearInterval').mockImplementation(((handle: NodeJS.Timeout) => {
    cleared.add(handle);
    realClearInterval(handle);
  }) as typeof clearInterval);
  return { made, cleared, heldNow: () => made.length === 1 && made[0]!.hasRef() && !cleared.has(made[0]) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('withLoopHeld', () => {
  it('holds a loop handle while the work runs and lets it go once the work resolves', async () => {
    const intervals = watchIntervals();
    let during = false;
    const value = await withLoopHeld(async () => {
      await Promise.resolve();
      during = intervals.heldNow();
      return 'done';
    });
    expect(value).toBe('done');
    expect(during).toBe(true);
    expect(intervals.cleared.has(intervals.made[0])).toBe(true);
  });

  it('lets the handle go when the work throws, and passes the error on', async () => {
    const intervals = watchIntervals();
    const error = await withLoopHeld(async () => {
      throw new Error('parse failed');
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('parse failed');
    expect(intervals.made).toHaveLength(1);
    expect(intervals.cleared.has(intervals.made[0])).toBe(true);
  });
});

describe('indexRepository', () => {
  it('keeps the event loop held from its first step to its last, and releases it after', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'knowing-held-loop-'));
    try {
      await cp(path.join(fixtures, 'shop'), root, { recursive: true });
      const intervals = watchIntervals();
      const held: boolean[] = [];
      await indexRepository({ root, store: createMemoryStore(), workers: 1, onProgress: () => held.push(intervals.heldNow()) });
      // Every progress event, from the walk to the write, saw the handle held.
      expect(held.length).toBeGreaterThan(3);
      expect(held.every(Boolean)).toBe(true);
      expect(intervals.cleared.has(intervals.made[0])).toBe(true);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
