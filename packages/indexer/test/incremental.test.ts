import { cp, mkdtemp, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GraphStore } from '@knowing/graph';
import { indexRepository } from '../src/index.js';
import type { IndexSummary } from '../src/index.js';
import { graphText } from './helpers/graph-text.js';
import { createMemoryStore } from './helpers/memory-store.js';

const shop = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'python', 'shop');

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'knowing-incremental-'));
  await cp(shop, root, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function index(store: GraphStore, extra: { signal?: AbortSignal; onProgress?: Parameters<typeof indexRepository>[0]['onProgress'] } = {}): Promise<IndexSummary> {
  return indexRepository({ root, store, repoId: 'fixture', workers: 0, ...extra });
}

/** The incremental store must hold exactly what a fresh full index of the same tree holds. */
async function expectSameAsFullIndex(store: GraphStore): Promise<void> {
  const fresh = createMemoryStore();
  await indexRepository({ root, store: fresh, repoId: 'fixture', workers: 0, full: true });
  const [actual, expected] = await Promise.all([graphText(store), graphText(fresh)]);
  expect(actual.nodeRecords).toEqual(expected.nodeRecords);
  expect(actual.edgeRecords).toEqual(expected.edgeRecords);
  const files = (s: GraphStore): Promise<string[]> => s.listFiles().then((list) => list.map((f) => `${f.path} ${f.contentHash}`).sort());
  expect(await files(store)).toEqual(await files(fresh));
}

async function edit(relative: string, change: (text: string) => string): Promise<void> {
  const file = path.join(root, relative);
  await writeFile(file, change(await readFile(file, 'utf8')));
}

/** The files a state delta note holds. */
function deltaFiles(note: { readonly value: Uint8Array } | undefined): Record<string, unknown> {
  return (JSON.parse(new TextDecoder().decode(note?.value)) as { files: Record<string, unknown> }).files;
}

/** Give every directory an old mtime, as in a checkout that is not being edited: their listings become reusable. */
async function ageDirectories(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) if (entry.isDirectory()) await ageDirectories(path.join(dir, entry.name));
  const past = new Date('2024-01-01T00:00:00Z');
  await utimes(dir, past, past);
}

describe('incremental re-index', () => {
  it('parses and writes nothing when nothing changed', async () => {
    const store = createMemoryStore();
    const first = await index(store);
    expect(first.files.parsed).toBe(8);
    const batches = store.batches;
    const second = await index(store);
    expect(second.files).toMatchObject({ parsed: 0, unchanged: 8, resolved: 0, deleted: 0, written: 0 });
    expect(second.write).toBeNull();
    expect(store.batches).toBe(batches);
    expect(second.edges).toBe(first.edges);
    await expectSameAsFullIndex(store);
  });

  it('re-resolves only the edited file after a body-only edit', async () => {
    const store = createMemoryStore();
    await index(store);
    await edit('src/shop/service.py', (text) => text.replace('return util.format_price(order.total())', 'self.reorder(1)\n        return util.format_price(order.total())'));
    const summary = await index(store);
    expect(summary.files).toMatchObject({ parsed: 1, resolved: 1, written: 1 });
    const text = await graphText(store);
    expect(text.edges).toContain('edge calls src/shop/service.py.OrderService.describe -> src/shop/service.py.OrderService.reorder');
    await expectSameAsFullIndex(store);
  });

  it('updates co_tested_with after a body-only edit of a test file', async () => {
    const store = createMemoryStore();
    await index(store);
    await edit('tests/test_service.py', (text) => text.replace('    store.put(1, "x")\n', '    store.put(1, "x")\n    store.dump()\n'));
    const summary = await index(store);
    expect(summary.files).toMatchObject({ parsed: 1, resolved: 1 });
    const text = await graphText(store);
    expect(text.edges).toContain('edge tests tests/test_service.py.test_cached_store_reads_through -> src/shop/storage/memory.py.MemoryStore.dump');
    expect(text.edges.filter((line) => line.startsWith('edge co_tested_with') && line.includes('MemoryStore.dump'))).not.toEqual([]);
    await expectSameAsFullIndex(store);
  });

  it('re-extracts only an edited file and re-resolves edges into it from unchanged files', async () => {
    const store = createMemoryStore();
    await index(store);
    // Renaming a parent method changes what unchanged files' self calls resolve to.
    await edit('src/shop/storage/base.py', (text) => text.replaceAll('_key', '_make_key'));
    const summary = await index(store);
    expect(summary.files).toMatchObject({ parsed: 1, unchanged: 7, resolved: 8 });
    const text = await graphText(store);
    expect(text.edges).toContain('edge calls src/shop/storage/memory.py.MemoryStore.get -> external:MemoryStore._key');
    expect(text.edges).toContain('edge inherits src/shop/storage/memory.py.MemoryStore -> src/shop/storage/base.py.BaseStore._make_key');
    await expectSameAsFullIndex(store);
  });

  it('recomputes derived edges across the hierarchy when a parent changes', async () => {
    const store = createMemoryStore();
    await index(store);
    await edit('src/shop/storage/memory.py', (text) => text.replace('class MemoryStore(BaseStore):', 'class MemoryStore:'));
    const summary = await index(store);
    expect(summary.files.parsed).toBe(1);
    const text = await graphText(store);
    expect(text.edges.filter((line) => line.includes('BaseStore._key') && line.startsWith('edge inherits'))).toEqual([]);
    await expectSameAsFullIndex(store);
  });

  it('adds a new file and links unchanged files to it', async () => {
    const store = createMemoryStore();
    await index(store);
    await writeFile(
      path.join(root, 'src/shop/storage/redis.py'),
      'from .base import BaseStore\n\n\nclass RedisStore(BaseStore):\n    def get(self, order_id):\n        return self._key(order_id)\n',
    );
    await edit('src/shop/storage/__init__.py', (text) => text + 'from .redis import RedisStore\n');
    const summary = await index(store);
    expect(summary.files.parsed).toBe(2);
    const text = await graphText(store);
    expect(text.edges).toContain('edge overrides src/shop/storage/redis.py.RedisStore.get -> src/shop/storage/base.py.BaseStore.get');
    await expectSameAsFullIndex(store);
  });

  it('finds files added to and removed from directories whose listings it kept', async () => {
    await ageDirectories(root);
    const store = createMemoryStore();
    await index(store);
    const listings = await store.getNote('indexer:directories');
    expect(new TextDecoder().decode(listings?.value)).toContain('"src/shop/storage"');
    expect((await index(store)).files).toMatchObject({ parsed: 0, written: 0 });
    // Nothing moved: the listings note is not rewritten.
    expect(await store.getNote('indexer:directories')).toBe(listings);
    await writeFile(path.join(root, 'src/shop/storage/redis.py'), 'from .base import BaseStore\n\n\nclass RedisStore(BaseStore):\n    pass\n');
    await rm(path.join(root, 'src/shop/util.py'));
    const summary = await index(store);
    expect(summary.files).toMatchObject({ parsed: 1, deleted: 1 });
    await expectSameAsFullIndex(store);
  });

  it('removes a deleted file with its nodes and edges, and re-resolves what pointed at it', async () => {
    const store = createMemoryStore();
    await index(store);
    await rm(path.join(root, 'src/shop/util.py'));
    const summary = await index(store);
    expect(summary.files).toMatchObject({ parsed: 0, deleted: 1 });
    const text = await graphText(store);
    expect(text.nodes.some((line) => line.includes('util.py'))).toBe(false);
    expect(text.edges.some((line) => line.includes('src/shop/util.py'))).toBe(false);
    expect(await store.getNote('extraction:src/shop/util.py')).toBeUndefined();
    await expectSameAsFullIndex(store);
  });

  it('handles a renamed file, before and after its importers are updated', async () => {
    const store = createMemoryStore();
    await index(store);
    await rename(path.join(root, 'src/shop/service.py'), path.join(root, 'src/shop/orders.py'));
    const renamed = await index(store);
    expect(renamed.files).toMatchObject({ parsed: 1, deleted: 1 });
    await expectSameAsFullIndex(store);
    await edit('src/shop/__init__.py', (text) => text.replace('.service', '.orders'));
    await index(store);
    const text = await graphText(store);
    expect(text.edges).toContain('edge tests tests/test_service.py.test_place_stores_order -> src/shop/orders.py.OrderService.place');
    await expectSameAsFullIndex(store);
  });

  it('leaves the previous graph untouched when a run is aborted before its write', async () => {
    const store = createMemoryStore();
    await index(store);
    const before = await graphText(store);
    await edit('src/shop/models.py', (text) => text.replace('def total(self)', 'def grand_total(self)'));
    const controller = new AbortController();
    await expect(
      index(store, { signal: controller.signal, onProgress: (event) => event.phase === 'resolve' && controller.abort() }),
    ).rejects.toThrow();
    expect((await graphText(store)).edgeRecords).toEqual(before.edgeRecords);
    await index(store);
    await expectSameAsFullIndex(store);
  });

  it('writes the extraction notes of a parse in one putNotes call when the store offers it, and the same notes as without it', async () => {
    const batches: string[][] = [];
    const plain = createMemoryStore();
    const batching: GraphStore = Object.create(createMemoryStore(), {
      putNotes: {
        value: async function (this: GraphStore, notes: readonly { key: string; kind: string; value: Uint8Array; snapshot?: string | null }[]) {
          batches.push(notes.map((note) => note.key));
          for (const note of notes) await this.putNote(note.key, note.kind, note.value, note.snapshot ?? null);
        },
      },
    });
    await index(plain);
    await index(batching);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(8);
    for (const key of batches[0]!) {
      expect(key).toMatch(/^extraction:/);
      expect(Array.from((await batching.getNote(key))!.value)).toEqual(Array.from((await plain.getNote(key))!.value));
    }
  });

  it('keeps the extractions a run parsed before it was stopped, so the next run does not parse them again', async () => {
    const store = createMemoryStore();
    const controller = new AbortController();
    let parsed = 0;
    await expect(
      index(store, { signal: controller.signal, onProgress: (event) => event.phase === 'parse' && event.path !== undefined && ++parsed === 3 && controller.abort() }),
    ).rejects.toThrow();
    const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.py')).map((file) => file.split(path.sep).join('/'));
    const kept: string[] = [];
    for (const file of files) if (await store.getNote(`extraction:${file}`)) kept.push(file);
    expect(kept).toHaveLength(3);
    expect(await store.counts()).toMatchObject({ nodes: 0 });
    expect((await index(store)).files).toMatchObject({ discovered: files.length, parsed: files.length - 3 });
    await expectSameAsFullIndex(store);
  });

  it('told which indexed files a watcher saw change, looks at them alone and writes what a walk would', async () => {
    const store = createMemoryStore();
    await index(store);
    await edit('src/shop/service.py', (text) => text.replace('return util.format_price(order.total())', 'self.reorder(1)\n        return util.format_price(order.total())'));
    const told = await indexRepository({ root, store, repoId: 'fixture', workers: 0, changedPaths: ['src/shop/service.py'] });
    expect(told.walked).toBe(false);
    expect(told.files).toMatchObject({ discovered: 8, parsed: 1, deleted: 0 });
    await expectSameAsFullIndex(store);

    // A deleted file is an edit of an indexed file too.
    await rm(path.join(root, 'src/shop/util.py'));
    const deleted = await indexRepository({ root, store, repoId: 'fixture', workers: 0, changedPaths: ['src/shop/util.py'] });
    expect(deleted.walked).toBe(false);
    expect(deleted.files).toMatchObject({ discovered: 7, deleted: 1 });
    await expectSameAsFullIndex(store);
  });

  it('walks when a changed path is not an indexed file, and leaves a change it was not told about to the next walk', async () => {
    const store = createMemoryStore();
    await index(store);
    await writeFile(path.join(root, 'src/shop/coupons.py'), 'def apply_coupon(order, code):\n    return order\n');
    const added = await indexRepository({ root, store, repoId: 'fixture', workers: 0, changedPaths: ['src/shop/coupons.py'] });
    expect(added.walked).toBe(true);
    expect(added.files).toMatchObject({ discovered: 9, parsed: 1 });
    await expectSameAsFullIndex(store);

    await edit('src/shop/util.py', (text) => `${text}\n\ndef round_price(value):\n    return round(value, 2)\n`);
    expect((await indexRepository({ root, store, repoId: 'fixture', workers: 0, changedPaths: ['src/shop/service.py'] })).files).toMatchObject({ parsed: 0 });
    const walked = await index(store);
    expect(walked.walked).toBe(true);
    expect(walked.files).toMatchObject({ parsed: 1 });
    await expectSameAsFullIndex(store);
  });

  it('records a body-only edit as a small delta of the state, folded back once it grows', async () => {
    const store = createMemoryStore();
    await index(store);
    const whole = await store.getNote('indexer:state');
    const bodyEdit = (file: string, from: string, to: string): Promise<void> => edit(file, (text) => text.replace(from, to));
    await bodyEdit('src/shop/service.py', 'return util.format_price(order.total())', 'self.reorder(1)\n        return util.format_price(order.total())');
    expect((await index(store)).files).toMatchObject({ parsed: 1, resolved: 1 });
    expect(await store.getNote('indexer:state')).toBe(whole);
    expect(Object.keys(deltaFiles(await store.getNote('indexer:state-delta')))).toEqual(['src/shop/service.py']);
    await expectSameAsFullIndex(store);

    // The delta keeps every file that differs from the state note, not only this run's.
    await edit('tests/test_service.py', (text) => text.replace('    store.put(1, "x")\n', '    store.put(1, "x")\n    store.dump()\n'));
    expect((await index(store)).files).toMatchObject({ parsed: 1, resolved: 1 });
    expect(Object.keys(deltaFiles(await store.getNote('indexer:state-delta'))).sort()).toEqual(['src/shop/service.py', 'tests/test_service.py']);
    await expectSameAsFullIndex(store);

    // A third file is more than a quarter of the 8: the state is rewritten whole.
    await edit('src/shop/util.py', (text) => `${text}\n# touched\n`);
    expect((await index(store)).files).toMatchObject({ parsed: 1 });
    expect(await store.getNote('indexer:state')).not.toBe(whole);
    expect(await store.getNote('indexer:state-delta')).toBeUndefined();
    expect((await index(store)).files).toMatchObject({ parsed: 0, written: 0 });
    await expectSameAsFullIndex(store);
  });

  it('ignores a delta left behind by a run that died after rewriting the whole state', async () => {
    const store = createMemoryStore();
    await index(store);
    await edit('src/shop/service.py', (text) => text.replace('return util.format_price(order.total())', 'self.reorder(1)\n        return util.format_price(order.total())'));
    await index(store);
    expect(await store.getNote('indexer:state-delta')).toBeDefined();
    // A new file makes the next state whole; the run dies before dropping the delta.
    await writeFile(path.join(root, 'src/shop/extra.py'), 'def extra():\n    return 1\n');
    const failing: GraphStore = Object.create(store, {
      deleteNote: {
        value: async (key: string) => {
          if (key === 'indexer:state-delta') throw new Error('killed');
          return store.deleteNote(key);
        },
      },
    });
    await expect(indexRepository({ root, store: failing, repoId: 'fixture', workers: 0 })).rejects.toThrow('killed');
    await edit('src/shop/service.py', (text) => text.replace('self.reorder(1)\n        ', ''));
    expect((await index(store)).files).toMatchObject({ parsed: 1 });
    await expectSameAsFullIndex(store);
  });

  it('recovers when a run died between its write and its state note', async () => {
    const store = createMemoryStore();
    await index(store);
    await edit('src/shop/models.py', (text) => text.replace('class Order:', 'class Order(Product):'));
    const failing: GraphStore = Object.create(store, {
      putNote: {
        value: async (key: string, kind: string, value: Uint8Array, snapshot?: string | null) => {
          // The state goes out whole or as a delta: either write dies.
          if (key === 'indexer:state' || key === 'indexer:state-delta') throw new Error('killed');
          return store.putNote(key, kind, value, snapshot);
        },
      },
    });
    await expect(indexRepository({ root, store: failing, repoId: 'fixture', workers: 0 })).rejects.toThrow('killed');
    await edit('src/shop/models.py', (text) => text.replace('class Order(Product):', 'class Order:'));
    const summary = await index(store);
    // The state no longer matches the stored snapshot, so every owner is rewritten.
    expect(summary.files.written).toBe(8);
    await expectSameAsFullIndex(store);
  });

  it('parses an unchanged file again when its cached extraction is gone and every file must be re-resolved', async () => {
    const store = createMemoryStore();
    await index(store);
    await store.deleteNote('extraction:src/shop/util.py');
    await edit('src/shop/storage/base.py', (text) => text.replace('def put(', 'def store(').replace('def get(', 'def put(').replace('def store(', 'def get('));
    const summary = await index(store);
    expect(summary.files).toMatchObject({ parsed: 2, resolved: 8 });
    expect(await store.getNote('extraction:src/shop/util.py')).toBeDefined();
    await expectSameAsFullIndex(store);
  });

  it('re-indexes everything with full, and after the repo id changes (reusing the extractions)', async () => {
    const store = createMemoryStore();
    await index(store);
    const full = await indexRepository({ root, store, repoId: 'fixture', workers: 0, full: true });
    expect(full.files.parsed).toBe(8);
    const other = await indexRepository({ root, store, repoId: 'other', workers: 0 });
    // Extractions do not depend on the id: nothing is parsed again, everything is rewritten.
    expect(other.files).toMatchObject({ parsed: 0, resolved: 8, written: 8 });
    expect(other.warnings.join('\n')).toContain("the index held repository 'fixture'");
    expect((await store.repo())?.id).toBe('other');
    const fresh = createMemoryStore();
    await indexRepository({ root, store: fresh, repoId: 'other', workers: 0 });
    expect((await graphText(store)).edgeRecords).toEqual((await graphText(fresh)).edgeRecords);
  });
});

describe('incremental re-index of Ruby, Rust and C# (local names, implementations, partial types)', () => {
  const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
  let tree: string;

  afterEach(async () => {
    if (tree) await rm(tree, { recursive: true, force: true });
  });

  async function copy(fixture: string): Promise<string> {
    tree = await mkdtemp(path.join(tmpdir(), 'knowing-incremental-'));
    await cp(path.join(fixtures, fixture), tree, { recursive: true });
    return tree;
  }

  const run = (store: GraphStore): Promise<IndexSummary> => indexRepository({ root: tree, store, repoId: 'fixture', workers: 0 });

  async function expectSameAsFull(store: GraphStore): Promise<void> {
    const fresh = createMemoryStore();
    await indexRepository({ root: tree, store: fresh, repoId: 'fixture', workers: 0, full: true });
    const [actual, expected] = await Promise.all([graphText(store), graphText(fresh)]);
    expect(actual.nodeRecords).toEqual(expected.nodeRecords);
    expect(actual.edgeRecords).toEqual(expected.edgeRecords);
  }

  async function change(relative: string, replace: (text: string) => string): Promise<void> {
    const file = path.join(tree, relative);
    const before = await readFile(file, 'utf8');
    const after = replace(before);
    expect(after).not.toBe(before);
    await writeFile(file, after);
  }

  it('Ruby: keeps constant-path names and cross-file constants through the stored tables', async () => {
    await copy('ruby');
    const store = createMemoryStore();
    await run(store);
    // Body-only: resolved alone, against the tables of the other files.
    await change('lib/shop/cart.rb', (text) => text.replace('      @calculator.total(@items)', '      notify(:total)\n      @calculator.total(@items)'));
    expect((await run(store)).files).toMatchObject({ parsed: 1, resolved: 1 });
    const text = await graphText(store);
    expect(text.edges).toContain('edge calls lib/shop/cart.rb.Shop::Cart.total -> lib/shop/cart.rb.Shop::Cart.notify');
    expect(text.edges).toContain('edge calls lib/shop/cart.rb.Shop::Cart.initialize -> lib/shop/pricing/calculator.rb.Shop::Pricing::Calculator.initialize');
    await expectSameAsFull(store);
    await change('spec/shop/cart_spec.rb', (text) => text.replace('    cart.add(:apple)\n', '    cart.add(:apple)\n    cart.discount\n'));
    expect((await run(store)).files).toMatchObject({ parsed: 1, resolved: 1 });
    expect((await graphText(store)).edges).toContain('edge tests spec/shop/cart_spec.rb -> lib/shop/cart.rb.Shop::Cart.discount');
    await expectSameAsFull(store);
    // A new member of a reopened module is found from another file.
    await change('lib/shop.rb', (text) => text.replace('  def self.config', '  def self.reset\n  end\n\n  def self.config'));
    await change('lib/shop/cart.rb', (text) => text.replace('      notify(:total)\n', '      Shop.reset\n'));
    expect((await run(store)).files.parsed).toBe(2);
    expect((await graphText(store)).edges).toContain('edge calls lib/shop/cart.rb.Shop::Cart.total -> lib/shop.rb.Shop.reset');
    await expectSameAsFull(store);
  });

  it('Rust: keeps a cross-file implementation through body-only edits of either file, and drops it with the impl', async () => {
    await copy('rust');
    const store = createMemoryStore();
    await run(store);
    const implementsLine = 'edge implements crates/inventory/src/store/mod.rs.MemStore -> crates/inventory/src/model.rs.Describe';
    await change('crates/inventory/src/report.rs', (text) => text.replace('"{} games"', '"{} games in store"'));
    expect((await run(store)).files).toMatchObject({ parsed: 1, resolved: 1 });
    expect((await graphText(store)).edges).toContain(implementsLine);
    await expectSameAsFull(store);
    await change('crates/inventory/src/store/mod.rs', (text) => text.replace('self.index.count(&Kind::Book)', 'self.index.count(&Kind::Book) + 0'));
    expect((await run(store)).files).toMatchObject({ parsed: 1, resolved: 1 });
    expect((await graphText(store)).edges).toContain(implementsLine);
    await expectSameAsFull(store);
    await change('crates/inventory/src/report.rs', (text) => text.replace(/impl Describe for MemStore \{[\s\S]*?\n\}\n/, ''));
    const summary = await run(store);
    expect(summary.files.parsed).toBe(1);
    const text = await graphText(store);
    expect(text.edges).not.toContain(implementsLine);
    expect(text.edges.filter((line) => line.startsWith('edge inherits crates/inventory/src/store/mod.rs.MemStore -> crates/inventory/src/model.rs'))).toEqual([]);
    await expectSameAsFull(store);
  });

  it('C#: resolves into the other part of a partial class after a body-only edit of one part', async () => {
    await copy('csharp');
    const store = createMemoryStore();
    await run(store);
    await change('src/Acme.Billing/InvoiceService.Validation.cs', (text) => text.replace('&& _store.Exists(invoice.Id);', '&& _store.Exists(invoice.Id) && CreateCalculator() != null;'));
    expect((await run(store)).files).toMatchObject({ parsed: 1, resolved: 1 });
    expect((await graphText(store)).edges).toContain(
      'edge calls src/Acme.Billing/InvoiceService.Validation.cs.InvoiceService.Validate -> src/Acme.Billing/InvoiceService.cs.InvoiceService.CreateCalculator',
    );
    await expectSameAsFull(store);
  });
});
