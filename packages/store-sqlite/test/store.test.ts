import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  edgeKey,
  merkleRoot,
  packageOf,
  type FileWrite,
  type GraphEdge,
  type GraphNode,
  type WriteBatch,
} from '@knowing/graph';
import { createSqliteStore, type SqliteGraphStore } from '../src/index.js';
import { REPO, calls, external, fn, generate } from './support/graph-gen.js';

const dir = mkdtempSync(join(tmpdir(), 'knowing-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `graph-${n++}.db`);

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

function fileWrite(path: string, nodes: GraphNode[], edges: GraphEdge[] = [], hash = 'h'): FileWrite {
  return { file: { path, language: 'python', contentHash: `${hash}:${path}`, sizeBytes: 1, indexedAt: 0, syntaxErrors: 0 }, nodes, edges };
}

/** Package roots recomputed from nothing but the store's nodes and edges. */
async function rootsFromScratch(store: SqliteGraphStore): Promise<Map<string, string>> {
  const nodes = new Map((await collect(store.allNodes())).map((x) => [x.id, x]));
  const groups = new Map<string, Map<string, string[]>>();
  for (const e of await collect(store.allEdges())) {
    const src = nodes.get(e.source)!;
    const pkg = src.external ? '' : packageOf(src.file);
    const types = groups.get(pkg) ?? new Map<string, string[]>();
    groups.set(pkg, types);
    types.set(e.type, [...(types.get(e.type) ?? []), edgeKey(e.source, e.target, e.type)]);
  }
  return new Map([...groups].map(([pkg, types]) => [pkg, merkleRoot([...types.values()].map((l) => merkleRoot(l)))]));
}

describe('write results count what changed', () => {
  it('does not count unchanged nodes and edges as written', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    const [a, b] = generate(2, 3);
    const first = await store.applyBatch({ files: [a!, b!] });
    expect([first.nodesWritten, first.edgesWritten]).toEqual([6, 5]);
    const again = await store.applyBatch({ files: [a!, b!] });
    expect([again.nodesWritten, again.edgesWritten, again.nodesDeleted, again.edgesDeleted]).toEqual([0, 0, 0, 0]);
    expect(again.snapshot).toEqual(first.snapshot);
    // A node that only moved lines is written; its edges are not.
    const shifted = { ...a!, nodes: a!.nodes.map((x, i) => (i === 0 ? { ...x, startLine: 50, endLine: 60 } : x)) };
    const moved = await store.applyBatch({ files: [shifted] });
    expect([moved.nodesWritten, moved.edgesWritten, moved.edgesDeleted]).toEqual([1, 0, 0]);
    // Node changes without edge changes keep the Merkle root but start a new generation.
    expect(moved.snapshot.root).toBe(first.snapshot.root);
    expect(moved.snapshot.generation).toBe(first.snapshot.generation + 1);
    const confidence = { ...a!, edges: a!.edges.map((e) => ({ ...e, confidence: 0.5 })) };
    const updated = await store.applyBatch({ files: [confidence] });
    expect([updated.edgesWritten, updated.edgesDeleted]).toEqual([2, 0]);
    expect(updated.snapshot.root).toBe(first.snapshot.root);
    await store.close();
  });
});

describe('batch semantics beyond the contract kit', () => {
  it('keeps incoming edges of a node that moves to another file, and regroups its out-edges', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    const target = fn('src/a/old.py', 'shared', 1);
    const caller = fn('src/b/user.py', 'caller', 1);
    const callee = fn('src/b/user.py', 'callee', 10);
    await store.applyBatch({
      files: [fileWrite('src/a/old.py', [target], [calls(target, callee)]), fileWrite('src/b/user.py', [caller, callee], [calls(caller, target)])],
    });
    // Same id, now in src/c/new.py (an indexer that keeps ids across moves would do this).
    // Files apply in order: the new home first, so the old file's rewrite no longer owns it.
    const movedNode = { ...target, file: 'src/c/new.py' };
    await store.applyBatch({ files: [fileWrite('src/c/new.py', [movedNode], [calls(target, callee)]), fileWrite('src/a/old.py', [])] });
    expect((await store.getNode(target.id))?.file).toBe('src/c/new.py');
    expect((await store.edgesTo(target.id)).map((e) => e.source)).toEqual([caller.id]);
    expect(await store.packageRoots()).toEqual(await rootsFromScratch(store));
    expect([...(await store.packageRoots()).keys()].sort()).toEqual(['src/b', 'src/c']);
    await store.close();
  });

  it('lets the last writer of an edge own it, and keeps it while that owner does', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    const [a] = generate(1, 2);
    const edge = a!.edges[0]!;
    await store.applyBatch({ files: [a!], ownedEdges: [{ owner: 'derived:x', edges: [{ ...edge, provenance: 'derived' }] }] });
    expect((await store.edgesFrom(edge.source))[0]?.provenance).toBe('derived');
    // The file no longer claims it, the pass still does: it stays.
    await store.applyBatch({ files: [{ ...a!, edges: [] }] });
    expect(await store.edgesFrom(edge.source)).toHaveLength(1);
    await store.applyBatch({ ownedEdges: [{ owner: 'derived:x', edges: [] }] });
    expect(await store.edgesFrom(edge.source)).toHaveLength(0);
    expect(await store.packageRoots()).toEqual(await rootsFromScratch(store));
    await store.close();
  });

  it('takes the last write of a file and of a node id within one batch', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    const x1 = fn('src/a.py', 'x', 1, 'first');
    const x2 = { ...x1, doc: 'second' };
    const y = fn('src/a.py', 'y', 5);
    await store.applyBatch({ files: [fileWrite('src/a.py', [x1, y]), fileWrite('src/a.py', [x1, x2])] });
    expect((await store.nodesInFile('src/a.py')).map((x) => x.doc)).toEqual(['second']);
    await store.close();
  });

  it('never turns a real symbol into a placeholder', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    const real = fn('src/a.py', 'real', 1);
    await store.applyBatch({ files: [fileWrite('src/a.py', [real])] });
    await store.applyBatch({ externalNodes: [{ ...external('real'), id: real.id }] });
    expect(await store.getNode(real.id)).toEqual(real);
    await store.close();
  });

  it('drops an edge to a node that does not exist instead of failing the batch', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    const a = fn('src/a.py', 'a', 1);
    const ghost = fn('src/ghost.py', 'ghost', 1);
    const result = await store.applyBatch({ files: [fileWrite('src/a.py', [a], [calls(a, ghost)])] });
    expect(result.edgesWritten).toBe(0);
    expect((await store.counts()).edges).toBe(0);
    await store.close();
  });
});

describe('streaming', () => {
  it('streams more nodes and edges than fit one page, each once, while the caller writes', async () => {
    const store = await createSqliteStore({ path: fresh() });
    await store.applyBatch({ files: generate(50, 100) });
    const seen = new Set<string>();
    let i = 0;
    for await (const node of store.allNodes()) {
      seen.add(node.id);
      // A write between two yields must not hit "connection busy".
      if (i++ % 1000 === 0) await store.putNote(`n${i}`, 'probe', new Uint8Array([1]));
    }
    expect(seen.size).toBe(5000);
    const edges = await collect(store.allEdges());
    expect(edges).toHaveLength(50 * 99 + 49);
    expect(new Set(edges.map((e) => `${e.source}${e.type}${e.target}`)).size).toBe(edges.length);
    await store.close();
  });
});

describe('extras', () => {
  it('fileHashes maps every file to its content hash', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    const writes = generate(3, 1);
    await store.applyBatch({ files: writes });
    expect(await store.fileHashes()).toEqual(new Map(writes.map((w) => [w.file.path, w.file.contentHash])));
    await store.close();
  });

  it('vacuum shrinks the file after deletions and keeps the data', async () => {
    const path = fresh();
    const store = await createSqliteStore({ path });
    await store.applyBatch({ files: generate(200, 20) });
    await store.applyBatch({ deleteFiles: generate(200, 20).slice(10).map((w) => w.file.path) });
    const snapshot = await store.currentSnapshot();
    await store.vacuum();
    const size = statSync(path).size;
    expect(await store.currentSnapshot()).toEqual(snapshot);
    expect((await store.search('handle_v0_3_2')).length).toBe(1);
    expect((await store.counts()).nodes).toBe(200);
    await store.close();
    expect(size).toBeLessThan(1024 * 1024);
  });

  it.each([
    ['cut back to walLimitBytes', 256 * 1024, (wal: number, limit: number) => expect(wal).toBeLessThanOrEqual(limit)],
    ['kept while under the limit (the 64 MiB default)', undefined, (wal: number) => expect(wal).toBeGreaterThan(2 * 1024 * 1024)],
  ])('a write-ahead log grown by a large first batch is %s once the next write starts over', async (_name, limit, check) => {
    const path = fresh();
    const store = await createSqliteStore({ path, ...(limit !== undefined ? { walLimitBytes: limit } : {}) });
    await store.applyBatch({ files: generate(400, 25) });
    const grown = statSync(`${path}-wal`).size;
    expect(grown).toBeGreaterThan(2 * 1024 * 1024);
    // The commit checkpointed the log; the next write resets it, and cuts the file to the limit.
    await store.putNote('k', 'test', new Uint8Array([1]), null);
    check(statSync(`${path}-wal`).size, limit ?? 0);
    expect((await store.counts()).nodes).toBe(400 * 25);
    await store.close();
  });
});

describe('incremental bookkeeping under random batches', () => {
  it('keeps roots, counts, the text index and placeholders exactly as a recomputation would', async () => {
    let seed = 7;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
    const paths = Array.from({ length: 12 }, (_, i) => `src/d${i % 4}/f${i}.py`);
    const candidates = new Map(paths.map((p) => [p, Array.from({ length: 8 }, (_, i) => fn(p, `sym_${p.slice(-6, -3)}_${i}`, 1 + i * 3))]));
    const allCandidates = [...candidates.values()].flat();
    const externals = ['lib.a', 'lib.b', 'lib.c'].map(external);
    const path = fresh();
    const store = await createSqliteStore({ path });
    const raw = new Database(path, { readonly: true });

    for (let round = 0; round < 40; round++) {
      const batch: { files: FileWrite[]; deleteFiles: string[]; ownedEdges: { owner: string; edges: GraphEdge[] }[]; externalNodes: GraphNode[] } = {
        files: [],
        deleteFiles: [],
        ownedEdges: [],
        externalNodes: [],
      };
      const touched = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(paths));
      for (const p of touched) {
        if (rand() < 0.15) {
          batch.deleteFiles.push(p);
          continue;
        }
        const nodes = candidates.get(p)!.filter(() => rand() < 0.7).map((x) => (rand() < 0.2 ? { ...x, doc: `doc ${round}` } : x));
        const edges: GraphEdge[] = [];
        for (let k = 0; k < nodes.length * 2; k++) {
          const target = rand() < 0.15 ? pick(externals) : pick(allCandidates);
          edges.push({ ...calls(pick(nodes), target, pick(['calls', 'references'])), confidence: rand() < 0.5 ? 0.9 : 0.6 });
        }
        batch.files.push(fileWrite(p, nodes, edges, `r${round}`));
      }
      batch.externalNodes.push(...externals.filter(() => rand() < 0.5));
      if (rand() < 0.3) {
        batch.ownedEdges.push({ owner: 'derived:inherits', edges: Array.from({ length: 5 }, () => calls(pick(allCandidates), pick(allCandidates), 'inherits')) });
      }
      const result = await store.applyBatch(batch as WriteBatch);

      const counts = await store.counts();
      expect(result.snapshot.nodeCount).toBe(counts.nodes);
      expect(result.snapshot.edgeCount).toBe(counts.edges);
      const roots = await store.packageRoots();
      expect(roots).toEqual(await rootsFromScratch(store));
      expect(result.snapshot.root).toBe(merkleRoot([...roots.values()]));
      const nodes = await collect(store.allNodes());
      const ids = new Set(nodes.map((x) => x.id));
      const touchedIds = new Set<string>();
      for (const e of await collect(store.allEdges())) {
        expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
        touchedIds.add(e.source).add(e.target);
      }
      for (const x of nodes) if (x.external) expect(touchedIds.has(x.id)).toBe(true);
      // One full-text row per real node, and the index agrees with itself.
      const ftsRows = raw.prepare('SELECT count(*) FROM nodes_fts_docsize').pluck().get();
      expect(ftsRows).toBe(nodes.filter((x) => !x.external).length);
      const sample = nodes.find((x) => !x.external);
      if (sample) expect((await store.search(`name:"${sample.name}"`)).map((h) => h.node.id)).toContain(sample.id);
    }
    raw.close();
    const check = new Database(path);
    check.exec(`INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('integrity-check', 0)`);
    expect(check.pragma('foreign_key_check')).toEqual([]);
    check.close();
    await store.close();
  }, 60_000);
});
