import type { GraphNode, GraphStore } from '@knowing/graph';
import type { KeywordSet } from '@knowing/keywords';

/** One hit of one channel, best first within the channel. */
export interface ChannelHit {
  readonly node: GraphNode;
  /** Which tier or sub-rule produced it (`exact`, `prefix`, `substring`, `path`, a class concept, `bm25f`, …). */
  readonly detail: string;
  /** The channel's own score, higher is better, when it has one (BM25 has, name tiers have not). */
  readonly score?: number;
}

/** What a channel may read for one task. */
export interface ChannelContext {
  readonly store: GraphStore;
  /** The task as the user wrote it. */
  readonly task: string;
  readonly keywords: KeywordSet;
  /** The task is about tests: test code may be returned. */
  readonly aboutTests: boolean;
  /**
   * Terms the engine's vocabulary relates to the task's words through the concept thesaurus
   * (`consumer` → `subscriber`, `listener`; at most `equivalence.thesaurusTerms`), for a channel
   * that widens a thin query with them. The engine derives them from the keywords before any
   * channel runs, so every channel sees the same ones; left out (read: none) when a channel is
   * run on its own.
   */
  readonly relatedTerms?: readonly string[];
  /**
   * Where a channel that builds a query (a full-text expression, a prompt) may report the one
   * it finally ran, for traces: the bm25 channel's report is the trace's `ftsQuery`. Reporting
   * is optional and changes nothing else; left out when nobody listens.
   */
  readonly reportQuery?: (query: string) => void;
}

/**
 * A retrieval channel: task → ranked hits. Channels are registered with the engine
 * (`createEngine({ channels })`) and fused by reciprocal rank at the weight the engine's
 * options give their name.
 *
 * @example
 * ```ts
 * const todoChannel: Channel = {
 *   name: 'todo',
 *   fingerprint: () => 'todo@1',
 *   async run({ store }) {
 *     return (await store.lexicalSearch(['todo'])).map((h) => ({ node: h.node, detail: 'todo', score: h.score }));
 *   },
 * };
 * ```
 */
export interface Channel {
  /**
   * Unique among the engine's channels; the key of its weight and of its hits in traces. A
   * registered channel named like a built-in one replaces it; `equiv` is the vocabulary stage's.
   */
  readonly name: string;
  /**
   * Everything that decides the channel's hits besides the task and the graph (its options,
   * its version), as a string: answers cached under one fingerprint are not served under another.
   */
  fingerprint(): string;
  run(context: ChannelContext): Promise<readonly ChannelHit[]>;
}

/** Names a registered channel may not take: the vocabulary stage's hits are fused under `equiv`. */
export const RESERVED_CHANNEL_NAMES: ReadonlySet<string> = new Set(['equiv']);
