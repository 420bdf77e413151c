import { describe, expect, it } from 'vitest';
import { automaticParserThreads, parserThreads } from '../src/threads.js';

describe('parser threads', () => {
  it('takes an explicit workers setting, clamped to the cores, at least the calling thread', () => {
    expect(parserThreads(2, 8)).toBe(2);
    expect(parserThreads(4, 2)).toBe(2);
    expect(parserThreads(0, 8)).toBe(1);
    expect(parserThreads(1, 8)).toBe(1);
  });

  it('left unset, adds a worker when the load average leaves a core idle', () => {
    expect(automaticParserThreads(2, 0.3)).toBe(2);
    expect(automaticParserThreads(2, 1)).toBe(2);
    expect(automaticParserThreads(8, 6.5)).toBe(2);
  });

  it('left unset, parses in the calling thread alone when every core is busy', () => {
    expect(automaticParserThreads(2, 1.2)).toBe(1);
    expect(automaticParserThreads(2, 3.5)).toBe(1);
    expect(automaticParserThreads(8, 7.5)).toBe(1);
  });

  it('left unset, parses in the calling thread alone on one core', () => {
    expect(automaticParserThreads(1, 0)).toBe(1);
  });
});
