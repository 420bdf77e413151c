/**
 * JavaScript support: exact extraction of every file of test/fixtures/javascript/legacy
 * (CommonJS, an ES5 constructor with prototype methods, `Object.defineProperty`, JSX, ES modules
 * with dynamic imports), error recovery, and the graph the core resolver builds from it.
 *
 * Lines render as in typescript.test.ts: symbols `kind scope.name start-end [exported] [in parent]
 * [extends X] …`, references `from kind qualifier.name @line [: receiverType]`, imports
 * `line import|export source {imported as local} [* as alias]`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GraphEdge } from '@knowing/graph';
import { indexRepository } from '../src/index.js';
import { javascriptLanguage } from '../src/languages/javascript.js';
import { createLanguageRegistry } from '../src/languages/registry.js';
import type { FileExtraction, ImportDecl, ProjectLayout } from '../src/languages/types.js';
import { edgesOfType, graphText } from './helpers/graph-text.js';
import { createMemoryStore } from './helpers/memory-store.js';
import { buildGraph as buildScriptGraph, edgesOf, extractFile, listFiles, render } from './helpers/script-fixture.js';
import type { Graph, Rendered } from './helpers/script-fixture.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'javascript');
const legacy = path.join(fixtures, 'legacy');

function extract(relative: string, root = legacy): Promise<FileExtraction> {
  return extractFile(javascriptLanguage, root, relative);
}

/** The graph `indexRepository` writes, assembled from the same parts: extraction, the core's resolver, its derived passes. */
function buildGraph(root: string): Promise<Graph> {
  return buildScriptGraph(root, () => javascriptLanguage);
}

// ---------------------------------------------------------------------------------------------

/** Every file of the legacy fixture, exactly. Reviewed by hand. */
const LEGACY_EXTRACTIONS: Record<string, Rendered> = {
  'lib/helpers.js': {
    symbols: [
      'function log 1-3 exported',
      'function debounce 5-11 exported',
      'function quiet 13-13 exported',
    ],
    references: [
      'quiet call log @13',
    ],
    imports: [],
  },
  'lib/index.js': {
    symbols: [
      'function createStore 10-15 exported',
    ],
    references: [
      'createStore new Store @11',
      'createStore value defaults @11',
      'createStore call store.add @12 : Store',
      'createStore call formatName @12',
      'createStore call helpers.log @13',
      'createStore call path.join @13',
    ],
    imports: [
      '17 export ./store {default as Store}',
      '2 import ./store {default as Store}',
      '3 import ./util {formatName, DEFAULTS as defaults}',
      '4 import node:path * as path',
      '5 import ./helpers * as helpers',
      '18 export ./plugins * as plugins',
    ],
  },
  'lib/loader.mjs': {
    symbols: [
      'function loader 3-6 exported',
      'function lazyPlugins 8-8 exported',
    ],
    references: [
      'loader value Counter @5',
    ],
    imports: [
      '1 import ./widget.jsx {default as Counter}',
      '4 import ./widget.jsx {Button}',
      '3 export ./loader.mjs {loader as default}',
      '8 import ./plugins/index.js',
    ],
  },
  'lib/plugins/index.js': {
    symbols: [
      'function register 1-3 exported',
    ],
    references: [
      'register call app.use @2',
    ],
    imports: [
      '2 import ./logger',
    ],
  },
  'lib/plugins/logger.cjs': {
    symbols: [
      'function logger 1-3 exported',
    ],
    references: [],
    imports: [
      '1 export ./logger.cjs {logger as default}',
    ],
  },
  'lib/store.js': {
    symbols: [
      'class Store 4-8 exported extends EventEmitter',
      'method Store.add 12-16 exported in Store',
      'method Store.size 18-20 exported in Store',
      'method Store.create 22-24 exported in Store',
      'property Store.empty 26-30 exported in Store',
      'field Store.items 6-6 exported in Store',
      'field Store.options 7-7 exported in Store',
    ],
    references: [
      'Store call EventEmitter.call @5',
      'Store field this.items @6',
      'Store field this.options @7',
      '<file> value Store @10',
      '<file> value EventEmitter @10',
      'Store.add call this.items.push @13',
      'Store.add field this.items @13',
      'Store.add call this.emit @14',
      'Store.size field this.items @19',
      'Store.create new Store @23',
      'Store.empty call this.size @28',
    ],
    imports: [
      '1 import events {default as EventEmitter}',
      '32 export ./store.js {Store as default}',
    ],
  },
  'lib/util.js': {
    symbols: [
      'constant DEFAULTS 1-1 exported',
      'function formatName 4-6 exported',
      'constant VERSION 9-9 exported',
    ],
    references: [
      'formatName call ?.trim @5',
    ],
    imports: [],
  },
  'lib/widget.jsx': {
    symbols: [
      'class Counter 5-16 exported extends Component',
      'field Counter.state 6-6 exported in Counter',
      'method Counter.increment 8-11 exported in Counter',
      'method Counter.render 13-15 exported in Counter',
      'function Button 20-26 exported',
    ],
    references: [
      'Counter.increment call this.setState @9',
      'Counter.increment field this.state @9',
      'Counter.increment call log @10',
      'Counter.render call Button @14',
      'Counter.render field this.increment @14',
      'Counter.render field this.state @14',
      '<file> value Counter.propTypes @18',
      '<file> value PropTypes.number @18',
    ],
    imports: [
      '1 import react {default as React, Component}',
      '2 import prop-types {default as PropTypes}',
      '3 import ./helpers {log}',
      '28 export ./widget.jsx {Counter as default}',
    ],
  },
  'test/store.test.js': {
    symbols: [],
    references: [
      '<file> new Store @6',
      '<file> call store.add @7 : Store',
      '<file> call assert.strictEqual @8',
      '<file> call store.size @8 : Store',
    ],
    imports: [
      '1 import node:assert * as assert',
      '2 import ../lib/store {default as Store}',
    ],
  },
};

/** The graph of the legacy fixture (repo id 'fixture'), every node and every edge except contains/member_of. */
const LEGACY_NODES = [
  'class lib/store.js.Store',
  'class lib/widget.jsx.Counter',
  'constant lib/util.js.DEFAULTS',
  'constant lib/util.js.VERSION',
  'external external:?.trim',
  'external external:Store.items.push',
  'external external:app.use',
  'external external:events.default',
  'external external:events.default.call',
  'external external:events.default.emit',
  'external external:node',
  'external external:node:assert.strictEqual',
  'external external:node:path.join',
  'external external:prop-types',
  'external external:react',
  'external external:react.Component',
  'external external:react.Component.setState',
  'field lib/store.js.Store.items',
  'field lib/store.js.Store.options',
  'field lib/widget.jsx.Counter.state',
  'file lib/helpers.js',
  'file lib/index.js',
  'file lib/loader.mjs',
  'file lib/plugins/index.js',
  'file lib/plugins/logger.cjs',
  'file lib/store.js',
  'file lib/util.js',
  'file lib/widget.jsx',
  'file test/store.test.js',
  'function lib/helpers.js.debounce',
  'function lib/helpers.js.log',
  'function lib/helpers.js.quiet',
  'function lib/index.js.createStore',
  'function lib/loader.mjs.lazyPlugins',
  'function lib/loader.mjs.loader',
  'function lib/plugins/index.js.register',
  'function lib/plugins/logger.cjs.logger',
  'function lib/util.js.formatName',
  'function lib/widget.jsx.Button',
  'method lib/store.js.Store.add',
  'method lib/store.js.Store.create',
  'method lib/store.js.Store.size',
  'method lib/widget.jsx.Counter.increment',
  'method lib/widget.jsx.Counter.render',
  'property lib/store.js.Store.empty',
];

const LEGACY_EDGES: Record<string, string[]> = {
  accesses_field: [
    'lib/store.js.Store -> lib/store.js.Store.items',
    'lib/store.js.Store -> lib/store.js.Store.options',
    'lib/store.js.Store.add -> lib/store.js.Store.items',
    'lib/store.js.Store.size -> lib/store.js.Store.items',
    'lib/widget.jsx.Counter.increment -> lib/widget.jsx.Counter.state',
    'lib/widget.jsx.Counter.render -> lib/widget.jsx.Counter.state',
  ],
  calls: [
    'lib/helpers.js.quiet -> lib/helpers.js.log',
    'lib/index.js.createStore -> external:node:path.join',
    'lib/index.js.createStore -> lib/helpers.js.log',
    'lib/index.js.createStore -> lib/store.js.Store',
    'lib/index.js.createStore -> lib/store.js.Store.add',
    'lib/index.js.createStore -> lib/util.js.formatName',
    'lib/plugins/index.js.register -> external:app.use',
    'lib/store.js.Store -> external:events.default.call',
    'lib/store.js.Store.add -> external:Store.items.push',
    'lib/store.js.Store.add -> external:events.default.emit',
    'lib/store.js.Store.create -> lib/store.js.Store',
    'lib/store.js.Store.empty -> lib/store.js.Store.size',
    'lib/util.js.formatName -> external:?.trim',
    'lib/widget.jsx.Counter.increment -> external:react.Component.setState',
    'lib/widget.jsx.Counter.increment -> lib/helpers.js.log',
    'lib/widget.jsx.Counter.render -> lib/widget.jsx.Button',
    'test/store.test.js -> external:node:assert.strictEqual',
    'test/store.test.js -> lib/store.js.Store',
    'test/store.test.js -> lib/store.js.Store.add',
    'test/store.test.js -> lib/store.js.Store.size',
  ],
  extends: [
    'lib/store.js.Store -> external:events.default',
    'lib/widget.jsx.Counter -> external:react.Component',
  ],
  imports: [
    'lib/index.js -> external:node',
    'lib/index.js -> lib/helpers.js',
    'lib/index.js -> lib/plugins/index.js',
    'lib/index.js -> lib/store.js',
    'lib/index.js -> lib/util.js',
    'lib/loader.mjs -> lib/plugins/index.js',
    'lib/loader.mjs -> lib/widget.jsx',
    'lib/plugins/index.js -> lib/plugins/logger.cjs',
    'lib/store.js -> external:node',
    'lib/widget.jsx -> external:prop-types',
    'lib/widget.jsx -> external:react',
    'lib/widget.jsx -> lib/helpers.js',
    'test/store.test.js -> external:node',
    'test/store.test.js -> lib/store.js',
  ],
  references: [
    'lib/index.js.createStore -> lib/util.js.DEFAULTS',
    'lib/loader.mjs.loader -> lib/widget.jsx.Counter',
    'lib/store.js -> lib/store.js.Store',
    'lib/widget.jsx.Counter.render -> lib/widget.jsx.Counter.increment',
  ],
  // Calls inside `describe`/`it` callbacks come from the test file itself.
  co_tested_with: [
    'lib/store.js.Store.add -> lib/store.js.Store',
    'lib/store.js.Store.size -> lib/store.js.Store',
    'lib/store.js.Store.size -> lib/store.js.Store.add',
  ],
  tested_by: [
    'lib/store.js.Store -> test/store.test.js',
    'lib/store.js.Store.add -> test/store.test.js',
    'lib/store.js.Store.size -> test/store.test.js',
  ],
  tests: [
    'test/store.test.js -> lib/store.js.Store',
    'test/store.test.js -> lib/store.js.Store.add',
    'test/store.test.js -> lib/store.js.Store.size',
  ],
};


describe('javascript module', () => {
  it('parses every JavaScript extension with the javascript grammar, which reads JSX', () => {
    expect(javascriptLanguage.id).toBe('javascript');
    expect(javascriptLanguage.extensions).toEqual(['.js', '.jsx', '.mjs', '.cjs']);
    expect(['a.js', 'a.jsx', 'a.mjs', 'a.cjs'].map((file) => javascriptLanguage.grammarFor(file))).toEqual(['javascript', 'javascript', 'javascript', 'javascript']);
    expect(javascriptLanguage.isTestFile('test/store.test.js')).toBe(true);
    expect(javascriptLanguage.isTestFile('lib/store.js')).toBe(false);
  });
});

describe('javascript extraction', () => {
  for (const [file, expected] of Object.entries(LEGACY_EXTRACTIONS)) {
    it(`extracts ${file} exactly`, async () => {
      const extraction = await extract(file);
      expect(render(extraction)).toEqual(expected);
      expect(extraction).toMatchObject({ path: file, language: 'javascript', namespace: '', syntaxErrors: 0 });
    });
  }

  it('covers every file of the fixture', async () => {
    expect(Object.keys(LEGACY_EXTRACTIONS)).toEqual(await listFiles(legacy));
  });

  it('turns an ES5 constructor with prototype methods into a class with its constructor-assigned fields', async () => {
    const store = await extract('lib/store.js');
    expect(store.symbols[0]).toEqual({
      name: 'Store',
      kind: 'class',
      scope: [],
      startLine: 4,
      endLine: 8,
      signature: 'function Store(options)',
      doc: 'An in-memory store that announces additions.',
      isTest: false,
      parent: -1,
      exported: true,
      supertypes: [{ name: 'EventEmitter', qualifier: [], relation: 'extends' }],
    });
    expect(store.symbols.find((s) => s.name === 'items')).toEqual({
      name: 'items',
      kind: 'field',
      scope: ['Store'],
      startLine: 6,
      endLine: 6,
      signature: 'this.items = []',
      doc: '',
      isTest: false,
      parent: 0,
      exported: true,
    });
    expect(store.symbols.find((s) => s.name === 'empty')).toMatchObject({
      kind: 'property',
      scope: ['Store'],
      parent: 0,
      signature: "Object.defineProperty(Store.prototype, 'empty',",
    });
  });

  it('binds require() by convention: a capitalised name is the default export, anything else the module', async () => {
    const index = await extract('lib/index.js');
    const imports: ImportDecl[] = [
      { source: './store', names: [{ imported: 'default', local: 'Store' }], reexport: true, line: 17 },
      { source: './store', names: [{ imported: 'default', local: 'Store' }], line: 2 },
      {
        source: './util',
        names: [
          { imported: 'formatName', local: 'formatName' },
          { imported: 'DEFAULTS', local: 'defaults' },
        ],
        line: 3,
      },
      { source: 'node:path', names: [], moduleAlias: 'path', line: 4 },
      { source: './helpers', names: [], moduleAlias: 'helpers', line: 5 },
      { source: './plugins', names: [], moduleAlias: 'plugins', reexport: true, line: 18 },
    ];
    expect(index.imports).toEqual(imports);
  });

  it('counts the syntax errors it recovered from and still extracts the rest', async () => {
    const broken = await extract('half-written.js', path.join(fixtures, 'broken'));
    expect(broken.syntaxErrors).toBe(1);
    expect(render(broken)).toEqual({
      symbols: ['function total 1-3 exported', 'class Basket 5-13 exported', 'method Basket.add 6-8 exported in Basket', 'method Basket.size 10-12 exported in Basket'],
      references: ['total call items.reduce @2', 'Basket.add call this.items.push @7', 'Basket.add field this.items @7', 'Basket.size field this.items @11'],
      imports: [],
    });
  });
});

/** test/fixtures/javascript/dynamic: properties and methods defined by calls and chained assignments, exactly. */
const DYNAMIC_EXTRACTIONS: Record<string, Rendered> = {
  'lib/cache.js': {
    symbols: [
      'class Cache 2-4 exported',
      'method Cache.clear 6-11 exported in Cache',
      'method Cache.get 13-15 exported in Cache',
      'method Cache.read 13-15 exported in Cache',
      'property Cache.limit 17-19 exported in Cache',
      'property Cache.size 22-26 exported in Cache',
      'method Cache.has 27-31 exported in Cache',
      'field Cache.entries 3-3 exported in Cache',
    ],
    references: [
      'Cache field this.entries @3',
      'Cache.clear field this.entries @8',
      'Cache.get field this.entries @14',
      'Cache.read field this.entries @14',
      'Cache.limit field this.max @18',
      'Cache.size field this.entries @24',
      'Cache.has field this.entries @29',
    ],
    imports: ['34 export ./cache.js {Cache as default}'],
  },
  'lib/request.js': {
    symbols: [
      'variable req 6-6 exported',
      'function defineGetter 11-17',
      'property req.protocol 20-23 exported in req',
      'property req.secure 25-27 exported in req',
      'function req.get 30-32 exported in req',
      'function req.header 30-32 exported in req',
      'property req.host 34-38 exported in req',
      'property req.ips 40-42 exported in req',
      'function trustProxy 44-46',
      'function splitList 48-50',
    ],
    references: [
      'req value http.IncomingMessage @6',
      '<file> call defineGetter @20',
      '<file> value req @20',
      'req.protocol field this.connection @21',
      'req.protocol call trustProxy @22',
      'req.protocol call this.get @22',
      '<file> call defineGetter @25',
      '<file> value req @25',
      'req.secure field this.protocol @26',
      'req.get field this.headers @31',
      'req.get call name.toLowerCase @31',
      'req.header field this.headers @31',
      'req.header call name.toLowerCase @31',
      'req.host call this.get @36',
      'req.ips call splitList @41',
      'req.ips call this.get @41',
      'splitList call value.split @49',
    ],
    imports: ['3 import http * as http', '8 export ./request.js {req as default}'],
  },
  // `app.get('/users', function …)` has the same shape as `defineGetter(req, 'name', function …)`: not a property.
  'lib/routes.js': {
    symbols: ['variable app 3-3 exported'],
    references: ['app call express @3', '<file> call app.get @6', '<file> call res.send @7'],
    imports: ['1 import express * as express', '10 export ./routes.js {app as default}'],
  },
};

describe('javascript definitions without a declaration', () => {
  const dynamic = path.join(fixtures, 'dynamic');

  for (const [file, expected] of Object.entries(DYNAMIC_EXTRACTIONS)) {
    it(`extracts ${file} exactly`, async () => {
      expect(render(await extract(file, dynamic))).toEqual(expected);
    });
  }

  it('covers every file of the fixture', async () => {
    expect(Object.keys(DYNAMIC_EXTRACTIONS)).toEqual(await listFiles(dynamic));
  });

  it('makes a property of a getter passed to a define helper, with the call as its signature', async () => {
    const request = await extract('lib/request.js', dynamic);
    expect(request.symbols.find((s) => s.name === 'protocol')).toEqual({
      name: 'protocol',
      kind: 'property',
      scope: ['req'],
      startLine: 20,
      endLine: 23,
      signature: "defineGetter(req, 'protocol', function protocol()",
      doc: 'The protocol, honouring a trusted proxy.',
      isTest: false,
      parent: 0,
      exported: true,
    });
  });

  it('gives every target of a chained assignment the function', async () => {
    const request = await extract('lib/request.js', dynamic);
    for (const name of ['get', 'header']) {
      expect(request.symbols.find((s) => s.name === name)).toMatchObject({
        kind: 'function',
        scope: ['req'],
        parent: 0,
        signature: 'req.get = req.header = function header(name)',
        doc: 'A request header, case-insensitively.',
      });
    }
  });

  it('links what the defined properties and methods call and access', async () => {
    const graph = await buildGraph(dynamic);
    for (const edge of [
      'calls lib/request.js.req.protocol -> lib/request.js.trustProxy',
      'calls lib/request.js.req.ips -> lib/request.js.splitList',
      'accesses_field lib/cache.js.Cache.clear -> lib/cache.js.Cache.entries',
      'accesses_field lib/cache.js.Cache.read -> lib/cache.js.Cache.entries',
      'accesses_field lib/cache.js.Cache.has -> lib/cache.js.Cache.entries',
      'member_of lib/cache.js.Cache.limit -> lib/cache.js.Cache',
    ]) {
      expect(graph.edgeLines).toContain(edge);
    }
  });
});

describe('javascript import resolution', () => {
  const files = ['lib/index.js', 'lib/store.js', 'lib/store.ts', 'lib/plugins/index.js', 'lib/plugins/logger.cjs', 'lib/widget.jsx'];
  const project: ProjectLayout = {
    hasFile: (file) => files.includes(file),
    filesInDirectory: (directory) => files.filter((file) => path.posix.dirname(file) === (directory || '.')),
    goModulePath: undefined,
    filesInNamespace: () => [],
  };
  const resolve = (source: string, from = 'lib/index.js') => javascriptLanguage.resolveImport({ source, names: [], line: 1 }, from, project);

  it('prefers JavaScript files, then tries the other script extensions and index files', () => {
    expect(resolve('./store')).toEqual({ files: ['lib/store.js'] });
    expect(resolve('./widget')).toEqual({ files: ['lib/widget.jsx'] });
    expect(resolve('./plugins')).toEqual({ files: ['lib/plugins/index.js'] });
    expect(resolve('./logger', 'lib/plugins/index.js')).toEqual({ files: ['lib/plugins/logger.cjs'] });
    expect(resolve('events')).toEqual({ files: [], external: 'node' });
    expect(resolve('prop-types')).toEqual({ files: [], external: 'prop-types' });
  });
});

describe('javascript fixture graph', () => {
  let graph: Awaited<ReturnType<typeof buildGraph>>;

  beforeAll(async () => {
    graph = await buildGraph(legacy);
  });

  it('has exactly the expected nodes', () => {
    expect(graph.nodeLines).toEqual(LEGACY_NODES);
  });

  for (const [type, expected] of Object.entries(LEGACY_EDGES)) {
    it(`has exactly the expected ${type} edges`, () => {
      expect(edgesOf(graph, type)).toEqual(expected);
    });
  }

  it('has no edge types beyond the expected ones and contains/member_of', () => {
    const types = new Set(graph.edgeLines.map((line) => line.split(' ')[0]));
    expect([...types].sort()).toEqual([...Object.keys(LEGACY_EDGES), 'contains', 'member_of'].sort());
  });

  it('resolves CommonJS bindings, prototype methods and constructor fields', () => {
    const byName = new Map(graph.nodes.map((node) => [node.id, node.qualifiedName]));
    const find = (type: string, source: string, target: string): GraphEdge | undefined =>
      graph.edges.find((e) => e.type === type && byName.get(e.source) === source && byName.get(e.target) === target);
    // `const store = new Store(…); store.add()` with Store from `require('./store')`
    expect(find('calls', 'lib/index.js.createStore', 'lib/store.js.Store.add')?.confidence).toBe(0.8);
    // `helpers.log()` through a module alias to `module.exports = { log, … }`
    expect(find('calls', 'lib/index.js.createStore', 'lib/helpers.js.log')?.confidence).toBe(0.9);
    // `this.size()` inside an `Object.defineProperty` getter on the prototype
    expect(find('calls', 'lib/store.js.Store.empty', 'lib/store.js.Store.size')?.confidence).toBe(0.9);
    expect(find('accesses_field', 'lib/store.js.Store.add', 'lib/store.js.Store.items')?.confidence).toBe(0.9);
  });
});

// Runs once the registry lists the JavaScript module: the real pipeline must build the same graph.
const registered = createLanguageRegistry().byId('javascript') === javascriptLanguage;

describe.runIf(registered)('javascript fixture indexed by indexRepository', () => {
  it('writes the same nodes and edges as the resolver alone', async () => {
    const store = createMemoryStore();
    await indexRepository({ root: legacy, store, repoId: 'fixture', workers: 0, languages: ['javascript'] });
    const text = await graphText(store);
    expect(text.nodes.map((line) => line.slice('node '.length))).toEqual(LEGACY_NODES);
    for (const [type, expected] of Object.entries(LEGACY_EDGES)) expect(edgesOfType(text, type)).toEqual(expected);
  });
});
