import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskTerms } from '@knowing/keywords';
import type { GraphNode } from '@knowing/graph';
import { createSqliteStore } from '@knowing/store-sqlite';
import type { SqliteGraphStore } from '@knowing/store-sqlite';
import { indexRepository } from '@knowing/indexer';
import { boostTermMatches } from '../src/fusion.js';
import { namespaceWrappers } from '../src/seeds.js';
import { textMatches } from '../src/text-match.js';
import { createEngine } from '../src/index.js';
import type { FusedCandidate } from '../src/types.js';

function candidate(symbolPath: string, score: number): FusedCandidate {
  const file = 'src/serial.java';
  const name = symbolPath.slice(symbolPath.lastIndexOf('.') + 1);
  const node: GraphNode = { id: symbolPath, name, qualifiedName: `${file}.${symbolPath}`, kind: 'class', language: 'java', file, startLine: 1, endLine: 2, signature: '', doc: '', isTest: false, external: false };
  return { node, score, channels: ['bm25'], details: {} };
}

describe('boostTermMatches', () => {
  const fused = [candidate('Response', 0.05), candidate('Request.body', 0.045), candidate('SerializerChain', 0.03), candidate('Route', 0.01)];
  const terms = new Set(taskTerms('how route values are serialized through the serializer chain'));

  it('lifts a candidate named after several task terms over ones that only ranked higher', () => {
    const boosted = boostTermMatches(fused, terms, 0.02, 10);
    // Route names one term too (+0.02), not enough to pass Response.
    expect(boosted.map((c) => c.node.name)).toEqual(['SerializerChain', 'Response', 'body', 'Route']);
    expect(boosted[0]!.score).toBeCloseTo(0.03 + 2 * 0.02);
  });

  it('keeps the fused order and only cuts to the limit when the bonus is 0', () => {
    expect(boostTermMatches(fused, terms, 0, 3).map((c) => c.node.name)).toEqual(['Response', 'body', 'SerializerChain']);
  });
});

describe('namespace wrappers (Ruby modules that only wrap classes)', () => {
  let dir: string;
  let store: SqliteGraphStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'knowing-namespaces-'));
    const root = join(dir, 'repo');
    mkdirSync(join(root, 'lib/shop'), { recursive: true });
    writeFileSync(join(root, 'lib/shop/cart.rb'), 'module Shop\n  class Cart\n    def add_item(item)\n      @items << item\n    end\n  end\nend\n');
    writeFileSync(join(root, 'lib/shop/order.rb'), 'module Shop\n  class Order\n    def checkout_cart\n      Cart.new.add_item(1)\n    end\n  end\nend\n');
    writeFileSync(join(root, 'lib/shop/pricing.rb'), 'module Shop\n  module Pricing\n    def self.cart_total(cart)\n      cart.sum\n    end\n  end\nend\n');
    store = await createSqliteStore({ path: join(dir, 'graph.db') });
    await indexRepository({ root, store, workers: 0, repoId: 'shop' });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('marks modules whose only members are types, and keeps modules with methods of their own', async () => {
    const modules = (await store.findNodesByName('Shop')).concat(await store.findNodesByName('Pricing')).filter((n) => n.kind === 'module');
    const wrappers = await namespaceWrappers(store, modules, new Map());
    const wrapped = modules.filter((m) => wrappers.has(m.id)).map((m) => m.qualifiedName).sort();
    expect(wrapped).toEqual(['lib/shop/cart.rb.Shop', 'lib/shop/order.rb.Shop', 'lib/shop/pricing.rb.Shop']);
    expect(modules.find((m) => m.name === 'Pricing' && !wrappers.has(m.id))).toBeDefined();
  });

  it('never returns a wrapper from forTask, while the classes inside it are returned', async () => {
    const engine = createEngine({ store });
    const answer = await engine.forTask('shop cart: add an item to the cart', { budget: 4000, fresh: true });
    const names = answer.pack.symbols.map((s) => s.node.qualifiedName);
    expect(names).toContain('lib/shop/cart.rb.Shop::Cart');
    expect(names.filter((n) => n.endsWith('.rb.Shop'))).toEqual([]);
  });
});

describe('textMatches', () => {
  const node = (name: string, doc: string): GraphNode => ({
    id: name, name, qualifiedName: `lib/app.rb.App.${name}`, kind: 'method', language: 'ruby', file: 'lib/app.rb',
    startLine: 1, endLine: 2, signature: `def ${name}`, doc, isTest: false, external: false,
  });
  const candidates = [
    node('call', 'Retries failed uploads with exponential backoff.'),
    node('upload', 'Uploads a file to the app bucket.'),
    node('render', 'Renders the app view.'),
  ];

  it('rates the candidate whose text names the rarer task terms highest, and one naming none not at all', () => {
    const scores = textMatches(new Set(taskTerms('retry failed uploads in the app')), candidates);
    expect(scores.get('call')).toBe(1);
    expect(scores.get('upload')!).toBeGreaterThan(0);
    expect(scores.get('upload')!).toBeLessThan(1);
    // `app` is in every candidate's path: it weighs little, and render names nothing else.
    expect(scores.get('render') ?? 0).toBeLessThan(scores.get('upload')!);
  });

  it('scores exactly as matching the whole text of each candidate at once would', () => {
    // The words are split and stemmed once per call; the sums must not change by a bit.
    // Words whose folding changes their ends (a final y read as i, agent nouns, doubled letters), so
    // that the test of the terms' cores before splitting is checked where it could go wrong.
    const words = ['upload', 'Uploads', 'retry_count', 'FailedUpload', 'backoff', 'app', 'bucket', 'render', 'view', 'the', 'HTTPRetry', 'x2',
      'MaxDependencyDepth', 'dependencies', 'Serializer', 'serialization', 'loggingHandler', 'settings', 'embedded', 'Retries'];
    let seed = 7;
    const pick = (): string => words[(seed = (seed * 16807) % 2147483647) % words.length]!;
    const nodes = Array.from({ length: 200 }, (_, i) => ({
      ...node(`${pick()}${i}`, Array.from({ length: 8 }, pick).join(' ')),
      signature: `def ${pick()}(${pick()}, ${pick()})`,
    }));
    const terms = new Set(taskTerms('retry the failed uploads with backoff in the app view; dependency serialization, logging and settings'));
    const whole = (text: string): string[] => (text ? taskTerms(text).filter((t) => terms.has(t)) : []);
    const expected = new Map<string, number>();
    const everything = nodes.map((n) => whole(`${n.qualifiedName.slice('lib/app.rb.'.length)} ${n.file} ${n.signature} ${n.doc}`));
    const docs = nodes.map((n) => whole(n.doc));
    for (const perNode of [everything, docs]) {
      const df = new Map<string, number>();
      for (const found of perNode) for (const t of found) df.set(t, (df.get(t) ?? 0) + 1);
      const scores = perNode.map((found) => found.reduce((sum, t) => sum + Math.log(1 + nodes.length / df.get(t)!), 0));
      const best = Math.max(...scores);
      scores.forEach((score, i) => {
        if (score > 0) expected.set(nodes[i]!.id, (expected.get(nodes[i]!.id) ?? 0) + (score / best) * 0.5);
      });
    }
    expect(textMatches(terms, nodes)).toEqual(expected);
  });

  it('is empty without task terms', () => {
    expect(textMatches(new Set(), candidates).size).toBe(0);
  });
});
