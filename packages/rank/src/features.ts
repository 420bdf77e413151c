/**
 * `@knowing/rank/features`: the learned ranker's feature computation and scoring outside a
 * ranker, for evaluation and training scripts — the feature vectors of a candidate set
 * (`learnedFeatures`, one value per `LEARNED_FEATURES` entry), a model's score of one vector
 * (`learnedLogit`) and the task-shape features (`taskShape`).
 *
 * @example
 * import { learnedFeatures, learnedLogit } from '@knowing/rank/features';
 * const scores = learnedFeatures(inputs, context).map((x) => learnedLogit(model, x));
 */
export { learnedFeatures, learnedLogit, taskShape } from './learned.js';
