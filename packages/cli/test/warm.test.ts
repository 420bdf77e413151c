import { copyFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHeuristicTokenizer } from '@knowing/pack';
import { createWarmPool } from '../src/warm.js';
import type { Location, OpenIndex } from '../src/session.js';

const dir = mkdtempSync(join(tmpdir(), 'knowing-warm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function location(dbPath: string, config: Record<string, unknown> = {}): Location {
  return { root: dir, dbPath, postgres: null, loaded: { config, file: undefined, directory: dir } } as unknown as Location;
}

/** Opens count themselves, closes mark the index closed: the pool decides when either happens. */
function opener(): { open: (loc: Location) => () => Promise<OpenIndex>; opened: OpenIndex[]; closed: Set<OpenIndex> } {
  const opened: OpenIndex[] = [];
  const closed = new Set<OpenIndex>();
  return {
    opened,
    closed,
    open: (loc) => async () => {
      const index = { ...loc, close: async () => void closed.add(index) } as unknown as OpenIndex;
      opened.push(index);
      return index;
    },
  };
}

describe('the warm pool of a watcher', () => {
  it('keeps one open index per file, and reopens it when the file is replaced or the config changes', async () => {
    const db = join(dir, 'graph.db');
    writeFileSync(db, 'first');
    const pool = createWarmPool();
    const { open, opened, closed } = opener();
    const first = await pool.index(location(db), open(location(db)));
    expect(await pool.index(location(db), open(location(db)))).toBe(first);
    expect(opened).toHaveLength(1);

    // A new file moved over the old one (a restored backup, an index built elsewhere).
    copyFileSync(db, `${db}.new`);
    renameSync(`${db}.new`, db);
    const second = await pool.index(location(db), open(location(db)));
    expect(second).not.toBe(first);
    // A command may still be answering from the replaced index: it is not closed at once.
    await new Promise((settle) => setTimeout(settle, 10));
    expect(closed.has(first)).toBe(false);

    const third = await pool.index(location(db, { defaults: { budget: 10 } }), open(location(db)));
    expect(third).not.toBe(second);
    await pool.close();
    expect([first, second, third].every((index) => closed.has(index))).toBe(true);
  });

  it('does not keep a failed open, and starts a tokenizer once', async () => {
    const pool = createWarmPool();
    const db = join(dir, 'other.db');
    await expect(pool.index(location(db), async () => Promise.reject(new Error('locked')))).rejects.toThrow('locked');
    const { open, opened } = opener();
    await pool.index(location(db), open(location(db)));
    expect(opened).toHaveLength(1);

    let started = 0;
    const start = async () => (started++, createHeuristicTokenizer());
    const a = await pool.tokenizer('heuristic', start);
    expect(await pool.tokenizer('heuristic', start)).toBe(a);
    expect(started).toBe(1);
    await pool.close();
  });

  it("runs an answer's refresh of the watcher's own index through the watcher's turn, and any other index's at once", async () => {
    const turns: string[] = [];
    const writer = {
      dbPath: join(dir, 'graph.db'),
      exclusive: async <T>(work: () => Promise<T>): Promise<T> => {
        turns.push('turn');
        return work();
      },
    };
    const pool = createWarmPool({ writer });
    expect(await pool.refresh(location(join(dir, 'graph.db')), async () => 'own')).toBe('own');
    expect(await pool.refresh(location(join(dir, 'other.db')), async () => 'other')).toBe('other');
    expect(turns).toEqual(['turn']);
    await pool.close();
  });
});
