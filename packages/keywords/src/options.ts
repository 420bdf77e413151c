import { ABBREVIATIONS } from './data/abbreviations.js';
import { PATH_STOP_WORDS } from './data/path-stop-words.js';
import { FILLER_WORDS, STOP_WORDS } from './data/stop-words.js';
import { ACTION_VERBS } from './data/verbs.js';
import type {
  DecomposeOptions,
  FtsQueryOptions,
  KeywordClusterOptions,
  KeywordOptions,
  NormalizeOptions,
  PathTermOptions,
  VocabOptions,
} from './types.js';

/**
 * Defaults of {@link KeywordOptions} (the original system's values).
 *
 * @example
 * ```ts
 * extractKeywordSet(task, { stopWords: [...DEFAULT_KEYWORD_OPTIONS.stopWords, 'widget'] });
 * ```
 */
export const DEFAULT_KEYWORD_OPTIONS: Readonly<Required<KeywordOptions>> = Object.freeze({
  stopWords: STOP_WORDS,
  actionVerbs: ACTION_VERBS,
  fillerWords: FILLER_WORDS,
  abbreviations: ABBREVIATIONS,
  maxIdentifierLength: 100,
  minCodePatternLength: 3,
  minComponentLength: 2,
  verbPattern: true,
  bigrams: true,
  bigramPlacement: 'components',
  bigramMinWordLength: 3,
  bigramMinLongWordLength: 4,
  maxBigramPairs: 32,
});

/**
 * Defaults of {@link PathTermOptions}.
 *
 * @example
 * ```ts
 * extractPathTerms(task, { ...DEFAULT_PATH_TERM_OPTIONS, maxTerms: 8 });
 * ```
 */
export const DEFAULT_PATH_TERM_OPTIONS: Readonly<Required<PathTermOptions>> = Object.freeze({
  maxTerms: 5,
  minLength: 4,
  maxLength: 100,
  stopWords: PATH_STOP_WORDS,
  singularize: true,
});

/**
 * Defaults of the numeric {@link FtsQueryOptions}.
 *
 * @example
 * ```ts
 * buildFtsQuery(keywords, { maxPhrasePairs: DEFAULT_FTS_QUERY_OPTIONS.maxPhrasePairs * 2 });
 * ```
 */
export const DEFAULT_FTS_QUERY_OPTIONS: Readonly<
  Required<Omit<FtsQueryOptions, 'pathTerms' | 'phraseTerms' | 'relatedTerms'>>
> = Object.freeze({
  maxTermLength: 100,
  maxTerms: 64,
  maxPhrasePairs: 5,
  minPhraseWordLength: 3,
  minPathTermLength: 4,
  maxPathTerms: 10,
  maxRelatedTerms: 10,
});

/**
 * Defaults of {@link DecomposeOptions}.
 *
 * @example
 * ```ts
 * decomposeCompounds(['a.b.c_d'], { ...DEFAULT_DECOMPOSE_OPTIONS, maxSegments: 3 });
 * ```
 */
export const DEFAULT_DECOMPOSE_OPTIONS: Readonly<Required<DecomposeOptions>> = Object.freeze({
  minPartLength: 3,
  maxTermLength: 100,
  maxSegments: 2,
  stopWords: STOP_WORDS,
});

/**
 * Defaults of {@link NormalizeOptions}.
 *
 * @example
 * ```ts
 * normalizeKeywords(words, { ...DEFAULT_NORMALIZE_OPTIONS, minLength: 3 });
 * ```
 */
export const DEFAULT_NORMALIZE_OPTIONS: Readonly<Required<NormalizeOptions>> = Object.freeze({
  minLength: 2,
  stopWords: STOP_WORDS,
});

/**
 * Defaults of {@link VocabOptions}.
 *
 * @example
 * ```ts
 * isVocabWorthy('router', { ...DEFAULT_VOCAB_OPTIONS, genericWords: [] });
 * ```
 */
export const DEFAULT_VOCAB_OPTIONS: Readonly<Required<VocabOptions>> = Object.freeze({
  minLength: 3,
  maxLength: 100,
  genericWords: PATH_STOP_WORDS,
});

/**
 * Defaults of {@link KeywordClusterOptions}.
 *
 * @example
 * ```ts
 * keywordClusterId(set, { ...DEFAULT_KEYWORD_CLUSTER_OPTIONS, whenNoPrimary: 'empty' });
 * ```
 */
export const DEFAULT_KEYWORD_CLUSTER_OPTIONS: Readonly<Required<KeywordClusterOptions>> = Object.freeze({
  whenNoPrimary: 'all',
});

/** Defaults overlaid with the options that are set; `undefined` keeps the default. */
export function withDefaults<T extends object>(defaults: Readonly<Required<T>>, options: T | undefined): Required<T> {
  const merged = { ...defaults } as Required<T>;
  if (options) {
    for (const key of Object.keys(options) as (keyof T)[]) {
      const value = options[key];
      if (value !== undefined) merged[key] = value as Required<T>[keyof T];
    }
  }
  return merged;
}
