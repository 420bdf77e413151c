/**
 * JavaScript support: the TypeScript module's extraction and import resolution, run on the
 * `javascript` grammar.
 *
 * Why a grammar of its own rather than the TS one: JavaScript files routinely contain JSX
 * (`.js` React components), which the `typescript` grammar rejects, while the `tsx` grammar
 * reads `a < b > c` and similar JS as type arguments. The `javascript` grammar parses JSX,
 * decorators and class fields, and its node names are the ones the shared extractor expects.
 */
import type { LanguageModule } from './types.js';
import { createScriptLanguage } from './typescript.js';

/**
 * JavaScript: `.js`, `.jsx`, `.mjs`, `.cjs`, all with the `javascript` grammar. Understands ES
 * modules and CommonJS (`require`, `module.exports`, `exports.x`), prototype methods and
 * properties defined by calls (`Object.defineProperty`, `__defineGetter__`, `defineGetter` helpers).
 *
 * @example
 * ```ts
 * const parser = await createParser(javascriptLanguage.grammarFor('lib/index.js'));
 * const extraction = withTree(parser, source, (tree) => javascriptLanguage.extract(tree.rootNode, source, 'lib/index.js'));
 * ```
 */
export const javascriptLanguage: LanguageModule = createScriptLanguage({
  id: 'javascript',
  extensions: ['.js', '.jsx', '.mjs', '.cjs'],
  grammarFor: () => 'javascript',
});
