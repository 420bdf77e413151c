import { describe, expect, it } from 'vitest';
import { distribution, fmtMs, fmtP, formatTable, median, parsePerfArgs, percentile, sampleEvenly, UsageError } from '../src/perf-lib.js';

describe('percentile (nearest rank)', () => {
  it('p50 of an odd count is the middle sample, whatever the input order', () => {
    expect(percentile([9, 1, 5], 0.5)).toBe(5);
  });

  it('p50 of an even count is the lower middle sample, not an average', () => {
    expect(percentile([4, 1, 3, 2], 0.5)).toBe(2);
    expect(median([10, 40, 20, 30])).toBe(20);
  });

  it('p95 of 20 samples is the 19th, not the maximum', () => {
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(values, 0.95)).toBe(19);
  });

  it('p95 of fewer than 20 samples is the maximum', () => {
    expect(percentile([3, 1, 2, 10], 0.95)).toBe(10);
  });

  it('p100 is the maximum and a single sample is every percentile', () => {
    expect(percentile([3, 7, 5], 1)).toBe(7);
    expect(percentile([42], 0.01)).toBe(42);
    expect(percentile([42], 0.95)).toBe(42);
  });

  it('does not reorder the caller’s array', () => {
    const values = [3, 1, 2];
    percentile(values, 0.5);
    expect(values).toEqual([3, 1, 2]);
  });

  it('is NaN without samples and rejects p outside (0, 1]', () => {
    expect(percentile([], 0.5)).toBeNaN();
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 95)).toThrow(RangeError);
  });

  it('distribution gathers n, p50, p95, min and max', () => {
    expect(distribution([5, 1, 4, 2, 3])).toEqual({ n: 5, p50: 3, p95: 5, min: 1, max: 5 });
    expect(distribution([]).n).toBe(0);
  });
});

describe('sampleEvenly', () => {
  const items = Array.from({ length: 10 }, (_, i) => i);

  it('spreads the sample over the whole list, first item included, order kept', () => {
    expect(sampleEvenly(items, 4)).toEqual([0, 2, 5, 7]);
    expect(sampleEvenly(items, 5)).toEqual([0, 2, 4, 6, 8]);
  });

  it('returns every item when asked for as many or more, none for 0', () => {
    expect(sampleEvenly(items, 10)).toEqual(items);
    expect(sampleEvenly(items, 99)).toEqual(items);
    expect(sampleEvenly(items, 0)).toEqual([]);
  });

  it('never repeats an item', () => {
    const sample = sampleEvenly(Array.from({ length: 18 }, (_, i) => i), 8);
    expect(new Set(sample).size).toBe(8);
  });
});

describe('number formatting', () => {
  it('fmtMs keeps two decimals below 1 ms, one below 10, none above, with separators', () => {
    expect(fmtMs(0.084)).toBe('0.08');
    expect(fmtMs(7.34)).toBe('7.3');
    expect(fmtMs(12_345.6)).toBe('12,346');
  });

  it('shows missing figures as a dash, not NaN', () => {
    expect(fmtMs(Number.NaN)).toBe('–');
    expect(fmtMs(null)).toBe('–');
    expect(fmtP(distribution([]))).toBe('–');
  });

  it('fmtP shows p50/p95', () => {
    expect(fmtP(distribution([1.5, 20, 300]))).toBe('20/300');
  });
});

describe('formatTable', () => {
  it('pads columns to their widest cell, right-aligns where asked, and underlines the header', () => {
    const lines = formatTable(
      ['repo', 'files', 'ms'],
      [
        ['flask', '83', '1,829'],
        ['spark-java', '186', '7'],
      ],
      ['left', 'right', 'right'],
    );
    expect(lines).toEqual([
      'repo        files     ms',
      '----------  -----  -----',
      'flask          83  1,829',
      'spark-java    186      7',
    ]);
  });

  it('fills short rows with empty cells and trims trailing spaces', () => {
    const lines = formatTable(['a', 'b'], [['long value']]);
    expect(lines[2]).toBe('long value');
    expect(lines[0]).toBe('a           b');
  });

  it('measures width in characters, so a dash placeholder aligns', () => {
    const lines = formatTable(['x'], [['–'], ['10']], ['right']);
    expect(lines.slice(2)).toEqual([' –', '10']);
  });
});

describe('parsePerfArgs', () => {
  it('needs --corpus and resolves it against the given directory', () => {
    expect(() => parsePerfArgs([], '/home/me')).toThrow(/--corpus <dir> is required/);
    expect(parsePerfArgs(['--corpus', 'corpus'], '/home/me').corpus).toBe('/home/me/corpus');
    expect(parsePerfArgs(['--corpus', '/work/corpus'], '/home/me').corpus).toBe('/work/corpus');
  });

  it('has the documented defaults', () => {
    const args = parsePerfArgs(['--corpus', '/c'], '/');
    expect(args).toMatchObject({ repos: undefined, json: false, out: undefined, budget: 4000, cliTasks: 8, edits: 3, workers: undefined, keep: false, child: undefined });
  });

  it('splits --repos on commas, trimming and dropping empty and repeated names, order kept', () => {
    expect(parsePerfArgs(['--corpus', '/c', '--repos', 'spark-java, flask,,flask'], '/').repos).toEqual(['spark-java', 'flask']);
    expect(() => parsePerfArgs(['--corpus', '/c', '--repos', ','], '/')).toThrow(/--repos is empty/);
  });

  it('reads flags, counts and an --out path relative to the given directory', () => {
    const args = parsePerfArgs(['--corpus=/c', '--json', '--keep', '--out', 'r.json', '--cli-tasks', '5', '--edits', '1', '--budget', '8000', '--workers', '0'], '/home/me');
    expect(args).toMatchObject({ json: true, keep: true, out: '/home/me/r.json', cliTasks: 5, edits: 1, budget: 8000, workers: 0 });
  });

  it('rejects counts that are not whole numbers in range, naming the flag', () => {
    expect(() => parsePerfArgs(['--corpus', '/c', '--cli-tasks', 'five'], '/')).toThrow(/--cli-tasks must be a whole number ≥ 0, got "five"/);
    expect(() => parsePerfArgs(['--corpus', '/c', '--edits', '0'], '/')).toThrow(/--edits must be a whole number ≥ 1/);
    expect(() => parsePerfArgs(['--corpus', '/c', '--budget', '-3'], '/')).toThrow(UsageError);
  });

  it('rejects unknown flags and stray arguments with the usage line', () => {
    expect(() => parsePerfArgs(['--corpus', '/c', '--built'], '/')).toThrow(/usage: pnpm bench:perf/);
    expect(() => parsePerfArgs(['--corpus', '/c', 'flask'], '/')).toThrow(UsageError);
  });
});
