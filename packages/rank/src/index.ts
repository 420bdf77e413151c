export type {
  SeedChannel,
  SeedTier,
  RankMode,
  RankInput,
  RankContext,
  RankExplanation,
  Ranker,
  DefaultRanker,
  CheckedRanker,
  RankingWeights,
  HitsAdjustmentOptions,
  TermMatchOptions,
  FeedbackScoringOptions,
  SessionScoringOptions,
  CommitRecencyBucket,
  ConfidenceOptions,
  BlastRadiusOptions,
  RankingOptions,
  RankingOverrides,
  ScoringContext,
  ScoredInput,
  SessionTrackerOptions,
  SessionTracker,
  ImplicitFeedbackOptions,
  ImplicitFeedbackDeps,
  ReturnedSymbol,
  ReturnedMeta,
  VocabEntry,
  FlushResult,
  PendingSymbol,
  ImplicitFeedback,
} from './types.js';
export { DEFAULT_RANKING_OPTIONS, DEFAULT_TEST_TASK_WORDS, defaultIsTestSymbol, resolveRankingOptions } from './options.js';
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
export { isAuxiliaryCode, isTestTask, splitWords } from './test-detection.js';
export {
  DEFAULT_RANKER_NAME,
  checkRankInputs,
  prepareScoring,
  scoreInput,
  compareRanked,
  finalizeRanking,
  toRankedSymbol,
  rankScored,
  createDefaultRanker,
} from './default-ranker.js';
export { validateRankerOutput, validateRankerExplanation, wrapRanker } from './validate.js';
export { LEARNED_FEATURES, DEFAULT_TRAIN_OPTIONS, createLearnedRanker, learnedFeatures, learnedLogit, taskShape, trainLearnedModel, trainTreeModel } from './learned.js';
export type { LearnedFeature, LearnedModel, LinearModel, TreeModel, TrainingGroup, TrainOptions } from './learned.js';
export { DEFAULT_TREE_TRAIN_OPTIONS } from './trees.js';
export type { RegressionTree, TreeTrainOptions } from './trees.js';
export { DEFAULT_LEARNED_MODEL, LINEAR_LEARNED_MODEL } from './learned-model.js';
export { DEFAULT_SESSION_TRACKER_OPTIONS, createSessionTracker } from './session.js';
export {
  DEFAULT_IMPLICIT_FEEDBACK_OPTIONS,
  defaultIsVocabWorthy,
  extractIdentifiers,
  createImplicitFeedback,
} from './implicit.js';
