import { ErrorCode, KnowingError } from '@knowing/graph';
import type { RankingOverrides } from '@knowing/rank';
import type { PackStrategy } from '@knowing/pack';
import type { DiversityOptions } from './diversity.js';

/** Weights of the retrieval channels in reciprocal rank fusion. 0 disables a channel. */
export interface ChannelWeights {
  /** Tiered name matching (exact → prefix → substring → path). @default 2 */
  readonly tiered: number;
  /** BM25 over the full-text index. @default 2 */
  readonly bm25: number;
  /** Equivalence classes (vocabulary bridging). @default 2 */
  readonly equiv: number;
  /** Path-context seeding, fused at this weight (its results are also supplemental seeds). @default 1.5 */
  readonly path: number;
  /** A user-supplied vector channel. @default 0 */
  readonly vector: number;
  /** BM25F over what each symbol says and does, its body included. @default 2 */
  readonly lexical: number;
  /** Symbols of the stack frames a task pastes, innermost first. @default 3 */
  readonly traces: number;
  /** Symbols named by the code and the messages a task pastes (code blocks, inline code, error messages, log lines). Off by default: on the history tasks that carry code it did not raise the answers (benchmarks/RESULTS.md, session 10). @default 0 */
  readonly pasted: number;
  /** Channels registered with `createEngine({ channels })`, by name. @default 1 each */
  readonly [channel: string]: number;
}

/** Caps and thresholds of the tiered name channel. */
export interface TieredOptions {
  /** Prefix matching runs while fewer results than this. @default 15 */
  readonly prefixBelow: number;
  /** Stop prefix matching at this many results. @default 30 */
  readonly prefixCap: number;
  /** Components are tried (exact, prefix) when primary keywords found fewer than this. @default 5 */
  readonly componentFallbackBelow: number;
  /** Substring matching runs while fewer results than this. @default 5 */
  readonly substringBelow: number;
  /** Stop substring matching at this many results. @default 20 */
  readonly substringCap: number;
  /** Minimum keyword length for substring matching. @default 4 */
  readonly substringMinLength: number;
  /** Path-segment matching runs while fewer results than this. @default 30 */
  readonly pathBelow: number;
  /** Stop path matching at this many results. @default 40 */
  readonly pathCap: number;
  /** Minimum keyword length for path matching. @default 3 */
  readonly pathMinLength: number;
}

/** Path-context channel settings. */
export interface PathChannelOptions {
  /** Types with members, per term. @default 5 */
  readonly richPerTerm: number;
  /** Types and others are added until this many per term. @default 10 */
  readonly leanUntil: number;
  /** Anything else until this many per term. @default 15 */
  readonly otherUntil: number;
  /** Total cap. @default 30 */
  readonly cap: number;
  /** Restart weight of path results not already seeds. @default 0.3 */
  readonly supplementalWeight: number;
}

/** Equivalence channel settings. */
export interface EquivalenceChannelOptions {
  /** Channel results are capped at max(floor, factor × lexical results). @default 2 */
  readonly capFactor: number;
  /** @default 10 */
  readonly capFloor: number;
  /** Inject strong framework matches at the top of the ranking. @default true */
  readonly forcedInjection: boolean;
  /** At most this many forced injections (test code and noise never are). @default 8 */
  readonly maxForced: number;
  /** Add graph-derived alias classes from the neighbours of the top tiered hits. @default true */
  readonly graphAliases: boolean;
  /** Use classes learned from agent usage (vocabulary store). @default true */
  readonly learned: boolean;
  /** Widen the BM25 query with related terms from the concept thesaurus. @default 10 terms, 0 disables */
  readonly thesaurusTerms: number;
}

/** Seed selection settings. */
export interface SeedOptions {
  /** RRF constant. @default 60 */
  readonly rrfK: number;
  /** Fused candidates kept. @default 40 */
  readonly maxCandidates: number;
  /** Seeds for graphs up to `mediumGraph` nodes. @default 15 */
  readonly maxSeeds: number;
  /** @default 10000 */
  readonly mediumGraph: number;
  /** @default 20 */
  readonly mediumGraphSeeds: number;
  /** @default 40000 */
  readonly largeGraph: number;
  /** @default 25 */
  readonly largeGraphSeeds: number;
  /** Above this node count, type-like candidates are preferred as seeds. @default 40000 */
  readonly preferTypesAbove: number;
  /** Move the largest same-package cluster of candidates to the front. @default true */
  readonly focused: boolean;
  /** Seed weight = 1 / (1 + decay × rank). @default 0.1 */
  readonly weightDecay: number;
  /**
   * Unless the task is about tests, test code (`node.isTest`) and auxiliary code (benchmarks,
   * examples) seed only after every other candidate: tests call the code a task is about, but an
   * agent rarely needs the tests themselves. @default true
   */
  readonly testsLast: boolean;
  /** Add implementors of interface/trait candidates. @default true */
  readonly interfaceSeeding: boolean;
  /** Max implementors added per interface. @default 10 */
  readonly implementorsPerInterface: number;
  /** BM25 results fetched. @default 30 */
  readonly bm25Limit: number;
  /**
   * Which keywords the BM25 query is built from: `primary` (back-ticked and compound keywords
   * when there are any, else all — the original's rule, which never searched a task's plain
   * words once it named one identifier) or `all`. Corpus, learned ranker: primary 0.392 P@10 /
   * 0.605 R@10, all 0.393 / 0.607. @default 'all'
   */
  readonly bm25Keywords: 'primary' | 'all';
  /**
   * Added to a fused candidate's RRF score per task term its own path names (`SerializerChain`
   * for "the serializer chain"), before the candidates are cut to `maxCandidates`: channel
   * ranks alone cannot tell a symbol named after the task from one that merely mentions a word
   * of it. 0 turns it off. @default 0.01
   */
  readonly termMatchBonus: number;
}

/** Random-walk settings. */
export interface EngineWalkOptions {
  /** @default 0.2 */
  readonly alpha: number;
  /** @default 20 */
  readonly maxIterations: number;
  /** @default 0.001 */
  readonly tolerance: number;
  /** @default 4 */
  readonly maxHops: number;
  /** Candidates below this normalised walk score are dropped. @default 0.02 */
  readonly minScore: number;
  /** Restrict the walk to the seeds' community when they all share one. @default true */
  readonly communityRestriction: boolean;
  /** Weight multiplier for `lsp_resolved` edges. @default 0.3 */
  readonly lspWeight: number;
  /** Per-edge-type weight overrides (explicit zeros respected). @default {} */
  readonly edgeWeights: Readonly<Record<string, number>>;
  /** Hub dampening threshold on degree; 0 is off. @default 0 */
  readonly hubDampeningThreshold: number;
  /** Candidates handed to the ranker after the walk. @default 300 */
  readonly maxCandidates: number;
}

/** HITS settings. */
export interface EngineHitsOptions {
  /** @default true */
  readonly enabled: boolean;
  /** @default 200 */
  readonly limit: number;
  /** @default 10 */
  readonly iterations: number;
}

/** Packing settings. */
export interface EnginePackOptions {
  /** Token budget for forTask and forFiles. @default 50000 */
  readonly budget: number;
  /** Token budget for forPR. @default 8000 */
  readonly prBudget: number;
  /** @default 'density' */
  readonly strategy: PackStrategy;
  /**
   * The density strategy's share of the budget filled in score order before density fills the
   * rest (`@knowing/pack`'s `rankedShare`). @default 0.5
   */
  readonly rankedShare: number;
  /** Format whose cost the budget is measured in. @default 'xml' */
  readonly format: string;
}

/** Every tunable of the engine, with the seeds' defaults: the sweep surface. */
export interface EngineOptions {
  readonly channels: ChannelWeights;
  readonly tiered: TieredOptions;
  readonly path: PathChannelOptions;
  readonly equivalence: EquivalenceChannelOptions;
  readonly seeds: SeedOptions;
  readonly walk: EngineWalkOptions;
  readonly hits: EngineHitsOptions;
  /** How many symbols of one name the first answers of a task may hold (see `diversifyRanking`). */
  readonly diversity: DiversityOptions;
  /** Overrides for the formula ranker's options (`rankingModel: 'formula'`, and file and PR queries). */
  readonly ranking: RankingOverrides;
  /**
   * How task answers are ranked when no `ranker` is given: `learned`, the trained linear model
   * of `@knowing/rank` (`createLearnedRanker`), or `formula`, the hand-weighted default formula
   * (`createDefaultRanker`). File and PR queries always use the formula: the model was trained on
   * tasks. @default 'learned'
   */
  readonly rankingModel: 'learned' | 'formula';
  readonly pack: EnginePackOptions;
  /** forPR keeps walk results at or above this score. @default 0.05 */
  readonly prCutoff: number;
  /** Depth of the backwards call search in testScope. @default 3 */
  readonly testScopeDepth: number;
  /** Cache packs in memory and as notes. @default true */
  readonly cache: boolean;
  /** Entries of the in-memory pack cache. @default 64 */
  readonly cacheCapacity: number;
  /** Record implicit feedback (returned/used symbols) per session. @default true */
  readonly learning: boolean;
}

/** Partial options: every group optional, every field inside optional. */
export type EngineOptionsInput = {
  // `object`, not `Record<string, unknown>`: option groups declared as interfaces have no index
  // signature, and would otherwise have to be given whole.
  readonly [K in keyof EngineOptions]?: EngineOptions[K] extends readonly unknown[]
    ? EngineOptions[K]
    : EngineOptions[K] extends object
      ? K extends 'ranking'
        ? RankingOverrides
        : Partial<EngineOptions[K]>
      : EngineOptions[K];
};

/** The seeds' defaults for every tunable. */
export const DEFAULT_ENGINE_OPTIONS: EngineOptions = deepFreeze({
  channels: { tiered: 2, bm25: 2, equiv: 2, path: 1.5, vector: 0, lexical: 2, traces: 3, pasted: 0 },
  tiered: {
    prefixBelow: 15,
    prefixCap: 30,
    componentFallbackBelow: 5,
    substringBelow: 5,
    substringCap: 20,
    substringMinLength: 4,
    pathBelow: 30,
    pathCap: 40,
    pathMinLength: 3,
  },
  path: { richPerTerm: 5, leanUntil: 10, otherUntil: 15, cap: 30, supplementalWeight: 0.3 },
  equivalence: { capFactor: 2, capFloor: 10, forcedInjection: true, maxForced: 8, graphAliases: true, learned: true, thesaurusTerms: 10 },
  seeds: {
    rrfK: 60,
    maxCandidates: 40,
    maxSeeds: 15,
    mediumGraph: 10_000,
    mediumGraphSeeds: 20,
    largeGraph: 40_000,
    largeGraphSeeds: 25,
    preferTypesAbove: 40_000,
    focused: true,
    weightDecay: 0.1,
    testsLast: true,
    interfaceSeeding: true,
    implementorsPerInterface: 10,
    bm25Limit: 30,
    bm25Keywords: 'all',
    termMatchBonus: 0.01,
  },
  walk: {
    alpha: 0.2,
    maxIterations: 20,
    tolerance: 0.001,
    maxHops: 4,
    minScore: 0.02,
    communityRestriction: true,
    lspWeight: 0.3,
    edgeWeights: {},
    hubDampeningThreshold: 0,
    maxCandidates: 300,
  },
  hits: { enabled: true, limit: 200, iterations: 10 },
  diversity: { sameNameLimit: 2, window: 10, membersAfterOwner: 0, memberReturnShare: 0.5, testsLast: true },
  ranking: {},
  pack: { budget: 50_000, prBudget: 8_000, strategy: 'density', rankedShare: 0.5, format: 'xml' },
  rankingModel: 'learned',
  prCutoff: 0.05,
  testScopeDepth: 3,
  cache: true,
  cacheCapacity: 64,
  learning: true,
} satisfies EngineOptions);

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Groups whose field names are free: channels are named by whoever registers them, edge weights by edge type. */
const FREE_MAPS: ReadonlySet<string> = new Set(['channels', 'walk.edgeWeights']);

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalidOption(message: string, hint: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source: 'engine', hint });
}

function checkValue(path: string, value: unknown, expected: unknown): void {
  if (FREE_MAPS.has(path)) {
    if (!isPlainObject(value) || !Object.values(value).every((v) => typeof v === 'number' && Number.isFinite(v))) {
      throw invalidOption(`"engine.${path}" must be an object of numbers, found ${kindOf(value)}`, 'e.g. { "name": 1.5 }');
    }
    return;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(value)) throw invalidOption(`"engine.${path}" must be an object, found ${kindOf(value)}`, `its fields: ${Object.keys(expected).join(', ')}`);
    for (const [field, fieldValue] of Object.entries(value)) {
      if (fieldValue === undefined) continue;
      if (!(field in expected)) throw invalidOption(`unknown field "engine.${path}.${field}"`, `known fields here: ${Object.keys(expected).join(', ')}`);
      checkValue(`${path}.${field}`, fieldValue, expected[field]);
    }
    return;
  }
  if (typeof value !== typeof expected || (typeof value === 'number' && !Number.isFinite(value))) {
    throw invalidOption(`"engine.${path}" must be ${kindOf(expected)}, found ${JSON.stringify(value)}`, `the default is ${JSON.stringify(expected)}`);
  }
}

/**
 * Check partial options against the defaults' shape: every group and field must exist there
 * with the same type, so a typo (`walk.alpah`) is an error instead of silently doing nothing.
 * `ranking` belongs to the ranker, which checks it; channel and edge weights are free maps of
 * numbers.
 *
 * @throws KnowingError `INVALID_ARGUMENT` naming the first bad field (`engine.walk.alpha`).
 */
function checkEngineOptions(input: unknown, base: EngineOptions): void {
  if (!isPlainObject(input)) throw invalidOption(`engine options must be an object, found ${kindOf(input)}`, 'e.g. { walk: { alpha: 0.25 } }');
  const defaults = base as unknown as Record<string, unknown>;
  for (const [group, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (!(group in defaults)) throw invalidOption(`unknown field "engine.${group}"`, `known fields here: ${Object.keys(defaults).join(', ')}`);
    if (group === 'ranking') {
      if (!isPlainObject(value)) throw invalidOption(`"engine.ranking" must be an object, found ${kindOf(value)}`, 'see the ranking options of @knowing/rank');
      continue;
    }
    checkValue(group, value, defaults[group]);
  }
}

/**
 * Check partial options and merge them over the defaults (one level deep, groups merged field
 * by field).
 *
 * @throws KnowingError `INVALID_ARGUMENT` for an unknown field or a value of the wrong type.
 * @example
 * ```ts
 * resolveEngineOptions({ walk: { alpha: 0.25 } }).walk.maxHops; // 4, the default
 * resolveEngineOptions({ walk: { alpah: 0.25 } }); // throws: unknown field "engine.walk.alpah"
 * ```
 */
export function resolveEngineOptions(input: EngineOptionsInput = {}, base: EngineOptions = DEFAULT_ENGINE_OPTIONS): EngineOptions {
  checkEngineOptions(input, base);
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const current = (base as unknown as Record<string, unknown>)[key];
    merged[key] =
      current && typeof current === 'object' && !Array.isArray(current) && value && typeof value === 'object'
        ? { ...(current as object), ...(value as object) }
        : value;
  }
  return deepFreeze(merged as unknown as EngineOptions);
}
