import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Parser } from 'web-tree-sitter';
import { rubyLanguage } from '../src/languages/ruby.js';
import type { FileExtraction, NameRef, ProjectLayout, Reference, SymbolDef } from '../src/languages/types.js';
import { createParser, withTree } from '../src/parser.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/ruby/', import.meta.url));
const ALL_FILES = ['lib/shop.rb', 'lib/shop/cart.rb', 'lib/shop/pricing/calculator.rb', 'spec/spec_helper.rb', 'spec/shop/cart_spec.rb', 'test/test_cart.rb'];

let parser: Parser;
beforeAll(async () => {
  parser = await createParser(rubyLanguage.grammarFor('a.rb'));
});

function extract(path: string): FileExtraction {
  const source = readFileSync(FIXTURES + path, 'utf8');
  return withTree(parser, source, (tree) => rubyLanguage.extract(tree.rootNode, source, path));
}

/** The qualified name the core builds: `<path>.<localName ?? [...scope, name].join('.')>`. */
function qualifiedName(path: string, s: SymbolDef): string {
  return `${path}.${s.localName ?? [...s.scope, s.name].join('.')}`;
}

const written = (ref: NameRef) => [...ref.qualifier, ref.name].join('::');

/** Everything but signature and doc on one line, with the symbol part of the qualified name. */
function symbolRow(s: SymbolDef): string {
  return (
    `${s.kind} ${s.localName ?? [...s.scope, s.name].join('.')} ${s.startLine}-${s.endLine}${s.exported ? ' exported' : ''}${s.isTest ? ' test' : ''} ^${s.parent}` +
    (s.supertypes ? ' ' + s.supertypes.map((t) => `${t.relation}:${written(t)}`).join(' ') : '') +
    (s.decorators ? ' ' + s.decorators.map((d) => '@' + written(d)).join(' ') : '') +
    (s.valueType ? ' value:' + written(s.valueType) : '')
  );
}

function referenceRow(r: Reference): string {
  const name = r.qualifier.length > 0 ? `${r.qualifier.join('.')}.${r.name}` : r.name;
  return `${r.from} ${r.kind} ${name}${r.receiverType ? ' : ' + written(r.receiverType) : ''} @${r.line}`;
}

function layout(files: readonly string[]): ProjectLayout {
  return {
    hasFile: (path) => files.includes(path),
    filesInDirectory: (dir) => files.filter((p) => p.slice(0, Math.max(0, p.lastIndexOf('/'))) === dir),
    goModulePath: undefined,
    filesInNamespace: () => [],
    filesEndingWith: (suffix) => files.filter((p) => p === suffix || p.endsWith('/' + suffix)).sort((a, b) => a.length - b.length),
  };
}

describe('rubyLanguage: qualified names', () => {
  it('gives members one scope entry, the constant path, and classes a localName that prefixes their members', () => {
    const path = 'lib/shop/pricing/calculator.rb';
    const { symbols } = extract(path);
    expect(symbols.map((s) => ({ name: s.name, scope: s.scope, localName: s.localName, qn: qualifiedName(path, s) }))).toEqual([
      { name: 'Shop', scope: [], localName: undefined, qn: 'lib/shop/pricing/calculator.rb.Shop' },
      { name: 'Pricing', scope: [], localName: 'Shop::Pricing', qn: 'lib/shop/pricing/calculator.rb.Shop::Pricing' },
      { name: 'Calculator', scope: [], localName: 'Shop::Pricing::Calculator', qn: 'lib/shop/pricing/calculator.rb.Shop::Pricing::Calculator' },
      { name: 'TAX', scope: ['Shop::Pricing::Calculator'], localName: undefined, qn: 'lib/shop/pricing/calculator.rb.Shop::Pricing::Calculator.TAX' },
      { name: 'initialize', scope: ['Shop::Pricing::Calculator'], localName: undefined, qn: 'lib/shop/pricing/calculator.rb.Shop::Pricing::Calculator.initialize' },
      { name: 'total', scope: ['Shop::Pricing::Calculator'], localName: undefined, qn: 'lib/shop/pricing/calculator.rb.Shop::Pricing::Calculator.total' },
      // `class Shop::Pricing::Discount` at the top level: the written path is the full path.
      { name: 'Discount', scope: [], localName: 'Shop::Pricing::Discount', qn: 'lib/shop/pricing/calculator.rb.Shop::Pricing::Discount' },
      { name: 'total', scope: ['Shop::Pricing::Discount'], localName: undefined, qn: 'lib/shop/pricing/calculator.rb.Shop::Pricing::Discount.total' },
    ]);
  });
});

describe('rubyLanguage: definitions', () => {
  it('extracts a reopened class once per file with attributes, dynamic methods, aliases and visibility sections', () => {
    const { symbols } = extract('lib/shop/cart.rb');
    expect(symbols.map(symbolRow)).toEqual([
      'module Shop 5-75 exported ^-1',
      // Reopened further down in the same file: one symbol spanning both bodies.
      'class Shop::Cart 9-74 exported ^0 extends:Base includes:Enumerable includes:Forwardable @before_save',
      'constant Shop::Cart.MAX_ITEMS 13-13 exported ^1',
      'property Shop::Cart.items 15-15 exported ^1',
      'property Shop::Cart.owner 16-16 exported ^1',
      'property Shop::Cart.coupon 16-16 exported ^1',
      'method Shop::Cart.initialize 20-24 exported ^1',
      'method Shop::Cart.add 26-34 exported ^1',
      'method Shop::Cart.total 36-38 exported ^1',
      'method Shop::Cart.each 40-42 exported ^1',
      'method Shop::Cart.empty? 44-44 exported ^1',
      'method Shop::Cart.size 45-45 exported ^1',
      'method Shop::Cart.for 47-49 exported ^1',
      'method Shop::Cart.restore 52-54 exported ^1',
      // After `protected` and `private`.
      'method Shop::Cart.normalize 59-61 ^1',
      'method Shop::Cart.notify 65-67 ^1',
      // The reopened body starts public again.
      'method Shop::Cart.discount 71-73 exported ^1',
    ]);
  });

  it('produces symbol and reference records with exactly the contract fields', () => {
    const { symbols, references } = extract('lib/shop/cart.rb');
    expect(symbols[1]).toEqual({
      name: 'Cart',
      kind: 'class',
      scope: [],
      localName: 'Shop::Cart',
      startLine: 9,
      endLine: 74,
      signature: 'class Cart < Base',
      doc: "A customer's cart.\n\nHolds line items until checkout.",
      isTest: false,
      parent: 0,
      exported: true,
      supertypes: [
        { name: 'Base', qualifier: [], relation: 'extends' },
        { name: 'Enumerable', qualifier: [], relation: 'includes' },
        { name: 'Forwardable', qualifier: [], relation: 'includes' },
      ],
      decorators: [{ name: 'before_save', qualifier: [] }],
    });
    expect(symbols[7]).toEqual({
      name: 'add',
      kind: 'method',
      scope: ['Shop::Cart'],
      startLine: 26,
      endLine: 34,
      signature: 'def add(product, quantity = 1)',
      doc: '',
      isTest: false,
      parent: 1,
      exported: true,
    });
    const superCall = references.find((r) => r.qualifier[0] === 'super');
    expect(superCall).toEqual({ from: 14, kind: 'call', name: 'normalize', qualifier: ['super'], receiverType: { name: 'Base', qualifier: [] }, line: 60 });
  });

  it('keeps def lines as signatures, marks singleton methods, and joins # comments into docs', () => {
    const { symbols } = extract('lib/shop/cart.rb');
    const byName = (name: string) => symbols.find((s) => s.name === name);
    expect(byName('Cart')?.doc).toBe("A customer's cart.\n\nHolds line items until checkout.");
    expect(byName('Cart')?.signature).toBe('class Cart < Base');
    expect(byName('add')?.signature).toBe('def add(product, quantity = 1)');
    expect(byName('for')?.signature).toBe('def self.for(owner)');
    // Defined inside `class << self`.
    expect(byName('restore')?.signature).toBe('def self.restore(data)');
    expect(byName('owner')?.signature).toBe('attr_accessor :owner, :coupon');
    // The magic comment above `module Shop` is not documentation.
    expect(byName('Shop')?.doc).toBe('');
    expect(extract('lib/shop.rb').symbols[0]?.doc).toBe('The shop: carts, pricing and checkout.');
  });

  it('makes top-level singleton methods of a module methods and constants members', () => {
    expect(extract('lib/shop.rb').symbols.map(symbolRow)).toEqual([
      'module Shop 7-19 exported ^-1',
      'constant Shop.VERSION 8-8 exported ^0',
      'method Shop.configure 12-14 exported ^0',
      'method Shop.config 16-18 exported ^0',
    ]);
  });

  it('marks test files and their test_ methods', () => {
    expect(extract('test/test_cart.rb').symbols.map(symbolRow)).toEqual([
      'class CartTest 4-12 exported test ^-1 extends:Minitest::Test',
      'method CartTest.setup 5-7 exported test ^0',
      'method CartTest.test_total_starts_at_zero 9-11 exported test ^0',
    ]);
    expect(extract('spec/shop/cart_spec.rb').symbols).toEqual([]);
  });
});

describe('rubyLanguage: references', () => {
  it('records bare calls on self, typed ivar receivers, constructions, raises, constants and callbacks', () => {
    const { references } = extract('lib/shop/cart.rb');
    expect(references.map(referenceRow)).toEqual([
      // `before_save :normalize` names a method of the class.
      '1 call normalize : Shop::Cart @18',
      '6 field self.owner : Shop::Cart @21',
      '6 field self.items : Shop::Cart @22',
      '6 new Pricing.Calculator @23',
      '6 field self.calculator : Shop::Cart @23',
      '7 raise CartFull @27',
      // `items` is not a local: a call of the reader on self (`.size` is a core method).
      '7 call items : Shop::Cart @27',
      '7 value MAX_ITEMS @27',
      '7 new LineItem @29',
      '7 field self.items : Shop::Cart @30',
      // `item = LineItem.new(...)`
      '7 call item.reserve : LineItem @31',
      '7 call notify : Shop::Cart @32',
      '8 field self.calculator : Shop::Cart @37',
      // `@calculator = Pricing::Calculator.new(self)` in initialize types the ivar.
      '8 call self.calculator.total : Pricing::Calculator @37',
      '8 field self.items : Shop::Cart @37',
      '9 field self.items : Shop::Cart @41',
      '10 field self.items : Shop::Cart @44',
      // `alias_method :size, :count`
      '11 call count : Shop::Cart @45',
      // `new(owner)` in a class method
      '12 new Shop.Cart @48',
      '13 new Cart @53',
      '13 call data.fetch @53',
      '14 call super.normalize : Base @60',
      '15 call Shop.config.listeners @66',
      '15 call Shop.config @66',
      '15 call listener.call @66',
      '16 call coupon : Shop::Cart @72',
      '16 call coupon.amount @72',
    ]);
  });

  it('passes super to the superclass and leaves test-framework calls out', () => {
    expect(extract('lib/shop/pricing/calculator.rb').references.map(referenceRow)).toEqual([
      '4 field self.cart : Shop::Pricing::Calculator @8',
      '5 value TAX @13',
      '7 call super.total : Shop::Pricing::Calculator @20',
    ]);
    expect(extract('spec/shop/cart_spec.rb').references.map(referenceRow)).toEqual([
      '-1 type Shop.Cart @3',
      '-1 new Shop.Cart @4',
      '-1 call cart @7',
      '-1 call cart.add @7',
      '-1 call cart.items @8',
    ]);
    expect(extract('test/test_cart.rb').references.map(referenceRow)).toEqual([
      '1 new Shop.Cart @6',
      '1 field self.cart : CartTest @6',
      '2 field self.cart : CartTest @10',
      '2 call self.cart.total : Shop::Cart @10',
    ]);
  });
});

describe('rubyLanguage: requires', () => {
  it('reads require, require_relative and autoload', () => {
    const { imports, namespace, syntaxErrors } = extract('lib/shop.rb');
    expect(namespace).toBe('');
    expect(syntaxErrors).toBe(0);
    expect(imports).toEqual([
      { source: 'json', names: [], line: 3 },
      { source: './shop/cart', names: [], line: 4 },
      { source: 'shop/checkout', names: [{ imported: 'Checkout', local: 'Checkout' }], line: 10 },
    ]);
    expect(extract('test/test_cart.rb').imports).toEqual([
      { source: 'minitest/autorun', names: [], line: 1 },
      { source: '../lib/shop', names: [], line: 2 },
    ]);
  });

  it('resolves relative requires from the file and others on lib/ load paths, else names the gem', () => {
    const project = layout(ALL_FILES);
    const resolve = (source: string, from: string) => rubyLanguage.resolveImport({ source, names: [], line: 1 }, from, project);
    expect(resolve('./shop/cart', 'lib/shop.rb')).toEqual({ files: ['lib/shop/cart.rb'] });
    expect(resolve('../lib/shop', 'test/test_cart.rb')).toEqual({ files: ['lib/shop.rb'] });
    expect(resolve('./missing', 'lib/shop.rb')).toEqual({ files: [] });
    expect(resolve('shop/pricing/calculator', 'lib/shop/cart.rb')).toEqual({ files: ['lib/shop/pricing/calculator.rb'] });
    expect(resolve('shop', 'spec/spec_helper.rb')).toEqual({ files: ['lib/shop.rb'] });
    expect(resolve('spec_helper', 'spec/shop/cart_spec.rb')).toEqual({ files: ['spec/spec_helper.rb'] });
    expect(resolve('json', 'lib/shop.rb')).toEqual({ files: [], external: 'json' });
    expect(resolve('active_support/core_ext/string', 'lib/shop.rb')).toEqual({ files: [], external: 'active_support' });
  });

  it("finds a sibling gem's lib/ in a monorepo", () => {
    const project = layout(['alpha/lib/alpha/parser.rb', 'alpha/test/parser_test.rb', 'beta/lib/beta.rb']);
    const resolve = (source: string, from: string) => rubyLanguage.resolveImport({ source, names: [], line: 1 }, from, project);
    expect(resolve('alpha/parser', 'alpha/test/parser_test.rb')).toEqual({ files: ['alpha/lib/alpha/parser.rb'] });
    expect(resolve('alpha/parser', 'beta/lib/beta.rb')).toEqual({ files: ['alpha/lib/alpha/parser.rb'] });
  });
});

describe('rubyLanguage: files', () => {
  it('recognises spec and test files', () => {
    expect(rubyLanguage.isTestFile('spec/shop/cart_spec.rb')).toBe(true);
    expect(rubyLanguage.isTestFile('test/test_cart.rb')).toBe(true);
    expect(rubyLanguage.isTestFile('lib/shop/cart_test.rb')).toBe(true);
    expect(rubyLanguage.isTestFile('lib/shop/test_helpers.rb')).toBe(true);
    expect(rubyLanguage.isTestFile('lib/shop/cart.rb')).toBe(false);
    expect(rubyLanguage.isTestFile('lib/shop/contest.rb')).toBe(false);
  });

  it('declares itself for Ruby sources', () => {
    expect(rubyLanguage.id).toBe('ruby');
    expect(rubyLanguage.extensions).toContain('.rb');
    expect(rubyLanguage.extensions).toContain('.rake');
    expect(rubyLanguage.grammarFor('Rakefile.rake')).toBe('ruby');
    expect(rubyLanguage.selfNames).toEqual(['self']);
  });
});
