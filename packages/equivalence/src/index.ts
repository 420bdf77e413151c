export type {
  TargetType,
  ClassSource,
  PluginSource,
  EquivalenceClass,
  EquivalenceClassInput,
  EquivalencePluginInput,
  EquivalencePlugin,
  LoadPackageOptions,
  ClassRegistry,
  EquivalenceMatch,
  MatchOptions,
  StrongMatchOptions,
  ForceOptions,
  GenericTargetOptions,
  ResolveOptions,
  ResolvedMatch,
  EquivalenceHit,
  EquivalenceHits,
  CapOptions,
  GraphAliasOptions,
  AutoConceptOptions,
  ThesaurusCluster,
  ThesaurusOptions,
  LearnedClassOptions,
  DetectLanguageOptions,
} from './types.js';
export { defineEquivalenceClasses } from './define.js';
export { createClassRegistry } from './registry.js';
export { matchClasses, isStrongMatch, isForcedInjectionEligible } from './match.js';
export { normalizePhrase } from './text.js';
export { detectRepoLanguage, KNOWN_LANGUAGES } from './language.js';
export { isGenericTarget } from './generic.js';
export { resolveTargets, collectEquivalenceHits, capEquivalenceResults } from './resolve.js';
export { graphAliases } from './graph-aliases.js';
export { autoConcepts } from './auto-concepts.js';
export { expandWithThesaurus } from './thesaurus.js';
export { learnedClasses, learnedWeight } from './learned.js';
export { BUILTIN_PLUGINS, builtinClasses } from './classes/builtin.js';
export { FRAMEWORK_FILES } from './classes/frameworks/index.js';
export { CONCEPT_THESAURUS } from './data/thesaurus.js';
export {
  DETERMINERS,
  GENERIC_TARGET_NAMES,
  GRAPH_ALIAS_GENERIC_WORDS,
  AUTO_CONCEPT_SUFFIXES,
  AUTO_CONCEPT_PREFIXES,
} from './data/words.js';
export {
  DEFAULT_MATCH_OPTIONS,
  DEFAULT_STRONG_MATCH_OPTIONS,
  DEFAULT_FORCE_OPTIONS,
  DEFAULT_GENERIC_TARGET_OPTIONS,
  DEFAULT_RESOLVE_OPTIONS,
  DEFAULT_CAP_OPTIONS,
  DEFAULT_GRAPH_ALIAS_OPTIONS,
  DEFAULT_AUTO_CONCEPT_OPTIONS,
  DEFAULT_THESAURUS_OPTIONS,
  DEFAULT_LEARNED_CLASS_OPTIONS,
  DEFAULT_DETECT_LANGUAGE_OPTIONS,
} from './options.js';
