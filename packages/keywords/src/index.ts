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
export {
  STOP_WORDS,
  ENGLISH_STOP_WORDS,
  PROGRAMMING_STOP_WORDS,
  ACTION_STOP_WORDS,
  FILLER_WORDS,
} from './data/stop-words.js';
export { ACTION_VERBS } from './data/verbs.js';
export { ABBREVIATIONS } from './data/abbreviations.js';
export { PATH_STOP_WORDS } from './data/path-stop-words.js';
export { PROSE_ABBREVIATIONS, FILE_EXTENSIONS, IDENTIFIER_ATOMS } from './data/lexicon.js';
export { taskTerms, symbolTerms, countTermMatches } from './terms.js';
export { foldWord, stemTerm } from './fold.js';
export { lexicalTerms, lexicalQueryTerms, LEXICAL_STOP_WORDS } from './lexical.js';
export { extractStackFrames } from './frames.js';
export type { StackFrame } from './frames.js';
