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

/** The store with every call recorded, as `method` or `method key` for notes. */
function watched(store: GraphStore): { store: GraphStore; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(name).endsWith('Note') ? `${String(name)} ${String(args[0])}` : String(name));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

/** The indexed file at the upper quartile by size (ties by path) among those ending in `extension`, as warmParsers picks it. */
async function quartileFile(store: GraphStore, extension: string): Promise<string> {
  const files = (await store.listFiles()).filter((f) => f.path.endsWith(extension) && f.syntaxErrors === 0);
  files.sort((a, b) => a.sizeBytes - b.sizeBytes || (a.path < b.path ? -1 : 1));
  return files[Math.floor((files.length * 3) / 4)]!.path;
}

describe('warmParsers', () => {
  it('parses one indexed file of each language, the one at the upper quartile by size, resolves it against the stored tables, and writes nothing', async () => {
    const store = createMemoryStore();
    await indexRepository({ root, store, repoId: 'fixture', workers: 0 });
    const { store: spied, calls } = watched(store);
    const parsed = await warmParsers({ root, store: spied });
    expect(parsed).toEqual([await quartileFile(store, '.go'), await quartileFile(store, '.py')]);
    expect(calls).toContain('getNote indexer:tables');
    expect(calls.filter((call) => !/^(listFiles|repo|currentSnapshot|getNote indexer:)/.test(call))).toEqual([]);
  });

  it('parses only the languages it is given, and passes over a file that is gone', async () => {
    const store = createMemoryStore();
    await indexRepository({ root, store, repoId: 'fixture', workers: 0 });
    expect(await warmParsers({ root, store, languages: ['py'] })).toEqual([await quartileFile(store, '.py')]);
    await rm(path.join(root, await quartileFile(store, '.go')));
    expect(await warmParsers({ root, store, languages: ['go'] })).toEqual([]);
  });
});
