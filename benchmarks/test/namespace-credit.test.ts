import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexRepository } from '@knowing/indexer';
import { createSqliteStore } from '@knowing/store-sqlite';
import type { GraphNode, GraphStore } from '@knowing/graph';
import { scoreTask } from '../src/matching.js';
import { withoutNamespaceCredit } from '../src/namespace-credit.js';

// A Ruby gem as gems are laid out: each file reopens the top-level module around its own class.
const FILES: Record<string, string> = {
  'lib/shop/cart.rb': 'module Shop\n  class Cart\n    def total\n      42\n    end\n  end\nend\n',
  'lib/shop/util.rb': 'module Shop\n  module Util\n    def self.money(cents)\n      cents / 100.0\n    end\n  end\nend\n',
};

let root: string;
let store: GraphStore;

async function node(qualifiedName: string): Promise<GraphNode> {
  const [found] = await store.findNodesByQualifiedName(qualifiedName);
  if (!found) throw new Error(`no node ${qualifiedName}`);
  return found;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'knowing-namespace-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  store = await createSqliteStore({ path: join(root, 'graph.db') });
  await indexRepository({ root, store, workers: 1 });
});

afterAll(async () => {
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('withoutNamespaceCredit', () => {
  it('takes nothing off a module with code of its own, or off a class', async () => {
    const returned = [await node('lib/shop/util.rb.Shop::Util'), await node('lib/shop/cart.rb.Shop::Cart')];
    const credited = await withoutNamespaceCredit(store, returned, ['lib/shop/util.rb.Shop::Util.money', 'lib/shop/cart.rb.Shop::Cart.total'], new Map());
    expect(credited).toEqual(returned.map((n) => n.qualifiedName));
  });

  it('takes the containment credit off a wrapper and keeps every other rank', async () => {
    const returned = [await node('lib/shop/cart.rb.Shop'), await node('lib/shop/cart.rb.Shop::Cart.total')];
    const truth = ['lib/shop/cart.rb.Shop::Cart.total'];
    // Under the matching rules the wrapper alone already matches the truth at rank 1.
    expect(scoreTask(returned.map((n) => n.qualifiedName), truth).mrr).toBe(1);
    const credited = await withoutNamespaceCredit(store, returned, truth, new Map());
    expect(credited).toEqual(['', 'lib/shop/cart.rb.Shop::Cart.total']);
    expect(scoreTask(credited, truth).mrr).toBe(0.5);
  });

  it('keeps a wrapper the ground truth names itself, and what ranks past 10', async () => {
    const wrapper = await node('lib/shop/cart.rb.Shop');
    expect(await withoutNamespaceCredit(store, [wrapper], ['lib/shop/cart.rb.Shop'], new Map())).toEqual(['lib/shop/cart.rb.Shop']);
    const eleventh = await withoutNamespaceCredit(store, [...Array<GraphNode>(10).fill(await node('lib/shop/util.rb.Shop::Util')), wrapper], ['x.rb.Shop::Cart'], new Map());
    expect(eleventh[10]).toBe('lib/shop/cart.rb.Shop');
  });
});
