import type { FeedbackTally } from '@knowing/graph';
import type {
  BlastRadiusOptions,
  CommitRecencyBucket,
  ConfidenceOptions,
  FeedbackScoringOptions,
  HitsAdjustmentOptions,
  RankInput,
  SessionScoringOptions,
} from './types.js';

/**
 * Names of the default ranker's score components, as they appear in `RankedSymbol.components`,
 * explanations and the wire formats.
 *
 * @example
 * ```ts
 * ranked[0].components[RANK_COMPONENTS.blastRadius]; // the weighted blast-radius contribution
 * ```
 */
export const RANK_COMPONENTS = Object.freeze({
  relevance: 'relevance',
  blastRadius: 'blast_radius',
  confidence: 'confidence',
  commitRecency: 'commit_recency',
  distance: 'distance',
  hitsAuthority: 'hits_authority',
  hitsHub: 'hits_hub',
  feedback: 'feedback',
  session: 'session',
  termMatch: 'term_match',
  textMatch: 'text_match',
  lexical: 'lexical',
  hubDamping: 'hub_damping',
  testPenalty: 'test_penalty',
  auxiliaryPenalty: 'auxiliary_penalty',
  kindPrior: 'kind_prior',
  forced: 'forced',
} as const);

/** One of the default ranker's component names. */
export type RankComponentName = (typeof RANK_COMPONENTS)[keyof typeof RANK_COMPONENTS];

/**
 * Component names in the order the default ranker applies them.
 *
 * @example
 * ```ts
 * for (const name of RANK_COMPONENT_ORDER) row.push(symbol.components[name] ?? 0);
 * ```
 */
export const RANK_COMPONENT_ORDER: readonly RankComponentName[] = Object.freeze(Object.values(RANK_COMPONENTS));

/**
 * The raw blast-radius signal: `callerCount` when the pipeline counted callers, otherwise the
 * walk proxy `rwr·rwrScale` plus `seedWeight·seedWeightScale` for seeds (seed weight 1 when
 * absent). Normalised later by the maximum over the candidate set.
 *
 * @example
 * ```ts
 * callerProxy({ ...input, rwr: 0.5, isSeed: true, seedWeight: 0.8 }, { rwrScale: 100, seedWeightScale: 50 }); // 90
 * ```
 */
export function callerProxy(input: RankInput, options: BlastRadiusOptions): number {
  if (input.callerCount !== undefined) return Math.max(0, input.callerCount);
  const walk = Math.max(0, input.rwr) * options.rwrScale;
  return input.isSeed ? walk + Math.max(0, input.seedWeight ?? 1) * options.seedWeightScale : walk;
}

/**
 * The additive commit-recency bonus: the bonus of the first bucket the modification time is
 * within, 0 past the last bucket or when unknown.
 *
 * @example
 * ```ts
 * commitRecencyBonus(now - 3_600_000, now, DEFAULT_RANKING_OPTIONS.commitRecency); // 0.05
 * ```
 */
export function commitRecencyBonus(lastModified: number | undefined, now: number, buckets: readonly CommitRecencyBucket[]): number {
  if (lastModified === undefined || lastModified <= 0) return 0;
  const age = Math.max(0, now - lastModified);
  for (const bucket of buckets) if (age <= bucket.maxAgeMs) return bucket.bonus;
  return 0;
}

/**
 * Confidence of the evidence that reached a symbol, 0..1: its best incoming edge confidence,
 * else the provenance's typical confidence, never below `floor`.
 *
 * @example
 * ```ts
 * confidenceValue({ ...input, provenance: 'lsp_resolved' }, DEFAULT_RANKING_OPTIONS.confidence); // 0.9
 * ```
 */
export function confidenceValue(input: RankInput, options: ConfidenceOptions): number {
  const raw = input.confidence ?? (input.provenance !== undefined ? options.byProvenance[input.provenance] : undefined) ?? 0;
  return Math.min(1, Math.max(options.floor, raw));
}

/**
 * Hops used for scoring: 0 for seeds; with `binary`, 1 for everything else (as the original
 * scored task results), otherwise the real distance.
 */
export function scoringHops(input: RankInput, binary: boolean): number {
  if (input.isSeed || input.distance <= 0) return 0;
  return binary ? 1 : input.distance;
}

/**
 * The distance factor `1/(1+hops)`: 1 for seeds, 0.5 one hop away.
 *
 * @example
 * ```ts
 * distanceFactor(2); // 0.333…
 * ```
 */
export function distanceFactor(hops: number): number {
  return 1 / (1 + Math.max(0, hops));
}

/**
 * HITS adjustments: seeds that are also authorities or hubs gain; non-seed authorities
 * (generic infrastructure everything calls) lose. Scores at or below a threshold add nothing.
 *
 * @example
 * ```ts
 * hitsAdjustments({ ...input, isSeed: false, authority: 0.4 }, DEFAULT_RANKING_OPTIONS.hits); // { authority: -0.06, hub: 0 }
 * ```
 */
export function hitsAdjustments(input: RankInput, options: HitsAdjustmentOptions): { authority: number; hub: number } {
  const authority = input.authority ?? 0;
  const hub = input.hub ?? 0;
  if (input.isSeed) {
    return {
      authority: authority > options.seedAuthorityThreshold ? authority * options.seedAuthorityWeight : 0,
      hub: hub > options.seedHubThreshold ? hub * options.seedHubWeight : 0,
    };
  }
  return {
    authority: authority > options.nonSeedAuthorityThreshold ? -authority * options.nonSeedAuthorityWeight : 0,
    hub: 0,
  };
}

/**
 * Usefulness ratio of a tally, 0..1, pulled toward 0.5 for few observations when
 * `confidence` asks for it; `undefined` without observations.
 *
 * @example
 * ```ts
 * feedbackRatio({ useful: 3, notUseful: 1 }, 'none');   // 0.75
 * feedbackRatio({ useful: 0, notUseful: 1 }, 'linear'); // 0.25
 * ```
 */
export function feedbackRatio(tally: FeedbackTally | undefined, confidence: FeedbackScoringOptions['confidence']): number | undefined {
  if (!tally) return undefined;
  const total = tally.useful + tally.notUseful;
  if (!(total > 0)) return undefined;
  const ratio = tally.useful / total;
  const trust = confidence === 'sqrt' ? 1 - 1 / (1 + Math.sqrt(total)) : confidence === 'linear' ? 1 - 1 / (1 + total) : 1;
  return 0.5 + (ratio - 0.5) * trust;
}

/**
 * The feedback adjustment: linear from `−negativeWeight` (never useful) through 0 (ratio 0.5)
 * to `+positiveWeight` (always useful); 0 without feedback.
 *
 * @example
 * ```ts
 * feedbackAdjustment({ useful: 3, notUseful: 1 }, DEFAULT_RANKING_OPTIONS.feedback); // 0.125
 * feedbackAdjustment({ useful: 0, notUseful: 2 }, DEFAULT_RANKING_OPTIONS.feedback); // -0.05
 * ```
 */
export function feedbackAdjustment(tally: FeedbackTally | undefined, options: FeedbackScoringOptions): number {
  const ratio = feedbackRatio(tally, options.confidence);
  if (ratio === undefined) return 0;
  const signal = 2 * ratio - 1;
  return signal >= 0 ? signal * options.positiveWeight : signal * options.negativeWeight;
}

/**
 * The session contribution: the raw boost normalised by `maxBoost` (capped at 1), times `weight`.
 *
 * @example
 * ```ts
 * sessionContribution(1, DEFAULT_RANKING_OPTIONS.session); // 0.1
 * ```
 */
export function sessionContribution(boost: number | undefined, options: SessionScoringOptions): number {
  if (boost === undefined || !(boost > 0)) return 0;
  return (Math.min(boost, options.maxBoost) / options.maxBoost) * options.weight;
}

/**
 * The (non-positive) change a multiplier-style penalty makes to a score: `score·(m−1)` for
 * positive scores; negative scores move down by the same fraction of their magnitude, so a
 * penalty never raises a score.
 *
 * @example
 * ```ts
 * penaltyDelta(0.8, 0.15); // -0.68
 * ```
 */
export function penaltyDelta(score: number, multiplier: number): number {
  const delta = -Math.abs(score) * (1 - multiplier);
  return delta === 0 ? 0 : delta;
}
