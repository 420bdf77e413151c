import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GraphEdge, GraphNode } from '@knowing/graph';
import { indexRepository } from '../src/index.js';
import { pythonLanguage } from '../src/languages/python.js';
import type { FileExtraction, ImportDecl, ProjectLayout, SymbolDef } from '../src/languages/types.js';
import { createParser, withTree } from '../src/parser.js';
import { readGraph } from './helpers/fixture-graph.js';
import { edgesOfType } from './helpers/graph-text.js';
import type { GraphText } from './helpers/graph-text.js';
import { createMemoryStore } from './helpers/memory-store.js';
import { SHOP_EDGES, SHOP_NODES } from './python-shop.expected.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'python');
const shop = path.join(fixtures, 'shop');

async function extract(relative: string, root = shop): Promise<FileExtraction> {
  const source = await readFile(path.join(root, relative), 'utf8');
  const parser = await createParser('python');
  return withTree(parser, source, (tree) => pythonLanguage.extract(tree.rootNode, source, relative));
}

function symbol(extraction: FileExtraction, qualified: string): SymbolDef {
  const found = extraction.symbols.find((s) => [...s.scope, s.name].join('.') === qualified);
  if (!found) throw new Error(`no symbol ${qualified}`);
  return found;
}

function layout(files: readonly string[]): ProjectLayout {
  const set = new Set(files);
  return {
    hasFile: (file) => set.has(file),
    filesInDirectory: (dir) => files.filter((file) => path.posix.dirname(file) === (dir || '.')),
    goModulePath: undefined,
    filesInNamespace: () => [],
    filesEndingWith: (suffix) => files.filter((file) => file === suffix || file.endsWith('/' + suffix)).sort((a, b) => a.length - b.length),
  };
}

const imp = (source: string, names: string[] = []): ImportDecl => ({
  source,
  names: names.map((name) => ({ imported: name, local: name })),
  line: 1,
});

describe('python extraction', () => {
  it('merges a property and its setter into one property spanning both', async () => {
    const models = await extract('src/shop/models.py');
    const price = models.symbols.filter((s) => s.name === 'price');
    expect(price).toHaveLength(1);
    expect(price[0]).toMatchObject({ kind: 'property', scope: ['Product'], startLine: 23, endLine: 30, doc: 'The price, formatted.' });
  });

  it('names nested classes and functions by their enclosing scopes', async () => {
    const models = await extract('src/shop/models.py');
    expect(symbol(models, 'Order.Line')).toMatchObject({ kind: 'class', scope: ['Order'] });
    expect(symbol(models, 'Order.Line.subtotal')).toMatchObject({ kind: 'method', scope: ['Order', 'Line'] });
    expect(symbol(models, 'Order.total.line_total')).toMatchObject({ kind: 'function', exported: false });
  });

  it('classifies constructors, enums and their members, fields and module constants', async () => {
    const models = await extract('src/shop/models.py');
    expect(symbol(models, 'Order.__init__').kind).toBe('constructor');
    expect(symbol(models, 'Status').kind).toBe('enum');
    expect(symbol(models, 'Status.OPEN').kind).toBe('constant');
    expect(symbol(models, 'Product.sku').kind).toBe('field');
    const util = await extract('src/shop/util.py');
    expect(symbol(util, 'DEFAULT_CURRENCY').kind).toBe('constant');
    expect(symbol(util, 'logger').kind).toBe('variable');
  });

  it('declares fields from self assignments in __init__, typed from parameters and annotations', async () => {
    const service = await extract('src/shop/service.py');
    expect(symbol(service, 'OrderService.store')).toMatchObject({ kind: 'field', valueType: { name: 'BaseStore', qualifier: [] } });
    const models = await extract('src/shop/models.py');
    expect(symbol(models, 'Order.Line.product').valueType).toEqual({ name: 'Product', qualifier: [] });
    expect(symbol(models, 'Order.lines').typeHints).toEqual([{ name: 'Line', qualifier: ['Order'] }]);
  });

  it('unwraps Optional/List annotations to the named types and drops builtins', async () => {
    const service = await extract('src/shop/service.py');
    expect(symbol(service, 'OrderService.place').typeHints).toEqual([
      { name: 'Product', qualifier: [] },
      { name: 'Order', qualifier: [] },
    ]);
    const models = await extract('src/shop/models.py');
    expect(symbol(models, 'Order.find').typeHints).toEqual([
      { name: 'Order', qualifier: [] },
      { name: 'Status', qualifier: [] },
    ]);
  });

  it('reads only the type of Annotated[...] and forward references, not prose in metadata', async () => {
    const api = await extract('api.py', path.join(fixtures, 'annotations'));
    expect(symbol(api, 'read_item').typeHints).toEqual([
      { name: 'User', qualifier: [] },
      { name: 'Item', qualifier: [] },
    ]);
  });

  it('keeps decorators except the kind-only builtins, resolving aliases later', async () => {
    const service = await extract('src/shop/service.py');
    expect(symbol(service, 'OrderService.place').decorators).toEqual([{ name: 'log_calls', qualifier: [] }]);
    expect(symbol(service, 'OrderService.reorder').decorators).toEqual([{ name: 'retry', qualifier: ['util'] }]);
    const models = await extract('src/shop/models.py');
    expect(symbol(models, 'Order.single').decorators).toBeUndefined();
    expect(symbol(models, 'Product').decorators).toEqual([{ name: 'dataclass', qualifier: [] }]);
  });

  it('reads docstrings and declaration lines', async () => {
    const models = await extract('src/shop/models.py');
    expect(symbol(models, 'OutOfStock')).toMatchObject({ doc: 'Raised when a product cannot be reserved.', signature: 'class OutOfStock(Exception)' });
    expect(symbol(models, 'Order.add').signature).toBe('def add(self, product: Product, quantity: int = 1) -> "Order"');
  });

  it('records relative, aliased and dotted imports as written', async () => {
    const service = await extract('src/shop/service.py');
    expect(service.imports.map((i) => [i.source, i.names.map((n) => `${n.imported}:${n.local}`).join(','), i.moduleAlias ?? ''])).toEqual([
      ['typing', 'Optional:Optional', ''],
      ['.', 'util:util', ''],
      ['.models', 'Order:Order,OutOfStock:OutOfStock,Product:Product', ''],
      ['.storage.base', 'BaseStore:BaseStore', ''],
      ['.util', 'logged:log_calls', ''],
    ]);
    const tests = await extract('tests/test_service.py');
    expect(tests.imports[0]).toMatchObject({ source: 'shop.storage.memory', moduleAlias: 'mem', names: [] });
    expect(tests.namespace).toBe('tests.test_service');
  });

  it('gives calls on locals the type they were constructed or annotated with', async () => {
    const service = await extract('src/shop/service.py');
    const place = service.symbols.indexOf(symbol(service, 'OrderService.place'));
    const add = service.references.find((r) => r.from === place && r.name === 'add');
    expect(add).toMatchObject({ kind: 'call', qualifier: ['order'], receiverType: { name: 'Order', qualifier: [] } });
    const sku = service.references.find((r) => r.from === place && r.name === 'sku');
    expect(sku).toMatchObject({ kind: 'field', receiverType: { name: 'Product', qualifier: [] } });
  });

  it('flags tests by file and by name', async () => {
    const tests = await extract('tests/test_service.py');
    expect(tests.symbols.every((s) => s.isTest)).toBe(true);
    const util = await extract('src/shop/util.py');
    expect(util.symbols.some((s) => s.isTest)).toBe(false);
    expect(pythonLanguage.isTestFile('pkg/test_x.py')).toBe(true);
    expect(pythonLanguage.isTestFile('pkg/x_test.py')).toBe(true);
    expect(pythonLanguage.isTestFile('tests/helpers.py')).toBe(true);
    expect(pythonLanguage.isTestFile('pkg/testing.py')).toBe(false);
  });

  it('keeps the definitions around a syntax error', async () => {
    const broken = await extract('partial.py', path.join(fixtures, 'broken'));
    expect(broken.syntaxErrors).toBeGreaterThan(0);
    expect(broken.symbols.map((s) => s.name)).toEqual(expect.arrayContaining(['before', 'helper']));
  });
});

describe('python import resolution', () => {
  const project = layout([
    'src/shop/__init__.py',
    'src/shop/models.py',
    'src/shop/storage/__init__.py',
    'src/shop/storage/base.py',
    'lib/extra/__init__.py',
    'lib/extra/tools.py',
    'tests/json.py',
    'top.py',
  ]);

  it('resolves relative imports from the importing package', () => {
    expect(pythonLanguage.resolveImport(imp('.models'), 'src/shop/storage/base.py', project).files).toEqual([]);
    expect(pythonLanguage.resolveImport(imp('..models'), 'src/shop/storage/base.py', project).files).toEqual(['src/shop/models.py']);
    expect(pythonLanguage.resolveImport(imp('.', ['base']), 'src/shop/storage/__init__.py', project).files).toEqual(['src/shop/storage/__init__.py']);
    expect(pythonLanguage.resolveImport(imp('.storage'), 'src/shop/models.py', project).files).toEqual(['src/shop/storage/__init__.py']);
  });

  it('finds packages at the root, under src/, and under another top-level directory', () => {
    expect(pythonLanguage.resolveImport(imp('top'), 'x.py', project).files).toEqual(['top.py']);
    expect(pythonLanguage.resolveImport(imp('shop.storage.base'), 'x.py', project).files).toEqual(['src/shop/storage/base.py']);
    expect(pythonLanguage.resolveImport(imp('extra.tools'), 'x.py', project).files).toEqual(['lib/extra/tools.py']);
  });

  it('leaves the standard library and unknown packages external', () => {
    expect(pythonLanguage.resolveImport(imp('json'), 'x.py', project)).toEqual({ files: [], external: 'json' });
    expect(pythonLanguage.resolveImport(imp('requests.adapters'), 'x.py', project)).toEqual({ files: [], external: 'requests' });
  });
});

describe('python fixture graph', () => {
  let text: GraphText;
  let nodes: GraphNode[];
  let edges: GraphEdge[];

  beforeAll(async () => {
    const store = createMemoryStore();
    await indexRepository({ root: shop, store, repoId: 'fixture', workers: 0 });
    ({ text, nodes, edges } = await readGraph(store));
  });

  it('has exactly the expected nodes', () => {
    expect(text.nodes.map((line) => line.slice('node '.length))).toEqual(SHOP_NODES);
  });

  for (const [type, expected] of Object.entries(SHOP_EDGES)) {
    it(`has exactly the expected ${type} edges`, () => {
      expect(edgesOfType(text, type)).toEqual(expected);
    });
  }

  it('has no edge types beyond the expected ones and contains/member_of', () => {
    const types = new Set(text.edges.map((line) => line.split(' ')[1]));
    expect([...types].sort()).toEqual([...Object.keys(SHOP_EDGES), 'contains', 'member_of'].sort());
  });

  it('makes every definition a member of exactly one container, mirrored by contains', () => {
    const contains = new Set(edgesOfType(text, 'contains'));
    const memberOf = edgesOfType(text, 'member_of');
    const definitions = nodes.filter((node) => node.kind !== 'file' && !node.external);
    expect(memberOf).toHaveLength(definitions.length);
    for (const line of memberOf) {
      const [child, parent] = line.split(' -> ');
      expect(contains.has(`${parent} -> ${child}`)).toBe(true);
      expect(child!.startsWith(parent! + '.')).toBe(true);
    }
  });

  it('scores edges by how their target was found', () => {
    const byName = new Map(nodes.map((node) => [node.id, node.qualifiedName]));
    const find = (type: string, source: string, target: string): GraphEdge | undefined =>
      edges.find((e) => e.type === type && byName.get(e.source) === source && byName.get(e.target) === target);
    // self call found on the parent class
    expect(find('calls', 'src/shop/storage/memory.py.MemoryStore.get', 'src/shop/storage/base.py.BaseStore._key')).toMatchObject({ confidence: 0.85, provenance: 'ast_resolved' });
    // super()
    expect(find('calls', 'src/shop/storage/memory.py.CachedStore.get', 'src/shop/storage/memory.py.MemoryStore.get')?.confidence).toBe(0.9);
    // through an import alias
    expect(find('decorates', 'src/shop/util.py.logged', 'src/shop/service.py.OrderService.place')?.confidence).toBe(0.9);
    // through a field's type
    expect(find('calls', 'src/shop/service.py.OrderService.place', 'src/shop/storage/base.py.BaseStore.put')?.confidence).toBe(0.8);
    // an unknown receiver, the only method with that name
    expect(find('calls', 'src/shop/models.py.Order.total.line_total', 'src/shop/models.py.Order.Line.subtotal')).toMatchObject({ confidence: 0.5, provenance: 'ast_inferred' });
    // an external placeholder for an imported library
    expect(find('calls', 'src/shop/storage/memory.py.MemoryStore.dump', 'external:json.dumps')?.confidence).toBe(0.8);
    expect(find('overrides', 'src/shop/storage/memory.py.MemoryStore.get', 'src/shop/storage/base.py.BaseStore.get')?.provenance).toBe('derived');
  });

  it('stores nodes with lines, signatures, docs and test flags', () => {
    const order = nodes.find((node) => node.qualifiedName === 'src/shop/models.py.Order')!;
    expect(order).toMatchObject({ name: 'Order', language: 'python', file: 'src/shop/models.py', startLine: 33, doc: 'An order of several lines.', signature: 'class Order', isTest: false });
    const test = nodes.find((node) => node.qualifiedName === 'tests/test_service.py.TestDescribe.test_describe')!;
    expect(test.isTest).toBe(true);
    const external = nodes.find((node) => node.qualifiedName === 'external:json.dumps')!;
    expect(external).toMatchObject({ kind: 'external', external: true, name: 'dumps', file: '' });
  });
});
