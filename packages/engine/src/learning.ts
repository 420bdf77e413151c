import type { GraphStore, RankedSymbol } from '@knowing/graph';
import { isVocabWorthy } from '@knowing/keywords';
import { createImplicitFeedback, createSessionTracker } from '@knowing/rank';
import type { ImplicitFeedback, SessionTracker } from '@knowing/rank';

/** What the engine learns from a session: the symbols it returned, and which the agent used. */
export interface SessionLearning {
  /** The session's tracker, created on first use; none without a session id. */
  tracker(session: string | undefined): SessionTracker | undefined;
  /** Before an answer: turn what the agent used since the last one into feedback. True when feedback was recorded. */
  before(session: string | undefined): Promise<boolean>;
  /** After an answer: remember what was returned, for the session boost and the next `before`. */
  after(session: string | undefined, symbols: readonly RankedSymbol[], keywords: readonly string[], cluster: string | null): void;
  /** Text the agent produced, scanned for symbols it used. */
  observe(session: string, text: string): void;
}

/** Session trackers and implicit feedback; with `enabled` false only the session boost is kept. */
export function createSessionLearning(store: GraphStore, enabled: boolean, clock: () => number): SessionLearning {
  const sessions = new Map<string, SessionTracker>();
  const implicit: ImplicitFeedback = createImplicitFeedback({
    feedback: store,
    vocab: store,
    options: { isVocabWorthy: (k: string) => isVocabWorthy(k) },
  });

  const tracker = (id: string | undefined): SessionTracker | undefined => {
    if (!id) return undefined;
    let found = sessions.get(id);
    if (!found) sessions.set(id, (found = createSessionTracker()));
    return found;
  };

  return {
    tracker,
    async before(session) {
      if (!session || !enabled) return false;
      const flushed = await implicit.flush(session, clock());
      return flushed.positive.length + flushed.negative.length > 0;
    },
    after(session, symbols, keywords, cluster) {
      if (!session) return;
      tracker(session)!.record(
        symbols.map((s) => s.node.id),
        clock(),
      );
      if (enabled) implicit.registerReturned(session, symbols, { keywords, keywordCluster: cluster, at: clock() });
    },
    observe(session, text) {
      if (enabled) implicit.detectUsed(session, text, clock());
    },
  };
}
