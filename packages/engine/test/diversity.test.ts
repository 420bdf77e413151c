import type { RankedSymbol } from '@knowing/graph';
import { fixtureNode } from '@knowing/rank/testing';
import { describe, expect, it } from 'vitest';
import { DIVERSITY_COMPONENT, diversifyRanking } from '../src/diversity.js';
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
    // A member the task names stays where the ranker put it, and takes none of the type's places.
    const named = diversifyRanking(members, { sameNameLimit: 0, window: 5, membersAfterOwner: 0 }, (s) => s.node.name === 'GetAsync');
    expect(names(named).slice(0, 5)).toEqual([
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

  it('is an engine option with a checked shape: names on by default, members of a listed type off', () => {
    expect(DEFAULT_ENGINE_OPTIONS.diversity).toEqual({ sameNameLimit: 2, window: 10, membersAfterOwner: 10 });
    expect(resolveEngineOptions({ diversity: { membersAfterOwner: 0 } }).diversity).toEqual({ sameNameLimit: 2, window: 10, membersAfterOwner: 0 });
    expect(() => resolveEngineOptions({ diversity: { membersAfterOwner: -1 / 0 } })).toThrow(/engine\.diversity\.membersAfterOwner/);
    expect(() => resolveEngineOptions({ diversity: { sameNameLimit: '2' as unknown as number } })).toThrow(/engine\.diversity\.sameNameLimit/);
  });
});

describe('diversity in a real task answer', () => {
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

  it('with membersAfterOwner 0 lists no member after its own type among the first ten unless the task names it', async () => {
    const fixture = await indexedFixture();
    try {
      const task = 'the session interface opens and saves the signed cookie session';
      const engineWith = (membersAfterOwner: number) => createEngine({ store: fixture.store, options: { diversity: { membersAfterOwner }, cache: false } });
      const top = async (membersAfterOwner: number): Promise<string[]> =>
        (await engineWith(membersAfterOwner).forTask(task, { budget: 100_000 })).ranked.slice(0, 10).map((s) => s.node.qualifiedName.replace('tinyweb/', ''));
      const before = await top(10);
      const after = await top(0);
      // Off by default.
      expect(await top(DEFAULT_ENGINE_OPTIONS.diversity.membersAfterOwner)).toEqual(before);
      // App.wsgi_app matched only through words its type shares; it waits behind App.
      expect(before.indexOf('app.py.App.wsgi_app')).toBeGreaterThan(before.indexOf('app.py.App'));
      expect(after).toContain('app.py.App');
      expect(after).not.toContain('app.py.App.wsgi_app');
      // "opens", "saves" and "signed" name open_session, save_session and sign: they stay after their type.
      for (const member of ['save_session', 'open_session', 'sign']) {
        expect(after.indexOf(`sessions.py.SessionInterface.${member}`)).toBeGreaterThan(after.indexOf('sessions.py.SessionInterface'));
      }
    } finally {
      await fixture.cleanup();
    }
  }, 60_000);
});
