import { cp, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GraphStore } from '@knowing/graph';
import { discoverFiles, indexRepository } from '../src/index.js';
import type { IndexOptions, IndexSummary } from '../src/index.js';
import { graphText } from './helpers/graph-text.js';
import { createMemoryStore } from './helpers/memory-store.js';

const shop = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'python', 'shop');

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'knowing-robustness-'));
  await cp(shop, root, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function index(store: GraphStore, extra: Partial<IndexOptions> = {}): Promise<IndexSummary> {
  return indexRepository({ root, store, repoId: 'fixture', workers: 0, ...extra });
}

async function edit(relative: string, change: (text: string) => string): Promise<void> {
  const file = path.join(root, relative);
  await writeFile(file, change(await readFile(file, 'utf8')));
}

async function symbolsOf(store: GraphStore, file: string): Promise<string[]> {
  return (await store.nodesInFile(file)).filter((node) => node.kind !== 'file').map((node) => node.name).sort();
}

describe('an abort signal that fires between tasks, as Ctrl-C does', () => {
  for (const phase of ['parse', 'resolve'] as const) {
    it(`stops the run during ${phase} and writes nothing`, async () => {
      const store = createMemoryStore();
      await index(store);
      const before = await graphText(store);
      const batches = store.batches;
      // A new definition: a symbol table changes, so every file is resolved again.
      await edit('src/shop/models.py', (text) => text.replace('def total(self)', 'def grand_total(self)'));
      const controller = new AbortController();
      let scheduled = false;
      const run = index(store, {
        signal: controller.signal,
        // A signal handler runs on a later turn of the event loop, never inside synchronous work.
        onProgress: (event) => {
          if (event.phase !== phase || scheduled) return;
          scheduled = true;
          setImmediate(() => controller.abort());
        },
      });
      await expect(run).rejects.toMatchObject({ name: 'AbortError' });
      expect(store.batches).toBe(batches);
      expect((await graphText(store)).edgeRecords).toEqual(before.edgeRecords);
    });
  }
});

describe('deeply nested code', () => {
  const nested = (open: string, close: string, inner = ''): string => `${`${open}\n`.repeat(5_000)}${inner}${`${close}\n`.repeat(5_000)}`;

  it('keeps the definitions before and after 5,000 nested brackets, in Python, JavaScript and Java', async () => {
    await writeFile(path.join(root, 'src/shop/deep.py'), `def before():\n    return 1\n\n\nTABLE = ${nested('[', ']')}\n\ndef after():\n    return 2\n`);
    await writeFile(path.join(root, 'src/shop/deep.js'), `export function before() {\n  return 1;\n}\n\nexport const TABLE = ${nested('[', ']')};\n\nexport function after() {\n  return 2;\n}\n`);
    await writeFile(path.join(root, 'src/shop/Deep.java'), `class Deep {\n  int before() { return 1; }\n\n  int value = ${nested('(', ')', '1')};\n\n  int after() { return 2; }\n}\n`);
    const store = createMemoryStore();
    const summary = await index(store);
    expect(await symbolsOf(store, 'src/shop/deep.py')).toEqual(['TABLE', 'after', 'before']);
    expect(await symbolsOf(store, 'src/shop/deep.js')).toEqual(['TABLE', 'after', 'before']);
    expect(await symbolsOf(store, 'src/shop/Deep.java')).toEqual(['Deep', 'after', 'before', 'value']);
    for (const file of ['src/shop/deep.py', 'src/shop/deep.js', 'src/shop/Deep.java']) {
      expect(summary.warnings.find((warning) => warning.startsWith(`${file}: nested more than`))).toMatch(/the code below that depth was not indexed/);
    }
    // A cut is no syntax error of the file.
    expect(summary.syntaxErrors).toEqual([]);
  });
});

describe('a same-size edit whose mtime was set back', () => {
  it('is noticed through the ctime, and a ctime change alone parses nothing', async () => {
    const file = path.join(root, 'src/shop/util.py');
    const past = new Date('2024-01-01T00:00:00Z');
    await utimes(file, past, past);
    const store = createMemoryStore();
    await index(store);
    expect(await symbolsOf(store, 'src/shop/util.py')).toContain('format_price');

    // Same length, same mtime (as a tool restoring timestamps leaves it): only the ctime moved.
    await edit('src/shop/util.py', (text) => text.replace('def format_price(', 'def format_pryce('));
    await utimes(file, past, past);
    const edited = await index(store);
    expect(edited.files.parsed).toBe(1);
    expect(await symbolsOf(store, 'src/shop/util.py')).toContain('format_pryce');

    // Setting the times (like a chmod) moves the ctime alone: the file is read again, found
    // unchanged, and its new ctime remembered.
    await utimes(file, past, past);
    expect((await index(store)).files.parsed).toBe(0);
    expect((await index(store)).files).toMatchObject({ parsed: 0, written: 0 });
  });
});

describe('an ignore file with a pattern too long to compile', () => {
  it('skips that pattern with a one-line warning and applies the others', async () => {
    await writeFile(path.join(root, '.gitignore'), `# generated\n${'x'.repeat(100_000)}\ntests/\n`);
    const discovery = await discoverFiles({ root, accept: (file) => file.endsWith('.py') });
    expect(discovery.warnings).toEqual(['.gitignore:2: ignore pattern of 100000 characters skipped (the limit is 4096)']);
    expect(discovery.files.map((file) => file.path)).not.toContain('tests/test_service.py');
    expect(discovery.skipped).toContainEqual({ path: 'tests/', reason: 'ignored' });

    const summary = await index(createMemoryStore());
    expect(summary.warnings).toEqual(['.gitignore:2: ignore pattern of 100000 characters skipped (the limit is 4096)']);
  });
});
