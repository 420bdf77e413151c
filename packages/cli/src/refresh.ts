import { createLanguageRegistry, indexRepository } from '@knowing/indexer';
import type { IndexSummary } from '@knowing/indexer';
import { createSqliteStore } from '@knowing/store-sqlite';
import type { SqliteGraphStore } from '@knowing/store-sqlite';
import { createEngine } from '@knowing/engine';
import { listValue } from './args.js';
import type { CommandContext } from './command.js';
import { usageError } from './errors.js';
import { ignoreIndexDirectory } from './repo.js';
import type { Location } from './session.js';
import { fileIdentity } from './warm.js';
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

/** How a run of {@link refreshIndex} or a {@link Refresher} may be told to stop, and whether it prepares the next query. */
export interface RefreshOptions {
  readonly signal?: AbortSignal;
  /** Prepare the walk's adjacency even when the graph's structure did not change (a first run). */
  readonly warm?: boolean;
  /** What a file watcher saw change since the last run (see `IndexOptions.changedPaths`). */
  readonly changedPaths?: readonly string[];
}

async function openRefreshStore(settings: RefreshSettings): Promise<SqliteGraphStore> {
  const store = await createSqliteStore({ path: settings.dbPath });
  ignoreIndexDirectory(settings.root, settings.dbPath);
  return store;
}

/** One incremental index run into an open store, then the walk's adjacency for the next query when something changed (or `warm`). */
async function indexInto(store: SqliteGraphStore, settings: RefreshSettings, options: RefreshOptions): Promise<IndexSummary> {
  const before = (await store.currentSnapshot())?.id;
  const summary = await indexRepository({
    root: settings.root,
    store,
    ...(settings.languages ? { languages: settings.languages } : {}),
    ...(settings.workers !== undefined ? { workers: settings.workers } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.changedPaths ? { changedPaths: options.changedPaths } : {}),
  });
  // The walk's adjacency belongs to the graph's structure (its snapshot): an edit inside a
  // body changes the text index but leaves the stored adjacency valid, so there is nothing to
  // prepare — and a watcher answering queries must not spend that time on every save.
  const reshaped = (await store.currentSnapshot())?.id !== before;
  if (!options.signal?.aborted && (reshaped || options.warm)) await createEngine({ store }).warm();
  return summary;
}

/**
 * One incremental index run, as `knowing index` does it: open the store, index, prepare the
 * walk's adjacency for the next query (when something changed, or `warm` says so), close.
 * An abort stops the run before it writes: the index stays as it was.
 */
export async function refreshIndex(settings: RefreshSettings, options: RefreshOptions = {}): Promise<IndexSummary> {
  const store = await openRefreshStore(settings);
  try {
    return await indexInto(store, settings, options);
  } finally {
    await store.close();
  }
}

/** Index runs into one index file over one connection; see {@link createRefresher}. */
export interface Refresher {
  /** One run, as {@link refreshIndex} does it. */
  run(options?: RefreshOptions): Promise<IndexSummary>;
  /** Close the connection, after the run in hand. */
  close(): Promise<void>;
}

/**
 * Runs of {@link refreshIndex} over a connection kept between them, for a process that indexes
 * one file again and again (a watcher, once per batch of changes): no run pays for opening the
 * database, preparing its statements and closing it, some 8 ms of a one-file run on cargo. The
 * connection is opened again when the file was replaced on disk (an index rebuilt and moved into
 * place) and after a failed run. Runs must not overlap.
 */
export function createRefresher(settings: RefreshSettings): Refresher {
  let kept: { readonly store: SqliteGraphStore; readonly identity: string } | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const drop = async (): Promise<void> => {
    const store = kept?.store;
    kept = undefined;
    await store?.close().catch(() => {});
  };
  return {
    async run(options = {}) {
      const identity = fileIdentity(settings.dbPath);
      if (kept && kept.identity !== identity) await drop();
      if (!kept) {
        const store = await openRefreshStore(settings);
        // Taken after the open: a new index file exists only from then.
        kept = { store, identity: fileIdentity(settings.dbPath) };
      }
      const run = indexInto(kept.store, settings, options);
      running = run.catch(() => {});
      try {
        return await run;
      } catch (error) {
        await drop();
        throw error;
      }
    },
    async close() {
      await running;
      await drop();
    },
  };
}

/** `2 parsed, 1 removed; 58 symbols, 120 edges`, or what it means that nothing was. */
export function describeRefresh(summary: IndexSummary): string {
  const { parsed, deleted } = summary.files;
  if (parsed === 0 && deleted === 0) return 'nothing to re-index (ignored, not source, or unchanged)';
  const parts = [`${formatInt(parsed)} parsed`];
  if (deleted > 0) parts.push(`${formatInt(deleted)} removed`);
  return `${parts.join(', ')}; ${plural(summary.nodes, 'symbol')}, ${plural(summary.edges, 'edge')}`;
}
