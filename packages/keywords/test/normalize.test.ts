import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { extractKeywordSet, isVocabWorthy, keywordClusterId, normalizeKeywords } from '../src/index.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('normalizeKeywords', () => {
  it('lower-cases, trims punctuation, drops stop words and short tokens, de-duplicates in order', () => {
    expect(normalizeKeywords(['Router', '"router"', 'the', 'x', 'before_request', '(Handler),', 'handler'])).toEqual([
      'router',
      'before_request',
      'handler',
    ]);
  });

  it.each([
    ['edge punctuation', ['...config!'], ['config']],
    ['inner punctuation kept', ['QuerySet.annotate()'], ['queryset.annotate']],
    ['leading underscores kept', ['__init__'], ['__init__']],
    ['whitespace', ['  spaced  '], ['spaced']],
    ['stop words', ['The', 'IS', 'func', 'refactor'], []],
    ['one-character tokens', ['a', 'Z', '7', '_'], []],
    ['empty and punctuation-only', ['', '!!!', '""'], []],
    ['two characters kept', ['db', 'IO'], ['db', 'io']],
  ])('%s', (_name, input, output) => {
    expect(normalizeKeywords(input)).toEqual(output);
  });

  it('takes tunables', () => {
    expect(normalizeKeywords(['db', 'router'], { minLength: 3 })).toEqual(['router']);
    expect(normalizeKeywords(['the', 'router'], { stopWords: ['router'] })).toEqual(['the']);
  });
});

describe('isVocabWorthy', () => {
  it.each(['autodetector', 'before_request', 'TransitiveCallers', 'blueprint', 'QuerySet.annotate', 'jinja2', 'ñandú'])(
    '%s is worth learning',
    (keyword) => {
      expect(isVocabWorthy(keyword)).toBe(true);
    },
  );

  it.each([
    ['too short', 'io'],
    ['a stop word', 'which'],
    ['programming filler', 'interface'],
    ['a filler word', 'existing'],
    ['an action verb', 'implement'],
    ['an action verb that is not a stop word', 'resolve'],
    ['an abbreviation of a generic word', 'ctx'],
    ['another abbreviation', 'cfg'],
    ['a generic word', 'request'],
    ['another generic word', 'handler'],
    ['numeric', '12345'],
    ['a version', '3.9.1'],
    ['punctuation only', '***'],
    ['several words', 'blast radius'],
    ['too long', 'x'.repeat(101)],
    ['empty', ''],
  ])('%s is not (%s)', (_name, keyword) => {
    expect(isVocabWorthy(keyword)).toBe(false);
  });

  it('trims and lower-cases before judging', () => {
    expect(isVocabWorthy('  "Autodetector".')).toBe(true);
    expect(isVocabWorthy('CTX')).toBe(false);
  });

  it('takes tunables', () => {
    expect(isVocabWorthy('request', { genericWords: [] })).toBe(true);
    expect(isVocabWorthy('zip', { minLength: 4 })).toBe(false);
    expect(isVocabWorthy('blueprint', { maxLength: 5 })).toBe(false);
  });
});

describe('keywordClusterId', () => {
  it('hashes "cluster\\0" and the sorted, de-duplicated primary keywords joined by NUL', () => {
    const set = { exact: ['before_request'], compounds: ['SQLiteStore', 'sqlitestore', 'before_request'], components: ['x'], priority: [] };
    expect(keywordClusterId(set)).toBe(sha256('cluster\0SQLiteStore\0before_request\0sqlitestore'));
  });

  it('does not depend on order or duplicates', () => {
    const a = { exact: [], compounds: ['b_b', 'a_a'], components: [], priority: [] };
    const b = { exact: ['a_a'], compounds: ['a_a', 'b_b'], components: ['other'], priority: [] };
    expect(keywordClusterId(a)).toBe(keywordClusterId(b));
  });

  it('sorts in UTF-8 byte order', () => {
    // U+FF21 (3 bytes in UTF-8) sorts before U+1F600 (4 bytes), though UTF-16 order is the reverse.
    const set = { exact: [], compounds: ['😀', 'Ａ'], components: [], priority: [] };
    expect(keywordClusterId(set)).toBe(sha256('cluster\0Ａ\0😀'));
  });

  it('is a 64-character hex digest of an extracted set', () => {
    expect(keywordClusterId(extractKeywordSet('fix `before_request` ordering'))).toBe(sha256('cluster\0before_request'));
    expect(keywordClusterId(extractKeywordSet('anything'))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('falls back to all keywords when there is no primary keyword, unless told not to', () => {
    const plain = extractKeywordSet('blast radius');
    expect(keywordClusterId(plain)).toBe(sha256('cluster\0BlastRadius\0blast\0blast_radius\0radius'));
    expect(keywordClusterId(plain)).not.toBe(keywordClusterId(extractKeywordSet('snapshot diffing')));
    expect(keywordClusterId(plain, { whenNoPrimary: 'empty' })).toBe(sha256('cluster\0'));
  });
});
