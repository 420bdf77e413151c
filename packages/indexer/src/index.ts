export { indexRepository, DEFAULT_INDEX_OPTIONS } from './indexer.js';
export type { IndexOptions, IndexPhase, IndexProgress, IndexSummary, SyntaxErrorFile } from './types.js';
export { discoverFiles, classifyContent, DEFAULT_DISCOVER_OPTIONS, DEFAULT_SKIP_DIRECTORIES } from './discover.js';
export type { DirectoryListing, DiscoverOptions, Discovery, DiscoveredFile, SkippedFile, SkipReason, KnownFileState } from './discover.js';
export { createLanguageRegistry, BUILTIN_LANGUAGES } from './languages/registry.js';
export type { LanguageRegistry, LanguageRegistryOptions } from './languages/registry.js';
export { CONFIDENCE } from './resolve.js';
export { DERIVED_PASSES, DERIVED_SHARDS } from './derive.js';
export { detectRepoId, normaliseRemoteUrl } from './repo-id.js';
