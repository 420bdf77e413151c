import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as data from '../src/data.js';
import * as frames from '../src/frames.js';
import * as lexical from '../src/lexical.js';

describe('public API', () => {
  it('exports exactly the documented values', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'extractKeywordSet',
        'primaryKeywords',
        'allKeywords',
        'isKeywordSetEmpty',
        'extractPathTerms',
        'buildFtsQuery',
        'decomposeCompounds',
        'normalizeKeywords',
        'isVocabWorthy',
        'keywordClusterId',
        'splitIdentifier',
        'isCompoundIdentifier',
        'taskTerms',
        'symbolTerms',
        'countTermMatches',
        'termCounter',
        'termCore',
        'termMatcher',
        'stemTerm',
        'foldWord',
        'DEFAULT_KEYWORD_OPTIONS',
        'DEFAULT_PATH_TERM_OPTIONS',
        'DEFAULT_FTS_QUERY_OPTIONS',
        'DEFAULT_DECOMPOSE_OPTIONS',
        'DEFAULT_NORMALIZE_OPTIONS',
        'DEFAULT_VOCAB_OPTIONS',
        'DEFAULT_KEYWORD_CLUSTER_OPTIONS',
        'buildFileHistory',
        'fileHistoryScores',
        'relativeFileHistory',
        'relativeFileChurn',
        'encodeFileHistory',
        'decodeFileHistory',
        'FILE_HISTORY_NOTE',
        'FILE_HISTORY_COMMIT_NOTE',
      ].sort(),
    );
  });

  it('keeps the word lists, the lexical normalisation and stack frames in their subpaths', () => {
    expect(Object.keys(data).sort()).toEqual(
      [
        'STOP_WORDS',
        'ENGLISH_STOP_WORDS',
        'PROGRAMMING_STOP_WORDS',
        'ACTION_STOP_WORDS',
        'FILLER_WORDS',
        'ACTION_VERBS',
        'ABBREVIATIONS',
        'PATH_STOP_WORDS',
        'PROSE_ABBREVIATIONS',
        'FILE_EXTENSIONS',
        'IDENTIFIER_ATOMS',
      ].sort(),
    );
    expect(Object.keys(lexical).sort()).toEqual(['LEXICAL_STOP_WORDS', 'lexicalQueryTerms', 'lexicalTermText', 'lexicalTerms']);
    expect(Object.keys(frames)).toEqual(['extractStackFrames']);
  });
});
