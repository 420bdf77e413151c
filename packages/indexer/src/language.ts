/**
 * `@knowing/indexer/language`: what a language module is written with — the contract
 * (`LanguageModule` and the extraction it returns: `FileExtraction`, `SymbolDef`, `Reference`,
 * `ImportDecl`, …), the WASM tree-sitter helpers (`loadGrammar`, `createParser`, `withTree`,
 * `ParseTimeoutError`), one file's extraction on its own (`extractFile`), the qualified-name
 * rule (`qualifiedNameOf`) and the Python module as a worked example. Register a module with
 * `createLanguageRegistry({ languages })` from the root export.
 *
 * @example
 * import { extractFile, pythonLanguage } from '@knowing/indexer/language';
 * const { extraction } = await extractFile(
 *   { path: 'app.py', absolutePath: '/src/shop/app.py', language: pythonLanguage.id, timeoutMs: 10_000 },
 *   [pythonLanguage],
 * );
 */
export { pythonLanguage } from './languages/python.js';
export { extractFile } from './extract.js';
export type { ExtractTask, ExtractResult, ReadFile } from './extract.js';
export { qualifiedNameOf } from './resolve.js';
export { loadGrammar, createParser, withTree, ParseTimeoutError } from './parser.js';
export type { GrammarName } from './parser.js';
export type {
  NameRef,
  SupertypeRelation,
  SupertypeRef,
  SymbolDef,
  ReferenceKind,
  Reference,
  ImportDecl,
  FileExtraction,
  Implementation,
  ProjectLayout,
  ResolvedImport,
  LanguageModule,
} from './languages/types.js';
