import type { EquivalenceClass, EquivalencePlugin } from '../types.js';
import { FRAMEWORK_PLUGINS } from './frameworks/index.js';
import { LANGUAGE_PLUGINS } from './languages/index.js';
import { UNIVERSAL_PLUGIN } from './universal.js';

/**
 * The vocabulary shipped with the package, as plugins: `universal` (source `universal`,
 * weight 0.8), one `language:<id>` plugin per language (source `language`, 0.8) and one
 * plugin per framework file (source `framework`, 0.9). Pass them to `createClassRegistry`.
 *
 * @example
 * ```ts
 * const registry = createClassRegistry(BUILTIN_PLUGINS.filter((p) => p.name !== 'react'));
 * ```
 */
export const BUILTIN_PLUGINS: readonly EquivalencePlugin[] = Object.freeze([
  UNIVERSAL_PLUGIN,
  ...LANGUAGE_PLUGINS,
  ...FRAMEWORK_PLUGINS,
]);

let flattened: readonly EquivalenceClass[] | undefined;

/**
 * Every built-in class (universal, then languages, then frameworks), frozen.
 *
 * @example
 * ```ts
 * const matches = matchClasses('add a before request hook', builtinClasses(), { language: 'python' });
 * ```
 */
export function builtinClasses(): readonly EquivalenceClass[] {
  flattened ??= Object.freeze(BUILTIN_PLUGINS.flatMap((p) => p.classes));
  return flattened;
}
