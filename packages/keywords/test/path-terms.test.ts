import { describe, expect, it } from 'vitest';
import { DEFAULT_PATH_TERM_OPTIONS, extractPathTerms } from '../src/index.js';

describe('extractPathTerms', () => {
  it('finds the package word of the seed example "fix the migration operation"', () => {
    expect(extractPathTerms('fix the migration operation')).toContain('migration');
  });

  it('keeps the longest five, longest first, ties in order of appearance', () => {
    expect(extractPathTerms('fix the migration operation ordering in the autodetector')).toEqual([
      'autodetector',
      'migration',
      'operation',
      'ordering',
    ]);
    expect(extractPathTerms('alpha bravo charlie delta foxtrot hotel kilo lima')).toEqual([
      'charlie',
      'foxtrot',
      'alpha',
      'bravo',
      'delta',
    ]);
  });

  it.each([
    ['words shorter than four characters', 'add api key to cli', []],
    ['generic path words', 'custom request service model view base error handler', []],
    ['stop words and action verbs', 'should would about implement', []],
    ['numbers', '1234 2024 3.9', []],
    ['special characters', 'c++ c# <tag> @decorator', ['decorator']],
  ])('drops %s', (_name, text, terms) => {
    expect(extractPathTerms(text)).toEqual(terms);
  });

  it('adds the snake_case and CamelCase parts of at least four characters', () => {
    expect(extractPathTerms('before_request in SQLiteStore')).toEqual(['before_request', 'sqlitestore', 'sqlite', 'store']);
    // `before` is a generic path word; `request` too
    expect(extractPathTerms('a TransitiveCallers bug')).toEqual(['transitivecaller', 'transitive', 'caller']);
  });

  it('splits dotted module paths and hyphenated names into segments', () => {
    expect(extractPathTerms('django.contrib.admin and rate-limit')).toEqual(['contrib', 'django', 'admin', 'limit', 'rate']);
  });

  it('splits file paths', () => {
    expect(extractPathTerms('see src/flask/blueprints.py')).toEqual(['blueprint', 'flask']);
  });

  it.each([
    ['migrations', 'migration'],
    ['matches', 'match'],
    ['boxes', 'boxes'], // `box` would be below the minimum length
    ['classes', 'class'],
    ['indexes', 'index'],
    ['processes', 'process'],
    ['status', 'status'],
    ['analysis', 'analysis'],
    ['policies', 'policies'],
    ['address', 'address'],
  ])('singularises %s → %s', (word, term) => {
    expect(extractPathTerms(word, { stopWords: [] })).toEqual([term]);
  });

  it('keeps plurals when told to', () => {
    expect(extractPathTerms('migrations', { singularize: false })).toEqual(['migrations']);
  });

  it('de-duplicates singular and plural', () => {
    expect(extractPathTerms('migration migrations Migrations')).toEqual(['migration']);
  });

  it('takes tunables', () => {
    expect(extractPathTerms('alpha bravo charlie', { maxTerms: 1 })).toEqual(['charlie']);
    expect(extractPathTerms('alpha bravo charlie', { minLength: 6 })).toEqual(['charlie']);
    expect(extractPathTerms('alpha bravo charlie', { maxLength: 5 })).toEqual(['alpha', 'bravo']);
    expect(extractPathTerms('alpha', { stopWords: ['alpha'] })).toEqual([]);
    expect(DEFAULT_PATH_TERM_OPTIONS.maxTerms).toBe(5);
  });

  it('handles empty and hostile text', () => {
    expect(extractPathTerms('')).toEqual([]);
    expect(extractPathTerms('"*:()^-')).toEqual([]);
    expect(extractPathTerms('x'.repeat(10_000))).toEqual([]);
  });
});
