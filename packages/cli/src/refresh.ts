import { createLanguageRegistry, indexRepository } from '@knowing/indexer';
import type { IndexSummary } from '@knowing/indexer';
import { createSqliteStore } from '@knowing/store-sqlite';
import { createEngine } from '@knowing/engine';
import { listValue } from './args.js';
import type { CommandContext } from './command.js';
import { usageError } from './errors.js';
import { ignoreIndexDirectory } from './repo.js';
import type { Location } from './session.js';
import { formatInt, plural } from './text.js';

/** What an incremental refresh (`watch`, `hooks run`) indexes, from the flags and the config. */
export interface RefreshSettings {
  readonly root: string;
  readonly dbPath: string;
  readonly languages: string[] | undefined;
  readonly workers: number | undefined;
}

/** `--languages` (if the command has it), else the config's defaults, checked before any run. */
export function refreshSettings(ctx: CommandContext, location: Location, workers?: number): RefreshSettings {
  const defaults = location.loaded.config.defaults ?? {};
  const languages = listValue(ctx.values, 'languages') ?? (defaults.languages ? [...defaults.languages] : undefined);
  if (languages !== undefined && languages.length === 0) throw usageError('--languages is empty', 'name at least one language, e.g. --languages python');
  // Check the names before the first run, so a typo fails at once and not on the first change.
  if (languages) createLanguageRegistry({ languages });
  return { root: location.root, dbPath: location.dbPath, languages, workers: workers ?? defaults.workers };
}

/**
 * One incremental index run, as `knowing index` does it: open the store, index, prepare the
 * walk's adjacency for the next query (when something changed, or `warm` says so), close.
 * An abort stops the run before it writes: the index stays as it was.
 */
export async function refreshIndex(settings: RefreshSettings, options: { readonly signal?: AbortSignal; readonly warm?: boolean } = {}): Promise<IndexSummary> {
  const store = await createSqliteStore({ path: settings.dbPath });
  ignoreIndexDirectory(settings.root, settings.dbPath);
  try {
    const before = (await store.currentSnapshot())?.id;
    const summary = await indexRepository({
      root: settings.root,
      store,
      ...(settings.languages ? { languages: settings.languages } : {}),
      ...(settings.workers !== undefined ? { workers: settings.workers } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // The walk's adjacency belongs to the graph's structure (its snapshot): an edit inside a
    // body changes the text index but leaves the stored adjacency valid, so there is nothing to
    // prepare — and a watcher answering queries must not spend that time on every save.
    const reshaped = (await store.currentSnapshot())?.id !== before;
    if (!options.signal?.aborted && (reshaped || options.warm)) await createEngine({ store }).warm();
    return summary;
  } finally {
    await store.close();
  }
}

/** `2 parsed, 1 removed; 58 symbols, 120 edges`, or what it means that nothing was. */
export function describeRefresh(summary: IndexSummary): string {
  const { parsed, deleted } = summary.files;
  if (parsed === 0 && deleted === 0) return 'nothing to re-index (ignored, not source, or unchanged)';
  const parts = [`${formatInt(parsed)} parsed`];
  if (deleted > 0) parts.push(`${formatInt(deleted)} removed`);
  return `${parts.join(', ')}; ${plural(summary.nodes, 'symbol')}, ${plural(summary.edges, 'edge')}`;
}
