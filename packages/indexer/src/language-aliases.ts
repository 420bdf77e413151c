import type { LanguageId } from '@knowing/graph';

/**
 * Alternative spellings of the built-in languages accepted in the `languages` option. Kept
 * apart from the registry so that a check can read them without loading the language modules.
 * `tsx` is not among them: it is a language id of its own, served by the TypeScript module.
 */
export const LANGUAGE_ALIASES: Readonly<Record<string, LanguageId>> = {
  py: 'python',
  ts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  golang: 'go',
  rs: 'rust',
  rb: 'ruby',
  cs: 'csharp',
  'c#': 'csharp',
};
