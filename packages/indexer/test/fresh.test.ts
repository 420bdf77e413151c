import { readFileSync as realReadFileSync } from 'node:fs';
import { cp, mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isKnowingError } from '@knowing/graph';
import type { GraphStore } from '@knowing/graph';
import { BUILTIN_LANGUAGES, createLanguageRegistry, indexRepository } from '../src/index.js';
import { checkFreshness, sourceFileFilter, staleFileCount } from '../src/fresh.js';
import type { FreshnessReport } from '../src/fresh.js';
import { createMemoryStore } from './helpers/memory-store.js';

// Every synchronous file read of the code under test goes through this spy, so a test can
// tell which files a check read.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const readFileSync = vi.fn(actual.readFileSync);
  const readdirSync = vi.fn(actual.readdirSync);
  return { ...actual, readFileSync, readdirSync, default: { ...actual, readFileSync, readdirSync } };
});
const { readFileSync: readSpy, readdirSync: listSpy } = vi.mocked(await import('node:fs'));

const HERE = path.dirname(fileURLToPath(import.meta.url));
const shop = path.join(HERE, 'fixtures', 'python', 'shop');

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'knowing-fresh-'));
  await cp(shop, root, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function index(store: GraphStore, languages?: readonly string[]): ReturnType<typeof indexRepository> {
  return indexRepository({ root, store, repoId: 'fixture', workers: 0, ...(languages ? { languages } : {}) });
}

/** Repo-relative paths of the source files under the root that `check` read (ignore files are read on every walk). */
async function filesRead(check: () => Promise<FreshnessReport>): Promise<{ report: FreshnessReport; read: string[] }> {
  readSpy.mockClear();
  const report = await check();
  const isSource = sourceFileFilter();
  const read = readSpy.mock.calls
    .map(([file]) => String(file))
    .filter((file) => file.startsWith(root + path.sep))
    .map((file) => path.relative(root, file).split(path.sep).join('/'))
    .filter(isSource);
  return { report, read };
}

/** Give every directory an old mtime, as in a checkout that is not being edited: their listings become reusable. */
async function ageDirectories(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) if (entry.isDirectory()) await ageDirectories(path.join(dir, entry.name));
  const past = new Date('2024-01-01T00:00:00Z');
  await utimes(dir, past, past);
}

describe('checkFreshness', () => {
  it('finds nothing stale right after an index run, without reading a single source file', async () => {
    const store = createMemoryStore();
    const summary = await index(store);
    const { report, read } = await filesRead(() => checkFreshness({ root, store }));
    expect(report).toMatchObject({ discovered: summary.files.discovered, changed: [], added: [], deleted: [], touched: [], hashed: 0, stateUsable: true });
    expect(staleFileCount(report)).toBe(0);
    expect(read).toEqual([]);
  });

  it('reports changed, added and deleted files, reading only the changed and the new one', async () => {
    const store = createMemoryStore();
    await index(store);
    await writeFile(path.join(root, 'src/shop/util.py'), (await readFile(path.join(root, 'src/shop/util.py'), 'utf8')).replace('def format_price', '# edited\ndef format_price'));
    await writeFile(path.join(root, 'src/shop/coupons.py'), 'def redeem(code):\n    return code.upper()\n');
    await rm(path.join(root, 'src/shop/storage/memory.py'));
    const { report, read } = await filesRead(() => checkFreshness({ root, store }));
    expect(report).toMatchObject({ changed: ['src/shop/util.py'], added: ['src/shop/coupons.py'], deleted: ['src/shop/storage/memory.py'], touched: [], hashed: 2 });
    expect(staleFileCount(report)).toBe(3);
    expect(read.sort()).toEqual(['src/shop/coupons.py', 'src/shop/util.py']);
    // The check writes nothing: the same answer again, and an index run then finds the same files.
    expect((await checkFreshness({ root, store })).changed).toEqual(['src/shop/util.py']);
    const summary = await index(store);
    expect(summary.files).toMatchObject({ parsed: 2, deleted: 1 });
    expect(staleFileCount(await checkFreshness({ root, store }))).toBe(0);
  });

  it('calls a file whose times moved but whose content did not touched, not changed', async () => {
    const store = createMemoryStore();
    await index(store);
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(root, 'src/shop/models.py'), later, later);
    const report = await checkFreshness({ root, store });
    expect(report).toMatchObject({ changed: [], added: [], deleted: [], touched: ['src/shop/models.py'], hashed: 1 });
    // An index run records the new times: the next check reads nothing.
    await index(store);
    expect(await checkFreshness({ root, store })).toMatchObject({ touched: [], hashed: 0 });
  });

  it('reuses the stored directory listings: an unchanged tree is not listed again', async () => {
    const store = createMemoryStore();
    await ageDirectories(root);
    await index(store);
    listSpy.mockClear();
    expect(await checkFreshness({ root, store })).toMatchObject({ changed: [], added: [], deleted: [] });
    expect(listSpy.mock.calls.map(([dir]) => String(dir)).filter((dir) => dir.startsWith(root))).toEqual([]);
    // A new file moves its directory's mtime: that directory is listed again and the file found.
    await writeFile(path.join(root, 'src/shop/storage/disk.py'), 'class DiskStorage:\n    pass\n');
    expect((await checkFreshness({ root, store })).added).toEqual(['src/shop/storage/disk.py']);
  });

  it('covers the languages the index was built with', async () => {
    const store = createMemoryStore();
    await writeFile(path.join(root, 'src/shop/tool.go'), 'package shop\n\nfunc Tool() int { return 1 }\n');
    await index(store, ['py']);
    expect(await checkFreshness({ root, store, languages: ['python'] })).toMatchObject({ added: [], deleted: [] });
    // Checked for every language, the Go file is one the index lacks.
    expect((await checkFreshness({ root, store })).added).toEqual(['src/shop/tool.go']);
    await expect(checkFreshness({ root, store, languages: ['cobol'] })).rejects.toSatisfy((error) => isKnowingError(error, 'UNKNOWN_LANGUAGE'));
  });

  it('reads the stats note alone when it is current, and the state when it is not (an older index, a run killed before writing it)', async () => {
    const store = createMemoryStore();
    await index(store);
    const keysRead: string[] = [];
    const getNote = store.getNote.bind(store);
    store.getNote = async (key) => {
      keysRead.push(key);
      return getNote(key);
    };
    await writeFile(path.join(root, 'src/shop/util.py'), '# emptied\n');
    expect(await checkFreshness({ root, store })).toMatchObject({ stateUsable: true, changed: ['src/shop/util.py'], hashed: 1 });
    expect(keysRead).not.toContain('indexer:state');

    // Stamped with an earlier snapshot, the stats note no longer stands for the state: the check
    // reads the state, and finds the same.
    const stats = (await getNote('indexer:file-stats'))!;
    await store.putNote('indexer:file-stats', stats.kind, stats.value, 'an-earlier-snapshot');
    keysRead.length = 0;
    expect(await checkFreshness({ root, store })).toMatchObject({ stateUsable: true, changed: ['src/shop/util.py'], hashed: 1 });
    expect(keysRead).toContain('indexer:state');
    await store.deleteNote('indexer:file-stats');
    expect(await checkFreshness({ root, store })).toMatchObject({ stateUsable: true, changed: ['src/shop/util.py'], hashed: 1 });

    // The next index run writes it again, with the edit's stat and hash.
    await index(store);
    keysRead.length = 0;
    expect(await checkFreshness({ root, store })).toMatchObject({ stateUsable: true, changed: [], touched: [], hashed: 0 });
    expect(keysRead).not.toContain('indexer:state');
  });

  it('without a usable indexer state, hashes every file and compares it with the stored records', async () => {
    const store = createMemoryStore();
    const summary = await index(store);
    await store.deleteNote('indexer:state');
    await store.deleteNote('indexer:file-stats');
    await writeFile(path.join(root, 'src/shop/util.py'), '# emptied\n');
    const report = await checkFreshness({ root, store });
    expect(report).toMatchObject({ stateUsable: false, changed: ['src/shop/util.py'], added: [], deleted: [], hashed: summary.files.discovered });
    // Unchanged content is not stale, whatever the times say.
    expect(report.touched).toHaveLength(summary.files.discovered - 1);
  });

  it('on an empty store, every source file is new', async () => {
    const report = await checkFreshness({ root, store: createMemoryStore() });
    expect(report.stateUsable).toBe(false);
    expect(report.added).toContain('src/shop/util.py');
    expect(report.added).toHaveLength(report.discovered);
  });
});

describe('sourceFileFilter', () => {
  it('accepts exactly the paths the language registry has a module for, for every language and alias', () => {
    const extensions = BUILTIN_LANGUAGES.flatMap((module) => module.extensions);
    const paths = [
      ...extensions.flatMap((extension) => [`src/a${extension}`, `A${extension.toUpperCase()}`, `dir.x/b${extension}`]),
      'README',
      '.py',
      'src/.go',
      'notes.txt',
      'a.py.bak',
      'Makefile',
    ];
    const choices: (readonly string[] | undefined)[] = [
      undefined,
      [],
      ...BUILTIN_LANGUAGES.map((module) => [module.id]),
      ['py'],
      ['ts'],
      ['tsx'],
      ['js'],
      ['jsx'],
      ['golang'],
      ['rs'],
      ['rb'],
      ['cs'],
      ['c#'],
      [' Python ', 'GO'],
    ];
    for (const languages of choices) {
      const registry = createLanguageRegistry(languages ? { languages } : {});
      const accept = sourceFileFilter(languages);
      for (const file of paths) expect(accept(file), `${file} with ${JSON.stringify(languages)}`).toBe(registry.forPath(file) !== undefined);
    }
  });

  it('throws UNKNOWN_LANGUAGE as the registry does', () => {
    expect(() => sourceFileFilter(['python', 'fortran'])).toThrow(/^\[knowing:indexer\] unknown language "fortran" — known languages: csharp, go, java, javascript, python, ruby, rust, typescript/);
    try {
      sourceFileFilter(['fortran']);
      expect.unreachable();
    } catch (error) {
      expect(isKnowingError(error, 'UNKNOWN_LANGUAGE')).toBe(true);
    }
  });
});

describe('@knowing/indexer/fresh', () => {
  it('imports neither the parser runtime, the language modules, the resolver nor the tables\' codec (statically, from its sources)', () => {
    const src = path.resolve(HERE, '..', 'src');
    const seen = new Set<string>();
    const external = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = realReadFileSync(file, 'utf8');
      // Type-only imports are erased; everything else is loaded with the module.
      for (const match of text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)';/gms)) {
        const specifier = match[1]!;
        if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')));
        else external.add(specifier);
      }
    };
    visit(path.join(src, 'fresh.ts'));
    const local = [...seen].map((file) => path.relative(src, file).split(path.sep).join('/'));
    expect(local.filter((file) => file.startsWith('languages/') || ['parser.ts', 'fast-node.ts', 'extract.ts', 'indexer.ts', 'pool.ts', 'resolve.ts', 'codec.ts', 'state.ts'].includes(file))).toEqual([]);
    expect([...external].filter((name) => name.includes('tree-sitter'))).toEqual([]);
  });

  it('is a subpath export of the package, types first', async () => {
    const manifest = JSON.parse(realReadFileSync(path.resolve(HERE, '..', 'package.json'), 'utf8')) as {
      exports: Record<string, Record<string, string>>;
      publishConfig: { exports: Record<string, Record<string, string>> };
    };
    for (const exports of [manifest.exports, manifest.publishConfig.exports]) {
      expect(Object.keys(exports['./fresh']!).filter((key) => key !== '@knowing/source')[0]).toBe('types');
      expect(exports['./fresh']!['import']).toBe('./dist/fresh.js');
    }
  });
});
