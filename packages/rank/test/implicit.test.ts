import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@knowing/graph';
import type { FeedbackRecord, FeedbackStore, FeedbackTally, NodeId, VocabAssociation, VocabStore } from '@knowing/graph';
import { createDefaultRanker, createImplicitFeedback } from '../src/index.js';
import { defaultIsVocabWorthy, extractIdentifiers } from '../src/implicit.js';
import type { RankInput } from '../src/index.js';
import { fixtureNode } from '../src/testing.js';

/** In-memory stand-ins for the SQLite store's feedback and vocabulary tables. */
function fakeFeedbackStore(): FeedbackStore & { records: FeedbackRecord[]; writes: number } {
  const records: FeedbackRecord[] = [];
  return {
    records,
    writes: 0,
    async recordFeedback(batch) {
      this.writes++;
      records.push(...batch);
    },
    async feedbackFor(symbols, options = {}) {
      const tallies = new Map<NodeId, FeedbackTally>();
      for (const symbol of symbols) {
        const rows = records.filter((r) => r.symbol === symbol && (options.keywordCluster === undefined || r.keywordCluster === options.keywordCluster));
        if (rows.length > 0) tallies.set(symbol, { useful: rows.filter((r) => r.useful).length, notUseful: rows.filter((r) => !r.useful).length });
      }
      return tallies;
    },
  };
}

function fakeVocabStore(): VocabStore & { counts: Map<string, VocabAssociation> } {
  const counts = new Map<string, VocabAssociation>();
  return {
    counts,
    async recordVocab(entries) {
      for (const e of entries) {
        const key = `${e.keyword}\0${e.symbol}`;
        const previous = counts.get(key);
        counts.set(key, {
          keyword: e.keyword,
          symbol: e.symbol,
          symbolName: e.symbolName,
          count: (previous?.count ?? 0) + 1,
          cluster: e.cluster ?? null,
          packageRoot: e.packageRoot ?? null,
        });
      }
    },
    async vocabFor(keywords, options = {}) {
      return [...counts.values()]
        .filter((a) => keywords.includes(a.keyword) && a.count >= (options.minCount ?? 1))
        .sort((a, b) => b.count - a.count);
    },
  };
}

const T0 = 1_700_000_000_000;
const MIN = 60_000;
const resolve = fixtureNode('src/requests/sessions.py', 'SessionRedirectMixin.resolve_redirects', { kind: 'method' });
const rebuild = fixtureNode('src/requests/sessions.py', 'SessionRedirectMixin.rebuild_auth', { kind: 'method' });
const session = fixtureNode('src/requests/sessions.py', 'Session', { kind: 'class' });
const ok = fixtureNode('src/requests/models.py', 'Response.ok', { kind: 'property' });
const save = fixtureNode('app/models/user.rb', 'User.save!', { kind: 'method', language: 'ruby' });
const returned = [resolve, rebuild, session, ok, save].map((node) => ({ node }));

describe('extractIdentifiers', () => {
  it('finds identifiers longer than 2 characters, splitting dotted paths', () => {
    expect([...extractIdentifiers('self.rebuild_auth(prepared, resp) # ok in src/x.py')]).toEqual(['self', 'rebuild_auth', 'prepared', 'resp', 'src']);
    expect(extractIdentifiers('$el a1 9lives', 3).has('$el')).toBe(true);
    expect(extractIdentifiers('$el a1 9lives', 3).has('lives')).toBe(true);
  });
});

describe('defaultIsVocabWorthy', () => {
  it('keeps words of 3+ characters that are not numbers', () => {
    expect(['redirect', 'auth', 'api'].every(defaultIsVocabWorthy)).toBe(true);
    expect(['to', '404', '3.14', '  ', 'ab'].some(defaultIsVocabWorthy)).toBe(false);
  });
});

describe('createImplicitFeedback', () => {
  it('attributes used symbols within the window, then records positive, negative and vocabulary', async () => {
    const feedback = fakeFeedbackStore();
    const vocab = fakeVocabStore();
    const implicit = createImplicitFeedback({ feedback, vocab });
    const roots = new Map([[resolve.id, 'root-sessions']]);
    implicit.registerReturned('s1', returned, {
      keywords: ['redirect', 'auth', 'to', '404', 'Redirect'],
      keywordCluster: 'c-redirect',
      neighborhoodRoots: roots,
      at: T0,
    });

    const used = implicit.detectUsed('s1', 'def resolve_redirects(self, resp):\n    self.rebuild_auth(prepared, resp)  # ok', T0 + MIN);
    expect(used).toEqual([resolve.id, rebuild.id]);
    expect(implicit.detectUsed('s1', 'resolve_redirects again', T0 + 2 * MIN)).toEqual([]); // already attributed
    expect(implicit.detectUsed('s1', 'Session()', T0 + 11 * MIN)).toEqual([]); // outside the 10-minute window
    expect(implicit.detectUsed('s1', 'user.save! if valid', T0 + 10 * MIN)).toEqual([save.id]); // window edge is inclusive
    expect(implicit.detectUsed('other-session', 'Session()', T0 + MIN)).toEqual([]);

    const result = await implicit.flush('s1', T0 + 12 * MIN);
    expect(result.positive.map((r) => r.symbol)).toEqual([resolve.id, rebuild.id, save.id]);
    expect(result.negative.map((r) => r.symbol)).toEqual([session.id, ok.id]);
    expect(result.positive[0]).toEqual({
      symbol: resolve.id,
      useful: true,
      session: 's1',
      neighborhoodRoot: 'root-sessions',
      keywordCluster: 'c-redirect',
      at: T0 + 12 * MIN,
    });
    expect(result.negative.every((r) => r.useful === false && r.keywordCluster === 'c-redirect')).toBe(true);
    expect(feedback.records).toHaveLength(5);
    expect(feedback.writes).toBe(1);

    // Only 'redirect' and 'auth' are vocab-worthy (lower-cased, deduplicated), times 3 used symbols.
    expect(result.vocab).toHaveLength(6);
    expect(result.vocab[0]).toEqual({ keyword: 'redirect', symbol: resolve.id, symbolName: 'resolve_redirects', cluster: 'c-redirect', packageRoot: 'root-sessions' });
    expect(new Set(result.vocab.map((v) => v.keyword))).toEqual(new Set(['redirect', 'auth']));
    expect(vocab.counts.size).toBe(6);

    expect(implicit.pending('s1')).toEqual([]);
    expect(await implicit.flush('s1', T0 + 13 * MIN)).toEqual({ positive: [], negative: [], vocab: [] });
    expect(feedback.writes).toBe(1);
  });

  it('never matches names shorter than 3 characters, nor text from before the return', async () => {
    const implicit = createImplicitFeedback({ feedback: fakeFeedbackStore() });
    implicit.registerReturned('s', [{ node: fixtureNode('src/a.go', 'Do') }, { node: fixtureNode('src/a.go', 'Handle') }], { at: T0 });
    expect(implicit.detectUsed('s', 'x.Do() and Handle()', T0 - 1)).toEqual([]);
    expect(implicit.detectUsed('s', 'x.Do()', T0 + 1)).toEqual([]);
  });

  it('keeps sessions apart and learns no vocabulary without a vocab store', async () => {
    const feedback = fakeFeedbackStore();
    const implicit = createImplicitFeedback({ feedback });
    implicit.registerReturned('a', [{ node: resolve }], { keywords: ['redirect'], at: T0 });
    implicit.registerReturned('b', [{ node: resolve }], { keywords: ['redirect'], at: T0 });
    implicit.detectUsed('a', 'resolve_redirects', T0 + 1);
    const a = await implicit.flush('a', T0 + 2);
    expect(a.positive).toHaveLength(1);
    expect(a.vocab).toEqual([]);
    expect(implicit.pending('b')).toEqual([{ id: resolve.id, name: 'resolve_redirects', returnedAt: T0, used: false }]);
    implicit.reset('b');
    expect(implicit.pending('b')).toEqual([]);
  });

  it('refreshes a symbol returned again before a flush, keeping an earlier use', async () => {
    const implicit = createImplicitFeedback({ feedback: fakeFeedbackStore() });
    implicit.registerReturned('s', [{ node: resolve }], { at: T0 });
    implicit.detectUsed('s', 'resolve_redirects', T0 + MIN);
    implicit.registerReturned('s', [{ node: resolve }, { node: rebuild }], { at: T0 + 20 * MIN });
    expect(implicit.pending('s')).toEqual([
      { id: resolve.id, name: 'resolve_redirects', returnedAt: T0 + 20 * MIN, used: true },
      { id: rebuild.id, name: 'rebuild_auth', returnedAt: T0 + 20 * MIN, used: false },
    ]);
    // The refreshed window lets a later use count.
    expect(implicit.detectUsed('s', 'rebuild_auth', T0 + 25 * MIN)).toEqual([rebuild.id]);
  });

  it('uses the injected clock when no time is given', () => {
    let now = T0;
    const implicit = createImplicitFeedback({ feedback: fakeFeedbackStore(), options: { clock: () => now } });
    implicit.registerReturned('s', [{ node: resolve }]);
    now += 11 * MIN;
    expect(implicit.detectUsed('s', 'resolve_redirects')).toEqual([]);
    expect(implicit.pending('s')[0]!.returnedAt).toBe(T0);
  });

  it('wraps store failures and rejects bad set-up', async () => {
    const failing: FeedbackStore = {
      recordFeedback: async () => {
        throw new Error('disk full');
      },
      feedbackFor: async () => new Map(),
    };
    const implicit = createImplicitFeedback({ feedback: failing });
    implicit.registerReturned('s', [{ node: resolve }], { at: T0 });
    await expect(implicit.flush('s', T0)).rejects.toMatchObject({ code: ErrorCode.Internal, message: expect.stringContaining('session "s"') });
    expect(() => createImplicitFeedback({ feedback: undefined as unknown as FeedbackStore })).toThrow(expect.objectContaining({ code: ErrorCode.InvalidArgument }));
    expect(() => createImplicitFeedback({ feedback: failing, options: { windowMs: -1 } })).toThrow(expect.objectContaining({ code: ErrorCode.InvalidArgument }));
  });

  it('closes the loop: ignored symbols drop and used ones rise on the next query', async () => {
    const feedback = fakeFeedbackStore();
    const implicit = createImplicitFeedback({ feedback });
    const ranker = createDefaultRanker();
    const candidates: RankInput[] = [
      { node: session, rwr: 0.8, distance: 0, isSeed: true },
      { node: resolve, rwr: 0.8, distance: 0, isSeed: true },
    ];
    const context = { task: 'redirects drop the auth header', now: T0 };
    const withTallies = async (): Promise<RankInput[]> => {
      const tallies = await feedback.feedbackFor(candidates.map((c) => c.node.id), { keywordCluster: 'c1' });
      return candidates.map((c) => ({ ...c, feedback: tallies.get(c.node.id) }));
    };

    const first = ranker.rank(await withTallies(), context);
    expect(first[0]!.score).toBe(first[1]!.score); // a tie before any feedback
    implicit.registerReturned('s', first, { keywordCluster: 'c1', at: T0 });
    implicit.detectUsed('s', 'def resolve_redirects(self):', T0 + MIN);
    await implicit.flush('s', T0 + 2 * MIN);

    const second = ranker.rank(await withTallies(), context);
    expect(second.map((r) => r.node.id)).toEqual([resolve.id, session.id]);
    expect(second[0]!.components['feedback']).toBeCloseTo(0.25, 12);
    expect(second[1]!.components['feedback']).toBeCloseTo(-0.05, 12);
  });
});
