/** Recorded groups → training groups for `trainLearnedModel`, model orders, and the figures that compare orders. */
import { learnedFeatures, learnedLogit } from '@knowing/rank/features';
import type { LearnedModel, TrainingGroup } from '@knowing/rank';
import { scoreTask } from './matching.js';
import type { RecordedGroup } from './record.js';

const featureCache = new WeakMap<RecordedGroup, Float64Array[]>();

function featuresOf(group: RecordedGroup): Float64Array[] {
  let vectors = featureCache.get(group);
  if (!vectors) featureCache.set(group, (vectors = learnedFeatures(group.inputs, group.context)));
  return vectors;
}

/**
 * A recorded group as `trainLearnedModel` takes it: the candidates' feature vectors (computed
 * with this version's feature definitions) and their labels.
 *
 * @example
 * ```ts
 * const model = trainLearnedModel(groups.map(trainingGroupOf), {}, `${groups.length} tasks of shop`);
 * ```
 */
export function trainingGroupOf(group: RecordedGroup): TrainingGroup {
  return { features: featuresOf(group), labels: group.labels };
}

/** The candidates' qualified names in the recorded order (the recording ranker's). */
export function recordedOrder(group: RecordedGroup): string[] {
  return group.inputs.map((input) => input.node.qualifiedName);
}

/**
 * The candidates' qualified names ordered by a learned model's score (ties keep the recorded
 * order). Feedback, sessions and forced symbols, which history tasks do not have, play no part.
 *
 * @example
 * ```ts
 * orderWithModel(DEFAULT_LEARNED_MODEL, group).slice(0, 10);
 * ```
 */
export function orderWithModel(model: LearnedModel, group: RecordedGroup): string[] {
  const names = recordedOrder(group);
  const scores = featuresOf(group).map((x) => learnedLogit(model, x));
  return names
    .map((name, i) => ({ name, score: scores[i]!, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((entry) => entry.name);
}

/** Mean figures of an order over a set of groups. */
export interface RankingFigures {
  readonly tasks: number;
  readonly recallAt10: number;
  readonly mrr: number;
  readonly precisionAt10: number;
  /** P@10 with each ground-truth entry credited once. */
  readonly dedupPrecisionAt10: number;
}

/**
 * R@10, MRR and P@10 of an order, averaged over groups (0 for no groups).
 *
 * @example
 * ```ts
 * rankingFigures(heldOut, recordedOrder); // the formula's figures
 * rankingFigures(heldOut, (g) => orderWithModel(model, g)); // the model's
 * ```
 */
export function rankingFigures(groups: readonly RecordedGroup[], order: (group: RecordedGroup) => readonly string[]): RankingFigures {
  let recall = 0;
  let mrr = 0;
  let precision = 0;
  let dedup = 0;
  for (const group of groups) {
    const metrics = scoreTask(order(group), group.groundTruth);
    recall += metrics.recallAt10;
    mrr += metrics.mrr;
    precision += metrics.precisionAt10;
    dedup += metrics.dedupPrecisionAt10;
  }
  const n = groups.length;
  const mean = (sum: number): number => (n ? sum / n : 0);
  return { tasks: n, recallAt10: mean(recall), mrr: mean(mrr), precisionAt10: mean(precision), dedupPrecisionAt10: mean(dedup) };
}
