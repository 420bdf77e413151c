import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractFile } from '../src/extract.js';
import type { ExtractResult, ExtractTask } from '../src/extract.js';
import { BUILTIN_LANGUAGES } from '../src/languages/registry.js';
import { MIN_FILES_FOR_WORKERS, parseAll } from '../src/parse-all.js';
import type { ParseEntry, ParserPool } from '../src/parse-all.js';

const python = BUILTIN_LANGUAGES.find((module) => module.id === 'python')!;
const FILES = MIN_FILES_FOR_WORKERS + 6;

let root: string;
let entries: ParseEntry[];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'knowing-parse-all-'));
  entries = [];
  for (let i = 0; i < FILES; i++) {
    const name = `m${i}.py`;
    // Sizes differ, so the largest-first order is a real order.
    const text = `def f${i}(x):\n${'    x = x + 1\n'.repeat(i + 1)}    return x\n`;
    await writeFile(path.join(root, name), text);
    entries.push({ file: { path: name, absolutePath: path.join(root, name), contentHash: `h${i}`, sizeBytes: text.length }, module: python, sizeBytes: text.length });
  }
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A pool whose one "worker" is this thread: each task is parsed on a later turn of the event loop, as a worker's answer arrives. */
function inThreadPool(): { pool: ParserPool; sent: () => number } {
  let sent = 0;
  let closed = false;
  const pool: ParserPool = {
    size: 1,
    pool: {
      run: async (task) => {
        if (closed) throw new Error('run after close');
        sent++;
        await nextTurn();
        return extractFile(task as ExtractTask, [python], readFileSync);
      },
      close: async () => {
        closed = true;
      },
    },
  };
  return { pool, sent: () => sent };
}

describe('parseAll', () => {
  it('accepts every file once when the workers take the last files while this thread awaits its checkpoint', async () => {
    const { pool, sent } = inThreadPool();
    const accepted: string[] = [];
    let passed = 0;
    const outcome = await parseAll(
      entries,
      { threads: 2, fileTimeoutMs: 10_000 },
      {
        progress: () => {},
        signal: undefined,
        // Each checkpoint lets the feeds run until every file is taken, this thread's next one included.
        checkpoint: async () => {
          while (sent() + passed < FILES) await sleep(1);
          passed++;
        },
        accept: async (entry, result: ExtractResult) => {
          expect(result.extraction?.path ?? entry.file.path).toBe(entry.file.path);
          accepted.push(entry.file.path);
        },
        startPool: () => pool,
      },
    );
    expect(accepted.length).toBe(FILES);
    expect(new Set(accepted).size).toBe(FILES);
    expect(sent()).toBe(FILES);
    expect(outcome).toMatchObject({ threads: 2, inWorkers: true });
  });

  it('shares the files between this thread and the workers, each parsed once, with symbols', async () => {
    const { pool, sent } = inThreadPool();
    const symbols = new Map<string, number>();
    await parseAll(
      entries,
      { threads: 2, fileTimeoutMs: 10_000 },
      {
        progress: () => {},
        signal: undefined,
        checkpoint: () => Promise.resolve(),
        accept: async (entry, result) => {
          expect(symbols.has(entry.file.path)).toBe(false);
          symbols.set(entry.file.path, result.extraction?.symbols.length ?? -1);
        },
        startPool: () => pool,
      },
    );
    expect(symbols.size).toBe(FILES);
    expect(sent()).toBeGreaterThan(0);
    expect(sent()).toBeLessThan(FILES);
    expect([...symbols.values()].every((count) => count >= 1)).toBe(true);
  });

  it('parses a batch of fewer bytes than minBytesForWorkers in this thread alone, and a batch of as many with workers', async () => {
    const bytes = entries.reduce((sum, entry) => sum + entry.sizeBytes, 0);
    const run = async (minBytesForWorkers: number) => {
      let started = 0;
      const { pool, sent } = inThreadPool();
      const outcome = await parseAll(
        entries,
        { threads: 2, fileTimeoutMs: 10_000, minBytesForWorkers },
        {
          progress: () => {},
          signal: undefined,
          checkpoint: () => Promise.resolve(),
          accept: async () => {},
          startPool: () => {
            started++;
            return pool;
          },
        },
      );
      return { started, sent: sent(), outcome };
    };
    const small = await run(bytes + 1);
    expect(small).toMatchObject({ started: 0, sent: 0, outcome: { threads: 1, inWorkers: false } });
    const large = await run(bytes);
    expect(large.started).toBe(1);
    expect(large.sent).toBeGreaterThan(0);
    expect(large.outcome).toMatchObject({ threads: 2, inWorkers: true });
  });
});
