import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isKnowingError } from '@knowing/graph';
import { indexRepository } from '../src/index.js';
import type { IndexProgress } from '../src/index.js';
import { graphText } from './helpers/graph-text.js';
import { createMemoryStore } from './helpers/memory-store.js';

const fixturesRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const fixtures = path.join(fixturesRoot, 'python');

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'knowing-indexer-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('indexRepository', () => {
  it('rejects a missing root with PATH_NOT_FOUND naming the path', async () => {
    const error = await indexRepository({ root: path.join(root, 'missing'), store: createMemoryStore() }).catch((e: unknown) => e);
    expect(isKnowingError(error, 'PATH_NOT_FOUND')).toBe(true);
    expect((error as Error).message).toContain(path.join(root, 'missing'));
  });

  it('rejects an unknown language with UNKNOWN_LANGUAGE listing the known ones', async () => {
    const error = await indexRepository({ root, store: createMemoryStore(), languages: ['cobol'] }).catch((e: unknown) => e);
    expect(isKnowingError(error, 'UNKNOWN_LANGUAGE')).toBe(true);
    expect((error as Error).message).toMatch(/cobol.*known languages: .*python/);
  });

  it('keeps the good parts of a file with a syntax error and reports it', async () => {
    await cp(path.join(fixtures, 'broken'), root, { recursive: true });
    const store = createMemoryStore();
    const summary = await indexRepository({ root, store, repoId: 'r', workers: 0 });
    expect(summary.syntaxErrors).toEqual([{ path: 'partial.py', errors: expect.any(Number) as number }]);
    expect((await store.getFile('partial.py'))?.syntaxErrors).toBeGreaterThan(0);
    const text = await graphText(store);
    expect(text.nodes).toEqual(
      expect.arrayContaining(['node function partial.py.before', 'node function partial.py.helper', 'node class partial.py.After', 'node method partial.py.After.method']),
    );
    expect(text.edges).toContain('edge calls partial.py.After.method -> partial.py.before');
  });

  it('summarises files, skips, nodes, edges, bytes and timings, and reports progress in phase order', async () => {
    await cp(path.join(fixtures, 'shop'), root, { recursive: true });
    await writeFile(path.join(root, 'generated_pb2.py'), 'x = 1\n');
    await writeFile(path.join(root, 'huge.py'), '#\n'.repeat(600_000));
    const events: IndexProgress[] = [];
    const store = createMemoryStore();
    const summary = await indexRepository({ root, store, repoId: 'r', workers: 0, onProgress: (event) => events.push(event) });
    expect(summary.files).toEqual({ discovered: 8, parsed: 8, unchanged: 0, resolved: 8, deleted: 0, written: 8 });
    expect(summary.skippedByReason).toEqual({ generated: 1, too_large: 1 });
    expect(summary.skipped.map((s) => s.path)).toEqual(['generated_pb2.py', 'huge.py']);
    const counts = await store.counts();
    expect(summary.nodes).toBe(counts.nodes);
    expect(summary.edges).toBe(counts.edges);
    expect({ ...summary.nodesByKind }).toEqual({ ...counts.nodesByKind });
    expect({ ...summary.edgesByType }).toEqual({ ...counts.edgesByType });
    expect(summary.bytes.total).toBeGreaterThan(4000);
    expect(summary.timings.totalMs).toBeGreaterThan(0);
    const phases = [...new Set(events.map((e) => e.phase))];
    expect(phases).toEqual(['discover', 'parse', 'resolve', 'write', 'done']);
    expect(events.filter((e) => e.phase === 'parse' && e.path).map((e) => e.done)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('indexes a file whose parse exceeds the time limit without symbols, and retries it next run', async () => {
    await writeFile(path.join(root, 'slow.py'), Array.from({ length: 4000 }, (_, i) => `def f${i}(x):\n    return [y for y in x if y]\n`).join(''));
    const store = createMemoryStore();
    const summary = await indexRepository({ root, store, repoId: 'r', workers: 0, fileTimeoutMs: 1 });
    expect(summary.warnings).toEqual([expect.stringContaining('slow.py: parse took longer than 1 ms') as string]);
    expect(summary.nodes).toBe(1);
    const again = await indexRepository({ root, store, repoId: 'r', workers: 0 });
    expect(again.files.parsed).toBe(1);
    expect(again.nodes).toBe(4001);
  });

  it('resolves a member named like its own type without looping (C# `Logger Logger { get; }`)', async () => {
    const store = createMemoryStore();
    await indexRepository({ root: path.join(fixturesRoot, 'core', 'self-typed'), store, repoId: 'r', workers: 0, languages: ['csharp'] });
    const text = await graphText(store);
    const calls = text.edges.filter((line) => line.startsWith('edge calls Service.cs.Service.Run -> '));
    expect(calls).toContain('edge calls Service.cs.Service.Run -> Service.cs.Logger.Info');
  });

  it('takes the repository id from the git remote, else the directory name', async () => {
    await writeFile(path.join(root, 'a.py'), 'x = 1\n');
    const plain = await indexRepository({ root, store: createMemoryStore(), workers: 0 });
    expect(plain.repoId).toBe(path.basename(root));
    await mkdir(path.join(root, '.git'));
    await writeFile(path.join(root, '.git', 'config'), '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@github.com:Pallets/flask.git\n');
    const store = createMemoryStore();
    const remote = await indexRepository({ root, store, workers: 0 });
    expect(remote.repoId).toBe('github.com/Pallets/flask');
    expect((await store.repo())?.id).toBe('github.com/Pallets/flask');
  });

  it('drops files of languages no longer selected', async () => {
    await writeFile(path.join(root, 'a.py'), 'x = 1\n');
    const store = createMemoryStore();
    await indexRepository({ root, store, repoId: 'r', workers: 0 });
    expect((await store.listFiles()).map((f) => f.path)).toEqual(['a.py']);
    await writeFile(path.join(root, 'b.py'), 'y = 2\n');
    const summary = await indexRepository({ root, store, repoId: 'r', workers: 0, languages: ['py'] });
    expect(summary.files.parsed).toBe(1);
    expect((await store.listFiles()).map((f) => f.path).sort()).toEqual(['a.py', 'b.py']);
  });
});
