import { createEngine } from '@knowing/engine';
import type { Engine } from '@knowing/engine';
import { repositoryModel, repositoryModelPath } from '@knowing/history/model';
import { formatCost } from './formats.js';
import { loadRanker } from './config.js';
import { configError, toFailure, usageError } from './errors.js';
import type { CommandContext } from './command.js';
import type { OpenIndex } from './session.js';

// Apart from session.ts so that commands which only read the store (stats) do not load the
// engine and the formats, and from formats.ts so that `context` can check its format before
// it loads the engine.

/**
 * The engine over an open index, with the config's ranker, plugins and options. Without a
 * configured ranker, task answers use the repository's own model (`knowing train` writes it to
 * `<repo>/.knowing/model.json`) when there is one; `warn` says why one present is not used.
 */
export async function engineFor(index: OpenIndex, warn: (message: string) => void): Promise<Engine> {
  const { loaded } = index;
  const ranker = await loadRanker(loaded);
  const learnedModel = ranker || loaded.config.engine?.rankingModel === 'formula' ? undefined : repositoryModel(index.root, { warn });
  const engine = createEngine({
    store: index.store,
    ...(ranker ? { ranker } : {}),
    ...(learnedModel ? { learnedModel } : {}),
    ...(loaded.config.engine ? { options: loaded.config.engine } : {}),
    // The budget counts what the chosen format really costs per symbol.
    symbolCost: formatCost,
  });
  for (const [i, plugin] of (loaded.config.plugins ?? []).entries()) {
    try {
      await engine.classes.loadFromPackage(plugin, { from: loaded.directory });
    } catch (error) {
      const failure = toFailure(error);
      throw configError(loaded.file ?? 'config', `"plugins[${i}]" (${plugin}): ${failure.message}`, failure.hint, error);
    }
  }
  return engine;
}

/** Files the engine of an index reads when it is built (a process keeping the engine rebuilds it when one changes). */
export function engineInputs(index: OpenIndex): string[] {
  return [repositoryModelPath(index.root)];
}

/** Where a command's warning about an unusable model file goes: stderr, even with --json (stdout carries the answer). */
export function modelWarning(ctx: CommandContext): (message: string) => void {
  return (message) => ctx.io.stderr.write(`knowing: warning: ${message}\n`);
}
