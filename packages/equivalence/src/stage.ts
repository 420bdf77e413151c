/**
 * `@knowing/equivalence/stage`: the steps of the engine's equivalence stage, for running or
 * rebuilding it outside the engine — the multi-phrase gate and the forced-injection rule,
 * repository language detection, channel hits and their cap, the classes computed per
 * repository or query (`graphAliases`, `learnedClasses`, `autoConcepts`), the thesaurus
 * expansion, and the options and frozen defaults of each step. Vocabulary authors need only
 * the root export.
 *
 * @example
 * import { capEquivalenceResults, collectEquivalenceHits, detectRepoLanguage } from '@knowing/equivalence/stage';
 * const language = detectRepoLanguage((await store.counts()).nodesByLanguage);
 * const { channel, forced } = collectEquivalenceHits(await resolveTargets(store, matchClasses(task, classes, { language })));
 * const equivalenceChannel = capEquivalenceResults(channel, otherChannelsLength);
 */
export type {
  StrongMatchOptions,
  ForceOptions,
  GenericTargetOptions,
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
export { isStrongMatch, isForcedInjectionEligible } from './match.js';
export { detectRepoLanguage, KNOWN_LANGUAGES } from './language.js';
export { collectEquivalenceHits, capEquivalenceResults } from './resolve.js';
export { graphAliases } from './graph-aliases.js';
export { autoConcepts } from './auto-concepts.js';
export { expandWithThesaurus } from './thesaurus.js';
export { learnedClasses } from './learned.js';
export { CONCEPT_THESAURUS } from './data/thesaurus.js';
export {
  DEFAULT_STRONG_MATCH_OPTIONS,
  DEFAULT_FORCE_OPTIONS,
  DEFAULT_GENERIC_TARGET_OPTIONS,
  DEFAULT_CAP_OPTIONS,
  DEFAULT_GRAPH_ALIAS_OPTIONS,
  DEFAULT_AUTO_CONCEPT_OPTIONS,
  DEFAULT_THESAURUS_OPTIONS,
  DEFAULT_LEARNED_CLASS_OPTIONS,
  DEFAULT_DETECT_LANGUAGE_OPTIONS,
} from './options.js';
