import type { LanguageId } from '@knowing/graph';
import { builtinPlugin } from '../../validate.js';
import type { EquivalenceClassInput, EquivalencePlugin } from '../../types.js';

/** A built-in language vocabulary: source `language`, weight 0.8, scoped to `language`. */
export function languagePlugin(
  language: LanguageId | readonly LanguageId[],
  name: string,
  classes: EquivalenceClassInput[],
): EquivalencePlugin {
  return builtinPlugin(
    { framework: name, name: `language:${name}`, source: 'language', language, classes },
    `built-in plugin "language:${name}"`,
  );
}
