import type { LanguageId } from '@knowing/graph';
import { validatePlugin } from '../../validate.js';
import type { EquivalenceClassInput, EquivalencePlugin } from '../../types.js';

/** A built-in language vocabulary: source `language`, weight 0.8, scoped to `language`. */
export function languagePlugin(
  language: LanguageId | readonly LanguageId[],
  name: string,
  classes: EquivalenceClassInput[],
): EquivalencePlugin {
  return validatePlugin(
    { framework: name, name: `language:${name}`, source: 'language', language, classes },
    `built-in plugin "language:${name}"`,
  );
}
