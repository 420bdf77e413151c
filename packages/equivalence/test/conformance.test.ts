/**
 * The vocabulary conformance kit run against the shipped vocabulary: every built-in plugin on
 * its own (universal, one per language, one per framework file), and all of it as one set, as
 * the engine registers it.
 */
import { BUILTIN_PLUGINS, builtinClasses } from '../src/index.js';
import { testVocabulary } from '../src/testing.js';

/**
 * Exemptions from the advisory rules, each with its reason.
 * - RS_CONVERSIONS "into": Rust's `Into` trait. The class is Rust-only, and a one-word phrase
 *   never forces symbols to the top, so an English "into" in a task only adds channel noise.
 */
const ALLOW = ['RS_CONVERSIONS:into'];

for (const plugin of BUILTIN_PLUGINS) testVocabulary(plugin, { allow: ALLOW });
testVocabulary(BUILTIN_PLUGINS, { name: 'every built-in plugin together', allow: ALLOW });
testVocabulary(builtinClasses(), { name: 'builtinClasses()', allow: ALLOW });
