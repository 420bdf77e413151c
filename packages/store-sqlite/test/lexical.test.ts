import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { nodeId, type FileWrite, type GraphNode, type LexicalDocument, type WriteBatch } from '@knowing/graph';
import { createSqliteStore } from '../src/index.js';
import { bestRows } from '../src/lexical.js';
import type { WeighedTerm } from '../src/lexical.js';

function node(file: string, name: string): GraphNode {
  const qualifiedName = `${file}.${name}`;
  return { id: nodeId('repo', qualifiedName, 'function'), name, qualifiedName, kind: 'function', language: 'python', file, startLine: 1, endLine: 3, signature: '', doc: '', isTest: false, external: false };
}

const doc = (body: string): LexicalDocument => ({ name: '', path: '', signature: '', doc: '', body, members: '' });

function write(file: string, nodes: GraphNode[], body: string): FileWrite {
  return {
    file: { path: file, language: 'python', contentHash: file, sizeBytes: 1, indexedAt: 0, syntaxErrors: 0 },
    nodes,
    edges: [],
    lexical: new Map(nodes.map((n) => [n.id, doc(body)])),
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function storeWith(order: readonly FileWrite[]) {
  const dir = mkdtempSync(join(tmpdir(), 'knowing-lexical-'));
  dirs.push(dir);
  const store = await createSqliteStore({ path: join(dir, 'graph.db') });
  // One file per batch, in the given order: row numbers follow the order of writing.
  for (const w of order) await store.applyBatch({ files: [w] });
  return store;
}

describe('lexicalSearch', () => {
  it('breaks ties by name, not by the order the index was written in', async () => {
    const a = write('a.py', [node('a.py', 'parse_header')], 'pars header token');
    const b = write('b.py', [node('b.py', 'parse_header')], 'pars header token');
    const other = write('c.py', [node('c.py', 'render')], 'render templat');
    const forward = await storeWith([a, b, other]);
    const backward = await storeWith([other, b, a]);
    const names = async (store: typeof forward, limit: number) => (await store.lexicalSearch(['header'], { limit })).map((h) => h.node.qualifiedName);
    expect(await names(forward, 1)).toEqual(['a.py.parse_header']);
    expect(await names(backward, 1)).toEqual(['a.py.parse_header']);
    expect(await names(backward, 5)).toEqual(['a.py.parse_header', 'b.py.parse_header']);
    await forward.close();
    await backward.close();
  });
});

describe('lexical scores over the life of an index', () => {
  it('are the same after files are rewritten as in a fresh index (FTS5 keeps counting deleted rows)', async () => {
    const files = [
      write('a.py', [node('a.py', 'parse_header'), node('a.py', 'read')], 'pars header token read'),
      write('b.py', [node('b.py', 'render')], 'render templat header'),
      write('c.py', [node('c.py', 'route'), node('c.py', 'match')], 'rout match url'),
      write('d.py', [node('d.py', 'close')], 'close connect'),
    ];
    const scores = async (store: Awaited<ReturnType<typeof storeWith>>) =>
      (await store.lexicalSearch(['header', 'rout', 'close'], { limit: 10 })).map((h) => [h.node.qualifiedName, h.score]);
    const fresh = await storeWith(files);
    const rewritten = await storeWith(files);
    // Each file written again three times (a full re-index, or edits that keep the text).
    for (let round = 0; round < 3; round++) for (const w of files) await rewritten.applyBatch({ files: [w] });
    expect(await scores(rewritten)).toEqual(await scores(fresh));
    expect((await scores(fresh)).length).toBeGreaterThan(2);
    await fresh.close();
    await rewritten.close();
  });
});

describe("FTS5's totals over the life of an index", () => {
  const withDoc = (n: GraphNode, text: string): GraphNode => ({ ...n, doc: text });
  const finalFiles = (): FileWrite[] => [
    write('a.py', [withDoc(node('a.py', 'parse_header'), 'parse a header line'), node('a.py', 'read')], 'pars header token read'),
    write('b.py', [node('b.py', 'render')], 'render templat header'),
    write('c.py', [node('c.py', 'route')], 'rout match url header'),
  ];
  // Every way a row leaves the tables: a rewrite with other text, a symbol dropped from its
  // file, a changed doc (the name index's own row), a deleted file.
  const history = (): WriteBatch[] => [
    { files: [write('a.py', [node('a.py', 'parse_header'), node('a.py', 'read'), node('a.py', 'skip')], 'pars header token read ' + 'long '.repeat(40))] },
    { files: [write('e.py', [node('e.py', 'gone')], 'header header header gone away for good')] },
    { files: [write('b.py', [withDoc(node('b.py', 'render'), 'renders a template in many many words')], 'render templat')] },
    { files: [write('c.py', [node('c.py', 'route'), node('c.py', 'match')], 'rout match url ' + 'x '.repeat(25))] },
    { deleteFiles: ['e.py'] },
    ...finalFiles().map((w) => ({ files: [w] })),
  ];
  const totals = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return ['nodes_fts', 'lexical_fts'].map((t) => [...(db.prepare(`SELECT block FROM ${t}_data WHERE id = 1`).pluck().get() as Uint8Array)]);
    } finally {
      db.close();
    }
  };
  const observed = async (store: Awaited<ReturnType<typeof createSqliteStore>>) => ({
    lexical: (await store.lexicalSearch(['header', 'rout', 'read', 'templat'], { limit: 10 })).map((h) => [h.node.qualifiedName, h.score]),
    names: (await store.search('header OR render OR route', { limit: 10 })).map((h) => [h.node.qualifiedName, h.score]),
  });

  async function open() {
    const dir = mkdtempSync(join(tmpdir(), 'knowing-totals-'));
    dirs.push(dir);
    const file = join(dir, 'graph.db');
    return { file, store: await createSqliteStore({ path: file }) };
  }

  it('match a fresh index of the same files after rewrites, removals and deletions', async () => {
    const fresh = await open();
    for (const w of finalFiles()) await fresh.store.applyBatch({ files: [w] });
    const lived = await open();
    for (const batch of history()) await lived.store.applyBatch(batch);

    expect(await observed(lived.store)).toEqual(await observed(fresh.store));
    expect((await observed(fresh.store)).lexical.length).toBeGreaterThan(3);
    expect((await observed(fresh.store)).names.length).toBeGreaterThan(2);
    expect(totals(lived.file)).toEqual(totals(fresh.file));
    await fresh.store.close();
    await lived.store.close();
  });

  it('are summed again on the next write when an older index left them counting deleted rows', async () => {
    const fresh = await open();
    for (const w of finalFiles()) await fresh.store.applyBatch({ files: [w] });
    const old = await open();
    for (const w of finalFiles()) await old.store.applyBatch({ files: [w] });
    await old.store.close();
    // What an index written before the store kept the totals looks like: more rows and tokens.
    const db = new Database(old.file);
    db.unsafeMode(true);
    for (const t of ['nodes_fts', 'lexical_fts']) db.prepare(`UPDATE ${t}_data SET block = ? WHERE id = 1`).run(Uint8Array.from([0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f]));
    db.close();
    const reopened = await createSqliteStore({ path: old.file });
    expect(await observed(reopened)).not.toEqual(await observed(fresh.store));
    await reopened.applyBatch({ files: [finalFiles()[1]!] });
    expect(await observed(reopened)).toEqual(await observed(fresh.store));
    expect(totals(old.file)).toEqual(totals(fresh.file));
    await fresh.store.close();
    await reopened.close();
  });
});

describe('the best rows of a lexical search, without scoring every match of a common word', () => {
  /** mulberry32: the same "random" corpus on every run. */
  function seeded(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it('reads the words that cannot lift a new row into the best ones only for the rows already found, and keeps their scores', () => {
    const rare: WeighedTerm = { phrase: '"rare"', factor: 1, bound: 10 };
    const common: WeighedTerm = { phrase: '"common"', factor: 1, bound: 1 };
    // bm25() rows: [row, −score]; the common word matches every row, weakly.
    const rows = new Map<string, number[][]>([
      ['"rare"', [[1, -9], [2, -8], [3, -7]]],
      ['"common"', Array.from({ length: 1000 }, (_, i) => [i + 1, -0.5])],
    ]);
    const read: string[] = [];
    const best = bestRows(
      [common, rare],
      { count: 2, admits: (seqs) => new Set(seqs) },
      (term) => (read.push(`all ${term.phrase}`), rows.get(term.phrase)!),
      (term, among) => {
        read.push(`among ${term.phrase}`);
        const wanted = new Set(JSON.parse(among) as number[]);
        return rows.get(term.phrase)!.filter(([row]) => wanted.has(row!));
      },
    );
    expect(read).toEqual(['all "rare"', 'among "common"']);
    expect([...best]).toEqual([[1, 9.5], [2, 8.5], [3, 7.5]]);
    // Rows the caller would not keep do not set the score to beat: with only row 3 kept, nothing is left out.
    const unread = bestRows([common, rare], { count: 2, admits: (seqs) => new Set(seqs.filter((s) => s === 3)) }, (term) => rows.get(term.phrase)!, () => []);
    expect(unread.size).toBe(1000);
  });

  it('keeps every row of the best admitted ones with its full score, on many rows, ties and strict filters', () => {
    for (const [seed, count, keepShare] of [[1, 1, 0.5], [2, 10, 0.9], [3, 60, 0.05], [4, 250, 0.3], [5, 60, 0.01], [6, 3000, 0.5]] as const) {
      const random = seeded(seed);
      const terms: WeighedTerm[] = Array.from({ length: 2 + Math.floor(random() * 5) }, (_, i) => ({ phrase: `"t${i}"`, factor: 0.5 + random(), bound: 0 }));
      const rows = new Map<string, number[][]>();
      for (const term of terms) {
        const matches = new Set<number>();
        const size = Math.floor(random() * 2500) + 1;
        while (matches.size < size) matches.add(1 + Math.floor(random() * 3000));
        // Scores on a coarse grid, so that many rows tie.
        const list = [...matches].map((row) => [row, -Math.ceil(random() * 8) / 2]);
        rows.set(term.phrase, list);
        (term as { bound: number }).bound = Math.max(...list.map(([, score]) => -score! * term.factor)) * 1.01;
      }
      const kept = (row: number): boolean => ((row * 2654435761) >>> 0) / 4294967296 < keepShare;
      const best = bestRows(
        terms,
        { count, admits: (seqs) => new Set(seqs.filter(kept)) },
        (term) => rows.get(term.phrase)!,
        (term, among) => {
          const wanted = new Set(JSON.parse(among) as number[]);
          return rows.get(term.phrase)!.filter(([row]) => wanted.has(row!));
        },
      );
      // Every row scored with every term, in the query's order.
      const byTerm = terms.map((term) => new Map(rows.get(term.phrase)!.map(([row, score]) => [row!, score!])));
      const full = new Map<number, number>();
      for (const matches of byTerm) for (const row of matches.keys()) full.set(row, 0);
      for (const row of full.keys()) {
        let score = 0;
        for (const [t, matches] of byTerm.entries()) score += -(matches.get(row) ?? 0) * terms[t]!.factor;
        full.set(row, score);
      }
      const admittedScores = [...full].filter(([row]) => kept(row)).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      const cutoff = admittedScores[Math.min(count, admittedScores.length) - 1]?.[1] ?? 0;
      for (const [row, score] of admittedScores) {
        if (score < cutoff) break;
        expect(best.get(row), `seed ${seed}: row ${row}`).toBeCloseTo(score, 9);
      }
      for (const [row, score] of best) expect(score, `seed ${seed}: row ${row}`).toBeCloseTo(full.get(row)!, 9);
    }
  });

  it('returns the same hits, scores and order as scoring every match, whatever the limit, kinds and tests', async () => {
    const random = seeded(7);
    const common = ['error', 'config', 'file', 'read', 'path'];
    const rare = ['retri', 'timeout', 'proxi', 'cooki', 'gzip', 'redirect', 'tls', 'socket'];
    const files: FileWrite[] = [];
    for (let f = 0; f < 60; f++) {
      const file = f % 7 === 0 ? `tests/test_${f}.py` : `src/m${f}.py`;
      const nodes: GraphNode[] = [];
      const lexical = new Map<string, LexicalDocument>();
      for (let k = 0; k < 8; k++) {
        const base = node(file, `f${f}_${k}`);
        const n: GraphNode = { ...base, kind: k % 3 === 0 ? 'class' : 'function', isTest: file.startsWith('tests/') };
        const words: string[] = [];
        for (let w = 0; w < 6 + Math.floor(random() * 30); w++) words.push(random() < 0.8 ? common[Math.floor(random() * common.length)]! : rare[Math.floor(random() * rare.length)]!);
        nodes.push(n);
        lexical.set(n.id, { ...doc(words.join(' ')), name: random() < 0.2 ? rare[Math.floor(random() * rare.length)]! : '' });
      }
      files.push({ file: { path: file, language: 'python', contentHash: file, sizeBytes: 1, indexedAt: 0, syntaxErrors: 0 }, nodes, edges: [], lexical });
    }
    const store = await storeWith([]);
    await store.applyBatch({ files });
    const allIds = files.flatMap((w) => w.nodes.map((n) => n.id));
    const hits = async (terms: string[], options: Parameters<typeof store.lexicalSearch>[1]) =>
      (await store.lexicalSearch(terms, options)).map((h) => `${h.node.qualifiedName} ${h.score}`);
    const queries = [
      ['retri', 'error', 'config', 'file'],
      ['timeout', 'socket', 'read', 'path', 'error'],
      ['gzip', 'file'],
      ['error', 'config'],
    ];
    let compared = 0;
    for (const terms of queries) {
      for (const limit of [1, 5, 20]) {
        for (const extra of [{}, { includeTests: true }, { kinds: ['class'] as const }]) {
          // The full scoring: restricted to every symbol, the search scores each match of every word.
          const everything = await hits(terms, { ...extra, limit: 100_000, ids: allIds });
          expect(await hits(terms, { ...extra, limit })).toEqual(everything.slice(0, limit));
          compared++;
        }
      }
    }
    expect(compared).toBe(36);
    await store.close();
  });
});
