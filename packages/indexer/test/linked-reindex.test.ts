/**
 * A body-only re-index resolves the edited file against the stored tables and the links
 * stored with them (see `ProjectLinks`); tables without links (an older indexer's) send the
 * run down the full path, which stores links again.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GraphStore } from '@knowing/graph';
import { decodeTables, encodeTables } from '../src/codec.js';
import { indexRepository } from '../src/index.js';
import type { IndexSummary } from '../src/index.js';
import { graphText } from './helpers/graph-text.js';
import { createMemoryStore } from './helpers/memory-store.js';

const rust = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'rust');
const TABLES_KEY = 'indexer:tables';
let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'knowing-linked-'));
  await cp(rust, root, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const run = (store: GraphStore, full = false): Promise<IndexSummary> => indexRepository({ root, store, repoId: 'fixture', workers: 0, ...(full ? { full } : {}) });

async function bodyEdit(tag: string): Promise<void> {
  const file = path.join(root, 'crates/inventory/src/report.rs');
  const text = await readFile(file, 'utf8');
  await writeFile(file, text.replace(/"\{\} games[^"]*"/, `"{} games ${tag}"`));
}

async function expectSameAsFull(store: GraphStore): Promise<void> {
  const fresh = createMemoryStore();
  await run(fresh, true);
  const [actual, expected] = await Promise.all([graphText(store), graphText(fresh)]);
  expect(actual.nodeRecords).toEqual(expected.nodeRecords);
  expect(actual.edgeRecords).toEqual(expected.edgeRecords);
}

describe('re-index against stored links', () => {
  it('stores the links with the tables, one table per file in path order', async () => {
    const store = createMemoryStore();
    const summary = await run(store);
    const decoded = decodeTables((await store.getNote(TABLES_KEY))!.value)!;
    const files = (await store.listFiles()).map((file) => file.path).sort();
    expect(decoded.links?.paths).toEqual(files);
    expect(decoded.tables.map((table) => table.path)).toEqual(files);
    expect(decoded.links?.counts).toEqual(decoded.tables.map((table) => table.symbols.length));
    expect(summary.files.resolved).toBe(files.length);
  });

  it('resolves a body-only edit alone, and again after tables without links sent one run down the full path', async () => {
    const store = createMemoryStore();
    await run(store);
    await bodyEdit('first');
    expect((await run(store)).files).toMatchObject({ parsed: 1, resolved: 1 });
    await expectSameAsFull(store);

    // Tables as an indexer without links wrote them: same tables, other codec version.
    const note = (await store.getNote(TABLES_KEY))!;
    const decoded = decodeTables(note.value)!;
    const legacy = new TextEncoder().encode(`[1,"legacy",${JSON.stringify([[''], [], []])}]`);
    await store.putNote(TABLES_KEY, note.kind, legacy, null);
    await bodyEdit('second');
    const fallback = await run(store);
    expect(fallback.files).toMatchObject({ parsed: 1, resolved: decoded.tables.length });
    await expectSameAsFull(store);
    expect(decodeTables((await store.getNote(TABLES_KEY))!.value)?.links?.paths).toEqual(decoded.links?.paths);

    await bodyEdit('third');
    expect((await run(store)).files).toMatchObject({ parsed: 1, resolved: 1 });
    await expectSameAsFull(store);
  });

  it('resolves every file from its extraction when a stored table cannot be read back', async () => {
    const store = createMemoryStore();
    await run(store);
    const note = (await store.getNote(TABLES_KEY))!;
    const count = decodeTables(note.value)!.tables.length;
    // Damage every table row (the lines after the five of the head), keeping the head and links intact.
    const lines = new TextDecoder().decode(note.value).split('\n');
    const damaged = [...lines.slice(0, 5), ...lines.slice(5).map(() => '[7]')].join('\n');
    await store.putNote(TABLES_KEY, note.kind, new TextEncoder().encode(damaged), null);
    await bodyEdit('damaged');
    expect((await run(store)).files).toMatchObject({ parsed: 1, resolved: count });
    await expectSameAsFull(store);
    await bodyEdit('repaired');
    expect((await run(store)).files).toMatchObject({ parsed: 1, resolved: 1 });
    await expectSameAsFull(store);
  });

  it('takes the full path when the stored tables carry no links', async () => {
    const store = createMemoryStore();
    await run(store);
    const note = (await store.getNote(TABLES_KEY))!;
    const decoded = decodeTables(note.value)!;
    // The state names the tables by id: keep it, drop the links.
    const withoutLinks = encodeTables(decoded.tables);
    const stateNote = (await store.getNote('indexer:state'))!;
    const state = JSON.parse(new TextDecoder().decode(stateNote.value)) as { tablesId: string };
    await store.putNote(TABLES_KEY, note.kind, new TextEncoder().encode(new TextDecoder().decode(withoutLinks.bytes).replace(withoutLinks.id, state.tablesId)), null);
    await bodyEdit('fourth');
    expect((await run(store)).files.resolved).toBe(decoded.tables.length);
    await expectSameAsFull(store);
  });
});
