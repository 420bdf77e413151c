import { appliesToLanguage } from './language.js';
import { DEFAULT_FORCE_OPTIONS, DEFAULT_STRONG_MATCH_OPTIONS, checkInteger, checkNumber, withDefaults } from './options.js';
import { ignoredSet, phraseWords, taskWordStreams } from './text.js';
import type {
  EquivalenceClass,
  EquivalenceMatch,
  ForceOptions,
  MatchOptions,
  StrongMatchOptions,
} from './types.js';

interface CompiledPhrase {
  readonly text: string;
  readonly words: readonly string[];
  readonly key: string;
}

/** Compiled phrases of classes, for the default ignored words (the common case). */
const compiledDefault = new WeakMap<EquivalenceClass, readonly CompiledPhrase[]>();

function compile(cls: EquivalenceClass, ignored: ReadonlySet<string>, cacheable: boolean): readonly CompiledPhrase[] {
  if (cacheable) {
    const cached = compiledDefault.get(cls);
    if (cached) return cached;
  }
  const phrases: CompiledPhrase[] = [];
  for (const text of cls.phrases) {
    const words = phraseWords(text, ignored);
    if (words.length > 0) phrases.push({ text, words, key: words.join(' ') });
  }
  if (cacheable) compiledDefault.set(cls, phrases);
  return phrases;
}

/** A word stream with the positions of each word, for phrase lookups. */
interface IndexedStream {
  readonly words: readonly string[];
  readonly positions: ReadonlyMap<string, readonly number[]>;
}

function indexStream(words: readonly string[]): IndexedStream {
  const positions = new Map<string, number[]>();
  words.forEach((word, i) => {
    const list = positions.get(word);
    if (list) list.push(i);
    else positions.set(word, [i]);
  });
  return { words, positions };
}

function occursIn(stream: IndexedStream, phrase: readonly string[]): boolean {
  const first = phrase[0];
  if (first === undefined) return false;
  const starts = stream.positions.get(first);
  if (!starts) return false;
  for (const start of starts) {
    if (start + phrase.length > stream.words.length) continue;
    let ok = true;
    for (let k = 1; k < phrase.length && ok; k++) ok = stream.words[start + k] === phrase[k];
    if (ok) return true;
  }
  return false;
}

/**
 * The classes whose phrases occur in a task, each with every phrase that matched.
 *
 * Rules:
 * - **Word boundaries, not substrings.** Task and phrase are split into words (anything but
 *   letters and digits separates words, so hyphens and underscores are spaces) and a phrase
 *   matches when its words occur consecutively in the task: "auth" does not match "author"
 *   or "OAuth2Handler". Identifiers in the task are also read split at CamelCase boundaries,
 *   so `RateLimiter` matches "rate limiter" and `WebSocket` still matches "websocket".
 * - **Light normalisation.** Case is ignored; determiners ("a", "the", "each", …) are
 *   skipped on both sides; plurals and verb inflections fold to one form, so "validators"
 *   matches "validator" and "caching" matches "cache".
 * - **Action verbs.** The original multiplied phrases by verbs ("find blast radius") to
 *   survive substring matching; with word matching a phrase is found wherever it occurs, so
 *   verb expansion reduces to the two rules above: a phrase that starts with a verb matches
 *   its inflections ("validating email"), and articles between the verb and its object do
 *   not break it ("add a hook" matches "add hook").
 * - **Language scoping.** A class with languages matches only when the repository language
 *   is one of them (`tsx` counts as `typescript`) or is unknown.
 *
 * Matches come best first: higher weight, then more distinct phrases, then longer phrases,
 * then class order.
 *
 * @example
 * ```ts
 * const matches = matchClasses('add a custom validator for email fields', builtinClasses(), {
 *   language: 'python',
 * });
 * matches.map((m) => m.equivalenceClass.concept);
 * // ['DJANGO_VALIDATORS', 'INPUT_VALIDATION', 'NOTIFICATIONS_EMAIL']
 * matches[0]?.phrases; // ['custom validator']
 * ```
 */
export function matchClasses(
  task: string,
  classes: readonly EquivalenceClass[],
  options?: MatchOptions,
): EquivalenceMatch[] {
  const cacheable = options?.ignoredWords === undefined;
  const ignored = ignoredSet(options?.ignoredWords);
  const streams = taskWordStreams(task, ignored).map(indexStream);
  if (streams.every((s) => s.words.length === 0)) return [];
  const language = options?.language ?? null;

  const found: { match: EquivalenceMatch; order: number }[] = [];
  classes.forEach((cls, order) => {
    if (!appliesToLanguage(cls, language)) return;
    const matched: string[] = [];
    const keys = new Set<string>();
    let longest = 0;
    for (const phrase of compile(cls, ignored, cacheable)) {
      if (!streams.some((s) => occursIn(s, phrase.words))) continue;
      matched.push(phrase.text);
      keys.add(phrase.key);
      longest = Math.max(longest, phrase.words.length);
    }
    if (matched.length === 0) return;
    found.push({
      match: Object.freeze({
        equivalenceClass: cls,
        phrases: Object.freeze(matched),
        phraseCount: keys.size,
        longestPhraseWords: longest,
      }),
      order,
    });
  });
  found.sort(
    (a, b) =>
      b.match.equivalenceClass.weight - a.match.equivalenceClass.weight ||
      b.match.phraseCount - a.match.phraseCount ||
      b.match.longestPhraseWords - a.match.longestPhraseWords ||
      a.order - b.order,
  );
  return found.map((f) => f.match);
}

/**
 * The multi-phrase gate: a match is strong when at least `minPhrases` (default 2) distinct
 * phrases matched, or when a matched phrase has several words. A lone generic word
 * ("command", "session") is not enough to act on.
 *
 * @example
 * ```ts
 * isStrongMatch({ ...match, phraseCount: 1, longestPhraseWords: 2 }); // true: "consumer group"
 * isStrongMatch({ ...match, phraseCount: 1, longestPhraseWords: 1 }); // false: "consumer"
 * ```
 */
export function isStrongMatch(match: EquivalenceMatch, options?: StrongMatchOptions): boolean {
  const o = withDefaults(DEFAULT_STRONG_MATCH_OPTIONS, options);
  checkInteger('minPhrases', o.minPhrases, 1);
  return match.phraseCount >= o.minPhrases || match.longestPhraseWords >= 2;
}

/**
 * Whether a match's symbols are injected at the top of the ranking, bypassing the walk: a
 * strong match ({@link isStrongMatch}) of a class whose source is `framework` or `plugin`
 * with weight ≥ 0.9. Universal, language, graph, auto and learned classes never are.
 *
 * @example
 * ```ts
 * const forced = matches.filter((m) => isForcedInjectionEligible(m));
 * ```
 */
export function isForcedInjectionEligible(match: EquivalenceMatch, options?: ForceOptions): boolean {
  const o = withDefaults(DEFAULT_FORCE_OPTIONS, options);
  checkNumber('minWeight', o.minWeight, 0, 1);
  const cls = match.equivalenceClass;
  return o.sources.includes(cls.source) && cls.weight >= o.minWeight && isStrongMatch(match, o);
}
