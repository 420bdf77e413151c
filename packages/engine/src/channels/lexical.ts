import type { LexicalField } from '@knowing/graph';
import { lexicalQueryTerms } from '@knowing/keywords/lexical';
import type { Channel, ChannelHit } from '../channel.js';

/** Settings of the lexical channel. */
export interface LexicalChannelOptions {
  /** Hits returned. @default 60 */
  readonly limit: number;
  /**
   * BM25F weights of the fields' term frequencies. A symbol's name, path and signature also
   * appear in its body, so their own fields add to what the body already counts.
   * @default { name: 1, path: 1, signature: 0, doc: 1, body: 1, members: 1 }
   */
  readonly fieldWeights: Readonly<Record<LexicalField, number>>;
}

/** Settings given to {@link createLexicalChannel}: any subset, field weights too. */
export interface LexicalChannelInput {
  readonly limit?: number;
  readonly fieldWeights?: Readonly<Partial<Record<LexicalField, number>>>;
}

export const DEFAULT_LEXICAL_CHANNEL_OPTIONS: LexicalChannelOptions = Object.freeze({
  limit: 60,
  fieldWeights: Object.freeze({ name: 1, path: 1, signature: 0, doc: 1, body: 1, members: 1 }),
});

/**
 * BM25F over what each symbol says and does (name, path, signature, doc comment, body), with
 * the task's words normalised exactly as the indexer normalised the symbols' text. The channel
 * every long, natural-language task leans on: it reads bodies, where the name channels read
 * names only.
 *
 * @example
 * ```ts
 * const engine = createEngine({ store, channels: [createLexicalChannel({ limit: 100 })] });
 * ```
 */
export function createLexicalChannel(options: LexicalChannelInput = {}): Channel {
  const settings: LexicalChannelOptions = {
    limit: options.limit ?? DEFAULT_LEXICAL_CHANNEL_OPTIONS.limit,
    fieldWeights: { ...DEFAULT_LEXICAL_CHANNEL_OPTIONS.fieldWeights, ...options.fieldWeights },
  };
  const fingerprint = `lexical@1${JSON.stringify(settings)}`;
  return {
    name: 'lexical',
    fingerprint: () => fingerprint,
    async run({ store, task, aboutTests }): Promise<ChannelHit[]> {
      const terms = lexicalQueryTerms(task);
      if (terms.length === 0) return [];
      const hits = await store.lexicalSearch(terms, { limit: settings.limit, fieldWeights: settings.fieldWeights, includeTests: aboutTests });
      return hits.map((hit) => ({ node: hit.node, detail: 'bm25f', score: hit.score }));
    },
  };
}
