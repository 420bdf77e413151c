import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rustLanguage } from '../src/languages/rust.js';
import type { FileExtraction, ImportDecl, ProjectLayout } from '../src/languages/types.js';
import { createParser, withTree } from '../src/parser.js';
import { extractFile as extractTask } from '../src/extract.js';
import { def, extractFile, sourceFiles, t, testDef, use } from './helpers/extraction.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'rust');
const CRATE = 'crates/inventory';

function extract(relative: string): Promise<FileExtraction> {
  return extractFile(rustLanguage, root, relative);
}

/** The fixture as the core would present it: its Rust files. */
async function fixtureLayout(): Promise<ProjectLayout> {
  const files = await sourceFiles(root, '.rs');
  const dirOf = (file: string): string => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '');
  return {
    hasFile: (file) => files.includes(file),
    filesInDirectory: (dir) => files.filter((file) => dirOf(file) === dir),
    goModulePath: undefined,
    filesInNamespace: () => [],
  };
}

const imp = (source: string, ...names: string[]): ImportDecl => ({ source, names: names.map((name) => ({ imported: name, local: name })), line: 1 });

const resolve = async (from: string, decl: ImportDecl) => rustLanguage.resolveImport(decl, `${CRATE}/${from}`, await fixtureLayout());

describe('rust extraction', () => {
  it('turns `mod x;` into imports, flattens `pub use` trees into re-exports and names the crate root `crate`', async () => {
    const out = await extract(`${CRATE}/src/lib.rs`);
    expect(out.symbols).toEqual([
      def({ name: 'open', kind: 'function', startLine: 10, endLine: 12, signature: 'pub fn open() -> MemStore', doc: 'Opens a store with the default capacity.', typeHints: [t('MemStore')] }), // 0
    ]);
    expect(out.references).toEqual([
      use('call', t('new', 'MemStore'), 0, 11),
      use('call', t('default_capacity', 'util'), 0, 11),
    ]);
    expect(out.imports).toEqual([
      { source: 'self::model', names: [], moduleAlias: 'model', line: 2 },
      { source: 'self::report', names: [], moduleAlias: 'report', line: 3 },
      { source: 'self::store', names: [], moduleAlias: 'store', line: 4 },
      { source: 'self::util', names: [], moduleAlias: 'util', line: 5 },
      { source: 'crate::store', names: [{ imported: 'MemStore', local: 'MemStore' }, { imported: 'Store', local: 'ItemStore' }], reexport: true, line: 7 },
    ]);
    expect(out.namespace).toBe('crate');
    expect(out.syntaxErrors).toBe(0);
  });

  it('records `impl Trait for T` on a struct of the same file, trait members with default methods, and `new -> Self` as a constructor', async () => {
    const out = await extract(`${CRATE}/src/model.rs`);
    expect(out.symbols).toEqual([
      def({ name: 'Item', kind: 'struct', startLine: 5, endLine: 9, signature: 'pub struct Item', doc: 'One stored thing.', decorators: [t('derive')] }), // 0
      def({ name: 'key', kind: 'field', scope: ['Item'], startLine: 7, endLine: 7, signature: 'pub key: String', doc: 'Unique key.', parent: 0 }), // 1
      def({ name: 'kind', kind: 'field', scope: ['Item'], startLine: 8, endLine: 8, signature: 'pub kind: Kind', parent: 0, typeHints: [t('Kind')], valueType: t('Kind') }), // 2
      def({ name: 'Kind', kind: 'enum', startLine: 13, endLine: 16, signature: 'pub enum Kind', doc: 'What an item is.', decorators: [t('derive')] }), // 3
      def({ name: 'Book', kind: 'constant', scope: ['Kind'], startLine: 14, endLine: 14, signature: 'Book', parent: 3 }), // 4
      def({ name: 'Game', kind: 'constant', scope: ['Kind'], startLine: 15, endLine: 15, signature: 'Game { players: u8 }', parent: 3 }), // 5
      def({ name: 'Describe', kind: 'trait', startLine: 19, endLine: 26, signature: 'pub trait Describe', doc: 'Something that can describe itself.' }), // 6
      def({ name: 'describe', kind: 'method', scope: ['Describe'], startLine: 20, endLine: 20, signature: 'fn describe(&self) -> String', parent: 6 }), // 7
      def({ name: 'headline', kind: 'method', scope: ['Describe'], startLine: 23, endLine: 25, signature: 'fn headline(&self) -> String', doc: 'The description, shouted.', parent: 6 }), // 8
      def({ name: 'describe', kind: 'method', scope: ['Item'], startLine: 29, endLine: 31, signature: 'fn describe(&self) -> String' }), // 9
      def({ name: 'new', kind: 'constructor', scope: ['Item'], startLine: 35, endLine: 37, signature: 'pub fn new(key: &str, kind: Kind) -> Self', typeHints: [t('Kind'), t('Item')] }), // 10
      def({ name: 'is_game', kind: 'method', scope: ['Item'], startLine: 39, endLine: 41, signature: 'pub fn is_game(&self) -> bool' }), // 11
      def({ name: 'fmt', kind: 'method', scope: ['Item'], startLine: 45, endLine: 47, signature: 'fn fmt(&self, f: &mut fmt::Formatter<\'_>) -> fmt::Result' }), // 12
    ]);
    expect(out.references).toEqual([
      use('call', t('describe', 'self'), 8, 24, t('Describe')),
      use('field', t('key', 'self'), 9, 30, t('Item')),
      use('field', t('kind', 'self'), 9, 30, t('Item')),
      use('new', t('Item'), 10, 36),
      use('field', t('kind', 'self'), 11, 40, t('Item')),
      use('field', t('key', 'self'), 12, 46, t('Item')),
    ]);
    expect(out.imports).toEqual([
      { source: 'std', names: [{ imported: 'fmt', local: 'fmt' }], line: 1 },
    ]);
    // `impl fmt::Display for Item` implements a std trait: left out.
    expect(out.implementations).toEqual([{ type: t('Item'), trait: t('Describe'), line: 28 }]);
    expect(out.namespace).toBe('crate::model');
    expect(out.syntaxErrors).toBe(0);
  });

  it('records `impl Trait for T` of a type from another file as an implementation', async () => {
    const out = await extract(`${CRATE}/src/report.rs`);
    expect(out.symbols).toEqual([
      def({ name: 'describe', kind: 'method', scope: ['MemStore'], startLine: 5, endLine: 7, signature: 'fn describe(&self) -> String' }), // 0
      def({ name: 'report', kind: 'function', startLine: 11, endLine: 13, signature: 'pub fn report(stores: &[MemStore]) -> Vec<String>', doc: 'Describes every store.', typeHints: [t('MemStore')] }), // 1
    ]);
    expect(out.references).toEqual([
      use('call', t('games', 'self'), 0, 6, t('MemStore')),
      use('call', t('describe', 'store'), 1, 12),
    ]);
    expect(out.implementations).toEqual([{ type: t('MemStore'), trait: t('Describe'), line: 4 }]);
    expect(out.imports).toEqual([
      { source: 'crate::model', names: [{ imported: 'Describe', local: 'Describe' }], line: 1 },
      { source: 'crate::store', names: [{ imported: 'MemStore', local: 'MemStore' }], line: 2 },
    ]);
    expect(out.namespace).toBe('crate::report');
    expect(out.syntaxErrors).toBe(0);
  });

  it('scopes items of inline modules under the module, resolves self::/super:: paths, and extracts macro_rules! macros, their invocations and re-export', async () => {
    const out = await extract(`${CRATE}/src/util.rs`);
    expect(out.symbols).toEqual([
      def({ name: 'default_capacity', kind: 'function', startLine: 2, endLine: 5, signature: 'pub(crate) fn default_capacity() -> usize', doc: 'Capacity of a new store.' }), // 0
      def({ name: 'checkpoint', kind: 'function', startLine: 7, endLine: 11, signature: 'macro_rules! checkpoint', exported: false }), // 1
      def({ name: 'text', kind: 'module', startLine: 14, endLine: 24, signature: 'pub mod text' }), // 2
      def({ name: 'pad', kind: 'function', scope: ['text'], startLine: 16, endLine: 18, signature: 'pub fn pad(s: &str, width: usize) -> String', doc: 'Pads `s` to `width` characters.', parent: 2 }), // 3
      def({ name: 'pad_default', kind: 'function', scope: ['text'], startLine: 21, endLine: 23, signature: 'pub fn pad_default(s: &str) -> String', doc: 'Pads `s` to the default capacity.', parent: 2 }), // 4
    ]);
    expect(out.references).toEqual([
      use('call', t('checkpoint'), 0, 3),
      // `self::pad` is `pad` of the current module; `super::` becomes absolute from the module path.
      use('call', t('pad'), 4, 22),
      use('call', t('default_capacity', 'crate', 'util'), 4, 22),
    ]);
    expect(out.imports).toEqual([
      { source: 'self', names: [{ imported: 'checkpoint', local: 'checkpoint' }], reexport: true, line: 12 },
    ]);
    expect(out.namespace).toBe('crate::util');
    expect(out.syntaxErrors).toBe(0);
  });

  it('types self, its fields, locals and constructor results; drops std calls; marks #[cfg(test)] modules as tests', async () => {
    const out = await extract(`${CRATE}/src/store/mod.rs`);
    expect(out.symbols).toEqual([
      def({ name: 'MAX_ITEMS', kind: 'constant', startLine: 7, endLine: 7, signature: 'pub const MAX_ITEMS: usize = 1024' }), // 0
      def({ name: 'StoreError', kind: 'enum', startLine: 10, endLine: 13, signature: 'pub enum StoreError', decorators: [t('derive')] }), // 1
      def({ name: 'Full', kind: 'constant', scope: ['StoreError'], startLine: 11, endLine: 11, signature: 'Full', parent: 1 }), // 2
      def({ name: 'Missing', kind: 'constant', scope: ['StoreError'], startLine: 12, endLine: 12, signature: 'Missing(String)', parent: 1 }), // 3
      def({ name: 'Result', kind: 'type_alias', startLine: 15, endLine: 15, signature: 'pub type Result<T> = std::result::Result<T, StoreError>', typeHints: [t('StoreError')] }), // 4
      def({ name: 'Store', kind: 'trait', startLine: 18, endLine: 30, signature: 'pub trait Store', doc: 'Reads and writes items.' }), // 5
      def({ name: 'get', kind: 'method', scope: ['Store'], startLine: 19, endLine: 19, signature: 'fn get(&self, key: &str) -> Option<&Item>', parent: 5, typeHints: [t('Item')] }), // 6
      def({ name: 'put', kind: 'method', scope: ['Store'], startLine: 21, endLine: 21, signature: 'fn put(&mut self, item: Item) -> Result<()>', parent: 5, typeHints: [t('Item')] }), // 7
      def({ name: 'put_all', kind: 'method', scope: ['Store'], startLine: 24, endLine: 29, signature: 'fn put_all(&mut self, items: Vec<Item>) -> Result<()>', doc: 'Puts every item, stopping at the first error.', parent: 5, typeHints: [t('Item')] }), // 8
      def({ name: 'MemStore', kind: 'struct', startLine: 33, endLine: 37, signature: 'pub struct MemStore', doc: 'A store in memory.' }), // 9
      def({ name: 'items', kind: 'field', scope: ['MemStore'], startLine: 34, endLine: 34, signature: 'items: HashMap<String, Item>', parent: 9, exported: false, typeHints: [t('Item')] }), // 10
      def({ name: 'index', kind: 'field', scope: ['MemStore'], startLine: 35, endLine: 35, signature: 'index: Index', parent: 9, exported: false, typeHints: [t('Index')], valueType: t('Index') }), // 11
      def({ name: 'capacity', kind: 'field', scope: ['MemStore'], startLine: 36, endLine: 36, signature: 'capacity: usize', parent: 9, exported: false }), // 12
      def({ name: 'new', kind: 'constructor', scope: ['MemStore'], startLine: 40, endLine: 42, signature: 'pub fn new(capacity: usize) -> Self', typeHints: [t('MemStore')] }), // 13
      def({ name: 'games', kind: 'method', scope: ['MemStore'], startLine: 44, endLine: 46, signature: 'pub fn games(&self) -> usize' }), // 14
      def({ name: 'get', kind: 'method', scope: ['MemStore'], startLine: 50, endLine: 52, signature: 'fn get(&self, key: &str) -> Option<&Item>', typeHints: [t('Item')] }), // 15
      def({ name: 'put', kind: 'method', scope: ['MemStore'], startLine: 54, endLine: 61, signature: 'fn put(&mut self, item: Item) -> Result<()>', typeHints: [t('Item')] }), // 16
      def({ name: 'tests', kind: 'module', startLine: 65, endLine: 74, signature: 'mod tests', isTest: true, exported: false }), // 17
      def({ name: 'put_then_get', kind: 'function', scope: ['tests'], startLine: 69, endLine: 73, signature: 'fn put_then_get()', isTest: true, parent: 17, exported: false, decorators: [t('test')] }), // 18
    ]);
    expect(out.references).toEqual([
      use('call', t('put', 'self'), 8, 26, t('Store')),
      use('new', t('MemStore'), 13, 41),
      use('call', t('default', 'Index'), 13, 41),
      use('call', t('count', 'self', 'index'), 14, 45, t('MemStore')),
      use('field', t('index', 'self'), 14, 45, t('MemStore')),
      use('value', t('Book', 'Kind'), 14, 45),
      use('field', t('items', 'self'), 15, 51, t('MemStore')),
      use('field', t('items', 'self'), 16, 55, t('MemStore')),
      use('field', t('capacity', 'self'), 16, 55, t('MemStore')),
      use('value', t('MAX_ITEMS'), 16, 55),
      use('raise', t('StoreError'), 16, 56),
      use('value', t('Full', 'StoreError'), 16, 56),
      use('call', t('add', 'self', 'index'), 16, 58, t('MemStore')),
      use('field', t('index', 'self'), 16, 58, t('MemStore')),
      use('call', t('new', 'MemStore'), 18, 70),
      use('call', t('put', 'store'), 18, 71, t('MemStore')),
      use('call', t('new', 'Item'), 18, 71),
      use('value', t('Book', 'Kind'), 18, 71),
      use('call', t('get', 'store'), 18, 72, t('MemStore')),
    ]);
    expect(out.imports).toEqual([
      { source: 'self::index', names: [], moduleAlias: 'index', line: 1 },
      { source: 'self::index', names: [{ imported: 'Index', local: 'Index' }], line: 3 },
      { source: 'crate::model', names: [{ imported: 'Item', local: 'Item' }, { imported: 'Kind', local: 'Kind' }], line: 4 },
      { source: 'std::collections', names: [{ imported: 'HashMap', local: 'HashMap' }], line: 5 },
      { source: 'self', names: [{ imported: '*', local: '*' }], line: 66 },
    ]);
    expect(out.implementations).toEqual([{ type: t('MemStore'), trait: t('Store'), line: 49 }]);
    expect(out.namespace).toBe('crate::store');
    expect(out.syntaxErrors).toBe(0);
  });

  it('types parameters declared as references and names a nested module file by its path', async () => {
    const out = await extract(`${CRATE}/src/store/index.rs`);
    expect(out.symbols).toEqual([
      def({ name: 'Index', kind: 'struct', startLine: 5, endLine: 7, signature: 'pub struct Index', doc: 'Keys by kind.', decorators: [t('derive')] }), // 0
      def({ name: 'games', kind: 'field', scope: ['Index'], startLine: 6, endLine: 6, signature: 'games: Vec<String>', parent: 0, exported: false }), // 1
      def({ name: 'add', kind: 'method', scope: ['Index'], startLine: 10, endLine: 14, signature: 'pub fn add(&mut self, item: &Item)', typeHints: [t('Item')] }), // 2
      def({ name: 'count', kind: 'method', scope: ['Index'], startLine: 16, endLine: 21, signature: 'pub fn count(&self, kind: &Kind) -> usize', typeHints: [t('Kind')] }), // 3
    ]);
    expect(out.references).toEqual([
      use('call', t('is_game', 'item'), 2, 11, t('Item')),
      use('field', t('games', 'self'), 2, 12, t('Index')),
      use('field', t('games', 'self'), 3, 18, t('Index')),
    ]);
    expect(out.imports).toEqual([
      { source: 'crate::model', names: [{ imported: 'Item', local: 'Item' }, { imported: 'Kind', local: 'Kind' }], line: 1 },
    ]);
    expect(out.namespace).toBe('crate::store::index');
    expect(out.syntaxErrors).toBe(0);
  });

  it('marks every symbol of an integration test file as a test and makes it a crate root', async () => {
    const out = await extract(`${CRATE}/tests/roundtrip.rs`);
    expect(out.symbols).toEqual([
      testDef({ name: 'stores_and_reads_back', kind: 'function', startLine: 5, endLine: 9, signature: 'fn stores_and_reads_back()', exported: false, decorators: [t('test')] }), // 0
    ]);
    expect(out.references).toEqual([
      use('call', t('open'), 0, 6),
      use('call', t('put', 'store'), 0, 7),
      use('call', t('new', 'Item'), 0, 7),
      use('value', t('Book', 'Kind'), 0, 7),
      use('call', t('get', 'store'), 0, 8),
    ]);
    expect(out.imports).toEqual([
      { source: 'inventory::model', names: [{ imported: 'Item', local: 'Item' }, { imported: 'Kind', local: 'Kind' }], line: 1 },
      { source: 'inventory', names: [{ imported: 'open', local: 'open' }, { imported: 'ItemStore', local: 'ItemStore' }], line: 2 },
    ]);
    expect(out.namespace).toBe('crate');
    expect(out.syntaxErrors).toBe(0);
  });

  it('counts the errors the parser recovered from', async () => {
    const out = await extract('testdata/broken.rs');
    expect(out.syntaxErrors).toBeGreaterThan(0);
    expect(out.symbols.map((s) => s.name)).toEqual(['half', 'ok']);
  });
});

describe('rust module', () => {
  it('claims .rs files and recognises test files by path', () => {
    expect(rustLanguage.extensions).toEqual(['.rs']);
    expect(rustLanguage.grammarFor('src/lib.rs')).toBe('rust');
    expect(rustLanguage.isTestFile('crates/inventory/tests/roundtrip.rs')).toBe(true);
    expect(rustLanguage.isTestFile('src/store/tests.rs')).toBe(true);
    expect(rustLanguage.isTestFile('src/parser_test.rs')).toBe(true);
    expect(rustLanguage.isTestFile('src/testing.rs')).toBe(false);
  });
});

describe('rust implementations', () => {
  async function extractSource(file: string, source: string): Promise<FileExtraction> {
    const parser = await createParser(rustLanguage.grammarFor(file));
    return withTree(parser, source, (tree) => rustLanguage.extract(tree.rootNode, source, file));
  }

  it('names types of inline modules through the module, and leaves out std traits and blanket impls', async () => {
    const out = await extractSource(
      'src/shapes.rs',
      [
        'use crate::geo::Area;',
        'mod round {',
        '    pub struct Circle;',
        '    impl super::Area for Circle {}',
        '    impl Shape for Circle {}',
        '    impl std::fmt::Debug for Circle {}',
        '}',
        'impl<T: Area> Shape for T {}',
        'impl Area for crate::geo::Square {}',
        'impl Area for Vec<u8> {}',
      ].join('\n'),
    );
    expect(out.implementations).toEqual([
      // `super::Area` inside `mod round`: the file's own `Area`
      { type: t('Circle', 'round'), trait: t('Area'), line: 4 },
      { type: t('Circle', 'round'), trait: t('Shape'), line: 5 },
      { type: t('Square', 'crate', 'geo'), trait: t('Area'), line: 9 },
      { type: t('Vec'), trait: t('Area'), line: 10 },
    ]);
  });

  it('bumped its version, so cached extractions without implementations (2) or parsed around `str!` (3) are redone', () => {
    expect(rustLanguage.version).toBe('4');
  });
});

describe('rust import resolution', () => {
  it('walks crate:: paths through module files, stopping at the item', async () => {
    expect(await resolve('src/store/index.rs', imp('crate::model', 'Item', 'Kind'))).toEqual({ files: [`${CRATE}/src/model.rs`] });
    expect(await resolve('src/lib.rs', imp('crate::store', 'MemStore'))).toEqual({ files: [`${CRATE}/src/store/mod.rs`] });
    expect(await resolve('src/report.rs', imp('crate::store::MemStore'))).toEqual({ files: [`${CRATE}/src/store/mod.rs`] });
  });

  it('adds the file of an imported name that is itself a module', async () => {
    expect(await resolve('src/report.rs', imp('crate', 'store', 'open'))).toEqual({
      files: [`${CRATE}/src/lib.rs`, `${CRATE}/src/store/mod.rs`],
    });
    expect(await resolve('src/report.rs', imp('crate', 'store'))).toEqual({ files: [`${CRATE}/src/store/mod.rs`] });
  });

  it('maps self:: and super:: from mod.rs and from non-mod files', async () => {
    expect(await resolve('src/lib.rs', { ...imp('self::model'), moduleAlias: 'model' })).toEqual({ files: [`${CRATE}/src/model.rs`] });
    expect(await resolve('src/store/mod.rs', { ...imp('self::index'), moduleAlias: 'index' })).toEqual({ files: [`${CRATE}/src/store/index.rs`] });
    expect(await resolve('src/store/mod.rs', imp('self', '*'))).toEqual({ files: [`${CRATE}/src/store/mod.rs`] });
    expect(await resolve('src/store/index.rs', imp('super', 'MemStore'))).toEqual({ files: [`${CRATE}/src/store/mod.rs`] });
    expect(await resolve('src/store/index.rs', imp('super::super::model', 'Item'))).toEqual({ files: [`${CRATE}/src/model.rs`] });
    // No src/report/detail.rs: `detail` is an item of report.rs itself.
    expect(await resolve('src/report.rs', imp('self::detail', 'Row'))).toEqual({ files: [`${CRATE}/src/report.rs`] });
  });

  it('resolves a module of the current module named without a prefix (2018 paths)', async () => {
    expect(await resolve('src/lib.rs', imp('store', 'MemStore'))).toEqual({ files: [`${CRATE}/src/store/mod.rs`] });
  });

  it('finds workspace crates by name, folding - and _', async () => {
    expect(await resolve('tests/roundtrip.rs', imp('inventory::model', 'Item'))).toEqual({ files: [`${CRATE}/src/model.rs`] });
    expect(await resolve('tests/roundtrip.rs', imp('inventory', 'open'))).toEqual({ files: [`${CRATE}/src/lib.rs`] });
  });

  it('names std, core and alloc `std` and other crates by their name', async () => {
    expect(await resolve('src/model.rs', imp('std', 'fmt'))).toEqual({ files: [], external: 'std' });
    expect(await resolve('src/model.rs', imp('core::fmt', 'Debug'))).toEqual({ files: [], external: 'std' });
    expect(await resolve('src/model.rs', imp('serde', 'Serialize'))).toEqual({ files: [], external: 'serde' });
    expect(await resolve('src/model.rs', imp('::tokio::sync', 'Mutex'))).toEqual({ files: [], external: 'tokio' });
  });
});

describe('rust module paths', () => {
  it('computes the namespace from the path below the crate root directory', async () => {
    const namespaceOf = async (file: string) => (await extract(file)).namespace;
    expect(await namespaceOf(`${CRATE}/src/lib.rs`)).toBe('crate');
    expect(await namespaceOf(`${CRATE}/src/store/mod.rs`)).toBe('crate::store');
    expect(await namespaceOf(`${CRATE}/src/store/index.rs`)).toBe('crate::store::index');
    expect(await namespaceOf(`${CRATE}/tests/roundtrip.rs`)).toBe('crate');
  });
});

describe('rust text the grammar stumbles over', () => {
  it('parses a macro named like a primitive type (snapbox `str!`) without a syntax error, keeping the calls after it', async () => {
    const source = [
      '#[test]',
      'fn reports_version() {',
      '    let out = run_cli();',
      '    out.with_stderr_data(str![[r#"',
      'version 1.0',
      '"#]]);',
      '    check_exit(out);',
      '}',
      '',
      'fn differs(a: u8, str: u8) -> bool {',
      '    a != str && str!=a',
      '}',
      '',
    ].join('\n');
    const result = await extractTask({ path: 'tests/cli.rs', absolutePath: '/virtual/tests/cli.rs', language: 'rust', timeoutMs: 10_000 }, [rustLanguage], () => Buffer.from(source));
    const extraction = result.extraction!;
    expect(extraction.syntaxErrors).toBe(0);
    const calls = extraction.references.filter((reference) => reference.kind === 'call').map((reference) => `${reference.name}:${reference.line}`);
    expect(calls).toEqual(expect.arrayContaining(['run_cli:3', 'check_exit:7']));
    // Names are read from the file: the macro is still `str`, the parameter still `str`.
    expect(extraction.symbols.map((symbol) => symbol.signature)).toContain('fn differs(a: u8, str: u8) -> bool');
  });
});
