import type { EquivalencePlugin } from '../../types.js';
import { CSHARP_PLUGIN } from './csharp.js';
import { GO_PLUGIN } from './go.js';
import { JAVA_PLUGIN } from './java.js';
import { JAVASCRIPT_PLUGIN } from './javascript.js';
import { PYTHON_PLUGIN } from './python.js';
import { RUBY_PLUGIN } from './ruby.js';
import { RUST_PLUGIN } from './rust.js';
import { TYPESCRIPT_PLUGIN } from './typescript.js';

/** The built-in language vocabularies, one per language. */
export const LANGUAGE_PLUGINS: readonly EquivalencePlugin[] = Object.freeze([
  GO_PLUGIN,
  PYTHON_PLUGIN,
  TYPESCRIPT_PLUGIN,
  JAVASCRIPT_PLUGIN,
  RUST_PLUGIN,
  JAVA_PLUGIN,
  CSHARP_PLUGIN,
  RUBY_PLUGIN,
]);
