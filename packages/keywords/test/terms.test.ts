import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countTermMatches, foldWord, stemTerm, symbolTerms, taskTerms, termCore, termCounter, termMatcher } from '../src/index.js';

describe('stemTerm', () => {
  it('brings inflections of one word onto one stem', () => {
    const stems = (words: string[]) => new Set(words.map(stemTerm));
    expect(stems(['serialize', 'serializer', 'serialized', 'serializers', 'serialization'])).toEqual(new Set(['serializ']));
    expect(stems(['route', 'routes', 'routing'])).toEqual(new Set(['rout']));
    expect(stems(['dependency', 'dependencies'])).toEqual(new Set(['dependenci']));
    expect(stems(['process', 'processes'])).toEqual(new Set(['process']));
    expect(stems(['log', 'logs', 'logging', 'logged', 'logger', 'loggers'])).toEqual(new Set(['log']));
    expect(stems(['handle', 'handles', 'handler', 'handlers', 'handled'])).toEqual(new Set(['handl']));
  });

  it('leaves short words and double-s words alone, and keeps unrelated words apart', () => {
    expect(stemTerm('user')).toBe('user');
    expect(stemTerm('class')).toBe('class');
    expect(stemTerm('access')).toBe('access');
    expect(stemTerm('Files')).toBe(stemTerm('file'));
    expect(stemTerm('settings')).not.toBe(stemTerm('set'));
    expect(stemTerm('order')).toBe('order');
  });

  it('is the shared fold plus the agent and action nouns', () => {
    for (const word of ['caching', 'validators', 'retries', 'naming', 'settings']) expect(stemTerm(word)).toBe(foldWord(word));
    expect(foldWord('serializer')).toBe('serializer');
    expect(stemTerm('serializer')).toBe('serializ');
  });
});

describe('taskTerms', () => {
  it('keeps content words and identifier parts, drops stop words, numbers and short words', () => {
    expect(taskTerms('Fix how the SerializerChain handles HTTP 404 in a route')).toEqual(['serializ', 'chain', 'handl', 'http', 'rout']);
  });

  it('returns each stem once', () => {
    expect(taskTerms('routes route routing')).toEqual(['rout']);
  });
});

describe('symbolTerms and countTermMatches', () => {
  it('splits qualified paths in every language convention', () => {
    expect(symbolTerms('Jekyll::Drops::DocumentDrop.to_liquid')).toEqual(['jekyll', 'drop', 'document', 'liquid']);
    expect(symbolTerms('SerializerChain#process')).toEqual(['serializ', 'chain', 'process']);
  });

  it('counts distinct task terms a symbol names, including its enclosing type', () => {
    const task = new Set(taskTerms('Trace how route return values are serialized through the serializer chain'));
    expect(countTermMatches(task, 'SerializerChain.process')).toBe(2);
    expect(countTermMatches(task, 'Serializer.processElement')).toBe(1);
    expect(countTermMatches(task, 'Response.body')).toBe(0);
  });
});

describe('termCore', () => {
  it('is in every word that gives the term, over the words of real source files', () => {
    // Words as a task or a doc comment holds them: this package's own sources and the English
    // of their comments, plus identifiers whose folding changes their ends.
    const text = ['terms.ts', 'fold.ts', 'split.ts', 'extract.ts', 'pasted.ts', 'lexical.ts']
      .map((file) => readFileSync(new URL(`../src/${file}`, import.meta.url), 'utf8'))
      .join('\n');
    const extra = 'MaxDependencyDepth dependencies retries RetryPolicy loggingHandler settings embedded HTTPServer UUIDs setupDB';
    const words = [...new Set(`${text} ${extra}`.split(/[^A-Za-z0-9_]+/).filter(Boolean))];
    expect(words.length).toBeGreaterThan(1000);
    let checked = 0;
    for (const word of words) {
      for (const term of taskTerms(word)) {
        expect(word.toLowerCase().includes(termCore(term)), `${word} → ${term}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(termCore(stemTerm('dependencies'))).toBe('dependenc');
    expect(termCore(stemTerm('Retry'.toLowerCase()))).toBe('retr');
  });
});

describe('countTermMatches against its definition', () => {
  it('counts what symbolTerms and the task share, over paths and tasks built from real source words', () => {
    const words = [
      ...new Set(
        ['terms.ts', 'split.ts', 'extract.ts']
          .map((file) => readFileSync(new URL(`../src/${file}`, import.meta.url), 'utf8'))
          .join('\n')
          .split(/[^A-Za-z0-9_]+/)
          .filter((word) => word.length > 0),
      ),
      'MaxDependencyDepth', 'dependencies', 'RetryPolicy', 'retries', 'HTTPServer', 'UUIDs', 'setupDB', 'Jekyll', 'DocumentDrop',
    ];
    // A small deterministic generator: the same paths and tasks on every run.
    let seed = 7;
    const pick = (): string => words[(seed = (seed * 1103515245 + 12345) % 2147483648) % words.length]!;
    const separators = ['.', '::', '#', '/', ' '];
    let nonZero = 0;
    let shared: { task: ReadonlySet<string>; count: (path: string) => number } | undefined;
    for (let i = 0; i < 3000; i++) {
      const task = new Set(taskTerms(Array.from({ length: 1 + (i % 7) }, pick).join(' ')));
      const path = Array.from({ length: 1 + (i % 4) }, (_, j) => `${j ? separators[(i + j) % separators.length] : ''}${pick()}`).join('');
      const expected = symbolTerms(path).filter((term) => task.has(term)).length;
      expect(countTermMatches(task, path), `${[...task].join(',')} ~ ${path}`).toBe(expected);
      // One counter per task, read path after path as the engine reads candidates: its word
      // cache must give every later path the count a fresh one would.
      const counter = i % 7 === 0 ? (shared = { task, count: termCounter(task) }) : shared!;
      if (counter.task === task) expect(counter.count(path)).toBe(expected);
      else expect(counter.count(path)).toBe(symbolTerms(path).filter((term) => counter.task.has(term)).length);
      if (expected > 0) nonZero++;
    }
    expect(nonZero).toBeGreaterThan(100);
  });
});

describe('termMatcher', () => {
  it('gives the task terms a word yields, and none for a word holding no core', () => {
    const task = new Set(taskTerms('retry the dependency download'));
    const termsIn = termMatcher(task);
    expect(termsIn('MaxDependencyDepth')).toEqual(['dependenci']);
    expect(termsIn('RetryDownload')).toEqual(['retri', 'download']);
    expect(termsIn('render')).toEqual([]);
    // The same as filtering the word's own terms, over every word of a real source file.
    const words = new Set(readFileSync(new URL('../src/terms.ts', import.meta.url), 'utf8').split(/[^A-Za-z0-9_]+/).filter(Boolean));
    const wide = new Set(taskTerms('the terms of each word are split, stemmed and filtered by the task'));
    const wideIn = termMatcher(wide);
    for (const word of words) expect(wideIn(word), word).toEqual(taskTerms(word).filter((term) => wide.has(term)));
  });
});
