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
  RankingOptions,
  RankingOverrides,
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
export { DEFAULT_RANKING_OPTIONS } from './options.js';
export { compareRanked, createDefaultRanker } from './default-ranker.js';
export { validateRankerOutput, wrapRanker } from './validate.js';
export {
  LEARNED_FEATURES,
  DEFAULT_TRAIN_OPTIONS,
  createLearnedRanker,
  trainLearnedModel,
  trainTreeModel,
} from './learned.js';
export type { LearnedFeature, LearnedModel, LinearModel, TreeModel, TrainingGroup, TrainOptions } from './learned.js';
export { DEFAULT_TREE_TRAIN_OPTIONS } from './trees.js';
export type { RegressionTree, TreeTrainOptions } from './trees.js';
export { DEFAULT_LEARNED_MODEL, LINEAR_LEARNED_MODEL } from './learned-model.js';
export { DEFAULT_SESSION_TRACKER_OPTIONS, createSessionTracker } from './session.js';
export { DEFAULT_IMPLICIT_FEEDBACK_OPTIONS, createImplicitFeedback } from './implicit.js';
