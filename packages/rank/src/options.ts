import { ErrorCode, KnowingError } from '@knowing/graph';
import type { GraphNode } from '@knowing/graph';
import type { CommitRecencyBucket, RankingOptions, RankingOverrides, RankingWeights } from './types.js';

const DAY_MS = 86_400_000;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * Words that make a task "about tests". Matched as whole words (camelCase and snake_case split),
 * so `latest` or `specific` do not count.
 *
 * @example
 * ```ts
 * createDefaultRanker({ testTaskWords: [...DEFAULT_TEST_TASK_WORDS, 'e2e'] });
 * ```
 */
export const DEFAULT_TEST_TASK_WORDS: readonly string[] = deepFreeze([
  'test',
  'tests',
  'testing',
  'tested',
  'unittest',
  'pytest',
  'spec',
  'specs',
  'mock',
  'mocks',
  'mocked',
  'mocking',
  'fixture',
  'fixtures',
  'assert',
  'asserts',
  'assertion',
  'assertions',
]);

/**
 * The default test-code predicate: the language module's flag, `node.isTest` (a test file by
 * the language's conventions, or a test function, class or module in any file). The one rule
 * for test code: the engine's seeds and channels read the same flag.
 *
 * @example
 * ```ts
 * defaultIsTestSymbol({ ...node, isTest: true }); // true
 * ```
 */
export function defaultIsTestSymbol(node: GraphNode): boolean {
  return node.isTest;
}

/**
 * The default ranker's options: the seeds' values, except the test penalty, which follows the
 * original code (0.15, see the README).
 *
 * @example
 * ```ts
 * DEFAULT_RANKING_OPTIONS.hitsWeights.blastRadius; // 0.35
 * const seedsPenalty = createDefaultRanker({ testPenalty: 0.3 }); // the seeds' value instead
 * ```
 */
export const DEFAULT_RANKING_OPTIONS: RankingOptions = deepFreeze({
  weights: { relevance: 0, blastRadius: 0.4, confidence: 0.25, distance: 0.15 },
  hitsWeights: { relevance: 0, blastRadius: 0.35, confidence: 0.2, distance: 0.15 },
  hits: {
    seedAuthorityThreshold: 0.05,
    seedAuthorityWeight: 0.25,
    nonSeedAuthorityThreshold: 0.2,
    nonSeedAuthorityWeight: 0.15,
    seedHubThreshold: 0.1,
    seedHubWeight: 0.1,
  },
  feedback: { positiveWeight: 0.25, negativeWeight: 0.05, confidence: 'none' },
  session: { weight: 0.2, maxBoost: 2 },
  commitRecency: [
    { maxAgeMs: DAY_MS, bonus: 0.05 },
    { maxAgeMs: 7 * DAY_MS, bonus: 0.03 },
    { maxAgeMs: 30 * DAY_MS, bonus: 0.01 },
  ],
  confidence: {
    floor: 0.5,
    byProvenance: { lsp_resolved: 0.9, ast_resolved: 0.8, runtime: 0.8, ast_inferred: 0.7, derived: 0.7 },
  },
  blastRadius: { rwrScale: 100, seedWeightScale: 50 },
  binaryDistance: true,
  hubDampingThreshold: 0,
  testPenalty: 0.15,
  auxiliaryPenalty: 0.15,
  kindWeights: {},
  testTaskWords: DEFAULT_TEST_TASK_WORDS,
  isTestSymbol: defaultIsTestSymbol,
  forcedMargin: 0.1,
  termMatch: { weight: 0.3, cap: 4 },
  textMatchWeight: 1,
  lexicalWeight: 1,
} satisfies RankingOptions);

function invalid(message: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, {
    source: 'rank',
    hint: 'see DEFAULT_RANKING_OPTIONS for the expected shape',
  });
}

function checkNumber(path: string, value: unknown, min = -Infinity, max = Infinity): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    const range = min === -Infinity && max === Infinity ? 'a finite number' : `a number in [${min}, ${max}]`;
    throw invalid(`ranking option ${path} must be ${range}, got ${String(value)}`);
  }
}

function checkWeights(path: string, w: RankingWeights): void {
  for (const key of ['relevance', 'blastRadius', 'confidence', 'distance'] as const) checkNumber(`${path}.${key}`, w[key]);
}

function checkBuckets(path: string, buckets: readonly CommitRecencyBucket[]): void {
  if (!Array.isArray(buckets)) throw invalid(`ranking option ${path} must be an array`);
  let previous = -Infinity;
  buckets.forEach((bucket, i) => {
    checkNumber(`${path}[${i}].maxAgeMs`, bucket.maxAgeMs, 0);
    checkNumber(`${path}[${i}].bonus`, bucket.bonus);
    if (bucket.maxAgeMs <= previous) throw invalid(`ranking option ${path} must be sorted by ascending maxAgeMs`);
    previous = bucket.maxAgeMs;
  });
}

function validateRankingOptions(o: RankingOptions): void {
  checkWeights('weights', o.weights);
  checkWeights('hitsWeights', o.hitsWeights);
  for (const [key, value] of Object.entries(o.hits)) checkNumber(`hits.${key}`, value);
  checkNumber('feedback.positiveWeight', o.feedback.positiveWeight);
  checkNumber('feedback.negativeWeight', o.feedback.negativeWeight);
  if (!['none', 'sqrt', 'linear'].includes(o.feedback.confidence)) {
    throw invalid(`ranking option feedback.confidence must be 'none', 'sqrt' or 'linear', got ${String(o.feedback.confidence)}`);
  }
  checkNumber('session.weight', o.session.weight);
  checkNumber('session.maxBoost', o.session.maxBoost, Number.MIN_VALUE);
  checkBuckets('commitRecency', o.commitRecency);
  checkNumber('confidence.floor', o.confidence.floor, 0, 1);
  for (const [key, value] of Object.entries(o.confidence.byProvenance)) checkNumber(`confidence.byProvenance.${key}`, value, 0, 1);
  checkNumber('blastRadius.rwrScale', o.blastRadius.rwrScale, 0);
  checkNumber('blastRadius.seedWeightScale', o.blastRadius.seedWeightScale, 0);
  if (typeof o.binaryDistance !== 'boolean') throw invalid('ranking option binaryDistance must be a boolean');
  checkNumber('hubDampingThreshold', o.hubDampingThreshold, 0);
  checkNumber('testPenalty', o.testPenalty, 0, 1);
  checkNumber('auxiliaryPenalty', o.auxiliaryPenalty, 0, 1);
  for (const [key, value] of Object.entries(o.kindWeights)) checkNumber(`kindWeights.${key}`, value, 0);
  if (!Array.isArray(o.testTaskWords)) throw invalid('ranking option testTaskWords must be an array of words');
  if (typeof o.isTestSymbol !== 'function') throw invalid('ranking option isTestSymbol must be a function');
  checkNumber('forcedMargin', o.forcedMargin, 0);
  checkNumber('termMatch.weight', o.termMatch.weight, 0);
  checkNumber('termMatch.cap', o.termMatch.cap, 0);
  checkNumber('textMatchWeight', o.textMatchWeight, 0);
  checkNumber('lexicalWeight', o.lexicalWeight, 0);
}

/** Copy arrays and plain objects (so freezing never touches the caller's values); keep functions. */
function copyData<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => copyData(item)) as T;
  if (isPlainGroup(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) copy[key] = copyData(inner);
    return copy as T;
  }
  return value;
}

function isPlainGroup(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Merge overrides over a base (one level deep: a nested group such as `hitsWeights` may be
 * given partially), validate, and freeze.
 *
 * @throws KnowingError `INVALID_ARGUMENT` naming the offending option.
 * @example
 * ```ts
 * const options = resolveRankingOptions({ hitsWeights: { blastRadius: 0.3 }, testPenalty: 0.3 });
 * options.hitsWeights.confidence; // 0.2 (kept from the defaults)
 * ```
 */
/** Options that are open maps (any key): an override replaces them whole instead of merging. */
const OPEN_MAPS: ReadonlySet<string> = new Set(['kindWeights']);

export function resolveRankingOptions(
  overrides: RankingOverrides | undefined,
  base: RankingOptions = DEFAULT_RANKING_OPTIONS,
): RankingOptions {
  if (overrides === undefined) return base;
  if (!isPlainGroup(overrides)) throw invalid('ranking options must be an object');
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (!(key in base)) throw invalid(`unknown ranking option "${key}"`);
    const current = (base as unknown as Record<string, unknown>)[key];
    if (isPlainGroup(current) && isPlainGroup(value) && !OPEN_MAPS.has(key)) {
      for (const inner of Object.keys(value)) {
        if (!(inner in current)) throw invalid(`unknown ranking option "${key}.${inner}"`);
      }
      merged[key] = { ...current, ...value };
    } else {
      merged[key] = value;
    }
  }
  const result = copyData(merged) as unknown as RankingOptions;
  validateRankingOptions(result);
  return deepFreeze(result);
}
