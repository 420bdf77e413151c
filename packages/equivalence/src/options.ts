import { ErrorCode, KnowingError } from '@knowing/graph';
import {
  AUTO_CONCEPT_PREFIXES,
  AUTO_CONCEPT_SUFFIXES,
  DETERMINERS,
  GENERIC_TARGET_NAMES,
  GRAPH_ALIAS_GENERIC_WORDS,
} from './data/words.js';
import { CONCEPT_THESAURUS } from './data/thesaurus.js';
import type {
  AutoConceptOptions,
  CapOptions,
  ClassSource,
  DetectLanguageOptions,
  ForceOptions,
  GenericTargetOptions,
  GraphAliasOptions,
  LearnedClassOptions,
  MatchOptions,
  ResolveOptions,
  StrongMatchOptions,
  ThesaurusOptions,
} from './types.js';

export const SOURCE = 'equivalence';

/** `defaults` overridden by the options that are not undefined. */
export function withDefaults<T extends object>(defaults: Readonly<T>, options: Partial<T> | undefined): T {
  const out = { ...defaults } as T;
  if (options) {
    for (const [key, value] of Object.entries(options)) {
      if (value !== undefined) (out as Record<string, unknown>)[key] = value;
    }
  }
  return out;
}

function invalid(name: string, value: unknown, expected: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, `option ${name} must be ${expected}, got ${String(value)}`, {
    source: SOURCE,
  });
}

/** Throws INVALID_ARGUMENT unless `value` is a finite number ≥ `min` (and ≤ `max`). */
export function checkNumber(name: string, value: number, min: number, max = Number.POSITIVE_INFINITY): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw invalid(name, value, max === Number.POSITIVE_INFINITY ? `a finite number ≥ ${min}` : `a number in [${min}, ${max}]`);
  }
}

/** Throws INVALID_ARGUMENT unless `value` is an integer ≥ `min`. */
export function checkInteger(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) throw invalid(name, value, `an integer ≥ ${min}`);
}

/**
 * Defaults of {@link MatchOptions}: unknown repository language, determiners ignored.
 *
 * @example
 * ```ts
 * matchClasses(task, classes, { ...DEFAULT_MATCH_OPTIONS, language: 'python' });
 * ```
 */
export const DEFAULT_MATCH_OPTIONS: Readonly<Required<Omit<MatchOptions, 'language'>>> & { readonly language: null } =
  Object.freeze({ language: null, ignoredWords: DETERMINERS });

/**
 * Defaults of {@link StrongMatchOptions}: two distinct phrases, or one phrase of several words.
 *
 * @example
 * ```ts
 * isStrongMatch(match, { minPhrases: DEFAULT_STRONG_MATCH_OPTIONS.minPhrases + 1 });
 * ```
 */
export const DEFAULT_STRONG_MATCH_OPTIONS: Readonly<Required<StrongMatchOptions>> = Object.freeze({ minPhrases: 2 });

/**
 * Defaults of {@link ForceOptions}: a strong match of a `framework` or `plugin` class with
 * weight ≥ 0.9 is injected at the top of the ranking.
 *
 * @example
 * ```ts
 * isForcedInjectionEligible(match, { ...DEFAULT_FORCE_OPTIONS, sources: ['framework'] });
 * ```
 */
export const DEFAULT_FORCE_OPTIONS: Readonly<Required<ForceOptions>> = Object.freeze({
  minPhrases: 2,
  minWeight: 0.9,
  sources: Object.freeze(['framework', 'plugin']) as readonly ClassSource[],
});

/**
 * Defaults of {@link GenericTargetOptions}: undotted targets of three characters or fewer, or
 * named in {@link GENERIC_TARGET_NAMES}, are skipped.
 *
 * @example
 * ```ts
 * isGenericTarget('dispatch', { genericNames: [...DEFAULT_GENERIC_TARGET_OPTIONS.genericNames, 'dispatch'] });
 * ```
 */
export const DEFAULT_GENERIC_TARGET_OPTIONS: Readonly<Required<GenericTargetOptions>> = Object.freeze({
  minTargetLength: 4,
  genericNames: GENERIC_TARGET_NAMES,
});

/**
 * Defaults of {@link ResolveOptions}.
 *
 * @example
 * ```ts
 * await resolveTargets(store, matches, { ...DEFAULT_RESOLVE_OPTIONS, maxNodesPerTarget: 5 });
 * ```
 */
export const DEFAULT_RESOLVE_OPTIONS: Readonly<Required<ResolveOptions>> = Object.freeze({
  ...DEFAULT_GENERIC_TARGET_OPTIONS,
  maxNodesPerTarget: 20,
  lookupLimit: 500,
  force: DEFAULT_FORCE_OPTIONS,
});

/**
 * Defaults of {@link CapOptions}: at most `max(10, 2 × lexical results)` equivalence results.
 *
 * @example
 * ```ts
 * capEquivalenceResults(hits, lexical.length, { ...DEFAULT_CAP_OPTIONS, factor: 1 });
 * ```
 */
export const DEFAULT_CAP_OPTIONS: Readonly<Required<CapOptions>> = Object.freeze({ factor: 2, floor: 10 });

/**
 * Defaults of {@link GraphAliasOptions} (the original's top-10 seeds and weight 0.7).
 *
 * @example
 * ```ts
 * await graphAliases(store, seeds, { ...DEFAULT_GRAPH_ALIAS_OPTIONS, edgeTypes: ['calls', 'references'] });
 * ```
 */
export const DEFAULT_GRAPH_ALIAS_OPTIONS: Readonly<Required<GraphAliasOptions>> = Object.freeze({
  maxSeeds: 10,
  edgeTypes: Object.freeze(['calls']),
  maxNeighbors: 50,
  minWordLength: 3,
  maxPhrases: 24,
  genericWords: GRAPH_ALIAS_GENERIC_WORDS,
  bigrams: true,
  weight: 0.7,
});

/**
 * Defaults of {@link AutoConceptOptions}.
 *
 * @example
 * ```ts
 * autoConcepts(nodes, { ...DEFAULT_AUTO_CONCEPT_OPTIONS, directories: false });
 * ```
 */
export const DEFAULT_AUTO_CONCEPT_OPTIONS: Readonly<Required<AutoConceptOptions>> = Object.freeze({
  suffixes: AUTO_CONCEPT_SUFFIXES,
  prefixes: AUTO_CONCEPT_PREFIXES,
  directories: true,
  minWordLength: 3,
  maxTargetsPerConcept: 10,
  maxClasses: 200,
  weight: 0.6,
});

/**
 * Defaults of {@link ThesaurusOptions}.
 *
 * @example
 * ```ts
 * expandWithThesaurus(['consumer'], { ...DEFAULT_THESAURUS_OPTIONS, maxTerms: 4 });
 * ```
 */
export const DEFAULT_THESAURUS_OPTIONS: Readonly<Required<ThesaurusOptions>> = Object.freeze({
  maxTerms: 10,
  thesaurus: CONCEPT_THESAURUS,
});

/**
 * Defaults of {@link LearnedClassOptions}: associations seen at least twice, any cluster.
 *
 * @example
 * ```ts
 * await learnedClasses(store, keywords, { ...DEFAULT_LEARNED_CLASS_OPTIONS, cluster });
 * ```
 */
export const DEFAULT_LEARNED_CLASS_OPTIONS: Readonly<Required<Omit<LearnedClassOptions, 'cluster'>>> = Object.freeze({
  minCount: 2,
  maxClasses: 50,
});

/**
 * Defaults of {@link DetectLanguageOptions}: the language with the most nodes wins.
 *
 * @example
 * ```ts
 * detectRepoLanguage(counts.nodesByLanguage, { minShare: 0.3 });
 * ```
 */
export const DEFAULT_DETECT_LANGUAGE_OPTIONS: Readonly<Required<DetectLanguageOptions>> = Object.freeze({ minShare: 0 });
