import { describe, expect, it } from 'vitest';
import {
  codegraphIndexed,
  codegraphSynced,
  comparisonTable,
  DEFAULT_TASK,
  errorCell,
  excludedFromCopy,
  failureLine,
  fmtRatio,
  knowingFromCache,
  knowingIndexed,
  knowingReindexed,
  medianOf,
  parseChildren,
  parsePeersArgs,
  parseStatParent,
  parseTimeUsage,
  parseVmRssKb,
  ratio,
  stripAnsi,
  taskFor,
} from '../src/peers-lib.js';
import type { Cell, RowSpec, Sample } from '../src/peers-lib.js';
import { UsageError } from '../src/perf-lib.js';

const sampleOf = (ms: number, extra: Partial<Sample> = {}): Sample => ({ ms, cpuMs: null, systemMs: null, minorFaults: null, peakRssMb: 100, peakLargestMb: 100, stdoutBytes: 0, notes: [], ...extra });

describe('parsePeersArgs', () => {
  it('requires --corpus and resolves relative paths against the directory pnpm was called from', () => {
    expect(() => parsePeersArgs([], '/home/me', '/tmp')).toThrow(/--corpus <dir> is required/);
    expect(parsePeersArgs(['--corpus', 'corpus'], '/home/me', '/tmp').corpus).toBe('/home/me/corpus');
    expect(parsePeersArgs(['--corpus', '/c', '--scratch', 's'], '/home/me', '/tmp').scratch).toBe('/home/me/s');
  });

  it('defaults to 3 runs, every repository, a scratch folder under the temporary directory, tables', () => {
    expect(parsePeersArgs(['--corpus', '/c'], '/', '/var/tmp')).toEqual({ corpus: '/c', repos: undefined, runs: 3, scratch: '/var/tmp/knowing-peers', task: undefined, json: false, watch: false, baseline: undefined });
  });

  it('reads --repos as a comma list without blanks or repeats, and refuses an empty one', () => {
    expect(parsePeersArgs(['--corpus', '/c', '--repos', 'flask, caddy,,flask'], '/', '/tmp').repos).toEqual(['flask', 'caddy']);
    expect(() => parsePeersArgs(['--corpus', '/c', '--repos', ','], '/', '/tmp')).toThrow(/--repos is empty/);
  });

  it('takes --runs as a whole number of at least 1', () => {
    expect(parsePeersArgs(['--corpus', '/c', '--runs', '2', '--json', '--watch'], '/', '/tmp')).toMatchObject({ runs: 2, json: true, watch: true });
    expect(() => parsePeersArgs(['--corpus', '/c', '--runs', '0'], '/', '/tmp')).toThrow(/--runs must be a whole number ≥ 1, got "0"/);
    // Another build to measure in the same runs: its bin file, or the dist folder holding it
    // (bin.cjs, or bin.js in a build older than the CommonJS entry).
    expect(parsePeersArgs(['--corpus', '/c', '--baseline', 'old/dist/bin.js'], '/home/me', '/tmp').baseline).toBe('/home/me/old/dist/bin.js');
    expect(parsePeersArgs(['--corpus', '/c', '--baseline', 'old/dist/bin.cjs'], '/home/me', '/tmp').baseline).toBe('/home/me/old/dist/bin.cjs');
    const files = (...present: string[]) => (path: string) => present.includes(path);
    expect(parsePeersArgs(['--corpus', '/c', '--baseline', '/x/dist-base'], '/', '/tmp', files('/x/dist-base/bin.cjs', '/x/dist-base/bin.js')).baseline).toBe('/x/dist-base/bin.cjs');
    expect(parsePeersArgs(['--corpus', '/c', '--baseline', '/x/dist-base'], '/', '/tmp', files('/x/dist-base/bin.js')).baseline).toBe('/x/dist-base/bin.js');
    expect(parsePeersArgs(['--corpus', '/c', '--baseline', '/x/dist-base'], '/', '/tmp', files()).baseline).toBe('/x/dist-base/bin.cjs');
    expect(() => parsePeersArgs(['--corpus', '/c', '--baseline', ' '], '/', '/tmp')).toThrow(/--baseline is empty/);
    expect(() => parsePeersArgs(['--corpus', '/c', '--runs', 'two'], '/', '/tmp')).toThrow(UsageError);
  });

  it('refuses unknown flags and an empty --task, with the usage line', () => {
    expect(() => parsePeersArgs(['--corpus', '/c', '--budget', '5'], '/', '/tmp')).toThrow(/usage: pnpm bench:peers/);
    expect(() => parsePeersArgs(['--corpus', '/c', '--task', '  '], '/', '/tmp')).toThrow(/--task is empty/);
  });
});

describe('taskFor', () => {
  it('gives each corpus repository its task, others the default, and --task wins over both', () => {
    expect(taskFor('cargo')).toBe('report a clear error when the manifest file is missing');
    expect(taskFor('unknown-repo')).toBe(DEFAULT_TASK);
    expect(taskFor('cargo', 'add a flag')).toBe('add a flag');
  });
});

describe('excludedFromCopy', () => {
  it('leaves out the tools’ index directories at any depth, and nothing else', () => {
    expect(excludedFromCopy('/work/corpus/flask/.knowing')).toBe(true);
    expect(excludedFromCopy('/work/corpus/flask/sub/.codegraph')).toBe(true);
    expect(excludedFromCopy('/work/corpus/flask/.knowing-notes')).toBe(false);
    expect(excludedFromCopy('/work/corpus/flask/src/knowing.py')).toBe(false);
  });
});

describe('reading /proc', () => {
  it('lists the pids of a children file, trailing space and all', () => {
    expect(parseChildren('1598 1618 ')).toEqual([1598, 1618]);
    expect(parseChildren('')).toEqual([]);
  });

  it('reads VmRSS in kB, and 0 for a zombie that has none', () => {
    expect(parseVmRssKb('Name:\tnode\nVmPeak:\t  900 kB\nVmRSS:\t  223968 kB\nRssAnon:\t 1 kB\n')).toBe(223968);
    expect(parseVmRssKb('Name:\tnode\nState:\tZ (zombie)\n')).toBe(0);
  });

  it('reads the parent pid after the command, even when the command holds spaces and parentheses', () => {
    expect(parseStatParent('1618 (node) S 1598 1590 1 0 -1')).toBe(1598);
    expect(parseStatParent('77 (a (b) c) R 12 77 77 0')).toBe(12);
  });
});

describe('parseTimeUsage', () => {
  it('adds user and system seconds into milliseconds, and keeps the system share and the minor faults', () => {
    expect(parseTimeUsage('1.49 0.36 52011\n')).toEqual({ cpuMs: 1850, systemMs: 360, minorFaults: 52011 });
  });

  it('reads the two-field format without faults', () => {
    expect(parseTimeUsage('1.49 0.36\n')).toEqual({ cpuMs: 1850, systemMs: 360, minorFaults: null });
  });

  it('reads the last line when /usr/bin/time first says the command failed', () => {
    expect(parseTimeUsage('Command exited with non-zero status 1\n0.11 0.02 900\n')).toEqual({ cpuMs: 130, systemMs: 20, minorFaults: 900 });
  });

  it('is null for an empty or foreign file', () => {
    expect(parseTimeUsage('')).toBeNull();
    expect(parseTimeUsage('Command terminated by signal 9\n')).toBeNull();
    expect(parseTimeUsage('0.1 0.2 3 4\n')).toBeNull();
  });
});

describe('reading what the tools print', () => {
  it('finds how many files knowing context re-indexed, and whether the answer was cached', () => {
    expect(knowingReindexed('knowing: re-indexed 1 changed file in 167 ms\nknowing: 49 of 90 ranked symbols')).toBe(1);
    expect(knowingReindexed('knowing: re-indexed 3 changed files in 1.2 s')).toBe(3);
    expect(knowingReindexed('knowing: 49 of 90 ranked symbols, 4,988 of 5,000 tokens')).toBeNull();
    expect(knowingFromCache('knowing: 48 of 88 ranked symbols, 4,933 of 5,000 tokens (xml, cl100k_base), from cache')).toBe(true);
    expect(knowingFromCache('knowing: 48 of 88 ranked symbols, 4,933 of 5,000 tokens (xml, cl100k_base)')).toBe(false);
  });

  it('reads files, nodes and edges from knowing index --json, and null from anything else', () => {
    expect(knowingIndexed(JSON.stringify({ files: { discovered: 83, parsed: 83 }, nodes: 2680, edges: 10151 }))).toEqual({ files: 83, nodes: 2680, edges: 10151 });
    expect(knowingIndexed('Indexed /x (flask)')).toBeNull();
    expect(knowingIndexed('{"files": {}}')).toBeNull();
  });

  it('finds how many files codegraph sync synced, 0 when it was up to date', () => {
    const synced = '┌  Syncing CodeGraph\n│\nScanning files...\n│\n◆  Synced 1 changed files\n│\n●  Modified: 1 — 26 nodes in 113ms\n└  Done\n';
    expect(codegraphSynced(synced)).toBe(1);
    expect(codegraphSynced('┌  Syncing CodeGraph\n│\n●  Already up to date\n└  Done\n')).toBe(0);
    expect(codegraphSynced('✗ CodeGraph not initialized')).toBeNull();
  });

  it('reads files, nodes and edges from codegraph init, colours or not', () => {
    const init = '◆  Initialized in /tmp/flask\n│\n◆  Indexed 90 files\n│\n●  2,661 nodes, 5,213 edges in 840ms\n└  Done\n';
    expect(codegraphIndexed(init)).toEqual({ files: 90, nodes: 2661, edges: 5213 });
    expect(codegraphIndexed('\u001b[32m◆\u001b[39m  Indexed \u001b[1m1,204\u001b[22m files\n12 nodes, 3 edges')).toEqual({ files: 1204, nodes: 12, edges: 3 });
    expect(codegraphIndexed('✗ CodeGraph not initialized')).toBeNull();
  });

  it('takes the last line with words of a failed command, without its progress decoration', () => {
    const init = "┌  Initializing CodeGraph\n│\n■  Failed: EEXIST: file already exists, mkdir '/x/README.txt'\n\n";
    expect(failureLine(init)).toBe("Failed: EEXIST: file already exists, mkdir '/x/README.txt'");
    expect(failureLine('knowing: error: /x does not exist\n  → pass an existing directory\n')).toBe('pass an existing directory');
    expect(failureLine('\n│\n')).toBe('no output');
  });

  it('strips colour escapes', () => {
    expect(stripAnsi('\u001b[1m\u001b[32mok\u001b[39m\u001b[22m')).toBe('ok');
  });
});

describe('medians and ratios', () => {
  it('takes the nearest-rank median of the samples, skipping unmeasured values', () => {
    const cell: Cell = { samples: [sampleOf(300), sampleOf(100), sampleOf(200, { cpuMs: 50 })] };
    expect(medianOf(cell, (s) => s.ms)).toBe(200);
    expect(medianOf(cell, (s) => s.cpuMs)).toBe(50);
    expect(medianOf({ samples: [sampleOf(10), sampleOf(30)] }, (s) => s.ms)).toBe(10);
    expect(medianOf({ samples: [] }, (s) => s.ms)).toBeNaN();
    expect(medianOf(undefined, (s) => s.ms)).toBeNaN();
  });

  it('divides knowing’s figure by the peer’s, with no ratio when either is missing or the peer’s is 0', () => {
    expect(ratio(50, 200)).toBe(0.25);
    expect(ratio(Number.NaN, 200)).toBeNaN();
    expect(ratio(50, 0)).toBeNaN();
    expect(fmtRatio(0.25)).toBe('0.25×');
    expect(fmtRatio(12.34)).toBe('12.3×');
    expect(fmtRatio(Number.NaN)).toBe('–');
  });

  it('shortens an error to its first line for a table cell', () => {
    expect(errorCell('\n`codegraph init -y /x` exited with 1:\n✗ unsupported')).toBe('error: `codegraph init -y /x` exited with 1:');
    expect(errorCell('x'.repeat(100), 20)).toBe(`error: ${'x'.repeat(19)}…`);
  });
});

describe('comparisonTable', () => {
  const rows: RowSpec[] = [
    { label: 'full index, wall', figure: 'full', unit: 'ms', pick: (s) => s.ms },
    { label: 'full index, peak RSS', figure: 'full', unit: 'MB', pick: (s) => s.peakRssMb },
    { label: 'CLI query, wall', figure: 'query', unit: 'ms', pick: (s) => s.ms },
  ];

  it('prints each figure’s medians and the ratio knowing/peer, right-aligned', () => {
    const knowing = { full: { samples: [sampleOf(900), sampleOf(1100)] }, query: { samples: [sampleOf(300)] } };
    const peer = { full: { samples: [sampleOf(1800, { peakRssMb: 400 }), sampleOf(2000, { peakRssMb: 400 })] }, query: { samples: [sampleOf(150)] } };
    const table = comparisonTable(rows, knowing, peer, 'codegraph');
    expect(table[0]).toBe('figure                     knowing median  codegraph median  ratio knowing/codegraph  run by run');
    // Run by run: 900/1800 and 1100/2000.
    expect(table[2]).toMatch(/^full index, wall \(ms\)\s+900\s+1,800\s+0\.50×\s+0\.50–0\.55×$/);
    expect(table[3]).toMatch(/^full index, peak RSS \(MB\)\s+100\s+400\s+0\.25×\s+0\.25–0\.25×$/);
    // One run each: no spread to show.
    expect(table[4]).toMatch(/^CLI query, wall \(ms\)\s+300\s+150\s+2\.00×\s+–$/);
  });

  it('shows a failed figure’s error in its cell, with no ratio, and carries on with the others', () => {
    const knowing = { full: { samples: [sampleOf(900)] }, query: { samples: [sampleOf(300)] } };
    const peer = { full: { samples: [], error: 'unsupported language' }, query: { samples: [], error: 'no index: unsupported language' } };
    const table = comparisonTable(rows, knowing, peer, 'codegraph');
    expect(table[2]).toMatch(/^full index, wall \(ms\)\s+900\s+error: unsupported language\s+–\s+–$/);
    expect(table[4]).toMatch(/error: no index: unsupported language\s+–\s+–$/);
  });
});
