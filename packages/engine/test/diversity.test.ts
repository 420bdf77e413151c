import type { RankedSymbol } from '@knowing/graph';
import { fixtureNode } from '@knowing/rank/testing';
import { describe, expect, it } from 'vitest';
import { DIVERSITY_COMPONENT, TESTS_LAST_COMPONENT, diversifyRanking, moveLast } from '../src/diversity.js';
import { DEFAULT_ENGINE_OPTIONS, resolveEngineOptions } from '../src/options.js';
import { createEngine } from '../src/index.js';
import { indexedFixture } from './helpers.js';

/** A ranking of `symbols` (`file:Owner.name`), scores falling by one from 100. */
function ranking(...symbols: string[]): RankedSymbol[] {
  return symbols.map((symbol, i) => {
    const [file, name] = symbol.split(':') as [string, string];
    return { node: fixtureNode(file, name), score: 100 - i, distance: 0, rwr: 1, components: { relevance: 100 - i } };
  });
}

/** Only the name limit: members of listed types never wait. */
const byName = (sameNameLimit: number, window: number) => ({ sameNameLimit, window, membersAfterOwner: window });

const names = (ranked: readonly RankedSymbol[]): string[] => ranked.map((s) => `${s.node.file}:${s.node.qualifiedName.slice(s.node.file.length + 1)}`);

describe('diversifyRanking', () => {
  const ranked = ranking(
    'src/ws.rs:Workspace',
    'src/args.rs:ArgMatches.workspace',
    'src/update.rs:UpdateOptions.workspace',
    'src/remap.rs:package_remap',
    'src/manifest.rs:Manifest.workspace',
    'src/remap.rs:sysroot_remap',
    'src/lib.rs:resolve',
  );

  it('keeps at most sameNameLimit symbols of one name, case-insensitively, in the window; the rest wait right after it', () => {
    const out = diversifyRanking(ranked, byName(2, 4));
    expect(names(out)).toEqual([
      'src/ws.rs:Workspace',
      'src/args.rs:ArgMatches.workspace',
      'src/remap.rs:package_remap',
      'src/remap.rs:sysroot_remap',
      'src/update.rs:UpdateOptions.workspace',
      'src/manifest.rs:Manifest.workspace',
      'src/lib.rs:resolve',
    ]);
    // Non-increasing scores, so that a sort by score (position breaking ties) keeps this order.
    const scores = out.map((s) => s.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(out.map((s) => s.score)).toEqual([100, 99, 97, 95, 95, 95, 94]);
    // What a waiting symbol lost is on the record; the others are the ranker's, untouched.
    expect(out[4]!.components[DIVERSITY_COMPONENT]).toBe(95 - 98);
    expect(out[5]!.components[DIVERSITY_COMPONENT]).toBe(95 - 96);
    expect(out[0]).toBe(ranked[0]);
    expect(out[6]).toBe(ranked[6]);
  });

  it('changes nothing when the window holds no name too often, or when turned off', () => {
    expect(diversifyRanking(ranked, byName(4, 10))).toBe(ranked);
    expect(diversifyRanking(ranked, byName(2, 2))).toBe(ranked);
    expect(diversifyRanking(ranked, byName(0, 10))).toBe(ranked);
    expect(diversifyRanking(ranked, byName(2, 0))).toBe(ranked);
    expect(diversifyRanking([], byName(1, 10))).toEqual([]);
  });

  it('keeps every symbol once, whatever the limit and window', () => {
    for (let limit = 1; limit <= 3; limit++) {
      for (let window = 1; window <= ranked.length + 1; window++) {
        const out = diversifyRanking(ranked, byName(limit, window));
        expect(new Set(out.map((s) => s.node.id)).size, `${limit}/${window}`).toBe(ranked.length);
        const head = out.slice(0, window).map((s) => s.node.name.toLowerCase());
        const inHead = (name: string): number => head.filter((n) => n === name).length;
        // The window repeats a name beyond the limit only when nothing after it could have taken the place.
        if (head.some((name) => inHead(name) > limit)) {
          for (const later of out.slice(window)) expect(inHead(later.node.name.toLowerCase()), `${limit}/${window}`).toBeGreaterThanOrEqual(limit);
        }
      }
    }
  });

  it('lets at most membersAfterOwner members of a listed type follow it in the window', () => {
    const members = ranking(
      'src/kube.cs:Kube',
      'src/kube.cs:Kube.Kube',
      'src/kube.cs:Kube.GetAsync',
      'src/poll.cs:PollKube.Poll',
      'src/poll.cs:PollKube',
      'src/poll.cs:PollKube.PollKube',
      'src/factory.cs:KubernetesProviderFactory',
      'src/kube.cs:Kube.Dispose',
    );
    const one = diversifyRanking(members, { sameNameLimit: 0, window: 5, membersAfterOwner: 1 });
    // Kube.GetAsync is Kube's second member after it and waits; PollKube.Poll came before its
    // type, so it counts for nothing; PollKube.PollKube is PollKube's first member after it.
    expect(names(one).slice(0, 5)).toEqual([
      'src/kube.cs:Kube',
      'src/kube.cs:Kube.Kube',
      'src/poll.cs:PollKube.Poll',
      'src/poll.cs:PollKube',
      'src/poll.cs:PollKube.PollKube',
    ]);
    expect(names(one)[5]).toBe('src/kube.cs:Kube.GetAsync');
    const none = diversifyRanking(members, { sameNameLimit: 0, window: 5, membersAfterOwner: 0 });
    // With too few others to fill the window, the waiting members follow in their order.
    expect(names(none)).toEqual([
      'src/kube.cs:Kube',
      'src/poll.cs:PollKube.Poll',
      'src/poll.cs:PollKube',
      'src/factory.cs:KubernetesProviderFactory',
      'src/kube.cs:Kube.Kube',
      'src/kube.cs:Kube.GetAsync',
      'src/poll.cs:PollKube.PollKube',
      'src/kube.cs:Kube.Dispose',
    ]);
    // A member the task spells out stays where the ranker put it, and takes none of the type's places.
    const spelled = diversifyRanking(members, { sameNameLimit: 0, window: 5, membersAfterOwner: 0 }, (s) => s.node.name === 'GetAsync');
    expect(names(spelled).slice(0, 5)).toEqual([
      'src/kube.cs:Kube',
      'src/kube.cs:Kube.GetAsync',
      'src/poll.cs:PollKube.Poll',
      'src/poll.cs:PollKube',
      'src/factory.cs:KubernetesProviderFactory',
    ]);
    // A top-level symbol has no owner, whatever its file holds.
    expect(diversifyRanking(ranking('src/a.py:run', 'src/a.py:main'), { sameNameLimit: 0, window: 10, membersAfterOwner: 0 }).map((s) => s.node.name)).toEqual(['run', 'main']);
    expect(diversifyRanking(members, { sameNameLimit: 0, window: 10, membersAfterOwner: 10 })).toBe(members);
  });

  it('with memberReturnShare brings a held member back before the first symbol scoring under that share of its score', () => {
    const scored = (entries: readonly (readonly [string, number])[]): RankedSymbol[] =>
      entries.map(([symbol, score]) => {
        const [file, name] = symbol.split(':') as [string, string];
        return { node: fixtureNode(file, name), score, distance: 0, rwr: 1, components: { relevance: score } };
      });
    const members = scored([
      ['src/codes.ts:DiscountCode', 0.9],
      ['src/codes.ts:DiscountCode.isRedeemable', 0.8],
      ['src/apply.ts:applyDiscountCode', 0.7],
      ['src/invoice.ts:Invoice', 0.6],
      ['src/invoice.ts:Invoice.total', 0.3],
      ['src/lines.ts:InvoiceLine', 0.25],
      ['src/refund.ts:refundInvoice', 0.14],
      ['src/status.ts:InvoiceStatus', 0.1],
    ]);
    const options = { sameNameLimit: 0, window: 6, membersAfterOwner: 0 };
    // Half of 0.8 is 0.4: isRedeemable gives way to the two symbols scoring 0.7 and 0.6, not to
    // InvoiceLine's 0.25; Invoice.total (half is 0.15) gives way to InvoiceLine and comes back
    // before refundInvoice's 0.14.
    const half = diversifyRanking(members, { ...options, memberReturnShare: 0.5 });
    expect(names(half)).toEqual([
      'src/codes.ts:DiscountCode',
      'src/apply.ts:applyDiscountCode',
      'src/invoice.ts:Invoice',
      'src/codes.ts:DiscountCode.isRedeemable',
      'src/lines.ts:InvoiceLine',
      'src/invoice.ts:Invoice.total',
      'src/refund.ts:refundInvoice',
      'src/status.ts:InvoiceStatus',
    ]);
    expect(half.map((s) => s.score)).toEqual([0.9, 0.7, 0.6, 0.6, 0.25, 0.25, 0.14, 0.1]);
    expect(half[3]!.components[DIVERSITY_COMPONENT]).toBeCloseTo(-0.2);
    // With no share given (0 here; the engine passes its 0.5) both wait until after the window, whatever the scores.
    expect(names(diversifyRanking(members, options)).slice(5, 8)).toEqual([
      'src/status.ts:InvoiceStatus',
      'src/codes.ts:DiscountCode.isRedeemable',
      'src/invoice.ts:Invoice.total',
    ]);
    // A share of 1 gives way to nothing ranked below: the ranking is unchanged.
    expect(names(diversifyRanking(members, { ...options, memberReturnShare: 1 }))).toEqual(names(members));
  });

  it('is an engine option with a checked shape', () => {
    expect(DEFAULT_ENGINE_OPTIONS.diversity).toEqual({ sameNameLimit: 2, window: 10, membersAfterOwner: 0, memberReturnShare: 0.5, testsLast: true });
    expect(resolveEngineOptions({ diversity: { membersAfterOwner: 10 } }).diversity).toEqual({ sameNameLimit: 2, window: 10, membersAfterOwner: 10, memberReturnShare: 0.5, testsLast: true });
    expect(() => resolveEngineOptions({ diversity: { testsLast: 'no' as unknown as boolean } })).toThrow(/engine\.diversity\.testsLast/);
    expect(() => resolveEngineOptions({ diversity: { memberReturnShare: Number.NaN } })).toThrow(/engine\.diversity\.memberReturnShare/);
    expect(() => resolveEngineOptions({ diversity: { membersAfterOwner: -1 / 0 } })).toThrow(/engine\.diversity\.membersAfterOwner/);
    expect(() => resolveEngineOptions({ diversity: { sameNameLimit: '2' as unknown as number } })).toThrow(/engine\.diversity\.sameNameLimit/);
  });
});

describe('moveLast', () => {
  const isTest = (symbol: RankedSymbol): boolean => symbol.node.file.startsWith('tests/') || symbol.node.file.startsWith('benches/');

  it('moves the symbols it picks after the others, each group in its order, with scores that never rise', () => {
    const ranked = ranking('tests/test_cart.py:test_total', 'src/cart.py:Cart.total', 'benches/cart.py:bench_total', 'src/cart.py:Cart', 'src/tax.py:rate');
    const moved = moveLast(ranked, isTest);
    expect(names(moved)).toEqual(['src/cart.py:Cart.total', 'src/cart.py:Cart', 'src/tax.py:rate', 'tests/test_cart.py:test_total', 'benches/cart.py:bench_total']);
    expect(moved.map((s) => s.score)).toEqual([99, 97, 96, 96, 96]);
    // What each moved symbol lost is its tests_last component; the others are untouched.
    expect(moved[3]!.components[TESTS_LAST_COMPONENT]).toBe(96 - 100);
    expect(moved[4]!.components[TESTS_LAST_COMPONENT]).toBe(96 - 98);
    expect(moved[0]).toBe(ranked[1]);
  });

  it('returns the very ranking when nothing is picked, everything is, or the picked ones are last already', () => {
    const code = ranking('src/a.py:a', 'src/b.py:b');
    expect(moveLast(code, isTest)).toBe(code);
    const tests = ranking('tests/test_a.py:test_a', 'tests/test_b.py:test_b');
    expect(moveLast(tests, isTest)).toBe(tests);
    const settled = ranking('src/a.py:a', 'tests/test_a.py:test_a');
    expect(moveLast(settled, isTest)).toBe(settled);
  });
});

describe('diversity in a real task answer', () => {
  it('puts test code after the code of a task not about tests, and leaves a task about tests alone', async () => {
    const fixture = await indexedFixture();
    try {
      const answer = async (task: string, testsLast: boolean) =>
        (await createEngine({ store: fixture.store, options: { diversity: { testsLast }, cache: false } }).forTask(task, { budget: 100_000 })).ranked;
      const task = 'full_dispatch_request runs before_request hooks and stops the dispatch';
      const ranked = await answer(task, false);
      const firstTest = ranked.findIndex((s) => s.node.isTest);
      // The ranker itself puts a test above some of the code.
      expect(firstTest).toBeGreaterThanOrEqual(0);
      expect(ranked.slice(firstTest).some((s) => !s.node.isTest)).toBe(true);
      const moved = await answer(task, true);
      const lastCode = moved.map((s) => s.node.isTest).lastIndexOf(false);
      expect(moved.slice(0, lastCode + 1).every((s) => !s.node.isTest)).toBe(true);
      expect(moved.map((s) => s.node.id).sort()).toEqual(ranked.map((s) => s.node.id).sort());
      // The default does it, and `explainSymbol` says what a moved test lost.
      const engine = createEngine({ store: fixture.store, options: { cache: false } });
      expect((await engine.forTask(task, { budget: 100_000 })).ranked.map((s) => s.node.id)).toEqual(moved.map((s) => s.node.id));
      const overtaken = ranked[firstTest]!.node;
      const explanation = await engine.explainSymbol(task, overtaken.qualifiedName.slice(overtaken.file.length + 1));
      expect(explanation.components[TESTS_LAST_COMPONENT]).toBeLessThan(0);
      expect(explanation.rank).toBeGreaterThan(lastCode + 1);
      // A task about tests keeps the ranker's order.
      const aboutTests = 'fix the failing test_dispatch_request test';
      expect((await answer(aboutTests, true)).map((s) => s.node.id)).toEqual((await answer(aboutTests, false)).map((s) => s.node.id));
    } finally {
      await fixture.cleanup();
    }
  }, 60_000);

  it('moves a repeated name after the window, and `explainSymbol` says what it lost', async () => {
    const fixture = await indexedFixture();
    try {
      const task = 'add_url_rule registers the url rule of a view';
      const plain = createEngine({ store: fixture.store, options: { diversity: { sameNameLimit: 0, membersAfterOwner: 10 }, cache: false } });
      const diverse = createEngine({ store: fixture.store, options: { diversity: { sameNameLimit: 1, window: 5, membersAfterOwner: 5 }, cache: false } });
      const before = (await plain.forTask(task, { budget: 100_000 })).ranked.map((s) => s.node);
      const after = (await diverse.forTask(task, { budget: 100_000 })).ranked.map((s) => s.node);
      const rules = (nodes: readonly { name: string }[]): number => nodes.slice(0, 5).filter((n) => n.name === 'add_url_rule').length;
      // Without the limit the fixture's three add_url_rule methods are all among the first five.
      expect(rules(before)).toBeGreaterThan(1);
      expect(rules(after)).toBe(1);
      expect(after.map((n) => n.id).sort()).toEqual(before.map((n) => n.id).sort());
      const waited = after.slice(5).find((n) => n.name === 'add_url_rule')!;
      const explanation = await diverse.explainSymbol(task, waited.qualifiedName.slice(waited.file.length + 1));
      expect(explanation.components[DIVERSITY_COMPONENT]).toBeLessThan(0);
      expect(explanation.rank).toBeGreaterThan(5);
    } finally {
      await fixture.cleanup();
    }
  }, 60_000);

  it('lets members of a listed type give way to code ranked nearly as high, and only that, by default', async () => {
    const fixture = await indexedFixture();
    try {
      const answerTo = async (task: string, diversity: Record<string, number>) =>
        (await createEngine({ store: fixture.store, options: { diversity, cache: false } }).forTask(task, { budget: 100_000 })).ranked.map((s) => ({
          name: s.node.qualifiedName.replace('tinyweb/', ''),
          score: s.score,
        }));
      const answer = (diversity: Record<string, number>) => answerTo('cookie session interface', diversity);
      const before = await answer({ membersAfterOwner: 10 });
      const after = await answer({});
      const waitingToTheEnd = await answer({ membersAfterOwner: 0, memberReturnShare: 0 });
      const top = (ranked: readonly { name: string }[]): string[] => ranked.slice(0, 10).map((s) => s.name);
      const members = ['save_session', 'open_session', 'sign'].map((m) => `sessions.py.SessionInterface.${m}`);
      // The ranker put the three members among the first seven, two right after their type.
      expect(top(before).slice(0, 7)).toEqual(expect.arrayContaining(members));
      // Waiting to the window's end, they leave the first ten to code scored a tenth as high.
      for (const member of members) expect(top(waitingToTheEnd)).not.toContain(member);
      // By default they come back before the first symbol under half their score: still in the
      // first ten, after the type and the code ranked nearly as high as they were.
      expect(await answer({ membersAfterOwner: 0, memberReturnShare: 0.5 })).toEqual(after);
      const scoreBefore = new Map(before.map((s) => [s.name, s.score]));
      for (const member of members) {
        const at = top(after).indexOf(member);
        expect(at, member).toBeGreaterThan(top(after).indexOf('sessions.py.SessionInterface'));
        expect(at, member).toBeGreaterThan(top(after).indexOf('sessions.py.SecureCookieSession'));
        for (const ahead of after.slice(0, at)) {
          if (before.findIndex((s) => s.name === ahead.name) > before.findIndex((s) => s.name === member)) {
            expect(scoreBefore.get(ahead.name)!, `${ahead.name} before ${member}`).toBeGreaterThanOrEqual(0.5 * scoreBefore.get(member)!);
          }
        }
      }
      // A task that spells out a member's name ("opens", "saves", "signed") keeps it where the
      // ranker put it, even when the others wait to the window's end.
      const spelledOut = top(await answerTo('the session interface opens and saves the signed cookie session', { membersAfterOwner: 0, memberReturnShare: 0 }));
      for (const member of members) expect(spelledOut).toContain(member);
    } finally {
      await fixture.cleanup();
    }
  }, 60_000);
});
