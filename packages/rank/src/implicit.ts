import { ErrorCode, KnowingError, isKnowingError } from '@knowing/graph';
import type { FeedbackRecord, NodeId } from '@knowing/graph';
import type {
  FlushResult,
  ImplicitFeedback,
  ImplicitFeedbackDeps,
  ImplicitFeedbackOptions,
  PendingSymbol,
  ReturnedMeta,
  ReturnedSymbol,
  VocabEntry,
} from './types.js';

/**
 * Whether a keyword may become a vocabulary association: at least 3 characters and not a
 * number. The engine can pass a stricter predicate (e.g. one that also drops stop words).
 *
 * @example
 * ```ts
 * defaultIsVocabWorthy('redirect'); // true
 * defaultIsVocabWorthy('404');      // false
 * ```
 */
export function defaultIsVocabWorthy(keyword: string): boolean {
  const k = keyword.trim();
  return k.length >= 3 && !/^[\d\s.,_-]+$/.test(k);
}

/**
 * The seeds' attribution settings: a 10-minute window and identifiers longer than 2 characters.
 *
 * @example
 * ```ts
 * createImplicitFeedback({ feedback: store, options: { ...DEFAULT_IMPLICIT_FEEDBACK_OPTIONS, windowMs: 300_000 } });
 * ```
 */
export const DEFAULT_IMPLICIT_FEEDBACK_OPTIONS: ImplicitFeedbackOptions = Object.freeze({
  windowMs: 600_000,
  minIdentifierLength: 3,
  isVocabWorthy: defaultIsVocabWorthy,
  clock: () => Date.now(),
});

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/**
 * Identifiers in agent text (code, paths, prose): runs of letters, digits, `_` and `$` not
 * starting with a digit, at least `minLength` long. Dotted paths yield each part.
 *
 * @example
 * ```ts
 * extractIdentifiers('app.before_request(fn) in src/app.py', 3); // Set { 'app', 'before_request', 'src' }
 * ```
 */
export function extractIdentifiers(text: string, minLength: number = DEFAULT_IMPLICIT_FEEDBACK_OPTIONS.minIdentifierLength): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(IDENTIFIER)) if (match[0].length >= minLength) found.add(match[0]);
  return found;
}

/** The identifier form of a symbol name: Ruby's `save!`/`valid?`/`name=` match `save`/`valid`/`name`. */
function nameKey(name: string): string {
  return name.replace(/[!?=]+$/, '');
}

interface Pending {
  readonly id: NodeId;
  readonly name: string;
  readonly key: string;
  returnedAt: number;
  used: boolean;
  keywords: readonly string[];
  cluster: string | null;
  root: string | null;
}

function invalid(message: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source: 'rank' });
}

function checkTime(at: number): number {
  if (typeof at !== 'number' || !Number.isFinite(at)) throw invalid(`implicit feedback time must be a finite number of ms, got ${String(at)}`);
  return at;
}

/**
 * The implicit-feedback learning loop. Per session it remembers the symbols returned to the
 * agent; `detectUsed` marks those whose name appears as an identifier in the agent's later
 * text within the window; `flush` records used symbols as useful, the others as not useful,
 * and associates each vocab-worthy task keyword (lower-cased) with each used symbol.
 *
 * Wiring in a task query: `await flush(session, now)` (the previous answer's verdicts), rank
 * with the refreshed feedback tallies, then `registerReturned(session, packed, { keywords,
 * keywordCluster, at: now })`; feed agent tool calls to `detectUsed`.
 *
 * @throws KnowingError `INVALID_ARGUMENT` for bad options or times.
 * @example
 * ```ts
 * const implicit = createImplicitFeedback({ feedback: store, vocab: store });
 * implicit.registerReturned('s1', pack.symbols, { keywords: ['redirect', 'auth'], keywordCluster: 'c1', at: now });
 * implicit.detectUsed('s1', 'def resolve_redirects(self, resp):', now + 30_000);
 * const { positive, negative, vocab } = await implicit.flush('s1', now + 60_000);
 * ```
 */
export function createImplicitFeedback(deps: ImplicitFeedbackDeps): ImplicitFeedback {
  const { feedback, vocab } = deps;
  if (!feedback || typeof feedback.recordFeedback !== 'function') {
    throw invalid('createImplicitFeedback needs a FeedbackStore (an object with recordFeedback)');
  }
  if (vocab !== undefined && typeof vocab.recordVocab !== 'function') throw invalid('the vocab store must have recordVocab');
  const o: ImplicitFeedbackOptions = { ...DEFAULT_IMPLICIT_FEEDBACK_OPTIONS, ...deps.options };
  if (!(o.windowMs >= 0) || !Number.isFinite(o.windowMs)) throw invalid(`implicit feedback option windowMs must be a number ≥ 0, got ${String(o.windowMs)}`);
  if (!Number.isInteger(o.minIdentifierLength) || o.minIdentifierLength < 1) {
    throw invalid(`implicit feedback option minIdentifierLength must be a positive integer, got ${String(o.minIdentifierLength)}`);
  }
  if (typeof o.isVocabWorthy !== 'function' || typeof o.clock !== 'function') throw invalid('implicit feedback options isVocabWorthy and clock must be functions');

  const sessions = new Map<string, Map<NodeId, Pending>>();

  function vocabEntries(entry: Pending): VocabEntry[] {
    const entries: VocabEntry[] = [];
    const seen = new Set<string>();
    for (const raw of entry.keywords) {
      const keyword = raw.trim().toLowerCase();
      if (seen.has(keyword) || !o.isVocabWorthy(keyword)) continue;
      seen.add(keyword);
      entries.push({ keyword, symbol: entry.id, symbolName: entry.name, cluster: entry.cluster, packageRoot: entry.root });
    }
    return entries;
  }

  return {
    registerReturned(session: string, symbols: readonly ReturnedSymbol[], meta: ReturnedMeta = {}) {
      const at = checkTime(meta.at ?? o.clock());
      let pending = sessions.get(session);
      if (!pending) {
        pending = new Map();
        sessions.set(session, pending);
      }
      const keywords = meta.keywords ? [...meta.keywords] : [];
      const cluster = meta.keywordCluster ?? null;
      for (const symbol of symbols) {
        const { id, name } = symbol.node;
        const root = meta.neighborhoodRoots?.get(id) ?? null;
        const existing = pending.get(id);
        if (existing) {
          // Returned again before a flush: the newest answer's time and task apply; a use already seen stays.
          existing.returnedAt = at;
          existing.keywords = keywords;
          existing.cluster = cluster;
          existing.root = root;
        } else {
          pending.set(id, { id, name, key: nameKey(name), returnedAt: at, used: false, keywords, cluster, root });
        }
      }
    },

    detectUsed(session: string, text: string, at: number = o.clock()) {
      checkTime(at);
      const pending = sessions.get(session);
      if (!pending || pending.size === 0 || !text) return [];
      const identifiers = extractIdentifiers(text, o.minIdentifierLength);
      const used: NodeId[] = [];
      for (const entry of pending.values()) {
        if (entry.used || at < entry.returnedAt || at - entry.returnedAt > o.windowMs) continue;
        if (entry.key.length >= o.minIdentifierLength && identifiers.has(entry.key)) {
          entry.used = true;
          used.push(entry.id);
        }
      }
      return used;
    },

    async flush(session: string, at: number = o.clock()): Promise<FlushResult> {
      checkTime(at);
      const pending = sessions.get(session);
      // Taken out before any await: symbols registered meanwhile start a new batch.
      sessions.delete(session);
      if (!pending || pending.size === 0) return { positive: [], negative: [], vocab: [] };
      const positive: FeedbackRecord[] = [];
      const negative: FeedbackRecord[] = [];
      const learned: VocabEntry[] = [];
      for (const entry of pending.values()) {
        const record: FeedbackRecord = {
          symbol: entry.id,
          useful: entry.used,
          session,
          neighborhoodRoot: entry.root,
          keywordCluster: entry.cluster,
          at,
        };
        (entry.used ? positive : negative).push(record);
        if (entry.used && vocab) learned.push(...vocabEntries(entry));
      }
      try {
        await feedback.recordFeedback([...positive, ...negative]);
        if (vocab && learned.length > 0) await vocab.recordVocab(learned);
      } catch (error) {
        if (isKnowingError(error)) throw error;
        throw new KnowingError(ErrorCode.Internal, `implicit feedback for session "${session}" could not be recorded`, {
          source: 'rank',
          cause: error,
          hint: 'the store rejected the write; this batch of feedback is dropped',
        });
      }
      return { positive, negative, vocab: learned };
    },

    pending(session: string): PendingSymbol[] {
      const pending = sessions.get(session);
      if (!pending) return [];
      return [...pending.values()].map((entry) => ({ id: entry.id, name: entry.name, returnedAt: entry.returnedAt, used: entry.used }));
    },

    reset(session?: string) {
      if (session === undefined) sessions.clear();
      else sessions.delete(session);
    },
  };
}
