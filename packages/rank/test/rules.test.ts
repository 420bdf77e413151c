import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@knowing/graph';
import {
  commitRecencyBonus,
  feedbackAdjustment,
  isAuxiliaryCode,
  isTestTask,
  resolveRankingOptions,
  sessionContribution,
} from '../src/formula.js';
import { createDefaultRanker, DEFAULT_RANKING_OPTIONS } from '../src/index.js';
import { splitWords } from '../src/test-detection.js';
import type { RankInput, RankContext } from '../src/index.js';
import { fixtureNode } from '../src/testing.js';

const NOW = 1_700_000_000_000;
const DAY = 86_400_000;

function near(actual: number | undefined, expected: number): void {
  expect(actual).toBeDefined();
  expect(Math.abs(actual! - expected), `${actual} vs ${expected}`).toBeLessThan(1e-9);
}

describe('commit recency bonus', () => {
  const b = DEFAULT_RANKING_OPTIONS.commitRecency;
  it('adds +0.05 within a day, +0.03 within a week, +0.01 within 30 days, else nothing', () => {
    expect(commitRecencyBonus(NOW - 1, NOW, b)).toBe(0.05);
    expect(commitRecencyBonus(NOW - DAY, NOW, b)).toBe(0.05);
    expect(commitRecencyBonus(NOW - 2 * DAY, NOW, b)).toBe(0.03);
    expect(commitRecencyBonus(NOW - 7 * DAY, NOW, b)).toBe(0.03);
    expect(commitRecencyBonus(NOW - 8 * DAY, NOW, b)).toBe(0.01);
    expect(commitRecencyBonus(NOW - 30 * DAY, NOW, b)).toBe(0.01);
    expect(commitRecencyBonus(NOW - 31 * DAY, NOW, b)).toBe(0);
    expect(commitRecencyBonus(undefined, NOW, b)).toBe(0);
  });
  it('shows up in the ranking as commit_recency, measured against context.now', () => {
    const input: RankInput = { node: fixtureNode('src/a.ts', 'a'), rwr: 1, distance: 0, isSeed: true, lastModified: NOW - 3 * DAY };
    const ranker = createDefaultRanker();
    expect(ranker.rank([input], { task: '', now: NOW })[0]!.components['commit_recency']).toBe(0.03);
    expect(ranker.rank([input], { task: '', now: NOW + 30 * DAY })[0]!.components['commit_recency']).toBe(0);
  });
});

describe('feedback and session adjustments', () => {
  const f = DEFAULT_RANKING_OPTIONS.feedback;
  it('is asymmetric: +0.25 when always useful, 0 at one half, −0.05 when never useful', () => {
    near(feedbackAdjustment({ useful: 5, notUseful: 0 }, f), 0.25);
    near(feedbackAdjustment({ useful: 2, notUseful: 2 }, f), 0);
    near(feedbackAdjustment({ useful: 0, notUseful: 7 }, f), -0.05);
    near(feedbackAdjustment({ useful: 1, notUseful: 3 }, f), -0.025);
    expect(feedbackAdjustment({ useful: 0, notUseful: 0 }, f)).toBe(0);
    expect(feedbackAdjustment(undefined, f)).toBe(0);
  });
  it('can discount few observations', () => {
    // One "not useful": ratio 0 pulled toward 0.5 by 1−1/(1+1) = 0.5 → 0.25 → signal −0.5.
    near(feedbackAdjustment({ useful: 0, notUseful: 1 }, { ...f, confidence: 'linear' }), -0.025);
    near(feedbackAdjustment({ useful: 4, notUseful: 0 }, { ...f, confidence: 'sqrt' }), 0.25 * (1 - 1 / 3));
  });
  it('normalises the session boost by its cap of 2', () => {
    const s = DEFAULT_RANKING_OPTIONS.session;
    near(sessionContribution(2, s), 0.2);
    near(sessionContribution(0.5, s), 0.05);
    near(sessionContribution(5, s), 0.2);
    expect(sessionContribution(undefined, s)).toBe(0);
  });
});

describe('test code is the language module\'s flag', () => {
  const context: RankContext = { task: 'fix login redirects', now: NOW };
  const at = (file: string, symbol: string, isTest: boolean): RankInput => ({ node: fixtureNode(file, symbol, { isTest }), rwr: 1, distance: 0, isSeed: true });
  it('penalises exactly the symbols the indexer flagged, whatever their path', () => {
    // Flagged by their language: a test in a test file, a test function in a library module (`Flask.test_client`, a Rust `mod tests`).
    for (const input of [at('pkg/auth/login_test.go', 'TestLogin', true), at('src/flask/app.py', 'Flask.test_client', true), at('src/escape.rs', 'tests.nul', true)]) {
      expect(createDefaultRanker().rank([input], context)[0]!.components['test_penalty'], input.node.qualifiedName).toBeLessThan(0);
    }
    // Not flagged: paths that look like tests to one convention or another are the language module's call, not the ranker's.
    for (const input of [at('testing/AcceptanceSteps.cs', 'AcceptanceSteps', false), at('crates/cargo-test-support/src/lib.rs', 'cargo_process', false), at('src/flask/testing.py', 'FlaskClient', false)]) {
      expect(createDefaultRanker().rank([input], context)[0]!.components['test_penalty'], input.node.qualifiedName).toBe(0);
    }
  });
});

describe('test-task detection', () => {
  const words = DEFAULT_RANKING_OPTIONS.testTaskWords;
  it('lifts on the words of the seeds, as whole words', () => {
    for (const task of ['add a test for redirects', 'fix the failing unit test', 'write integration tests', 'mock the HTTP client', 'add a fixture', 'assert the header is kept', 'update the spec', 'testing the CLI', 'extend TestClient']) {
      expect(isTestTask(task, [], words), task).toBe(true);
    }
  });
  it('does not lift on words that merely contain them', () => {
    for (const task of ['show the latest release', 'a specific handler', 'inspect the request', 'contest entries', 'hammock', 'reassertion']) {
      expect(isTestTask(task, [], words), task).toBe(false);
    }
  });
  it('also reads the extracted keywords', () => {
    expect(isTestTask('cover redirects', ['pytest'], words)).toBe(true);
  });
  it('splits identifiers into words', () => {
    expect(splitWords("Fix TestClient's HTTPServer unit_test")).toEqual(['fix', 'test', 'client', 's', 'http', 'server', 'unit', 'test']);
  });
});

describe('test-file penalty', () => {
  const test: RankInput = { node: fixtureNode('tests/test_auth.py', 'test_login', { isTest: true }), rwr: 1, distance: 0, isSeed: true };
  const lib: RankInput = { node: fixtureNode('src/auth.py', 'login'), rwr: 1, distance: 0, isSeed: true };
  const context: RankContext = { task: 'fix login redirects', now: NOW };
  // Both: 0.40 + 0.25·0.5 + 0.15 = 0.675 before the penalty.

  it('multiplies test symbols by 0.15 by default', () => {
    const ranked = createDefaultRanker().rank([test, lib], context);
    expect(ranked.map((r) => r.node.name)).toEqual(['login', 'test_login']);
    near(ranked[0]!.score, 0.675);
    near(ranked[1]!.score, 0.675 * 0.15);
    near(ranked[1]!.components['test_penalty'], -0.675 * 0.85);
  });

  it('takes the seeds value 0.3 (or any multiplier) as an option', () => {
    near(createDefaultRanker({ testPenalty: 0.3 }).rank([test], context)[0]!.score, 0.675 * 0.3);
  });

  it('is lifted when the task is about tests', () => {
    const ranked = createDefaultRanker().rank([test, lib], { task: 'add a unit test for login', now: NOW });
    near(ranked.find((r) => r.node.name === 'test_login')!.score, 0.675);
    expect(ranked.find((r) => r.node.name === 'test_login')!.components['test_penalty']).toBe(0);
  });

  it('follows an explicit aboutTests over the detection', () => {
    near(createDefaultRanker().rank([test], { task: 'add a test', aboutTests: false, now: NOW })[0]!.score, 0.675 * 0.15);
    near(createDefaultRanker().rank([test], { task: 'login', aboutTests: true, now: NOW })[0]!.score, 0.675);
  });

  it('detects test code by the indexer flag, not by name or path (unless told otherwise)', () => {
    const unflagged: RankInput = { ...lib, node: fixtureNode('pkg/auth/login_test.go', 'TestLogin') };
    near(createDefaultRanker().rank([unflagged], context)[0]!.score, 0.675);
    const libraryHelper: RankInput = { ...lib, node: fixtureNode('src/flask/app.py', 'Flask.test_client', { isTest: true }) };
    near(createDefaultRanker().rank([libraryHelper], context)[0]!.score, 0.675 * 0.15);
    const byPath = createDefaultRanker({ isTestSymbol: (node) => node.file.endsWith('_test.go') });
    near(byPath.rank([unflagged], context)[0]!.score, 0.675 * 0.15);
  });

  it('never raises a negative score', () => {
    const negative = createDefaultRanker({ confidence: { floor: 0 }, weights: { distance: 0, blastRadius: 0 } }).rank(
      [{ ...test, feedback: { useful: 0, notUseful: 1 } }],
      context,
    );
    near(negative[0]!.score, -0.05 - 0.05 * 0.85);
  });
});

describe('forced injection', () => {
  const mk = (name: string, rwr: number, extra: Partial<RankInput> = {}): RankInput => ({
    node: fixtureNode('src/views.py', name),
    rwr,
    distance: rwr === 1 ? 0 : 1,
    isSeed: rwr === 1,
    ...extra,
  });
  const top = mk('dispatch_request', 1);
  const mid = mk('make_response', 0.5);
  const lowForced = mk('as_view', 0.1, { forced: true });
  const lowerForced = mk('MethodView', 0.05, { forced: true });
  const context: RankContext = { task: 'class based views', now: NOW };

  it('puts forced symbols first at top score + 0.1, keeping their own order', () => {
    const ranked = createDefaultRanker().rank([mid, lowerForced, top, lowForced], context);
    expect(ranked.map((r) => r.node.name)).toEqual(['as_view', 'MethodView', 'dispatch_request', 'make_response']);
    const topScore = ranked[2]!.score;
    near(ranked[1]!.score, topScore + 0.1);
    near(ranked[0]!.score, topScore + 0.2);
    // The forced component carries the jump; components still sum to the score.
    const total = Object.values(ranked[1]!.components).reduce((a, b) => a + b, 0);
    near(total, ranked[1]!.score);
    expect(ranked[1]!.components['forced']).toBeGreaterThan(0);
    expect(ranked[2]!.components['forced']).toBe(0);
  });

  it('removes duplicates, the forced copy winning', () => {
    const ranked = createDefaultRanker().rank([top, mid, { ...mid, forced: true }, mid], context);
    expect(ranked.map((r) => r.node.name)).toEqual(['make_response', 'dispatch_request']);
    near(ranked[0]!.score, ranked[1]!.score + 0.1);
  });

  it('keeps the best-scoring copy of a duplicated normal candidate', () => {
    const ranked = createDefaultRanker().rank([{ ...mid, rwr: 0.2 }, top, mid], context);
    expect(ranked).toHaveLength(2);
    expect(ranked[1]!.rwr).toBe(0.5);
  });

  it('is not subject to the test penalty', () => {
    const forcedTest = mk('test_views', 0.1, { forced: true, node: fixtureNode('tests/test_views.py', 'test_views', { isTest: true }) });
    const ranked = createDefaultRanker().rank([top, forcedTest], context);
    expect(ranked[0]!.node.name).toBe('test_views');
    near(ranked[0]!.score, ranked[1]!.score + 0.1);
  });

  it('starts from 0 when every candidate is forced, and honours the margin option', () => {
    const ranked = createDefaultRanker({ forcedMargin: 0.5 }).rank([lowForced, lowerForced], context);
    near(ranked[1]!.score, 0.5);
    near(ranked[0]!.score, 1);
  });
});

describe('deterministic tie-breaking', () => {
  it('orders equal scores by qualified name, then id', () => {
    const inputs: RankInput[] = ['zeta', 'alpha', 'Mu', 'beta'].map((name) => ({ node: fixtureNode('src/x.ts', name), rwr: 0.5, distance: 1, isSeed: false }));
    const names = createDefaultRanker().rank(inputs, { task: '', now: NOW }).map((r) => r.node.name);
    expect(names).toEqual(['Mu', 'alpha', 'beta', 'zeta']);
  });
});

describe('options', () => {
  it('are frozen defaults with the seeds values', () => {
    expect(Object.isFrozen(DEFAULT_RANKING_OPTIONS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_RANKING_OPTIONS.hitsWeights)).toBe(true);
    expect(DEFAULT_RANKING_OPTIONS.weights).toEqual({ relevance: 0, blastRadius: 0.4, confidence: 0.25, distance: 0.15 });
    expect(DEFAULT_RANKING_OPTIONS.hitsWeights).toEqual({ relevance: 0, blastRadius: 0.35, confidence: 0.2, distance: 0.15 });
    expect(DEFAULT_RANKING_OPTIONS.testPenalty).toBe(0.15);
  });

  it('merge nested groups partially without touching the caller objects', () => {
    const words = ['qa'];
    const options = resolveRankingOptions({ hitsWeights: { blastRadius: 0.3 }, testTaskWords: words });
    expect(options.hitsWeights).toEqual({ ...DEFAULT_RANKING_OPTIONS.hitsWeights, blastRadius: 0.3 });
    expect(Object.isFrozen(words)).toBe(false);
    expect(createDefaultRanker({ testTaskWords: words }).options.testTaskWords).toEqual(['qa']);
  });

  it('reject unknown keys and out-of-range values with INVALID_ARGUMENT', () => {
    const bad = [
      { testPenalty: 1.5 },
      { testPenalty: Number.NaN },
      { weights: { blastRadius: Number.POSITIVE_INFINITY } },
      { weights: { blast: 0.3 } },
      { nope: 1 },
      { commitRecency: [{ maxAgeMs: 10, bonus: 0.1 }, { maxAgeMs: 5, bonus: 0.05 }] },
      { weights: { recency: 0.2 } },
      { feedback: { confidence: 'cubic' } },
      { session: { maxBoost: 0 } },
    ];
    for (const overrides of bad) {
      expect(() => createDefaultRanker(overrides as never), JSON.stringify(overrides)).toThrow(
        expect.objectContaining({ code: ErrorCode.InvalidArgument }),
      );
    }
  });

  it('reject malformed inputs with INVALID_ARGUMENT naming the input', () => {
    const ok: RankInput = { node: fixtureNode('src/a.ts', 'a'), rwr: 0.5, distance: 1, isSeed: false };
    for (const broken of [{ ...ok, rwr: Number.NaN }, { ...ok, distance: -1 }, { ...ok, sessionBoost: Number.NaN }, { ...ok, feedback: { useful: -1, notUseful: 0 } }]) {
      expect(() => createDefaultRanker().rank([broken], { task: '' })).toThrow(expect.objectContaining({ code: ErrorCode.InvalidArgument }));
    }
    expect(() => createDefaultRanker().rank([{ ...ok, rwr: Number.NaN }], { task: '' })).toThrow(/rank input 0/);
  });
});

describe('term matches', () => {
  const input = (name: string, termMatches?: number): RankInput => ({
    node: fixtureNode('src/a.py', name),
    rwr: 0.2,
    distance: 1,
    isSeed: false,
    ...(termMatches !== undefined ? { termMatches } : {}),
  });

  it('adds weight × matched terms, capped, and orders otherwise equal candidates by it', () => {
    const ranker = createDefaultRanker({ termMatch: { weight: 0.15, cap: 4 } });
    const ranked = ranker.rank([input('plain'), input('two', 2), input('many', 9)], { task: 't', now: NOW });
    expect(ranked.map((r) => r.node.name)).toEqual(['many', 'two', 'plain']);
    near(ranked[0]!.components.term_match, 0.15 * 4);
    near(ranked[1]!.components.term_match, 0.15 * 2);
    near(ranked[2]!.components.term_match, 0);
    near(ranked[0]!.score - ranked[2]!.score, 0.6);
  });

  it('adds textMatchWeight × textMatch', () => {
    const ranker = createDefaultRanker({ textMatchWeight: 2 });
    const plain = input('plain');
    const texty: RankInput = { ...input('texty'), textMatch: 0.25 };
    const ranked = ranker.rank([plain, texty], { task: 't', now: NOW });
    expect(ranked.map((r) => r.node.name)).toEqual(['texty', 'plain']);
    near(ranked[0]!.components.text_match, 0.5);
    near(ranked[0]!.score - ranked[1]!.score, 0.5);
  });

  it('rejects a negative weight and a non-finite match count', () => {
    expect(() => createDefaultRanker({ termMatch: { weight: -1 } })).toThrow(/termMatch.weight/);
    expect(() => createDefaultRanker().rank([input('x', Number.NaN)], { task: 't', now: NOW })).toThrow(/termMatches/);
  });
});

describe('isTestTask needs evidence that a task is about tests', () => {
  const words = ['test', 'tests', 'testing', 'spec'];
  it('a short request naming a test word is', () => {
    expect(isTestTask('add a unit test for redirects', [], words)).toBe(true);
    expect(isTestTask('fix the flaky tests', ['flaky', 'tests'], words)).toBe(true);
  });
  it('one mention in a long report is not; two mentions or test code named are', () => {
    const report = 'the redirect loses its query string when the target has a fragment, found while running our test suite against a proxy';
    expect(isTestTask(report, ['redirect', 'test', 'suite'], words)).toBe(false);
    expect(isTestTask(`${report}; the tests for redirects do not cover fragments`, [], words)).toBe(true);
    expect(isTestTask('the redirect loses its query string when the target has a fragment, see test_redirect_fragment', [], words)).toBe(true);
    expect(isTestTask('redirect handling breaks when the target has a fragment and RedirectTest fails with a proxy configured', [], words)).toBe(true);
  });
  it('keywords count only when the task names no test word itself', () => {
    expect(isTestTask('cover the redirects', ['tests'], words)).toBe(true);
  });
  it('a task of several lines is judged by its first: the lines below list steps, tests among them', () => {
    const steps = 'Fix negative retry delays after many attempts\n\n- add tests for large attempt counts\n- test the cap in RetryHelperTests';
    expect(isTestTask(steps, [], words)).toBe(false);
    // The same steps on one line are a task that names tests twice and test code.
    expect(isTestTask(steps.replaceAll('\n', ' '), [], words)).toBe(true);
    expect(isTestTask('Add a regression test for redirects\n\nThe redirect loses its query string when the target has a fragment.', [], words)).toBe(true);
    expect(isTestTask('\n\nRedirectTest fails with a proxy\r\nseen on CI', [], words)).toBe(true);
    // Keywords drawn from the lower lines' test words do not count; others still do.
    expect(isTestTask('Fix retries\n\nadd tests', ['tests'], words)).toBe(false);
    expect(isTestTask('Cover the redirects\n\nsee the report', ['tests'], words)).toBe(true);
  });
});

describe('auxiliary code (benchmarks, examples): a ranking feature of its own, not test code', () => {
  const context: RankContext = { task: 'fix login redirects', now: NOW };
  const input = (file: string, isTest = false): RankInput => ({ node: fixtureNode(file, 'parse', { isTest }), rwr: 1, distance: 0, isSeed: true });
  it('is recognised by its directory', () => {
    for (const file of ['benches/bench_main.rs', 'crates/core/benchmarks/parse.rs', 'examples/hello/main.go', 'docs_src/tutorial/app.py', 'src/Snippets/Docs/Retry.cs', 'samples/Console/Program.cs', 'playground/app.ts']) {
      expect(isAuxiliaryCode({ file }), file).toBe(true);
    }
    for (const file of ['src/flask/app.py', 'src/exampleparser/parse.py', 'examples.py', 'src/go/doc/reader.go', 'lib/docs.rb', '']) expect(isAuxiliaryCode({ file }), file).toBe(false);
  });
  it('is demoted like test code, under its own component, unless the task is about tests', () => {
    const [ranked] = createDefaultRanker().rank([input('examples/hello/main.go')], context);
    near(ranked!.components['auxiliary_penalty'], -0.675 * 0.85);
    expect(ranked!.components['test_penalty']).toBe(0);
    near(createDefaultRanker({ auxiliaryPenalty: 1 }).rank([input('examples/hello/main.go')], context)[0]!.score, 0.675);
    near(createDefaultRanker().rank([input('examples/hello/main.go')], { ...context, aboutTests: true })[0]!.score, 0.675);
  });
  it('is not penalised twice when it is also test code', () => {
    const [ranked] = createDefaultRanker().rank([input('examples/tests/test_main.py', true)], context);
    near(ranked!.score, 0.675 * 0.15);
    expect(ranked!.components['auxiliary_penalty']).toBe(0);
  });
});
