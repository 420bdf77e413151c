import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GraphStore } from '@knowing/graph';
import { indexRepository, warmParsers } from '../src/index.js';
import { createMemoryStore } from './helpers/memory-store.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'knowing-warm-'));
  await cp(path.join(fixtures, 'python', 'shop'), path.join(root, 'shop'), { recursive: true });
  await cp(path.join(fixtures, 'go'), path.join(root, 'service'), { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The store as warmParsers may use it: every call but a listing of the files is recorded. */
function watched(store: GraphStore): { store: GraphStore; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || name === 'listFiles') return value;
      return (...args: unknown[]) => {
        calls.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

/** The indexed file of median size (ties by path) among those ending in `extension`, as warmParsers picks it. */
async function medianFile(store: GraphStore, extension: string): Promise<string> {
  const files = (await store.listFiles()).filter((f) => f.path.endsWith(extension) && f.syntaxErrors === 0);
  files.sort((a, b) => a.sizeBytes - b.sizeBytes || (a.path < b.path ? -1 : 1));
  return files[Math.floor(files.length / 2)]!.path;
}

describe('warmParsers', () => {
  it('parses one indexed file of each language, the median-sized one, and writes nothing', async () => {
    const store = createMemoryStore();
    await indexRepository({ root, store, repoId: 'fixture', workers: 0 });
    const { store: spied, calls } = watched(store);
    const parsed = await warmParsers({ root, store: spied });
    expect(parsed).toEqual([await medianFile(store, '.go'), await medianFile(store, '.py')]);
    expect(calls).toEqual([]);
  });

  it('parses only the languages it is given, and passes over a file that is gone', async () => {
    const store = createMemoryStore();
    await indexRepository({ root, store, repoId: 'fixture', workers: 0 });
    expect(await warmParsers({ root, store, languages: ['py'] })).toEqual([await medianFile(store, '.py')]);
    await rm(path.join(root, await medianFile(store, '.go')));
    expect(await warmParsers({ root, store, languages: ['go'] })).toEqual([]);
  });
});
