/**
 * A repository's own learned model: where `knowing train` writes it, and the ranker the CLI
 * and the MCP server build from it. A subpath of its own (`@knowing/history/model`) so that
 * reading a model does not load the indexer, the store or git.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createLearnedRanker } from '@knowing/rank';
import type { LearnedModel } from '@knowing/rank';

/** The model's path inside a repository. */
export const REPOSITORY_MODEL_FILE = '.knowing/model.json';

/**
 * Where a repository's model lives: `<root>/.knowing/model.json`.
 *
 * @example
 * ```ts
 * repositoryModelPath('/src/shop'); // '/src/shop/.knowing/model.json'
 * ```
 */
export function repositoryModelPath(root: string): string {
  return join(root, REPOSITORY_MODEL_FILE);
}

/**
 * Write a model as JSON (creating the directory).
 *
 * @example
 * ```ts
 * writeModelFile(repositoryModelPath('/src/shop'), trainLearnedModel(groups));
 * ```
 */
export function writeModelFile(path: string, model: LearnedModel): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(model, null, 2)}\n`);
}

/** Why a model could not be used, in a few words: a knowing error's message up to its details, else the first line. */
function shortReason(error: unknown): string {
  if (error instanceof Error && error.name === 'KnowingError') {
    return error.message.replace(/^\[knowing(?::[^\]]*)?\]\s*/, '').split(': ')[0]!.split(' — ')[0]!;
  }
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/** Options of {@link repositoryModel}. */
export interface RepositoryModelOptions {
  /** Told, in one line, why a model file present is not used. */
  readonly warn?: (message: string) => void;
}

/**
 * The trained model of a repository, `<root>/.knowing/model.json`, for
 * `createEngine({ learnedModel })`: task answers are then ranked by it, file and change queries
 * by the formula, as with the shipped model. Undefined when there is no model file, or when it
 * cannot be used (not JSON, or a model of another feature list): then `warn` says why and the
 * engine's default applies.
 *
 * @example
 * ```ts
 * const learnedModel = repositoryModel(root, { warn: (m) => process.stderr.write(`knowing: ${m}\n`) });
 * const engine = createEngine({ store, ...(learnedModel ? { learnedModel } : {}) });
 * ```
 */
export function repositoryModel(root: string, options: RepositoryModelOptions = {}): LearnedModel | undefined {
  const path = repositoryModelPath(root);
  if (!existsSync(path)) return undefined;
  try {
    const model = JSON.parse(readFileSync(path, 'utf8')) as LearnedModel | null;
    // `createLearnedRanker` falls back to the shipped model when given none: a file of `null` is not that.
    if (typeof model !== 'object' || model === null || Array.isArray(model)) throw new Error('not a JSON object');
    createLearnedRanker({ model });
    return model;
  } catch (error) {
    options.warn?.(`ignoring ${path} (${shortReason(error)}); using the shipped model — retrain with \`knowing train\` or delete the file`);
    return undefined;
  }
}
