/**
 * Keywords extracted from a task, in three tiers of decreasing specificity. Every list is
 * de-duplicated (exact strings) and a keyword appears only in the first tier that holds it.
 *
 * @example
 * ```ts
 * const set: KeywordSet = extractKeywordSet('fix `url_for` in SessionInterface');
 * // { exact: ['url_for'], compounds: ['sessioninterface', 'SessionInterface'],
 * //   components: ['session', 'url'], priority: ['url_for'] }
 * ```
 */
export interface KeywordSet {
  /** Back-ticked identifiers as written, each followed by its lower-case form if different. */
  readonly exact: readonly string[];
  /**
   * Multi-part identifiers: code patterns (`QuerySet.annotate()`, `ModelAdmin.get_inlines`),
   * snake_case, CamelCase and dotted words (lower-case, then as written if different).
   * With `bigramPlacement: 'compounds'` the bigrams are appended here instead.
   */
  readonly compounds: readonly string[];
  /**
   * Single words: priority terms first, then the other words split from the text (with
   * abbreviation expansions) by length descending, then (by default) the bigrams.
   */
  readonly components: readonly string[];
  /**
   * The verb-pattern target ("add a new `X`" → `x`, `X`): at the front of `components`, or
   * in `compounds` when the target is itself an identifier. Empty when the task does not
   * start with an action verb.
   */
  readonly priority: readonly string[];
}

/**
 * Where generated bigrams (`BlastRadius`, `blast_radius`) go.
 *
 * @example
 * ```ts
 * extractKeywordSet('blast radius', { bigramPlacement: 'compounds' }).compounds; // ['BlastRadius', 'blast_radius']
 * ```
 */
export type BigramPlacement = 'components' | 'compounds';

/**
 * Tunables of {@link extractKeywordSet}. Lists replace the defaults; spread to extend.
 *
 * @example
 * ```ts
 * extractKeywordSet(task, { actionVerbs: [...ACTION_VERBS, 'register'], maxBigramPairs: 8 });
 * ```
 */
export interface KeywordOptions {
  /** Words dropped from every tier. @default STOP_WORDS */
  readonly stopWords?: readonly string[];
  /** Verbs that start the verb pattern and keep words out of bigrams. @default ACTION_VERBS */
  readonly actionVerbs?: readonly string[];
  /** Words skipped when looking for the verb's object. @default FILLER_WORDS */
  readonly fillerWords?: readonly string[];
  /** Short form → expansion, added after the short form. @default ABBREVIATIONS */
  readonly abbreviations?: Readonly<Record<string, string>>;
  /** Longest identifier, code pattern or word kept (characters). @default 100 */
  readonly maxIdentifierLength?: number;
  /** Shortest code-pattern keyword kept (characters). @default 3 */
  readonly minCodePatternLength?: number;
  /** Shortest component kept (characters). @default 2 */
  readonly minComponentLength?: number;
  /** Detect the verb pattern. @default true */
  readonly verbPattern?: boolean;
  /** Generate bigram compounds. @default true */
  readonly bigrams?: boolean;
  /** Where bigrams go; see the README for why the default follows the original's code. @default 'components' */
  readonly bigramPlacement?: BigramPlacement;
  /** Shortest word in a bigram. @default 3 */
  readonly bigramMinWordLength?: number;
  /** At least one word of a bigram must be this long. @default 4 */
  readonly bigramMinLongWordLength?: number;
  /** Most word pairs turned into bigrams (each gives two forms). @default 32 */
  readonly maxBigramPairs?: number;
}

/**
 * Tunables of {@link extractPathTerms}.
 *
 * @example
 * ```ts
 * extractPathTerms(task, { maxTerms: 8, singularize: false });
 * ```
 */
export interface PathTermOptions {
  /** How many terms to keep (the longest). @default 5 */
  readonly maxTerms?: number;
  /** Shortest term (characters). @default 4 */
  readonly minLength?: number;
  /** Longest term (characters). @default 100 */
  readonly maxLength?: number;
  /** Words never used as path terms. @default PATH_STOP_WORDS */
  readonly stopWords?: readonly string[];
  /**
   * Remove a regular plural ending (`migrations` → `migration`, `matches` → `match`), so
   * the term, used as a prefix or substring, matches `migrations/` and also `migration.py`.
   * @default true
   */
  readonly singularize?: boolean;
}

/**
 * Tunables and extra inputs of {@link buildFtsQuery}.
 *
 * @example
 * ```ts
 * buildFtsQuery(primaryKeywords(set), { phraseTerms: allKeywords(set), pathTerms, relatedTerms: ['subscriber'] });
 * ```
 */
export interface FtsQueryOptions {
  /** Terms to match as path prefixes (`path:term*`), e.g. from {@link extractPathTerms}. */
  readonly pathTerms?: readonly string[];
  /**
   * Source of phrase clauses (`"a b"`), e.g. `allKeywords(set)`: each two-word snake_case
   * entry (`blast_radius`, so every bigram too) gives its pair; only when there is none do
   * adjacent plain words of the list pair up.
   */
  readonly phraseTerms?: readonly string[];
  /** Extra terms OR'ed in bare, e.g. a thesaurus widening chosen by the caller. */
  readonly relatedTerms?: readonly string[];
  /** Terms longer than this (characters) are left out rather than cut. @default 100 */
  readonly maxTermLength?: number;
  /** Most clauses taken from `keywords`. @default 64 */
  readonly maxTerms?: number;
  /** Most phrase pairs. @default 5 */
  readonly maxPhrasePairs?: number;
  /** Both words of a phrase pair must be at least this long. @default 3 */
  readonly minPhraseWordLength?: number;
  /** Shortest path term used. @default 4 */
  readonly minPathTermLength?: number;
  /** Most path clauses. @default 10 */
  readonly maxPathTerms?: number;
  /** Most related-term clauses. @default 10 */
  readonly maxRelatedTerms?: number;
}

/**
 * Tunables of {@link decomposeCompounds}.
 *
 * @example
 * ```ts
 * decomposeCompounds(primaryKeywords(set), { maxSegments: 3 });
 * ```
 */
export interface DecomposeOptions {
  /** Shortest identifier part kept (characters). @default 3 */
  readonly minPartLength?: number;
  /** Longer parts and plain words are left out (characters). @default 100 */
  readonly maxTermLength?: number;
  /** How many trailing segments of a dotted keyword to keep. @default 2 */
  readonly maxSegments?: number;
  /** Parts in this list are dropped (`get_user` → `user`). @default STOP_WORDS */
  readonly stopWords?: readonly string[];
}

/**
 * Tunables of {@link normalizeKeywords}.
 *
 * @example
 * ```ts
 * normalizeKeywords(words, { minLength: 3 });
 * ```
 */
export interface NormalizeOptions {
  /** Shortest keyword kept (characters). @default 2 */
  readonly minLength?: number;
  /** @default STOP_WORDS */
  readonly stopWords?: readonly string[];
}

/**
 * Tunables of {@link isVocabWorthy}.
 *
 * @example
 * ```ts
 * isVocabWorthy('request', { genericWords: [] }); // true
 * ```
 */
export interface VocabOptions {
  /** Shortest keyword worth learning (characters). @default 3 */
  readonly minLength?: number;
  /** Longest keyword worth learning (characters). @default 100 */
  readonly maxLength?: number;
  /**
   * Generic words not worth learning, besides stop words, action verbs, filler words and
   * abbreviations. @default PATH_STOP_WORDS
   */
  readonly genericWords?: readonly string[];
}

/**
 * Tunables of {@link keywordClusterId}.
 *
 * @example
 * ```ts
 * keywordClusterId(set, { whenNoPrimary: 'empty' }); // the original's hash for plain-English tasks
 * ```
 */
export interface KeywordClusterOptions {
  /**
   * What to hash when the set has no primary keywords. `'all'` hashes all keywords so that
   * plain-English tasks do not share one cluster; `'empty'` hashes the empty list, as the
   * original did. @default 'all'
   */
  readonly whenNoPrimary?: 'all' | 'empty';
}
