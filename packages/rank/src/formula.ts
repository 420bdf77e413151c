/**
 * `@knowing/rank/formula`: the pieces of the default (formula) ranker, for rebuilding or
 * wrapping it and for formula experiments — the per-component functions, the scoring steps
 * (`prepareScoring` → `scoreInput` → `finalizeRanking` → `toRankedSymbol`), the option groups
 * of `RankingOptions`, and the test-code rule the engine shares with the formula.
 *
 * @example
 * import { prepareScoring, scoreInput, finalizeRanking, toRankedSymbol } from '@knowing/rank/formula';
 * const scoring = prepareScoring(inputs, context);
 * const ranked = finalizeRanking(inputs.map((input) => scoreInput(input, scoring))).map(toRankedSymbol);
 */
export type {
  RankingWeights,
  HitsAdjustmentOptions,
  TermMatchOptions,
  FeedbackScoringOptions,
  SessionScoringOptions,
  CommitRecencyBucket,
  ConfidenceOptions,
  BlastRadiusOptions,
  ScoringContext,
  ScoredInput,
} from './types.js';
export { DEFAULT_TEST_TASK_WORDS, resolveRankingOptions } from './options.js';
export {
  RANK_COMPONENTS,
  RANK_COMPONENT_ORDER,
  callerProxy,
  commitRecencyBonus,
  confidenceValue,
  scoringHops,
  distanceFactor,
  hitsAdjustments,
  feedbackRatio,
  feedbackAdjustment,
  sessionContribution,
  penaltyDelta,
} from './components.js';
export type { RankComponentName } from './components.js';
export { isAuxiliaryCode, isTestTask } from './test-detection.js';
export { prepareScoring, scoreInput, finalizeRanking, toRankedSymbol } from './default-ranker.js';
