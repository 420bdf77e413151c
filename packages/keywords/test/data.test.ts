import { describe, expect, it } from 'vitest';
import {
  ABBREVIATIONS,
  ACTION_STOP_WORDS,
  ACTION_VERBS,
  ENGLISH_STOP_WORDS,
  FILE_EXTENSIONS,
  FILLER_WORDS,
  IDENTIFIER_ATOMS,
  PATH_STOP_WORDS,
  PROGRAMMING_STOP_WORDS,
  PROSE_ABBREVIATIONS,
  STOP_WORDS,
} from '../src/data.js';
import {
  DEFAULT_DECOMPOSE_OPTIONS,
  DEFAULT_FTS_QUERY_OPTIONS,
  DEFAULT_KEYWORD_CLUSTER_OPTIONS,
  DEFAULT_KEYWORD_OPTIONS,
  DEFAULT_NORMALIZE_OPTIONS,
  DEFAULT_PATH_TERM_OPTIONS,
  DEFAULT_VOCAB_OPTIONS,
} from '../src/index.js';

const LISTS = {
  ENGLISH_STOP_WORDS,
  PROGRAMMING_STOP_WORDS,
  ACTION_STOP_WORDS,
  FILLER_WORDS,
  STOP_WORDS,
  ACTION_VERBS,
  PATH_STOP_WORDS,
  PROSE_ABBREVIATIONS,
  FILE_EXTENSIONS,
};

describe('data lists', () => {
  it.each(Object.entries(LISTS))('%s is frozen, lower-case and free of duplicates', (_name, list) => {
    expect(Object.isFrozen(list)).toBe(true);
    expect(new Set(list).size).toBe(list.length);
    for (const word of list) expect(word).toBe(word.toLowerCase());
    expect(() => (list as string[]).push('x')).toThrow();
  });

  it('keeps the original system’s stop words (39 English, 22 programming, 13 action)', () => {
    const original = [
      'the', 'a', 'an', 'in', 'to', 'for', 'is', 'of', 'and', 'or', 'on', 'at', 'by', 'it', 'be', 'as', 'do', 'no', 'if', 'so',
      'up', 'my', 'we', 'all', 'this', 'that', 'with', 'from', 'what', 'how', 'can', 'will', 'should', 'would', 'about',
      'into', 'when', 'where', 'which',
      'new', 'get', 'set', 'add', 'make', 'init', 'has', 'err', 'func', 'type', 'var', 'const', 'return', 'import',
      'package', 'struct', 'interface', 'string', 'int', 'bool', 'error', 'nil',
      'refactor', 'fix', 'update', 'change', 'modify', 'implement', 'create', 'delete', 'remove', 'move', 'improve',
      'optimize', 'review',
    ];
    expect(original).toHaveLength(74);
    expect(STOP_WORDS).toEqual(expect.arrayContaining(original));
  });

  it('keeps the words that name hooks and iterators out of the stop list', () => {
    for (const word of ['before', 'after', 'next', 'first', 'last', 'once', 'now', 'code', 'feature', 'method', 'request']) {
      expect(STOP_WORDS).not.toContain(word);
    }
  });

  it('STOP_WORDS is the union of its parts', () => {
    expect([...STOP_WORDS].sort()).toEqual(
      [...new Set([...ENGLISH_STOP_WORDS, ...PROGRAMMING_STOP_WORDS, ...ACTION_STOP_WORDS, ...FILLER_WORDS])].sort(),
    );
  });

  it('keeps the original system’s 21 verb-pattern verbs', () => {
    const original = [
      'add', 'implement', 'create', 'build', 'fix', 'refactor', 'update', 'change', 'remove', 'delete', 'move', 'find',
      'detect', 'compute', 'generate', 'resolve', 'wire', 'connect', 'extend', 'introduce', 'integrate',
    ];
    expect(ACTION_VERBS).toEqual(expect.arrayContaining(original));
  });

  it('keeps the original filler words', () => {
    expect(FILLER_WORDS).toEqual(expect.arrayContaining(['a', 'an', 'the', 'new', 'existing', 'all', 'some', 'each', 'that', 'which']));
  });

  it('has about 150 generic path words or more, including the reference examples', () => {
    expect(PATH_STOP_WORDS.length).toBeGreaterThanOrEqual(150);
    expect(PATH_STOP_WORDS).toEqual(expect.arrayContaining(['about', 'custom', 'request', 'service', 'model', 'view', 'base', 'error']));
    for (const word of PATH_STOP_WORDS) expect(word.length).toBeGreaterThanOrEqual(4);
  });

  it('ABBREVIATIONS is frozen, keyed lower-case, and holds the original expansions', () => {
    expect(Object.isFrozen(ABBREVIATIONS)).toBe(true);
    for (const key of Object.keys(ABBREVIATIONS)) expect(key).toBe(key.toLowerCase());
    expect(ABBREVIATIONS).toMatchObject({
      ctx: 'context', cfg: 'config', conf: 'config', req: 'request', resp: 'response', res: 'response', msg: 'message',
      db: 'database', srv: 'server', svc: 'service', mgr: 'manager', pkg: 'package', idx: 'index', iter: 'iterator',
      buf: 'buffer', conn: 'connection', addr: 'address', mux: 'multiplexer', cmd: 'command', args: 'arguments',
      opts: 'options', params: 'parameters', desc: 'description', info: 'information', stat: 'statistics',
      stats: 'statistics', fmt: 'format',
    });
  });

  it('IDENTIFIER_ATOMS is frozen and mixed-case', () => {
    expect(Object.isFrozen(IDENTIFIER_ATOMS)).toBe(true);
    for (const atom of IDENTIFIER_ATOMS) expect(atom).not.toBe(atom.toLowerCase());
  });

  it('every default options object is frozen and carries the seed values', () => {
    for (const defaults of [
      DEFAULT_KEYWORD_OPTIONS,
      DEFAULT_PATH_TERM_OPTIONS,
      DEFAULT_FTS_QUERY_OPTIONS,
      DEFAULT_DECOMPOSE_OPTIONS,
      DEFAULT_NORMALIZE_OPTIONS,
      DEFAULT_VOCAB_OPTIONS,
      DEFAULT_KEYWORD_CLUSTER_OPTIONS,
    ]) {
      expect(Object.isFrozen(defaults)).toBe(true);
    }
    expect(DEFAULT_KEYWORD_OPTIONS).toMatchObject({ maxIdentifierLength: 100, minComponentLength: 2, bigramPlacement: 'components' });
    expect(DEFAULT_PATH_TERM_OPTIONS).toMatchObject({ maxTerms: 5, minLength: 4 });
    expect(DEFAULT_FTS_QUERY_OPTIONS).toMatchObject({ maxPhrasePairs: 5, minPhraseWordLength: 3, minPathTermLength: 4, maxRelatedTerms: 10 });
    expect(DEFAULT_DECOMPOSE_OPTIONS).toMatchObject({ minPartLength: 3, maxSegments: 2 });
  });
});
