import type { VocabStore } from '@knowing/graph';
import { DEFAULT_LEARNED_CLASS_OPTIONS, checkInteger, withDefaults } from './options.js';
import { phraseWords } from './text.js';
import type { EquivalenceClass, LearnedClassOptions } from './types.js';

/**
 * The weight of a learned association seen `count` times: 0.3 at two observations rising
 * linearly to 0.8 at ten or more (`0.3 + 0.5 · min((count − 2) / 8, 1)`); counts below two
 * give 0.3.
 *
 * @example
 * ```ts
 * learnedWeight(2);  // 0.3
 * learnedWeight(6);  // 0.55
 * learnedWeight(25); // 0.8
 * ```
 */
export function learnedWeight(count: number): number {
  return 0.3 + 0.5 * Math.min(Math.max(count - 2, 0) / 8, 1);
}

/**
 * Classes from the keyword → symbol associations learned from agent usage: one class per
 * (keyword, symbol) seen at least `minCount` times (source `learned`, weight
 * {@link learnedWeight}), targeting that exact node. Scoped to the task's keyword cluster
 * when `cluster` is given, so one task family's habits do not leak into another. Learned
 * classes compete in the equivalence channel; they are never forced to the top.
 *
 * @example
 * ```ts
 * const learned = await learnedClasses(store, allKeywords(keywordSet), {
 *   cluster: keywordClusterId(keywordSet),
 * });
 * ```
 */
export async function learnedClasses(
  vocab: VocabStore,
  keywords: readonly string[],
  options?: LearnedClassOptions,
): Promise<EquivalenceClass[]> {
  const o = withDefaults(DEFAULT_LEARNED_CLASS_OPTIONS, options);
  checkInteger('minCount', o.minCount, 1);
  checkInteger('maxClasses', o.maxClasses, 0);
  const unique = [...new Set(keywords.filter((k) => k.trim() !== ''))];
  if (unique.length === 0 || o.maxClasses === 0) return [];
  const associations = await vocab.vocabFor(unique, {
    minCount: o.minCount,
    ...(options?.cluster !== undefined ? { cluster: options.cluster } : {}),
  });
  const ordered = [...associations].sort((a, b) => b.count - a.count);
  const classes: EquivalenceClass[] = [];
  const concepts = new Set<string>();
  for (const a of ordered) {
    if (classes.length >= o.maxClasses) break;
    if (a.count < o.minCount || phraseWords(a.keyword).length === 0) continue;
    if (options?.cluster !== undefined && a.cluster !== null && a.cluster !== options.cluster) continue;
    const concept = `LEARNED_${a.keyword}_${a.symbol.slice(0, 12)}`;
    if (concepts.has(concept)) continue;
    concepts.add(concept);
    classes.push(
      Object.freeze({
        concept,
        phrases: Object.freeze([a.keyword]),
        targets: Object.freeze([a.symbolName !== '' ? a.symbolName : a.symbol]),
        targetIds: Object.freeze([a.symbol]),
        targetType: 'any',
        weight: learnedWeight(a.count),
        source: 'learned',
      }),
    );
  }
  return classes;
}
