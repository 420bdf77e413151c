import { validatePlugin } from './validate.js';
import type { EquivalencePlugin, EquivalencePluginInput } from './types.js';

/**
 * Declare a framework vocabulary: a typing and validation helper for `equiv_<framework>.ts`
 * files and vocabulary packages (like vitest's `defineConfig`). Fills in defaults
 * (`targetType: 'any'`, weight 0.9 for `framework`/`plugin` sources, 0.8 otherwise, each
 * class inherits the plugin's language), checks everything a class needs (non-empty phrases
 * and targets, weight in (0, 1], known language ids, unique concept ids, no target the
 * generic filter would drop) and returns the plugin frozen. A problem throws
 * `KnowingError` with code `PLUGIN_INVALID` naming the plugin.
 *
 * @example
 * ```ts
 * import { defineEquivalenceClasses } from '@knowing/equivalence';
 *
 * export default defineEquivalenceClasses({
 *   framework: 'celery',
 *   language: 'python',
 *   classes: [
 *     {
 *       concept: 'CELERY_TASK',
 *       phrases: ['background task', 'celery task', 'async job'],
 *       targets: ['shared_task', 'Task.apply_async', 'Celery.task'],
 *     },
 *   ],
 * });
 * ```
 */
export function defineEquivalenceClasses(input: EquivalencePluginInput): EquivalencePlugin {
  return validatePlugin(input);
}
