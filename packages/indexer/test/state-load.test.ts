import { describe, expect, it } from 'vitest';
import type { GraphStore } from '@knowing/graph';
import { DELTA_KEY, DIRECTORIES_KEY, DIRECTORIES_VERSION, FILE_STATS_KEY, STATE_KEY, STATE_STAMP, fileStatsOf, loadDirectories, loadFileStats, loadState } from '../src/state-load.js';

type Note = { key: string; kind: string; value: Uint8Array; snapshot: string | null; updatedAt: number };

/** Notes and a current snapshot, the only parts of a store the state is read from. */
function noteStore(): { store: GraphStore; put: (key: string, value: unknown, snapshot: string | null) => void; drop: (key: string) => void; at: (snapshot: string) => void } {
  const notes = new Map<string, Note>();
  let current = '';
  const store = {
    getNote: async (key: string) => notes.get(key),
    currentSnapshot: async () => ({ id: current }),
  } as unknown as GraphStore;
  return {
    store,
    // A new buffer every time, as a store hands out.
    put: (key, value, snapshot) => notes.set(key, { key, kind: 'k', value: new TextEncoder().encode(JSON.stringify(value)), snapshot, updatedAt: 0 }),
    drop: (key) => notes.delete(key),
    at: (snapshot) => (current = snapshot),
  };
}

function fileEntry(contentHash: string): Record<string, unknown> {
  return { sizeBytes: 1, mtimeMs: 1, ctimeMs: 1, contentHash, moduleVersion: '1', tableHash: 't', outputHash: 'o', indexedAt: 1, syntaxErrors: 0, nodes: {}, edges: {}, externals: [0], tests: [] };
}

function stateNote(contentHash: string): unknown {
  return { v: STATE_STAMP, id: 'state-1', repoId: 'repo', tablesId: 'tables', derived: {}, externalNames: ['serde::Deserialize'], files: { 'src/a.rs': fileEntry(contentHash), 'src/b.rs': fileEntry('b') } };
}

describe('reading the indexer state back', () => {
  it('reads a state note again as it is now: a delta once laid over it, or an edit of the note, does not stay in what a later read returns', async () => {
    const { store, put, drop, at } = noteStore();
    put(STATE_KEY, stateNote('first'), 'snap-1');
    put(DELTA_KEY, { v: STATE_STAMP, base: 'state-1', repoId: 'repo', tablesId: 'tables-2', derived: {}, files: { 'src/a.rs': { ...fileEntry('edited'), externals: ['serde::Serialize'] } } }, 'snap-2');
    at('snap-2');
    const withDelta = await loadState(store, 'repo');
    expect(withDelta?.files['src/a.rs']).toMatchObject({ contentHash: 'edited', externals: ['serde::Serialize'] });
    expect(withDelta?.files['src/b.rs']).toMatchObject({ contentHash: 'b', externals: ['serde::Deserialize'] });
    expect(withDelta?.tablesId).toBe('tables-2');

    // The same note bytes without the delta: the state note's own entries, external names resolved once.
    drop(DELTA_KEY);
    at('snap-1');
    for (let read = 0; read < 2; read++) {
      const plain = await loadState(store, 'repo');
      expect(plain?.files['src/a.rs']).toMatchObject({ contentHash: 'first', externals: ['serde::Deserialize'] });
      expect(plain?.tablesId).toBe('tables');
    }

    put(STATE_KEY, stateNote('rewritten'), 'snap-1');
    expect((await loadState(store, 'repo'))?.files['src/a.rs']?.contentHash).toBe('rewritten');
    expect(await loadState(store, 'another-repo')).toBeUndefined();
  });

  it('reads directory listings again as they are now, and only under the root they were taken under', async () => {
    const { store, put } = noteStore();
    const listing = (mtimeMs: number): unknown => ({ v: DIRECTORIES_VERSION, root: '/repo', listings: { '': { mtimeMs, names: 'a.rs', kinds: 'f' } } });
    put(DIRECTORIES_KEY, listing(1), null);
    expect((await loadDirectories(store, '/repo')).get('')?.mtimeMs).toBe(1);
    expect((await loadDirectories(store, '/repo')).get('')?.mtimeMs).toBe(1);
    expect((await loadDirectories(store, '/elsewhere')).size).toBe(0);
    put(DIRECTORIES_KEY, listing(2), null);
    expect((await loadDirectories(store, '/repo')).get('')?.mtimeMs).toBe(2);
  });

  it('reads the file stats from their own note while it is current and well formed, else from the state', async () => {
    const { store, put, at } = noteStore();
    put(STATE_KEY, stateNote('from-state'), 'snap-1');
    at('snap-1');
    const stats = fileStatsOf('repo', { 'src/a.rs': { sizeBytes: 7, mtimeMs: 1.5, ctimeMs: 2.25, contentHash: 'from-stats' }, 'src/b.rs': { sizeBytes: 1, mtimeMs: 1, ctimeMs: 1, contentHash: '' } });
    expect(stats.paths).toEqual(['src/a.rs', 'src/b.rs']);
    put(FILE_STATS_KEY, stats, 'snap-1');
    const read = await loadFileStats(store, 'repo');
    expect(read?.get('src/a.rs')).toEqual({ sizeBytes: 7, mtimeMs: 1.5, ctimeMs: 2.25, contentHash: 'from-stats' });
    expect(read?.get('src/b.rs')?.contentHash).toBe('');

    const fromState = async (): Promise<string | undefined> => (await loadFileStats(store, 'repo'))?.get('src/a.rs')?.contentHash;
    // Of another snapshot, repository or layout, or cut short: the state's own entries.
    put(FILE_STATS_KEY, stats, 'snap-0');
    expect(await fromState()).toBe('from-state');
    put(FILE_STATS_KEY, { ...stats, repoId: 'other' }, 'snap-1');
    expect(await fromState()).toBe('from-state');
    put(FILE_STATS_KEY, { ...stats, v: STATE_STAMP - 1 }, 'snap-1');
    expect(await fromState()).toBe('from-state');
    put(FILE_STATS_KEY, { ...stats, stats: stats.stats.slice(1) }, 'snap-1');
    expect(await fromState()).toBe('from-state');
    // Neither current: no state at all.
    at('snap-2');
    expect(await loadFileStats(store, 'repo')).toBeUndefined();
  });
});
