import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GraphStore } from '@knowing/graph';
import { decodeFileHistory, FILE_HISTORY_NOTE } from '@knowing/keywords';
import { indexRepository, readCommitLog } from '../src/index.js';
import { parseCommitLog } from '../src/commit-history.js';
import { createMemoryStore } from './helpers/memory-store.js';

const shop = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'python', 'shop');

let root: string;

const git = (...args: string[]): string =>
  execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

async function commitAll(message: string): Promise<void> {
  git('add', '-A');
  git('commit', '-q', '-m', message);
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'knowing-history-'));
  await cp(shop, root, { recursive: true });
  git('init', '-q');
  await commitAll('Initial shop with carts and checkout');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const index = (store: GraphStore, extra: { commitHistory?: number; full?: boolean } = {}) => indexRepository({ root, store, repoId: 'fixture', workers: 0, ...extra });

async function storedHistory(store: GraphStore) {
  const note = await store.getNote(FILE_HISTORY_NOTE);
  return note ? { history: decodeFileHistory(note.value), updatedAt: note.updatedAt } : undefined;
}

describe('file history from git', () => {
  it('parses the log format it asks git for', () => {
    const commits = parseCommitLog('\u0000Fix the refund\n\nlong body\n\u0001\n\na.py\nb/c.py\n\u0000Merge-free\n\u0001\n');
    expect(commits).toEqual([
      { message: 'Fix the refund\n\nlong body\n', files: ['a.py', 'b/c.py'] },
      { message: 'Merge-free\n', files: [] },
    ]);
  });

  it('stores the documents of the commits before HEAD, and reads git again only when HEAD moves', async () => {
    const files = execFileSync('git', ['-C', root, 'ls-files'], { encoding: 'utf8' }).trim().split('\n');
    const target = files.find((f) => f.endsWith('.py'))!;
    await writeFile(path.join(root, target), '# refunds are rounded to cents\n', { flag: 'a' });
    await commitAll('Round refunds to whole cents');

    const store = createMemoryStore();
    await index(store);
    const first = await storedHistory(store);
    expect(first?.history?.commit).toBe(git('rev-parse', 'HEAD').trim());
    expect(first?.history?.commits).toBe(2);
    expect(first?.history?.documents.get(target)).toMatch(/(^| )refund 1( |$)/);

    await index(store);
    expect((await storedHistory(store))?.updatedAt).toBe(first!.updatedAt);

    await new Promise((r) => setTimeout(r, 5));
    await writeFile(path.join(root, target), '# discounts apply before tax\n', { flag: 'a' });
    await commitAll('Apply discounts before tax');
    await index(store);
    const moved = await storedHistory(store);
    expect(moved?.history?.commits).toBe(3);
    expect(moved?.history?.documents.get(target)).toMatch(/(^| )discount 1( |$)/);
  });

  it('keeps no history when asked for none, or outside a git checkout', async () => {
    const store = createMemoryStore();
    await index(store);
    expect(await storedHistory(store)).toBeDefined();
    await index(store, { commitHistory: 0 });
    expect(await storedHistory(store)).toBeUndefined();

    await rm(path.join(root, '.git'), { recursive: true, force: true });
    const plain = createMemoryStore();
    await index(plain);
    expect(await storedHistory(plain)).toBeUndefined();
    expect(await readCommitLog({ root }, 10)).toBeUndefined();
  });
});
