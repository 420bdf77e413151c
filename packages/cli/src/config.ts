import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CreateEngineOptions, EngineOptionsInput } from '@knowing/engine';
import { CliError, ExitCode, configError } from './errors.js';

/** A ranker as `createEngine({ ranker })` takes it. */
export type Ranker = NonNullable<CreateEngineOptions['ranker']>;

/**
 * The config file, `knowing.config.json` (or `.mjs`, `.js`, `.ts`) at the repository root.
 *
 * @example
 * ```json
 * {
 *   "plugins": ["knowing-vocab-django", "./vocab/equiv_shop.mjs"],
 *   "ranker": "./tools/my-ranker.mjs",
 *   "defaults": { "budget": 8000, "format": "gcf", "languages": ["python", "go"] },
 *   "engine": { "walk": { "alpha": 0.25 }, "channels": { "bm25": 3 } }
 * }
 * ```
 */
export interface KnowingConfig {
  /** Equivalence-class (vocabulary) packages or module paths, registered with every engine. */
  readonly plugins?: readonly string[];
  /** A module whose default (or `ranker`) export is a ranker, or a function returning one. */
  readonly ranker?: string;
  /** Defaults for flags. */
  readonly defaults?: ConfigDefaults;
  /** Engine options (see `EngineOptionsInput` of @knowing/engine). */
  readonly engine?: EngineOptionsInput;
  /**
   * Where the index lives when it is not `<repo>/.knowing/graph.db`: a PostgreSQL URL
   * (`postgres://user@host:5432/db`, `?repository=NAME` to name the repository), as `--store`
   * takes it. Keep the password out of the file: pg reads `PGPASSWORD` (and `~/.pgpass`).
   * `--store` and `--db` override it.
   */
  readonly store?: string;
}

export interface ConfigDefaults {
  /** `--budget` of `context`, `why` and `viz`. */
  readonly budget?: number;
  /** `--format` of `context`. @default 'xml' */
  readonly format?: string;
  /** `--languages` of `index`. @default all */
  readonly languages?: readonly string[];
  /** Parser threads of `index`. */
  readonly workers?: number;
  /** Whether `context`, `why`, `viz` and `test-scope` re-index changed files before answering (`--no-refresh` for one run). @default true */
  readonly refresh?: boolean;
}

/**
 * Typing helper for `knowing.config.mjs` / `.ts`.
 *
 * @example
 * ```js
 * // knowing.config.mjs
 * import { defineConfig } from 'knowing';
 * export default defineConfig({ defaults: { format: 'gcf' } });
 * ```
 */
export function defineConfig(config: KnowingConfig): KnowingConfig {
  return config;
}

/** A loaded config: what it says, where it came from. */
export interface LoadedConfig {
  readonly config: KnowingConfig;
  /** The file, or null when there is none. */
  readonly file: string | null;
  /** Directory relative plugin and ranker paths start from. */
  readonly directory: string;
}

export const CONFIG_FILE_NAMES = ['knowing.config.json', 'knowing.config.mjs', 'knowing.config.js', 'knowing.config.ts'] as const;

/** Find and load the config: `--config FILE`, else the first of CONFIG_FILE_NAMES at the root. */
export async function loadConfig(configFlag: string | undefined, root: string, cwd: string): Promise<LoadedConfig> {
  let file: string | undefined;
  if (configFlag !== undefined) {
    file = resolve(cwd, configFlag);
    if (!existsSync(file)) {
      throw new CliError(ExitCode.PathNotFound, 'PATH_NOT_FOUND', `config file ${file} does not exist`, 'check the --config path');
    }
  } else {
    file = CONFIG_FILE_NAMES.map((name) => join(root, name)).find((candidate) => existsSync(candidate));
  }
  if (file === undefined) return { config: {}, file: null, directory: root };
  const raw = await readConfigFile(file);
  // Only a config file needs the validator, which loads the engine for its option defaults.
  const { validateConfig } = await import('./validate-config.js');
  return { config: validateConfig(raw, file), file, directory: dirname(file) };
}

async function readConfigFile(file: string): Promise<unknown> {
  const extension = extname(file).toLowerCase();
  if (extension === '.json') {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new CliError(ExitCode.PathNotFound, 'PATH_NOT_FOUND', `config file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`, 'check its permissions');
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw configError(file, `is not valid JSON (${(error as Error).message})`, 'fix the syntax; JSON allows no comments or trailing commas');
    }
  }
  if (extension === '.mjs' || extension === '.js' || extension === '.ts' || extension === '.mts') {
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if ((extension === '.ts' || extension === '.mts') && code === 'ERR_UNKNOWN_FILE_EXTENSION') {
        throw configError(
          file,
          `this Node.js (${process.version}) cannot import TypeScript`,
          'rename it to knowing.config.mjs (plain JavaScript) or use knowing.config.json; Node 22.18+ and 23.6+ import .ts natively',
          error,
        );
      }
      throw configError(file, `failed to load: ${(error as Error).message ?? String(error)}`, 'fix the error in the config module', error);
    }
    return module['default'] ?? module['config'];
  }
  throw configError(file, `has an unsupported extension "${extension}"`, `use one of ${CONFIG_FILE_NAMES.join(', ')}`);
}

/**
 * Load the ranker module named in the config. Its default export (or `ranker`) is a ranker
 * object, or a function (maybe async) returning one.
 */
export async function loadRanker(loaded: LoadedConfig): Promise<Ranker | undefined> {
  const specifier = loaded.config.ranker;
  if (specifier === undefined) return undefined;
  const file = loaded.file ?? 'config';
  const target = specifier.startsWith('.') || specifier.startsWith('/') ? pathToFileURL(resolve(loaded.directory, specifier)).href : specifier;
  let module: Record<string, unknown>;
  try {
    module = (await import(target)) as Record<string, unknown>;
  } catch (error) {
    throw configError(file, `"ranker": cannot import ${specifier} (${(error as Error).message ?? String(error)})`, 'check the path (relative to the config file) or install the package', error);
  }
  let exported = module['default'] ?? module['ranker'];
  if (typeof exported === 'function') {
    try {
      exported = await (exported as () => unknown)();
    } catch (error) {
      throw configError(file, `"ranker": the factory exported by ${specifier} threw: ${(error as Error).message ?? String(error)}`, undefined, error);
    }
  }
  const candidate = exported as Partial<Ranker> | undefined;
  if (!candidate || typeof candidate !== 'object' || typeof candidate.rank !== 'function') {
    throw configError(
      file,
      `"ranker": ${specifier} does not export a ranker`,
      'export default an object with a name and a rank(inputs, context) method, or a function returning one',
    );
  }
  if (typeof candidate.name !== 'string' || candidate.name === '') {
    throw configError(file, `"ranker": the ranker exported by ${specifier} has no name`, 'give it a name: { name: "my-ranker", rank() { … } }');
  }
  return candidate as Ranker;
}
