export type {
  KeywordSet,
  BigramPlacement,
  KeywordOptions,
  PathTermOptions,
  FtsQueryOptions,
  DecomposeOptions,
  NormalizeOptions,
  VocabOptions,
  KeywordClusterOptions,
} from './types.js';
export { extractKeywordSet, primaryKeywords, allKeywords, isKeywordSetEmpty } from './extract.js';
export { extractPathTerms } from './path-terms.js';
export { buildFtsQuery, decomposeCompounds } from './fts.js';
export { normalizeKeywords, isVocabWorthy } from './normalize.js';
export { keywordClusterId } from './cluster.js';
export { splitIdentifier, isCompoundIdentifier } from './split.js';
export {
  DEFAULT_KEYWORD_OPTIONS,
  DEFAULT_PATH_TERM_OPTIONS,
  DEFAULT_FTS_QUERY_OPTIONS,
  DEFAULT_DECOMPOSE_OPTIONS,
  DEFAULT_NORMALIZE_OPTIONS,
  DEFAULT_VOCAB_OPTIONS,
  DEFAULT_KEYWORD_CLUSTER_OPTIONS,
} from './options.js';
export { taskTerms, symbolTerms, countTermMatches, termCounter, termCore, termMatcher } from './terms.js';
export { foldWord, stemTerm } from './fold.js';
export { buildFileHistory, fileHistoryScores, relativeFileHistory, relativeFileChurn, encodeFileHistory, decodeFileHistory, FILE_HISTORY_NOTE, FILE_HISTORY_COMMIT_NOTE } from './file-history.js';
export type { CommitRecord, FileHistory, FileHistoryOptions } from './file-history.js';
