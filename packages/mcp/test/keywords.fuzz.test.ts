/**
 * The task text of context_for_task and explain_symbol reaches @knowing/keywords as it is.
 * Fuzz what the engine runs on it with random and adversarial strings up to the server's task
 * limit: nothing throws, every result has its type, and no input takes long (no regular
 * expression that backtracks without bound).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  allKeywords,
  buildFtsQuery,
  decomposeCompounds,
  extractKeywordSet,
  extractPathTerms,
  keywordClusterId,
  primaryKeywords,
  taskTerms,
} from '@knowing/keywords';
import { extractStackFrames } from '@knowing/keywords/frames';
import { lexicalQueryTerms } from '@knowing/keywords/lexical';
import { DEFAULT_SERVER_OPTIONS } from '../src/index.js';

const LIMIT = DEFAULT_SERVER_OPTIONS.maxTaskChars;

/** Everything the engine derives from a task's text, as it does for one context_for_task. */
function analyse(task: string): void {
  const set = extractKeywordSet(task);
  for (const list of [set.exact, set.compounds, set.components, set.priority, allKeywords(set), primaryKeywords(set)]) {
    expect(Array.isArray(list)).toBe(true);
    for (const keyword of list) expect(typeof keyword).toBe('string');
  }
  expect(typeof keywordClusterId(set)).toBe('string');
  expect(typeof buildFtsQuery(allKeywords(set))).toBe('string');
  expect(typeof decomposeCompounds(primaryKeywords(set))).toBe('string');
  for (const term of [...extractPathTerms(task), ...taskTerms(task), ...lexicalQueryTerms(task)]) expect(typeof term).toBe('string');
  for (const frame of extractStackFrames(task)) expect(typeof frame.file === 'string' || frame.file === undefined).toBe(true);
}

/** Pieces that stress the tokenizer and the code-pattern expressions when repeated. */
const PIECES = [
  '`', '``', '.', '..', '::', '#', '->', '(', ')', '()', '[', ']', '{', '}', '/', '\\', '-', '--', '_', '__', ':', ';', ',', '"', "'",
  ' ', '  ', '\t', '\n', '\r\n', 'a', 'A', 'aA', 'Ab', 'ABC', '0', '9.9', 'v1.2.3', 'x_y', 'fooBar', 'FooBarBaz', 'HTTPServer', 'snake_case_name',
  'http://', 'https://example.com/a/b?c=d', 'www.', 'file.py', 'a/b/c.ts', 'src/', '.py', 'e.g.', 'i.e.', 'Mr.', "don't", 'é', 'ß', 'İ', '日本',
  '\u0000', '\u200b', '\ud800', '\udc00', '😀', '\u0301', 'Traceback (most recent call last):', '  File "a.py", line 3, in f', 'at f (a.js:1:2)',
];

const adversarial = fc.array(fc.constantFrom(...PIECES), { maxLength: 4_000 }).map((pieces) => pieces.join('').slice(0, LIMIT));
/** One piece repeated to the limit: the worst case for expressions that backtrack. */
const repeated = fc
  .tuple(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 3 }), fc.constantFrom('', 'x', '!', '`', ')', '.py'))
  .map(([unit, tail]) => unit.join('').repeat(Math.ceil(LIMIT / Math.max(1, unit.join('').length))).slice(0, LIMIT - tail.length) + tail);

describe('task keyword extraction under fuzzing', () => {
  it('never throws on random strings (any unicode, lone surrogates, control characters)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 500 }), fc.string({ unit: 'binary', maxLength: 500 }), fc.string({ unit: 'grapheme', maxLength: 200 })), (task) => {
        analyse(task);
      }),
      { numRuns: 400 },
    );
  });

  it('never throws and stays fast on adversarial text up to the task limit', () => {
    let slowest = 0;
    fc.assert(
      fc.property(fc.oneof(adversarial, repeated), (task) => {
        const started = performance.now();
        analyse(task);
        slowest = Math.max(slowest, performance.now() - started);
      }),
      { numRuns: 60 },
    );
    // A hang guard, not a speed target (those live in benchmarks/): tasks at the limit take
    // tens of milliseconds. Every frame pattern of extractStackFrames is bounded and starts at a
    // token boundary, so a long run of one character stays linear (it was quadratic: 40,000 `_`
    // took 1.7 s).
    expect(slowest).toBeLessThan(5_000);
  }, 120_000);
});
