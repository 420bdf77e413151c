import { ErrorCode, KnowingError } from '@knowing/graph';
import type { NodeId, RankedSymbol } from '@knowing/graph';
import {
  RANK_COMPONENTS as C,
  callerProxy,
  commitRecencyBonus,
  confidenceValue,
  distanceFactor,
  feedbackAdjustment,
  feedbackRatio,
  hitsAdjustments,
  penaltyDelta,
  scoringHops,
  sessionContribution,
} from './components.js';
import { DEFAULT_RANKING_OPTIONS, resolveRankingOptions } from './options.js';
import { isAuxiliaryCode, isTestTask } from './test-detection.js';
import type {
  RankContext,
  RankExplanation,
  RankInput,
  RankingOptions,
  RankingOverrides,
  ScoredInput,
  ScoringContext,
  DefaultRanker,
} from './types.js';

/**
 * The name the default ranker reports.
 *
 * @example
 * ```ts
 * createDefaultRanker().name === DEFAULT_RANKER_NAME; // true
 * ```
 */
export const DEFAULT_RANKER_NAME = 'knowing-default';

function badInput(message: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, {
    source: 'rank',
    hint: 'rank inputs need a node, and finite rwr/distance and numeric signals',
  });
}

const OPTIONAL_NUMBERS = [
  'seedWeight',
  'hub',
  'authority',
  'callerCount',
  'inDegree',
  'confidence',
  'lastModified',
  'sessionBoost',
  'termMatches',
  'textMatch',
  'lexical',
] as const;

/**
 * Check the shape of rank inputs (the engine's side of the boundary).
 *
 * @throws KnowingError `INVALID_ARGUMENT` naming the first bad input.
 * @example
 * ```ts
 * checkRankInputs(inputs); // throws on { rwr: NaN } and the like
 * ```
 */
export function checkRankInputs(inputs: readonly RankInput[]): void {
  if (!Array.isArray(inputs)) throw badInput('rank inputs must be an array');
  inputs.forEach((input, i) => {
    const id = input?.node?.id;
    if (typeof id !== 'string' || id.length === 0) throw badInput(`rank input ${i} has no node id`);
    const where = `rank input ${i} (${id})`;
    if (typeof input.rwr !== 'number' || !Number.isFinite(input.rwr)) throw badInput(`${where}: rwr must be a finite number, got ${String(input.rwr)}`);
    if (typeof input.distance !== 'number' || !Number.isFinite(input.distance) || input.distance < 0) {
      throw badInput(`${where}: distance must be a finite number ≥ 0, got ${String(input.distance)}`);
    }
    if (typeof input.isSeed !== 'boolean') throw badInput(`${where}: isSeed must be a boolean`);
    for (const key of OPTIONAL_NUMBERS) {
      const value = input[key];
      if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value))) {
        throw badInput(`${where}: ${key} must be a finite number when given, got ${String(value)}`);
      }
    }
    const tally = input.feedback;
    if (tally !== undefined) {
      const ok = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n) && n >= 0;
      if (!ok(tally.useful) || !ok(tally.notUseful)) throw badInput(`${where}: feedback counts must be finite numbers ≥ 0`);
    }
  });
}

/**
 * Per-call scoring state: the merged options, the mode (HITS when any input has hub/authority
 * unless `context.mode` says otherwise), the clock, whether the task is about tests, and the
 * blast-radius denominator.
 *
 * @example
 * ```ts
 * const scoring = prepareScoring(inputs, { task: 'add a test for login', now: 0 });
 * scoring.aboutTests; // true
 * ```
 */
export function prepareScoring(
  inputs: readonly RankInput[],
  context: RankContext,
  options: RankingOptions = DEFAULT_RANKING_OPTIONS,
): ScoringContext {
  const resolved = resolveRankingOptions(context.options, options);
  const mode = context.mode ?? (inputs.some((i) => i.hub !== undefined || i.authority !== undefined) ? 'hits' : 'base');
  let maxCallerProxy = 0;
  for (const input of inputs) maxCallerProxy = Math.max(maxCallerProxy, callerProxy(input, resolved.blastRadius));
  return {
    options: resolved,
    mode,
    weights: mode === 'hits' ? resolved.hitsWeights : resolved.weights,
    now: context.now ?? Date.now(),
    aboutTests: context.aboutTests ?? isTestTask(context.task ?? '', context.keywords, resolved.testTaskWords),
    maxCallerProxy,
  };
}

/**
 * Score one candidate with the default formula (see the README): the weighted linear part,
 * the additive adjustments, optional hub damping, then the test penalty. Forced injection is
 * applied later, by {@link finalizeRanking}.
 *
 * @example
 * ```ts
 * const scoring = prepareScoring(inputs, context);
 * const scored = inputs.map((input) => scoreInput(input, scoring));
 * ```
 */
export function scoreInput(input: RankInput, scoring: ScoringContext): ScoredInput {
  const { options: o, weights: w, now } = scoring;
  const proxy = callerProxy(input, o.blastRadius);
  const blast = scoring.maxCallerProxy > 0 ? proxy / scoring.maxCallerProxy : 0;
  const confidence = confidenceValue(input, o.confidence);
  const hops = scoringHops(input, o.binaryDistance);
  const distance = distanceFactor(hops);
  const hits = scoring.mode === 'hits' ? hitsAdjustments(input, o.hits) : { authority: 0, hub: 0 };

  const components: Record<string, number> = {
    [C.relevance]: w.relevance * input.rwr,
    [C.blastRadius]: w.blastRadius * blast,
    [C.confidence]: w.confidence * confidence,
    [C.commitRecency]: commitRecencyBonus(input.lastModified, now, o.commitRecency),
    [C.distance]: w.distance * distance,
    [C.hitsAuthority]: hits.authority,
    [C.hitsHub]: hits.hub,
    [C.feedback]: feedbackAdjustment(input.feedback, o.feedback),
    [C.session]: sessionContribution(input.sessionBoost, o.session),
    [C.termMatch]: o.termMatch.weight * Math.min(input.termMatches ?? 0, o.termMatch.cap),
    [C.textMatch]: o.textMatchWeight * (input.textMatch ?? 0),
    [C.lexical]: o.lexicalWeight * (input.lexical ?? 0),
    [C.hubDamping]: 0,
    [C.testPenalty]: 0,
    [C.auxiliaryPenalty]: 0,
    [C.kindPrior]: 0,
    [C.forced]: 0,
  };
  let score = 0;
  for (const value of Object.values(components)) score += value;

  if (o.hubDampingThreshold > 0 && input.inDegree !== undefined && input.inDegree > o.hubDampingThreshold) {
    const delta = penaltyDelta(score, 1 / Math.sqrt(input.inDegree / o.hubDampingThreshold));
    components[C.hubDamping] = delta;
    score += delta;
  }

  const isTest = o.isTestSymbol(input.node);
  const testMultiplier = isTest && !scoring.aboutTests ? o.testPenalty : 1;
  if (testMultiplier !== 1) {
    const delta = penaltyDelta(score, testMultiplier);
    components[C.testPenalty] = delta;
    score += delta;
  }
  // Benchmarks and examples are not test code, but ranked like it (a separate feature, so the test rule stays the language module's).
  const auxiliaryMultiplier = !isTest && !scoring.aboutTests && isAuxiliaryCode(input.node) ? o.auxiliaryPenalty : 1;
  if (auxiliaryMultiplier !== 1) {
    const delta = penaltyDelta(score, auxiliaryMultiplier);
    components[C.auxiliaryPenalty] = delta;
    score += delta;
  }

  const kindMultiplier = Object.hasOwn(o.kindWeights, input.node.kind) ? o.kindWeights[input.node.kind]! : 1;
  if (kindMultiplier !== 1) {
    const delta = penaltyDelta(score, kindMultiplier);
    components[C.kindPrior] = delta;
    score += delta;
  }

  const factors: Record<string, number> = {
    rwr: input.rwr,
    kind_multiplier: kindMultiplier,
    caller_proxy: proxy,
    max_caller_proxy: scoring.maxCallerProxy,
    blast_radius: blast,
    confidence,
    hops,
    distance_factor: distance,
    hub: input.hub ?? 0,
    authority: input.authority ?? 0,
    session_boost: input.sessionBoost ?? 0,
    term_matches: input.termMatches ?? 0,
    text_match: input.textMatch ?? 0,
    lexical: input.lexical ?? 0,
    test_multiplier: testMultiplier,
    auxiliary_multiplier: auxiliaryMultiplier,
  };
  const ratio = feedbackRatio(input.feedback, o.feedback.confidence);
  if (ratio !== undefined) factors['feedback_ratio'] = ratio;
  if (input.inDegree !== undefined) factors['in_degree'] = input.inDegree;
  return { input, score, components, factors };
}

/**
 * Deterministic order: score descending, then qualified name, then id (code-unit order, so
 * the result does not depend on the locale).
 *
 * @example
 * ```ts
 * symbols.sort(compareRanked);
 * ```
 */
export function compareRanked(
  a: { readonly score: number; readonly node: { readonly id: string; readonly qualifiedName: string } },
  b: { readonly score: number; readonly node: { readonly id: string; readonly qualifiedName: string } },
): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.node.qualifiedName !== b.node.qualifiedName) return a.node.qualifiedName < b.node.qualifiedName ? -1 : 1;
  if (a.node.id !== b.node.id) return a.node.id < b.node.id ? -1 : 1;
  return 0;
}

function compareScored(a: ScoredInput, b: ScoredInput): number {
  return compareRanked({ score: a.score, node: a.input.node }, { score: b.score, node: b.input.node });
}

/**
 * Deduplicate by node id (a forced copy wins, then the higher score), order deterministically,
 * and apply forced injection: forced symbols go to the front, the lowest-scoring of them at
 * `top + margin`, each next one `margin` above the previous, so the formula's order among
 * them is kept (`top` = best non-forced score, 0 when there is none).
 *
 * @example
 * ```ts
 * const ordered = finalizeRanking(inputs.map((i) => scoreInput(i, scoring)), 0.1);
 * ```
 */
export function finalizeRanking(scored: readonly ScoredInput[], forcedMargin: number = DEFAULT_RANKING_OPTIONS.forcedMargin): ScoredInput[] {
  const byId = new Map<NodeId, ScoredInput>();
  for (const entry of scored) {
    const id = entry.input.node.id;
    const kept = byId.get(id);
    if (!kept) {
      byId.set(id, entry);
      continue;
    }
    const keptForced = kept.input.forced === true;
    const entryForced = entry.input.forced === true;
    if ((entryForced && !keptForced) || (entryForced === keptForced && entry.score > kept.score)) byId.set(id, entry);
  }
  const normal: ScoredInput[] = [];
  const forced: ScoredInput[] = [];
  for (const entry of byId.values()) (entry.input.forced ? forced : normal).push(entry);
  normal.sort(compareScored);
  forced.sort(compareScored);

  let current = normal[0]?.score ?? 0;
  const injected: ScoredInput[] = new Array<ScoredInput>(forced.length);
  for (let i = forced.length - 1; i >= 0; i--) {
    const entry = forced[i]!;
    current += forcedMargin;
    const delta = current - entry.score;
    injected[i] = {
      ...entry,
      score: current,
      components: { ...entry.components, [C.forced]: delta === 0 ? 0 : delta },
    };
  }
  return [...injected, ...normal];
}

/**
 * The public shape of a scored candidate.
 *
 * @example
 * ```ts
 * const ranked = finalizeRanking(scored).map(toRankedSymbol);
 * ```
 */
export function toRankedSymbol(entry: ScoredInput): RankedSymbol {
  const { input } = entry;
  const symbol: RankedSymbol = {
    node: input.node,
    score: entry.score,
    distance: input.distance,
    rwr: input.rwr,
    components: entry.components,
  };
  return input.provenance === undefined ? symbol : { ...symbol, provenance: input.provenance };
}

/**
 * Where `symbol` stands in a final ranking: its entry, and the fields every explanation
 * starts with (score, 1-based rank, number ranked); undefined when it is not there.
 */
export function rankingPlace(symbol: NodeId, ranked: readonly ScoredInput[]): { readonly entry: ScoredInput; readonly place: Pick<RankExplanation, 'symbol' | 'score' | 'rank' | 'total'> } | undefined {
  const index = ranked.findIndex((entry) => entry.input.node.id === symbol);
  if (index < 0) return undefined;
  const entry = ranked[index]!;
  return { entry, place: { symbol, score: entry.score, rank: index + 1, total: ranked.length } };
}

/**
 * Validate, prepare and score every input, then finalise: the default ranker's whole
 * pipeline, returning the scored entries (with factors) in final order.
 *
 * @example
 * ```ts
 * const entries = rankScored(inputs, { task: 'fix redirects', now: Date.now() });
 * entries[0].factors.caller_proxy;
 * ```
 */
export function rankScored(inputs: readonly RankInput[], context: RankContext, options: RankingOptions = DEFAULT_RANKING_OPTIONS): ScoredInput[] {
  checkRankInputs(inputs);
  if (inputs.length === 0) return [];
  const scoring = prepareScoring(inputs, context, options);
  return finalizeRanking(
    inputs.map((input) => scoreInput(input, scoring)),
    scoring.options.forcedMargin,
  );
}

function explainNotes(entry: ScoredInput, context: RankContext, scoring: ScoringContext): string[] {
  const { input } = entry;
  const notes: string[] = [scoring.mode === 'hits' ? 'HITS mode' : 'base mode (no HITS scores)'];
  if (input.isSeed) {
    const parts = [`weight ${input.seedWeight ?? 1}`];
    if (input.channels && input.channels.length > 0) parts.push(`channels ${input.channels.join(', ')}`);
    if (input.tier) parts.push(`tier ${input.tier}`);
    notes.push(`seed (${parts.join('; ')})`);
  } else {
    notes.push(`reached by the walk, ${input.distance} hop${input.distance === 1 ? '' : 's'} from a seed`);
  }
  if (input.equivalenceClasses && input.equivalenceClasses.length > 0) notes.push(`equivalence classes: ${input.equivalenceClasses.join(', ')}`);
  if (input.callerCount === undefined) notes.push('blast radius from the walk proxy (no caller count)');
  if (scoring.options.isTestSymbol(input.node)) {
    notes.push(
      scoring.aboutTests
        ? 'test code: penalty lifted because the task is about tests'
        : `test code: score ×${scoring.options.testPenalty}`,
    );
  } else if (isAuxiliaryCode(input.node)) {
    notes.push(
      scoring.aboutTests
        ? 'auxiliary code (benchmarks, examples): penalty lifted because the task is about tests'
        : `auxiliary code (benchmarks, examples): score ×${scoring.options.auxiliaryPenalty}`,
    );
  }
  if (input.forced) notes.push(`forced to the front (framework injection, +${scoring.options.forcedMargin} over the top)`);
  if (context.task) notes.push(`task: ${context.task}`);
  return notes;
}

/**
 * The seeds' scoring formula as a {@link Ranker}, in both modes (with and without HITS), with
 * the test-file penalty and framework forced injection. Synchronous; deterministic for a
 * given `context.now`.
 *
 * @throws KnowingError `INVALID_ARGUMENT` for bad options (at creation) or bad inputs (at `rank`).
 * @example
 * ```ts
 * const ranker = createDefaultRanker({ testPenalty: 0.3 });
 * const ranked = ranker.rank(inputs, { task: 'add a before-request hook', now: Date.now() });
 * ranked[0].components.blast_radius;
 * ranker.explain(ranked[0].node.id, inputs, { task: 'add a before-request hook' })?.notes;
 * ```
 */
export function createDefaultRanker(options?: RankingOverrides): DefaultRanker {
  const resolved = resolveRankingOptions(options);
  return {
    name: DEFAULT_RANKER_NAME,
    options: resolved,
    rank(inputs, context) {
      return rankScored(inputs, context, resolved).map(toRankedSymbol);
    },
    explain(symbol, inputs, context) {
      checkRankInputs(inputs);
      if (!inputs.some((input) => input.node.id === symbol)) return undefined;
      // Freeze the clock once so the explanation and its ranking agree.
      const pinned: RankContext = context.now === undefined ? { ...context, now: Date.now() } : context;
      const scoring = prepareScoring(inputs, pinned, resolved);
      const ordered = finalizeRanking(
        inputs.map((input) => scoreInput(input, scoring)),
        scoring.options.forcedMargin,
      );
      const { entry, place } = rankingPlace(symbol, ordered)!;
      return {
        ...place,
        mode: scoring.mode,
        components: entry.components,
        factors: entry.factors,
        notes: explainNotes(entry, pinned, scoring),
      };
    },
  };
}
