import { describe, expect, it } from 'vitest';
import { automaticParserThreads, automaticWorkerMinBytes, parserThreads, runnableThreadsNow, TWO_CORE_WORKER_MIN_BYTES } from '../src/threads.js';

describe('parser threads', () => {
  it('takes an explicit workers setting, clamped to the cores, at least the calling thread', () => {
    expect(parserThreads(2, 8)).toBe(2);
    expect(parserThreads(4, 2)).toBe(2);
    expect(parserThreads(0, 8)).toBe(1);
    expect(parserThreads(1, 8)).toBe(1);
  });

  it('left unset, adds a worker when the load average leaves a core idle', () => {
    expect(automaticParserThreads(2, 0.3, null)).toBe(2);
    expect(automaticParserThreads(2, 1, null)).toBe(2);
    expect(automaticParserThreads(8, 6.5, null)).toBe(2);
  });

  it('left unset, parses in the calling thread alone when every core is busy', () => {
    expect(automaticParserThreads(2, 1.2, null)).toBe(1);
    expect(automaticParserThreads(2, 3.5, null)).toBe(1);
    expect(automaticParserThreads(8, 7.5, null)).toBe(1);
    // Busy now as well: another thread holds the second core.
    expect(automaticParserThreads(2, 1.2, 2)).toBe(1);
    expect(automaticParserThreads(8, 7.5, 8)).toBe(1);
  });

  it('left unset, adds a worker when no other thread wants a core now, whatever work the load average still remembers', () => {
    // Right after a build: the 1-minute average still says two cores busy, but only this thread runs.
    expect(automaticParserThreads(2, 1.9, 1)).toBe(2);
    expect(automaticParserThreads(8, 7.5, 7)).toBe(2);
    // An instant reading that says busy defers to the load average.
    expect(automaticParserThreads(2, 0.3, 3)).toBe(2);
  });

  it('left unset, asks a batch for a minimum size on two cores only', () => {
    expect(automaticWorkerMinBytes(2)).toBe(TWO_CORE_WORKER_MIN_BYTES);
    expect(automaticWorkerMinBytes(3)).toBe(0);
    expect(automaticWorkerMinBytes(16)).toBe(0);
  });

  it('left unset, parses in the calling thread alone on one core', () => {
    expect(automaticParserThreads(1, 0, null)).toBe(1);
    expect(automaticParserThreads(1, 0, 1)).toBe(1);
  });

  it("reads the machine's runnable threads where Linux reports them, this thread among them", () => {
    const now = runnableThreadsNow();
    expect(process.platform === 'linux' ? now !== null && now >= 1 : now === null).toBe(true);
  });
});
