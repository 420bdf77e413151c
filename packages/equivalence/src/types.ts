import type { EdgeType, GraphNode, LanguageId, NodeId } from '@knowing/graph';

/**
 * Which kinds of node a class's targets may resolve to: `type` keeps class-like kinds
 * (`TYPE_LIKE_KINDS` of `@knowing/graph`), `callable` keeps functions, methods and
 * constructors, `any` keeps every kind.
 */
export type TargetType = 'any' | 'type' | 'callable';

/**
 * Where a class comes from. `universal`, `language` and `framework` are the built-in data
 * files; `plugin` is vocabulary registered by a user; `graph`, `learned` and `auto` are
 * computed per query or per repository by `graphAliases`, `learnedClasses` and `autoConcepts`.
 */
export type ClassSource = 'universal' | 'language' | 'framework' | 'graph' | 'learned' | 'auto' | 'plugin';

/** The sources a plugin may declare (the computed ones are produced by this package only). */
export type PluginSource = 'universal' | 'language' | 'framework' | 'plugin';

/**
 * A concept: the phrases people use for it in task descriptions, and the symbol names that
 * usually implement it.
 */
export interface EquivalenceClass {
  /** Stable id, unique among the classes in use, e.g. `DJANGO_VALIDATORS`. */
  readonly concept: string;
  /** How tasks describe the concept ("custom validator", "rate limiting"). Matched on word boundaries. */
  readonly phrases: readonly string[];
  /**
   * Symbol names: a terminal name (`EmailValidator`) or a dotted path anchored at a `.`/`::`
   * boundary of the qualified name (`Scaffold.before_request`, `django.utils.html.escape`).
   */
  readonly targets: readonly string[];
  /**
   * Exact node ids. When present and non-empty the class resolves to exactly these nodes
   * (learned and graph-derived classes know them), and `targets` only name them.
   */
  readonly targetIds?: readonly NodeId[];
  /** @default 'any' */
  readonly targetType: TargetType;
  /** In (0, 1]. Framework classes use 0.9 (eligible for forced injection), universal 0.8. */
  readonly weight: number;
  readonly source: ClassSource;
  /** Languages the class applies to; undefined = every language. `tsx` counts as `typescript`. */
  readonly language?: LanguageId | readonly LanguageId[];
  /** The framework (plugin) that contributed the class. */
  readonly framework?: string;
}

/** One class as written in a plugin file: defaults are filled in by `defineEquivalenceClasses`. */
export interface EquivalenceClassInput {
  readonly concept: string;
  readonly phrases: readonly string[];
  readonly targets: readonly string[];
  /** @default 'any' */
  readonly targetType?: TargetType;
  /** @default 0.9 for `framework` and `plugin` sources, 0.8 otherwise */
  readonly weight?: number;
  /** @default the plugin's language */
  readonly language?: LanguageId | readonly LanguageId[];
}

/** What a vocabulary file passes to `defineEquivalenceClasses`. */
export interface EquivalencePluginInput {
  /** The framework the vocabulary describes, e.g. `django`. */
  readonly framework: string;
  /** Registry name. @default framework */
  readonly name?: string;
  /** Default language of every class. @default undefined (all languages) */
  readonly language?: LanguageId | readonly LanguageId[];
  /** @default 'plugin' */
  readonly source?: PluginSource;
  readonly classes: readonly EquivalenceClassInput[];
}

/** A validated, frozen vocabulary plugin. */
export interface EquivalencePlugin {
  readonly name: string;
  readonly framework: string;
  readonly language?: LanguageId | readonly LanguageId[];
  readonly source: PluginSource;
  readonly classes: readonly EquivalenceClass[];
}

/** Options of {@link ClassRegistry.loadFromPackage}. */
export interface LoadPackageOptions {
  /**
   * Resolve a bare or relative specifier from this directory (a path or a `file:` URL),
   * e.g. the project root. Without it the specifier is imported as given, which resolves
   * bare names from this package's own location.
   */
  readonly from?: string;
}

/** Plugins in use, by name. Registration validates and rejects duplicate names and concept ids. */
export interface ClassRegistry {
  /** Validate and add a plugin; throws `PLUGIN_INVALID` naming the plugin. */
  register(plugin: EquivalencePlugin | EquivalencePluginInput): EquivalencePlugin;
  /** Remove a plugin by name; false when none had that name. */
  unregister(name: string): boolean;
  /** Registered plugins in registration order. */
  list(): readonly EquivalencePlugin[];
  /** Every class of every registered plugin, in registration order. */
  classes(): readonly EquivalenceClass[];
  /**
   * Import a module whose default export or `classes` export is a plugin or an array of
   * plugins, and register them. Errors name the package.
   */
  loadFromPackage(specifier: string, options?: LoadPackageOptions): Promise<readonly EquivalencePlugin[]>;
}

/** A class whose phrases occur in the task. */
export interface EquivalenceMatch {
  readonly equivalenceClass: EquivalenceClass;
  /** Every phrase of the class found in the task, as written in the class, in class order. */
  readonly phrases: readonly string[];
  /** Number of distinct phrases matched after normalisation (`validator` = `validators`). */
  readonly phraseCount: number;
  /** Number of words of the longest matched phrase after normalisation. */
  readonly longestPhraseWords: number;
}

/** Options of `matchClasses`. */
export interface MatchOptions {
  /** The repository's language (see `detectRepoLanguage`); null or undefined = unknown, so every class may match. @default null */
  readonly language?: LanguageId | null;
  /** Words invisible to matching (determiners), so "add a new hook" matches "add hook". @default DETERMINERS */
  readonly ignoredWords?: readonly string[];
}

/** Options of `isStrongMatch`. */
export interface StrongMatchOptions {
  /** Distinct phrases needed when none of them has several words. @default 2 */
  readonly minPhrases?: number;
}

/** Options of `isForcedInjectionEligible`. */
export interface ForceOptions extends StrongMatchOptions {
  /** @default 0.9 */
  readonly minWeight?: number;
  /** @default ['framework', 'plugin'] */
  readonly sources?: readonly ClassSource[];
}

/** Options of `isGenericTarget` and the generic-target filter of `resolveTargets`. */
export interface GenericTargetOptions {
  /** Undotted targets shorter than this are skipped. @default 4 */
  readonly minTargetLength?: number;
  /** Undotted targets with one of these names (case-insensitive) are skipped. @default GENERIC_TARGET_NAMES */
  readonly genericNames?: readonly string[];
}

/** Options of `resolveTargets`. */
export interface ResolveOptions extends GenericTargetOptions {
  /** Nodes kept per target after filtering; tests and deeper nesting sort last. @default 20 */
  readonly maxNodesPerTarget?: number;
  /** Candidates fetched per terminal name before the dotted-path filter. @default 500 */
  readonly lookupLimit?: number;
  /** The forced-injection rule. @default DEFAULT_FORCE_OPTIONS */
  readonly force?: ForceOptions;
}

/** A match with the nodes its targets resolved to. */
export interface ResolvedMatch {
  readonly match: EquivalenceMatch;
  /** The class weight. */
  readonly weight: number;
  /** Eligible for forced injection (see `isForcedInjectionEligible`). */
  readonly forced: boolean;
  /** Resolved nodes, each once, in target order. */
  readonly nodes: readonly GraphNode[];
  /** Targets the generic filter skipped. */
  readonly skippedTargets: readonly string[];
}

/** One node of the equivalence channel. */
export interface EquivalenceHit {
  readonly node: GraphNode;
  readonly weight: number;
  /** The concept of the first (best) class that produced the node. */
  readonly concept: string;
  readonly source: ClassSource;
}

/** What the engine takes from the resolved matches. */
export interface EquivalenceHits {
  /** Each node once, best class first: the ranked list for RRF. */
  readonly channel: readonly EquivalenceHit[];
  /** Nodes of forced-eligible matches, each once, to inject after the walk. */
  readonly forced: readonly EquivalenceHit[];
}

/** Options of `capEquivalenceResults`. */
export interface CapOptions {
  /** Results allowed per lexical result. @default 2 */
  readonly factor?: number;
  /** Results always allowed. @default 10 */
  readonly floor?: number;
}

/** Options of `graphAliases`. */
export interface GraphAliasOptions {
  /** Seeds considered, from the front of the list. @default 10 */
  readonly maxSeeds?: number;
  /** Edge types followed to callers and callees. @default ['calls'] */
  readonly edgeTypes?: readonly EdgeType[];
  /** Neighbours read per direction per seed. @default 50 */
  readonly maxNeighbors?: number;
  /** @default 3 */
  readonly minWordLength?: number;
  /** Phrases kept per seed, most frequent first. @default 24 */
  readonly maxPhrases?: number;
  /** Words never used (lower case); the keyword stop words are always added. @default GRAPH_ALIAS_GENERIC_WORDS */
  readonly genericWords?: readonly string[];
  /** Also add adjacent-word bigrams as phrases. @default true */
  readonly bigrams?: boolean;
  /** @default 0.7 */
  readonly weight?: number;
}

/** Options of `autoConcepts`. */
export interface AutoConceptOptions {
  /** Role suffixes: `RateLimitMiddleware` → "rate limit". @default AUTO_CONCEPT_SUFFIXES */
  readonly suffixes?: readonly string[];
  /** Role prefixes: `handleBlastRadius` → "blast radius". @default AUTO_CONCEPT_PREFIXES */
  readonly prefixes?: readonly string[];
  /** Directory names become phrases for the class-like nodes they contain (GraphNode input only). @default true */
  readonly directories?: boolean;
  /** @default 3 */
  readonly minWordLength?: number;
  /** @default 10 */
  readonly maxTargetsPerConcept?: number;
  /** @default 200 */
  readonly maxClasses?: number;
  /** @default 0.6 */
  readonly weight?: number;
}

/** One cluster of related code vocabulary. */
export interface ThesaurusCluster {
  /** The head word. */
  readonly concept: string;
  /** Related words, the head first. */
  readonly terms: readonly string[];
}

/** Options of `expandWithThesaurus`. */
export interface ThesaurusOptions {
  /** @default 10 */
  readonly maxTerms?: number;
  /** @default CONCEPT_THESAURUS */
  readonly thesaurus?: readonly ThesaurusCluster[];
}

/** Options of `learnedClasses`. */
export interface LearnedClassOptions {
  /** Only associations recorded for this keyword cluster. @default undefined (all) */
  readonly cluster?: string;
  /** @default 2 */
  readonly minCount?: number;
  /** @default 50 */
  readonly maxClasses?: number;
}

/** Options of `detectRepoLanguage`. */
export interface DetectLanguageOptions {
  /** Share of the counted nodes the leading language needs; below it the language is unknown. @default 0 */
  readonly minShare?: number;
}
