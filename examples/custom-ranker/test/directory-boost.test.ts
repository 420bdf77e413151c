import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '@knowing/engine';
import { ErrorCode, isKnowingError } from '@knowing/graph';
import type { RankedSymbol } from '@knowing/graph';
import { testRanker } from '@knowing/rank/testing';
import type { SqliteGraphStore } from '@knowing/store-sqlite';
import { DIRECTORY_BOOST_COMPONENT, createDirectoryBoostRanker } from '../src/directory-boost.js';
import { indexSample } from '../src/project.js';
import { createWalkOnlyRanker } from '../src/walk-only.js';

// The contract every ranker must meet, on the kit's own candidate sets (which live under src/
// and tests/, so both the boosted and the untouched branch run).
testRanker('directory-boost', () => createDirectoryBoostRanker({ directory: 'src' }));
testRanker('directory-boost with a negative boost', () => createDirectoryBoostRanker({ directory: 'tests', boost: -0.2 }));
testRanker('walk-only', () => createWalkOnlyRanker());

const TASK = 'send an email to the customer';
const ORDERS = 'shop/orders';
const inOrders = (s: RankedSymbol): boolean => s.node.file.startsWith(`${ORDERS}/`);
const names = (ranked: readonly RankedSymbol[]): string[] => ranked.map((s) => s.node.qualifiedName);

describe('the directory-boost ranker plugged into the engine', () => {
  let sample: { store: SqliteGraphStore; close(): Promise<void> };
  let byDefault: readonly RankedSymbol[];
  let boosted: readonly RankedSymbol[];

  beforeAll(async () => {
    sample = await indexSample({ workers: 0 });
    // The directory boost adjusts the default formula: compare with the engine ranking by the formula.
    byDefault = (await createEngine({ store: sample.store, options: { rankingModel: 'formula' } }).forTask(TASK, { fresh: true })).ranked;
    const ranker = createDirectoryBoostRanker({ directory: ORDERS });
    boosted = (await createEngine({ store: sample.store, ranker }).forTask(TASK, { fresh: true })).ranked;
  }, 60_000);
  afterAll(async () => sample?.close());

  it('changes the order for the same task: the order emails overtake the shipping ones', () => {
    expect(names(boosted)).not.toEqual(names(byDefault));
    // By default a shipping email leads (they read most like the task); the order emails follow.
    expect(inOrders(byDefault[0]!)).toBe(false);
    const defaultFirstOrders = byDefault.findIndex(inOrders);
    expect(defaultFirstOrders).toBeGreaterThan(0);
    // Boosted, the two order emails are the first two answers.
    expect(names(boosted.slice(0, 2)).sort()).toEqual([
      'shop/orders/notifications.py.send_cancellation_email',
      'shop/orders/notifications.py.send_order_confirmation',
    ]);
  });

  it('ranks the same candidates and moves only the directory, by exactly the boost', () => {
    expect(new Set(names(boosted))).toEqual(new Set(names(byDefault)));
    const before = new Map(byDefault.map((s) => [s.node.id, s.score]));
    for (const symbol of boosted) {
      const bonus = inOrders(symbol) ? 0.5 : 0;
      expect(symbol.score).toBeCloseTo(before.get(symbol.node.id)! + bonus, 9);
      expect(symbol.components[DIRECTORY_BOOST_COMPONENT]).toBe(bonus);
    }
    // Inside each group the default order is kept.
    expect(names(boosted.filter(inOrders))).toEqual(names(byDefault.filter(inOrders)));
    expect(names(boosted.filter((s) => !inOrders(s)))).toEqual(names(byDefault.filter((s) => !inOrders(s))));
  });

  it('keeps every score the sum of its components', () => {
    for (const symbol of boosted) {
      const sum = Object.values(symbol.components).reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(symbol.score, 9);
    }
  });

  it('shows the bonus when the engine explains a symbol', async () => {
    const engine = createEngine({ store: sample.store, ranker: createDirectoryBoostRanker({ directory: ORDERS }) });
    const why = await engine.explainSymbol(TASK, 'send_order_confirmation');
    expect(why.rank).toBeLessThanOrEqual(2);
    expect(why.components[DIRECTORY_BOOST_COMPONENT]).toBe(0.5);
  });

  it('orders by walk score alone with the walk-only ranker', async () => {
    // The engine's diversity steps reorder a task's answer after any ranker (the first ten, and
    // tests after the code); this reads the ranker's order alone.
    const options = { diversity: { sameNameLimit: 0, membersAfterOwner: 10, testsLast: false } };
    const { ranked, trace } = await createEngine({ store: sample.store, ranker: createWalkOnlyRanker(), options }).forTask(TASK, { fresh: true, trace: true });
    expect(ranked.map((s) => s.score)).toEqual(ranked.map((s) => s.rwr));
    expect(ranked.map((s) => s.rwr)).toEqual([...ranked.map((s) => s.rwr)].sort((a, b) => b - a));
    // Same candidates as the default ranker, in another order.
    expect(new Set(names(ranked))).toEqual(new Set(names(byDefault)));
    expect(names(ranked)).not.toEqual(names(byDefault));
    expect(trace!.ranked).toEqual(ranked);
  });

  it('is checked at the engine boundary: a ranker returning NaN is refused, by name', async () => {
    const engine = createEngine({
      store: sample.store,
      ranker: {
        name: 'broken-scores',
        rank: (inputs) => inputs.map((i) => ({ node: i.node, score: Number.NaN, rwr: i.rwr, distance: i.distance, components: {} })),
      },
    });
    const error = await engine.forTask(TASK, { fresh: true }).catch((e: unknown) => e);
    expect(isKnowingError(error, ErrorCode.PluginInvalid)).toBe(true);
    expect((error as Error).message).toContain('broken-scores');
  });
});
