import { ErrorCode, KnowingError } from '@knowing/graph';
import type { LanguageId } from '@knowing/graph';
import { LANGUAGE_ALIASES } from '../language-aliases.js';
import { csharpLanguage } from './csharp.js';
import { goLanguage } from './go.js';
import { javaLanguage } from './java.js';
import { javascriptLanguage } from './javascript.js';
import { pythonLanguage } from './python.js';
import { rubyLanguage } from './ruby.js';
import { rustLanguage } from './rust.js';
import { typescriptLanguage } from './typescript.js';
import type { LanguageModule } from './types.js';

/**
 * Every built-in language module. Adding a language is one import and one entry here; worker
 * threads load this same list, so modules must be plain importable values.
 */
export const BUILTIN_LANGUAGES: readonly LanguageModule[] = Object.freeze([
  pythonLanguage,
  goLanguage,
  rustLanguage,
  javaLanguage,
  csharpLanguage,
  rubyLanguage,
  typescriptLanguage,
  javascriptLanguage,
]);

/** Looks up the module for a file. */
export interface LanguageRegistry {
  /** The modules in use. */
  readonly modules: readonly LanguageModule[];
  /** The module handling `path` (by extension), or undefined. */
  forPath(path: string): LanguageModule | undefined;
  /** The module with this id, or undefined. */
  byId(id: string): LanguageModule | undefined;
}

/** Options of {@link createLanguageRegistry}. */
export interface LanguageRegistryOptions {
  /** Restrict to these language ids (or aliases such as `py`, `tsx`); unknown names throw UNKNOWN_LANGUAGE. @default all */
  readonly languages?: readonly string[];
  /** The modules to choose from. @default BUILTIN_LANGUAGES */
  readonly modules?: readonly LanguageModule[];
}

/**
 * Build the extension → module map, optionally restricted to some languages.
 *
 * @example
 * ```ts
 * const registry = createLanguageRegistry({ languages: ['python'] });
 * registry.forPath('src/flask/app.py')?.id; // 'python'
 * ```
 */
export function createLanguageRegistry(options: LanguageRegistryOptions = {}): LanguageRegistry {
  const available = options.modules ?? BUILTIN_LANGUAGES;
  let modules = available;
  if (options.languages && options.languages.length > 0) {
    const wanted = new Set<LanguageModule>();
    for (const raw of options.languages) {
      const module = findModule(available, raw);
      if (!module) {
        const known = [...new Set(available.map((m) => m.id))].sort().join(', ');
        throw new KnowingError(ErrorCode.UnknownLanguage, `unknown language "${raw}"`, {
          source: 'indexer',
          hint: `known languages: ${known}`,
        });
      }
      wanted.add(module);
    }
    modules = available.filter((module) => wanted.has(module));
  }
  const byExtension = new Map<string, LanguageModule>();
  for (const module of modules) {
    for (const extension of module.extensions) if (!byExtension.has(extension)) byExtension.set(extension, module);
  }
  const byId = new Map(modules.map((module) => [module.id as string, module]));
  return {
    modules,
    forPath(path) {
      const slash = path.lastIndexOf('/');
      const dot = path.lastIndexOf('.');
      if (dot <= slash + 1) return undefined;
      return byExtension.get(path.slice(dot).toLowerCase());
    },
    byId: (id) => byId.get(id),
  };
}

function findModule(modules: readonly LanguageModule[], raw: string): LanguageModule | undefined {
  const name = raw.trim().toLowerCase();
  const direct = modules.find((module) => module.id === name);
  if (direct) return direct;
  const alias = LANGUAGE_ALIASES[name];
  if (alias) return modules.find((module) => module.id === alias);
  // `tsx` is a LanguageId of its own but is served by the TypeScript module's extensions.
  if (name === 'tsx') return modules.find((module) => module.extensions.includes('.tsx'));
  return undefined;
}
