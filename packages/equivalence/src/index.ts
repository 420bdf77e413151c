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
  ResolveOptions,
  ResolvedMatch,
} from './types.js';
export { defineEquivalenceClasses } from './define.js';
export { createClassRegistry } from './registry.js';
export { matchClasses } from './match.js';
export { normalizePhrase } from './text.js';
export { resolveTargets } from './resolve.js';
export { BUILTIN_PLUGINS, builtinClasses } from './classes/builtin.js';
export { FRAMEWORK_FILES } from './classes/frameworks/index.js';
export { GENERIC_TARGET_NAMES } from './data/words.js';
export { DEFAULT_MATCH_OPTIONS, DEFAULT_RESOLVE_OPTIONS } from './options.js';
