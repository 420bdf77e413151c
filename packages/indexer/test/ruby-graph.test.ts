/**
 * End-to-end graph of the Ruby fixture: extraction by rubyLanguage, resolution and derived
 * passes by the core, stored in the in-memory store. The repository's own subgraph is checked
 * exactly; placeholders outside it (gems, the standard library) only where they matter.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { rubyLanguage } from '../src/languages/ruby.js';
import { repoGraph as indexedGraph } from './helpers/fixture-graph.js';
import type { RepoGraph } from './helpers/fixture-graph.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'ruby');

function repoGraph(): Promise<RepoGraph> {
  return indexedGraph(ROOT, rubyLanguage);
}

// Reviewed by hand.
const NODES = [
  // Classes and modules by their constant path.
  'class lib/shop/cart.rb.Shop::Cart',
  'class lib/shop/line_item.rb.Shop::LineItem',
  'class lib/shop/pricing/calculator.rb.Shop::Pricing::Calculator',
  'class lib/shop/pricing/calculator.rb.Shop::Pricing::Discount',
  'class test/test_cart.rb.CartTest',
  'constant lib/shop.rb.Shop.VERSION',
  'constant lib/shop/cart.rb.Shop::Cart.MAX_ITEMS',
  'constant lib/shop/pricing/calculator.rb.Shop::Pricing::Calculator.TAX',
  'file lib/shop.rb',
  'file lib/shop/cart.rb',
  'file lib/shop/line_item.rb',
  'file lib/shop/pricing/calculator.rb',
  'file spec/shop/cart_spec.rb',
  'file spec/spec_helper.rb',
  'file test/test_cart.rb',
  'method lib/shop.rb.Shop.config',
  'method lib/shop.rb.Shop.configure',
  'method lib/shop/cart.rb.Shop::Cart.add',
  'method lib/shop/cart.rb.Shop::Cart.discount',
  'method lib/shop/cart.rb.Shop::Cart.each',
  'method lib/shop/cart.rb.Shop::Cart.empty?',
  'method lib/shop/cart.rb.Shop::Cart.for',
  'method lib/shop/cart.rb.Shop::Cart.initialize',
  'method lib/shop/cart.rb.Shop::Cart.normalize',
  'method lib/shop/cart.rb.Shop::Cart.notify',
  'method lib/shop/cart.rb.Shop::Cart.restore',
  'method lib/shop/cart.rb.Shop::Cart.size',
  'method lib/shop/cart.rb.Shop::Cart.total',
  'method lib/shop/line_item.rb.Shop::LineItem.initialize',
  'method lib/shop/line_item.rb.Shop::LineItem.reserve',
  'method lib/shop/pricing/calculator.rb.Shop::Pricing::Calculator.initialize',
  'method lib/shop/pricing/calculator.rb.Shop::Pricing::Calculator.total',
  'method lib/shop/pricing/calculator.rb.Shop::Pricing::Discount.total',
  'method test/test_cart.rb.CartTest.setup',
  'method test/test_cart.rb.CartTest.test_total_starts_at_zero',
  // `module Shop` is reopened in several files: one node per file.
  'module lib/shop.rb.Shop',
  'module lib/shop/cart.rb.Shop',
  'module lib/shop/line_item.rb.Shop',
  'module lib/shop/pricing/calculator.rb.Shop',
  'module lib/shop/pricing/calculator.rb.Shop::Pricing',
  'property lib/shop/cart.rb.Shop::Cart.coupon',
  'property lib/shop/cart.rb.Shop::Cart.items',
  'property lib/shop/cart.rb.Shop::Cart.owner',
  'property lib/shop/line_item.rb.Shop::LineItem.product',
  'property lib/shop/line_item.rb.Shop::LineItem.quantity',
];

const CART = 'lib/shop/cart.rb.Shop::Cart';
const ITEM = 'lib/shop/line_item.rb.Shop::LineItem';
const PRICING = 'lib/shop/pricing/calculator.rb.Shop::Pricing';

// Reviewed by hand: edges whose both ends are in the repository, except contains/member_of.
const EDGES: Record<string, string[]> = {
  // `@ivar` reads and writes reach the attribute of the same name.
  accesses_field: [
    `${CART}.add -> ${CART}.items`,
    `${CART}.each -> ${CART}.items`,
    `${CART}.empty? -> ${CART}.items`,
    `${CART}.initialize -> ${CART}.items`,
    `${CART}.initialize -> ${CART}.owner`,
    `${CART}.total -> ${CART}.items`,
    `${ITEM}.initialize -> ${ITEM}.product`,
    `${ITEM}.initialize -> ${ITEM}.quantity`,
  ],
  calls: [
    // `yield config` in a singleton method: a call on self
    'lib/shop.rb.Shop.configure -> lib/shop.rb.Shop.config',
    // `before_save :normalize`
    `${CART} -> ${CART}.normalize`,
    `${CART}.add -> ${CART}.items`,
    `${CART}.add -> ${CART}.notify`,
    // `LineItem.new(...)` inside `module Shop`: `Shop::LineItem`, defined in another file;
    // then `item.reserve` through the constructed type
    `${CART}.add -> ${ITEM}.initialize`,
    `${CART}.add -> ${ITEM}.reserve`,
    `${CART}.discount -> ${CART}.coupon`,
    // `new(owner)` in `def self.for`
    `${CART}.for -> ${CART}.initialize`,
    // `Pricing::Calculator.new(self)` inside `Shop::Cart`: `Shop::Pricing::Calculator`
    `${CART}.initialize -> ${PRICING}::Calculator.initialize`,
    // `Shop.config`: `config` is defined where `module Shop` is opened in lib/shop.rb
    `${CART}.notify -> lib/shop.rb.Shop.config`,
    `${CART}.restore -> ${CART}.initialize`,
    `${ITEM}.reserve -> ${ITEM}.product`,
    `${ITEM}.reserve -> ${ITEM}.quantity`,
    // `super` in an endless def
    `${PRICING}::Discount.total -> ${PRICING}::Calculator.total`,
    // calls in RSpec blocks come from the spec file: `let(:cart) { Shop::Cart.new("ada") }`, `cart.add`
    'spec/shop/cart_spec.rb -> lib/shop/cart.rb.Shop::Cart.add',
    'spec/shop/cart_spec.rb -> lib/shop/cart.rb.Shop::Cart.initialize',
    // `Shop::Cart.new("ada")` in a Minitest setup
    `test/test_cart.rb.CartTest.setup -> ${CART}.initialize`,
  ],
  // the two symbols the spec file's blocks call
  co_tested_with: [`${CART}.add -> ${CART}.initialize`],
  extends: [`${PRICING}::Discount -> ${PRICING}::Calculator`],
  imports: [
    'lib/shop.rb -> lib/shop/cart.rb',
    'lib/shop/cart.rb -> lib/shop/pricing/calculator.rb',
    'spec/shop/cart_spec.rb -> spec/spec_helper.rb',
    'spec/spec_helper.rb -> lib/shop.rb',
    'test/test_cart.rb -> lib/shop.rb',
  ],
  inherits: [`${PRICING}::Discount -> ${PRICING}::Calculator.initialize`],
  overrides: [`${PRICING}::Discount.total -> ${PRICING}::Calculator.total`],
  // `RSpec.describe Shop::Cart do`
  references: [`${CART}.add -> ${CART}.MAX_ITEMS`, `${PRICING}::Calculator.total -> ${PRICING}::Calculator.TAX`, `spec/shop/cart_spec.rb -> ${CART}`],
  tested_by: [`${CART}.add -> spec/shop/cart_spec.rb`, `${CART}.initialize -> spec/shop/cart_spec.rb`, `${CART}.initialize -> test/test_cart.rb.CartTest.setup`],
  tests: [`spec/shop/cart_spec.rb -> ${CART}.add`, `spec/shop/cart_spec.rb -> ${CART}.initialize`, `test/test_cart.rb.CartTest.setup -> ${CART}.initialize`],
};

describe('ruby fixture graph', () => {
  let graph: RepoGraph;

  beforeAll(async () => {
    graph = await repoGraph();
  });

  it('has exactly the expected repository nodes', () => {
    expect(graph.nodeLines).toEqual(NODES);
  });

  for (const [type, expected] of Object.entries(EDGES)) {
    it(`has exactly the expected ${type} edges inside the repository`, () => {
      expect(graph.edgeLines.get(type) ?? []).toEqual(expected);
    });
  }

  it('has no repository edge types beyond the expected ones and contains/member_of', () => {
    expect([...graph.edgeLines.keys()].sort()).toEqual([...Object.keys(EDGES), 'contains', 'member_of'].sort());
  });

  it('makes every definition a member of exactly one container, mirrored by contains', () => {
    const contains = new Set(graph.edgeLines.get('contains'));
    const memberOf = graph.edgeLines.get('member_of') ?? [];
    expect(memberOf).toHaveLength(graph.nodes.filter((node) => node.kind !== 'file' && !node.external).length);
    for (const line of memberOf) {
      const [child, parent] = line.split(' -> ');
      expect(contains.has(`${parent} -> ${child}`)).toBe(true);
    }
  });

  it('points gems at external packages and keeps mixins and raises', () => {
    const lines = graph.edges.map((edge) => `${edge.type} ${graph.qn.get(edge.source)} -> ${graph.qn.get(edge.target)}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        'imports lib/shop.rb -> external:json',
        'imports test/test_cart.rb -> external:minitest',
        'extends test/test_cart.rb.CartTest -> external:Minitest.Test',
        'implements lib/shop/cart.rb.Shop::Cart -> external:Enumerable',
        `throws ${CART}.add -> external:CartFull`,
      ]),
    );
  });

  it('stores Ruby nodes with lines, signatures, docs and test flags', () => {
    const byQn = (qn: string) => graph.nodes.find((node) => node.qualifiedName === qn);
    expect(byQn(`${CART}.add`)).toMatchObject({ name: 'add', kind: 'method', language: 'ruby', startLine: 26, endLine: 34, signature: 'def add(product, quantity = 1)', isTest: false });
    expect(byQn(CART)).toMatchObject({ name: 'Cart', kind: 'class', doc: "A customer's cart.\n\nHolds line items until checkout." });
    expect(byQn('test/test_cart.rb.CartTest.test_total_starts_at_zero')?.isTest).toBe(true);
  });

  it('names classes and modules by their constant path, and their members under it', () => {
    const byQn = (qn: string) => graph.nodes.find((node) => node.qualifiedName === qn);
    expect(byQn(CART)).toMatchObject({ name: 'Cart', kind: 'class', file: 'lib/shop/cart.rb', startLine: 9 });
    expect(byQn(`${PRICING}::Discount`)).toMatchObject({ name: 'Discount', kind: 'class', startLine: 19 });
    expect(byQn(PRICING)).toMatchObject({ name: 'Pricing', kind: 'module' });
    const memberOf = graph.edgeLines.get('member_of') ?? [];
    expect(memberOf).toContain(`${CART}.add -> ${CART}`);
    expect(memberOf).toContain(`${CART} -> lib/shop/cart.rb.Shop`);
    // `class Shop::Pricing::Discount` at the top of the file
    expect(memberOf).toContain(`${PRICING}::Discount -> lib/shop/pricing/calculator.rb`);
  });

  it('resolves constant paths across files by lexical scope, then the top level', () => {
    const edge = (type: string, source: string, target: string) =>
      graph.edges.find((e) => e.type === type && graph.qn.get(e.source) === source && graph.qn.get(e.target) === target);
    // `Pricing::Calculator.new(self)` inside `module Shop; class Cart`: Shop::Pricing, by nesting
    expect(edge('calls', `${CART}.initialize`, `${PRICING}::Calculator.initialize`)).toMatchObject({ confidence: 0.9, provenance: 'ast_resolved' });
    // `LineItem.new` inside `module Shop`: Shop::LineItem in another file, by nesting
    expect(edge('calls', `${CART}.add`, `${ITEM}.initialize`)).toMatchObject({ confidence: 0.9 });
    // `Shop::Cart.new` in a test: the top-level `Shop`, whichever file opens it, then `Cart`
    expect(edge('calls', 'test/test_cart.rb.CartTest.setup', `${CART}.initialize`)).toMatchObject({ confidence: 0.8, provenance: 'ast_resolved' });
    // `Shop.config` from cart.rb reaches the part of `module Shop` that defines `config`
    expect(edge('calls', `${CART}.notify`, 'lib/shop.rb.Shop.config')).toMatchObject({ confidence: 0.85 });
  });
});
