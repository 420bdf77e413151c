import type { EquivalenceClassInput, TargetType } from '../types.js';

/**
 * One row of a built-in vocabulary table: the concept id, the phrases tasks use for it, the
 * symbol names that implement it and, where only some kinds of symbol fit, their type.
 */
export function concept(id: string, phrases: string[], targets: string[], targetType?: TargetType): EquivalenceClassInput {
  return targetType === undefined
    ? { concept: id, phrases, targets }
    : { concept: id, phrases, targets, targetType };
}
