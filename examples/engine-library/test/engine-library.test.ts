import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RankedSymbol } from '@knowing/graph';
import { costFunctionFor } from '@knowing/wire';
import { openProject } from '../src/project.js';
import type { IndexedProject } from '../src/project.js';

/** `src/discounts.ts.DiscountCode.isExpired` → `DiscountCode.isExpired`. */
const symbolPath = (s: RankedSymbol): string => s.node.qualifiedName.slice(s.node.file.length + 1);
const top = (ranked: readonly RankedSymbol[], n: number): string[] => ranked.slice(0, n).map(symbolPath);

const DISCOUNT_TASK = 'apply a discount code to an invoice and reject expired codes';
const REFUND_TASK = 'refund a card payment';

describe('the engine as a library, over the shipped invoicing project', () => {
  let project: IndexedProject;

  beforeAll(async () => {
    project = await openProject({ workers: 0 });
  }, 60_000);
  afterAll(async () => project?.close());

  it('indexes every source file of the sample into the SQLite file', () => {
    expect(project.summary.files.discovered).toBe(8);
    expect(project.summary.nodesByKind['class']).toBeGreaterThanOrEqual(3);
    expect(project.summary.edgesByType['calls']).toBeGreaterThan(0);
  });

  it('puts the discount code symbols first for a discount task', async () => {
    const { ranked } = await project.engine.forTask(DISCOUNT_TASK, { fresh: true });
    expect(top(ranked, 3)).toEqual(expect.arrayContaining(['DiscountCode', 'applyDiscountCode']));
    // Every discount behaviour ranks above all the code the task is not about (payments, tax, money).
    const position = (name: string): number => ranked.findIndex((s) => symbolPath(s) === name);
    const unrelated = ranked.findIndex((s) => /^src\/(payments\/|tax\.ts|money\.ts)/.test(s.node.file));
    expect(unrelated).toBeGreaterThan(0);
    for (const name of ['applyDiscountCode', 'findDiscountCode', 'DiscountCode.isExpired', 'DiscountCode.isRedeemable']) {
      expect(position(name), name).toBeGreaterThanOrEqual(0);
      expect(position(name), name).toBeLessThan(unrelated);
    }
  });

  it('puts the refund path and the card gateway first for a refund task', async () => {
    const { ranked } = await project.engine.forTask(REFUND_TASK, { fresh: true });
    expect(top(ranked, 3)).toEqual(expect.arrayContaining(['CardGateway', 'CardGateway.refund']));
    expect(top(ranked, 6)).toContain('refundInvoice');
    expect(top(ranked, 6).filter((name) => name.includes('Discount'))).toEqual([]);
  });

  it('returns symbols, never file nodes', async () => {
    const { ranked } = await project.engine.forTask(DISCOUNT_TASK);
    expect(ranked.length).toBeGreaterThan(0);
    expect(ranked.filter((s) => s.node.kind === 'file')).toEqual([]);
  });

  it('packs the best symbols into the budget, counted in the output format', async () => {
    const budget = 120;
    const { pack, ranked } = await project.engine.forTask(DISCOUNT_TASK, { budget, format: 'gcf', fresh: true });
    const gcfCost = costFunctionFor('gcf');
    const spent = pack.symbols.reduce((sum, s) => sum + gcfCost(s), 0);
    expect(pack.tokenBudget).toBe(budget);
    expect(pack.tokensUsed).toBe(spent);
    expect(spent).toBeLessThanOrEqual(budget);
    expect(pack.symbols.length).toBeLessThan(ranked.length);
    expect(pack.symbols.map(symbolPath)).toEqual(expect.arrayContaining(['DiscountCode', 'applyDiscountCode']));
  });

  it('keeps the index on disk: reopening the same file parses nothing', async () => {
    const again = await openProject({ dbPath: project.dbPath, workers: 0 });
    try {
      expect(again.summary.files.parsed).toBe(0);
      expect(again.summary.files.unchanged).toBe(8);
      const { ranked } = await again.engine.forTask(REFUND_TASK);
      expect(top(ranked, 3)).toContain('CardGateway.refund');
    } finally {
      // The store is shared with `project`'s file; close only this connection.
      await again.store.close();
    }
  });
});
