import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { goLanguage } from '../src/languages/go.js';
import type { FileExtraction, ImportDecl, ProjectLayout } from '../src/languages/types.js';
import { def, extractFile, sourceFiles, t, testDef, use } from './helpers/extraction.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'go');
const MODULE = 'example.com/shop';

function extract(relative: string): Promise<FileExtraction> {
  return extractFile(goLanguage, root, relative);
}

/** The fixture as the core would present it: Go files, go.mod's module path, Go namespaces. */
async function fixtureLayout(goModulePath = MODULE): Promise<ProjectLayout> {
  const files = await sourceFiles(root, '.go');
  const dirOf = (file: string): string => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '');
  return {
    hasFile: (file) => files.includes(file),
    filesInDirectory: (dir) => files.filter((file) => dirOf(file) === dir),
    goModulePath,
    filesInNamespace: (namespace) => files.filter((file) => (dirOf(file) ? `${goModulePath}/${dirOf(file)}` : goModulePath) === namespace),
  };
}

const imp = (source: string, moduleAlias?: string): ImportDecl => ({ source, names: [], ...(moduleAlias ? { moduleAlias } : {}), line: 1 });

describe('go extraction', () => {
  it('extracts methods under their receiver type, embedded structs and interfaces as supertypes, iota groups and receiver fields', async () => {
    const out = await extract('store/store.go');
    expect(out.symbols).toEqual([
      def({ name: 'Kind', kind: 'type_alias', startLine: 10, endLine: 10, signature: 'type Kind int', doc: 'Kind tells items apart.' }), // 0
      def({ name: 'KindBook', kind: 'constant', startLine: 13, endLine: 13, signature: 'KindBook Kind = iota', typeHints: [t('Kind')], valueType: t('Kind') }), // 1
      def({ name: 'KindGame', kind: 'constant', startLine: 14, endLine: 14, signature: 'KindGame', typeHints: [t('Kind')], valueType: t('Kind') }), // 2
      def({ name: 'ErrMissing', kind: 'variable', startLine: 19, endLine: 19, signature: 'var ErrMissing = errors.New("missing")', doc: 'ErrMissing is returned for unknown keys.' }), // 3
      def({ name: 'Item', kind: 'struct', startLine: 22, endLine: 25, signature: 'type Item struct', doc: 'Item is one stored thing.' }), // 4
      def({ name: 'Key', kind: 'field', scope: ['Item'], startLine: 23, endLine: 23, signature: 'Key string', parent: 4 }), // 5
      def({ name: 'Kind', kind: 'field', scope: ['Item'], startLine: 24, endLine: 24, signature: 'Kind Kind', parent: 4, typeHints: [t('Kind')], valueType: t('Kind') }), // 6
      def({ name: 'Reader', kind: 'interface', startLine: 28, endLine: 31, signature: 'type Reader interface', doc: 'Reader reads items.' }), // 7
      def({ name: 'Get', kind: 'method', scope: ['Reader'], startLine: 30, endLine: 30, signature: 'Get(key string) (*Item, error)', doc: 'Get returns the item stored under key.', parent: 7, typeHints: [t('Item')] }), // 8
      def({ name: 'Store', kind: 'interface', startLine: 34, endLine: 37, signature: 'type Store interface', doc: 'Store reads and writes items.', supertypes: [{ ...t('Reader'), relation: 'extends' }] }), // 9
      def({ name: 'Put', kind: 'method', scope: ['Store'], startLine: 36, endLine: 36, signature: 'Put(item *Item) error', parent: 9, typeHints: [t('Item')] }), // 10
      def({ name: 'MemStore', kind: 'struct', startLine: 40, endLine: 45, signature: 'type MemStore struct', doc: 'MemStore is a Store in memory.', supertypes: [{ ...t('Base'), relation: 'extends' }] }), // 11
      def({ name: 'mu', kind: 'field', scope: ['MemStore'], startLine: 42, endLine: 42, signature: 'mu sync.Mutex', parent: 11, exported: false, typeHints: [t('Mutex', 'sync')], valueType: t('Mutex', 'sync') }), // 12
      def({ name: 'items', kind: 'field', scope: ['MemStore'], startLine: 43, endLine: 43, signature: 'items map[string]*Item', parent: 11, exported: false, typeHints: [t('Item')] }), // 13
      def({ name: 'index', kind: 'field', scope: ['MemStore'], startLine: 44, endLine: 44, signature: 'index *Index', parent: 11, exported: false, typeHints: [t('Index')], valueType: t('Index') }), // 14
      def({ name: 'Index', kind: 'struct', startLine: 48, endLine: 48, signature: 'type Index struct', doc: 'Index finds keys by kind.' }), // 15
      def({ name: 'Add', kind: 'method', scope: ['Index'], startLine: 51, endLine: 51, signature: 'func (x *Index) Add(key string, kind Kind)', doc: 'Add remembers a key.', typeHints: [t('Kind')] }), // 16
      def({ name: 'NewMemStore', kind: 'function', startLine: 54, endLine: 56, signature: 'func NewMemStore() *MemStore', doc: 'NewMemStore returns an empty store.', typeHints: [t('MemStore')] }), // 17
      def({ name: 'Get', kind: 'method', scope: ['MemStore'], startLine: 59, endLine: 68, signature: 'func (s *MemStore) Get(key string) (*Item, error)', doc: 'Get implements Reader.', typeHints: [t('Item')] }), // 18
      def({ name: 'Put', kind: 'method', scope: ['MemStore'], startLine: 71, endLine: 78, signature: 'func (s *MemStore) Put(item *Item) error', doc: 'Put implements Store.', typeHints: [t('Item')] }), // 19
      def({ name: 'InvalidItem', kind: 'struct', startLine: 81, endLine: 83, signature: 'type InvalidItem struct', doc: 'InvalidItem is raised for items that cannot be stored.' }), // 20
      def({ name: 'Reason', kind: 'field', scope: ['InvalidItem'], startLine: 82, endLine: 82, signature: 'Reason string', parent: 20 }), // 21
      def({ name: 'Error', kind: 'method', scope: ['InvalidItem'], startLine: 85, endLine: 85, signature: 'func (e InvalidItem) Error() string' }), // 22
    ]);
    expect(out.references).toEqual([
      use('call', t('New', 'errors'), 3, 19),
      use('new', t('MemStore'), 17, 55),
      use('new', t('Base'), 17, 55),
      use('type', t('Item'), 17, 55),
      use('new', t('Index'), 17, 55),
      use('call', t('Lock', 's', 'mu'), 18, 60, t('MemStore')),
      use('call', t('Unlock', 's', 'mu'), 18, 61, t('MemStore')),
      use('call', t('Touch', 's'), 18, 62, t('MemStore')),
      use('field', t('items', 's'), 18, 63, t('MemStore')),
      use('value', t('ErrMissing'), 18, 65),
      use('raise', t('InvalidItem'), 19, 73),
      use('field', t('items', 's'), 19, 75, t('MemStore')),
      use('call', t('Add', 's', 'index'), 19, 76, t('MemStore')),
      use('field', t('index', 's'), 19, 76, t('MemStore')),
      use('field', t('Reason', 'e'), 22, 85, t('InvalidItem')),
    ]);
    expect(out.imports).toEqual([
      { source: 'errors', names: [], moduleAlias: 'errors', line: 5 },
      { source: 'sync', names: [], moduleAlias: 'sync', line: 6 },
    ]);
    expect(out.namespace).toBe('');
    expect(out.syntaxErrors).toBe(0);
  });

  it('types calls through the receiver, its fields, locals, same-file results, New<T> and type switches', async () => {
    const out = await extract('api/handler.go');
    expect(out.symbols).toEqual([
      def({ name: 'HandlerFunc', kind: 'type_alias', startLine: 12, endLine: 12, signature: 'type HandlerFunc func(w http.ResponseWriter, r *http.Request) error', doc: 'HandlerFunc serves one request.', typeHints: [t('ResponseWriter', 'http'), t('Request', 'http')] }), // 0
      def({ name: 'Server', kind: 'struct', startLine: 15, endLine: 19, signature: 'type Server struct', doc: 'Server answers item requests.' }), // 1
      def({ name: 'store', kind: 'field', scope: ['Server'], startLine: 16, endLine: 16, signature: 'store store.Store', parent: 1, exported: false, typeHints: [t('Store', 'store')], valueType: t('Store', 'store') }), // 2
      def({ name: 'mem', kind: 'field', scope: ['Server'], startLine: 17, endLine: 17, signature: 'mem *store.MemStore', parent: 1, exported: false, typeHints: [t('MemStore', 'store')], valueType: t('MemStore', 'store') }), // 3
      def({ name: 'logger', kind: 'field', scope: ['Server'], startLine: 18, endLine: 18, signature: 'logger *Logger', parent: 1, exported: false, typeHints: [t('Logger')], valueType: t('Logger') }), // 4
      def({ name: 'Logger', kind: 'struct', startLine: 22, endLine: 22, signature: 'type Logger struct', doc: 'Logger writes lines.' }), // 5
      def({ name: 'Printf', kind: 'method', scope: ['Logger'], startLine: 25, endLine: 25, signature: 'func (l *Logger) Printf(format string, args ...any)', doc: 'Printf formats a line.' }), // 6
      def({ name: 'NewServer', kind: 'function', startLine: 28, endLine: 30, signature: 'func NewServer(st store.Store) *Server', doc: 'NewServer wires a server over st.', typeHints: [t('Store', 'store'), t('Server')] }), // 7
      def({ name: 'ServeHTTP', kind: 'method', scope: ['Server'], startLine: 33, endLine: 47, signature: 'func (srv *Server) ServeHTTP(w http.ResponseWriter, r *http.Request)', doc: 'ServeHTTP implements http.Handler.', typeHints: [t('ResponseWriter', 'http'), t('Request', 'http')] }), // 8
      def({ name: 'reply', kind: 'method', scope: ['Server'], startLine: 49, endLine: 53, signature: 'func (srv *Server) reply(w http.ResponseWriter, item *store.Item)', exported: false, typeHints: [t('ResponseWriter', 'http'), t('Item', 'store')] }), // 9
      def({ name: 'Encoder', kind: 'interface', startLine: 56, endLine: 58, signature: 'type Encoder interface', doc: 'Encoder encodes values.' }), // 10
      def({ name: 'Encode', kind: 'method', scope: ['Encoder'], startLine: 57, endLine: 57, signature: 'Encode(v any) error', parent: 10 }), // 11
      def({ name: 'yamlEncoder', kind: 'struct', startLine: 60, endLine: 60, signature: 'type yamlEncoder struct', exported: false }), // 12
      def({ name: 'Encode', kind: 'method', scope: ['yamlEncoder'], startLine: 62, endLine: 62, signature: 'func (yamlEncoder) Encode(v any) error' }), // 13
    ]);
    expect(out.references).toEqual([
      use('new', t('Server'), 7, 29),
      use('call', t('NewMemStore', 'store'), 7, 29),
      use('new', t('Logger'), 7, 29),
      use('call', t('Get', 'srv', 'store'), 8, 34, t('Server')),
      use('field', t('store', 'srv'), 8, 34, t('Server')),
      use('call', t('Error', 'http'), 8, 36),
      use('value', t('StatusNotFound', 'http'), 8, 36),
      use('call', t('Printf', 'srv', 'logger'), 8, 39, t('Server')),
      use('call', t('NewServer'), 8, 40),
      use('call', t('reply', 'out'), 8, 41, t('Server')),
      use('type', t('Encoder'), 8, 42),
      use('new', t('yamlEncoder'), 8, 42),
      use('type', t('yamlEncoder'), 8, 44),
      use('call', t('Encode', 'v'), 8, 45, t('yamlEncoder')),
      use('call', t('Encode', 'json.NewEncoder()'), 9, 50, t('Encoder', 'json')),
      use('call', t('NewEncoder', 'json'), 9, 50),
      use('call', t('Marshal', 'yaml'), 9, 51),
      use('call', t('Put', 'srv', 'mem'), 9, 52, t('Server')),
      use('field', t('mem', 'srv'), 9, 52, t('Server')),
    ]);
    expect(out.imports).toEqual([
      { source: 'encoding/json', names: [], moduleAlias: 'json', line: 4 },
      { source: 'net/http', names: [], moduleAlias: 'http', line: 5 },
      { source: 'example.com/shop/store', names: [], moduleAlias: 'store', line: 7 },
      { source: 'gopkg.in/yaml.v3', names: [], moduleAlias: 'yaml', line: 8 },
    ]);
    expect(out.namespace).toBe('');
    expect(out.syntaxErrors).toBe(0);
  });

  it('records field accesses through the receiver with the receiver type', async () => {
    const out = await extract('store/base.go');
    expect(out.symbols).toEqual([
      def({ name: 'Base', kind: 'struct', startLine: 6, endLine: 9, signature: 'type Base struct', doc: 'Base carries bookkeeping shared by every store.' }), // 0
      def({ name: 'Created', kind: 'field', scope: ['Base'], startLine: 7, endLine: 7, signature: 'Created time.Time', parent: 0, typeHints: [t('Time', 'time')], valueType: t('Time', 'time') }), // 1
      def({ name: 'hits', kind: 'field', scope: ['Base'], startLine: 8, endLine: 8, signature: 'hits int', parent: 0, exported: false }), // 2
      def({ name: 'Touch', kind: 'method', scope: ['Base'], startLine: 12, endLine: 14, signature: 'func (b *Base) Touch()', doc: 'Touch records one access.' }), // 3
    ]);
    expect(out.references).toEqual([
      use('field', t('hits', 'b'), 3, 13, t('Base')),
    ]);
    expect(out.imports).toEqual([
      { source: 'time', names: [], moduleAlias: 'time', line: 3 },
    ]);
    expect(out.namespace).toBe('');
    expect(out.syntaxErrors).toBe(0);
  });

  it('binds blank and versioned imports, and keeps compiler directives out of docs', async () => {
    const out = await extract('api/config.go');
    expect(out.symbols).toEqual([
      def({ name: 'defaults', kind: 'variable', startLine: 10, endLine: 10, signature: 'var defaults string', exported: false }), // 0
      def({ name: 'Config', kind: 'struct', startLine: 13, endLine: 15, signature: 'type Config struct', doc: 'Config holds the server settings.' }), // 1
      def({ name: 'Addr', kind: 'field', scope: ['Config'], startLine: 14, endLine: 14, signature: 'Addr string', parent: 1 }), // 2
      def({ name: 'LoadConfig', kind: 'function', startLine: 18, endLine: 22, signature: 'func LoadConfig() (Config, error)', doc: 'LoadConfig reads the settings from the environment.', typeHints: [t('Config')] }), // 3
    ]);
    expect(out.references).toEqual([
      use('type', t('Config'), 3, 19),
      use('call', t('Parse', 'env'), 3, 20),
    ]);
    expect(out.imports).toEqual([
      { source: 'embed', names: [], moduleAlias: '_', line: 4 },
      { source: 'github.com/caarlos0/env/v11', names: [], moduleAlias: 'env', line: 6 },
    ]);
    expect(out.namespace).toBe('');
    expect(out.syntaxErrors).toBe(0);
  });

  it('marks every symbol of a _test.go file as a test and records dot imports as wildcards', async () => {
    const out = await extract('api/handler_test.go');
    expect(out.symbols).toEqual([
      testDef({ name: 'TestServeHTTP', kind: 'function', startLine: 9, endLine: 12, signature: 'func TestServeHTTP(t *testing.T)', typeHints: [t('T', 'testing')] }), // 0
      testDef({ name: 'BenchmarkServe', kind: 'function', startLine: 14, endLine: 18, signature: 'func BenchmarkServe(b *testing.B)', typeHints: [t('B', 'testing')] }), // 1
      testDef({ name: 'helper', kind: 'function', startLine: 20, endLine: 20, signature: 'func helper(tb testing.TB)', exported: false, typeHints: [t('TB', 'testing')] }), // 2
    ]);
    expect(out.references).toEqual([
      use('call', t('NewServer'), 0, 10),
      use('call', t('NewMemStore'), 0, 10),
      use('call', t('reply', 'srv'), 0, 11, t('Server')),
      use('new', t('Item'), 0, 11),
      use('call', t('helper'), 1, 16),
    ]);
    expect(out.imports).toEqual([
      { source: 'testing', names: [], moduleAlias: 'testing', line: 4 },
      { source: 'example.com/shop/store', names: [{ imported: '*', local: '*' }], line: 6 },
    ]);
    expect(out.namespace).toBe('');
    expect(out.syntaxErrors).toBe(0);
  });

  it('counts the errors the parser recovered from', async () => {
    const out = await extract('testdata/broken.go');
    expect(out.syntaxErrors).toBe(1);
    expect(out.symbols.map((s) => s.name)).toEqual(['Half', 'Ok']);
  });
});

describe('go module', () => {
  it('claims .go files and recognises _test.go files', () => {
    expect(goLanguage.extensions).toEqual(['.go']);
    expect(goLanguage.grammarFor('api/handler.go')).toBe('go');
    expect(goLanguage.isTestFile('api/handler_test.go')).toBe(true);
    expect(goLanguage.isTestFile('api/testing.go')).toBe(false);
  });
});

describe('go import resolution', () => {
  it('maps an import of the module to the non-test files of its directory', async () => {
    const project = await fixtureLayout();
    expect(goLanguage.resolveImport(imp('example.com/shop/store', 'store'), 'api/handler.go', project)).toEqual({
      files: ['store/base.go', 'store/store.go'],
    });
    expect(goLanguage.resolveImport(imp('example.com/shop/api', 'api'), 'main.go', project)).toEqual({
      files: ['api/config.go', 'api/handler.go'],
    });
  });

  it('finds a package by its namespace when the module path does not cover it', async () => {
    const project = await fixtureLayout();
    const other: ProjectLayout = { ...project, goModulePath: 'example.com/other', filesInNamespace: project.filesInNamespace };
    expect(goLanguage.resolveImport(imp('example.com/shop/store'), 'api/handler.go', other)).toEqual({
      files: ['store/base.go', 'store/store.go'],
    });
  });

  it('leaves an import of a missing directory of the module unresolved but internal', async () => {
    const project = await fixtureLayout();
    expect(goLanguage.resolveImport(imp('example.com/shop/internal/gone'), 'api/handler.go', project)).toEqual({ files: [] });
  });

  it('names external packages: std for the standard library, the repository for hosted modules', async () => {
    const project = await fixtureLayout();
    const external = (source: string): string | undefined => goLanguage.resolveImport(imp(source), 'api/handler.go', project).external;
    expect(external('net/http')).toBe('std');
    expect(external('fmt')).toBe('std');
    expect(external('github.com/caarlos0/env/v11')).toBe('github.com/caarlos0/env');
    expect(external('github.com/go-chi/chi/v5/middleware')).toBe('github.com/go-chi/chi');
    expect(external('golang.org/x/net/http2')).toBe('golang.org/x/net');
    expect(external('gopkg.in/yaml.v3')).toBe('gopkg.in/yaml.v3');
    expect(external('go.uber.org/zap/zapcore')).toBe('go.uber.org/zap');
  });

  it('treats module paths as external when there is no go.mod and no namespace holds them', async () => {
    const project: ProjectLayout = { ...(await fixtureLayout()), goModulePath: undefined, filesInNamespace: () => [] };
    expect(goLanguage.resolveImport(imp('example.com/shop/store'), 'api/handler.go', project)).toEqual({
      files: [],
      external: 'example.com/shop',
    });
  });
});
