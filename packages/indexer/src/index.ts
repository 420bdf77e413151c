export { indexRepository, DEFAULT_INDEX_OPTIONS } from './indexer.js';
export type { IndexOptions, IndexPhase, IndexProgress, IndexSummary, SyntaxErrorFile } from './types.js';
export { discoverFiles, classifyContent, DEFAULT_DISCOVER_OPTIONS, DEFAULT_SKIP_DIRECTORIES } from './discover.js';
export type { DirectoryListing, DiscoverOptions, Discovery, DiscoveredFile, SkippedFile, SkipReason, KnownFileState } from './discover.js';
export { createLanguageRegistry, BUILTIN_LANGUAGES } from './languages/registry.js';
export type { LanguageRegistry, LanguageRegistryOptions } from './languages/registry.js';
export { pythonLanguage } from './languages/python.js';
export { CONFIDENCE } from './resolve.js';
export { extractFile } from './extract.js';
export type { ExtractTask, ExtractResult, ReadFile } from './extract.js';
export { qualifiedNameOf } from './resolve.js';
export { DERIVED_PASSES, DERIVED_SHARDS } from './derive.js';
export { detectRepoId, normaliseRemoteUrl } from './repo-id.js';
export { checkFreshness, sourceFileFilter, staleFileCount, DEFAULT_FRESHNESS_OPTIONS } from './fresh.js';
export type { FreshnessOptions, FreshnessReport } from './fresh.js';
export { loadGrammar, createParser, withTree, ParseTimeoutError } from './parser.js';
export type { GrammarName } from './parser.js';
export type {
  NameRef,
  SupertypeRelation,
  SupertypeRef,
  SymbolDef,
  ReferenceKind,
  Reference,
  ImportDecl,
  FileExtraction,
  Implementation,
  ProjectLayout,
  ResolvedImport,
  LanguageModule,
} from './languages/types.js';
