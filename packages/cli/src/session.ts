import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createSqliteStore } from '@knowing/store-sqlite';
import type { SqliteGraphStore } from '@knowing/store-sqlite';
import type { RepoInfo } from '@knowing/graph';
import type { CommandContext } from './command.js';
import { loadConfig } from './config.js';
import type { LoadedConfig } from './config.js';
import { CliError, ExitCode } from './errors.js';
import { defaultDatabasePath, displayPath, resolveRepoRoot } from './repo.js';

/** Where a command works: the repository, its index file and its config. */
export interface Location {
  readonly root: string;
  readonly dbPath: string;
  readonly loaded: LoadedConfig;
}

/**
 * The repository root (`rootOverride` for `index PATH`, else `--repo`, else the git root of
 * the cwd, else the cwd), the database (`--db`, else `<root>/.knowing/graph.db`) and the config.
 */
export async function locate(ctx: CommandContext, rootOverride?: string): Promise<Location> {
  const root = rootOverride ?? resolveRepoRoot(ctx.repo, ctx.cwd);
  const dbPath = ctx.db !== undefined ? resolve(ctx.cwd, ctx.db) : defaultDatabasePath(root);
  const loaded = await loadConfig(ctx.config, root, ctx.cwd);
  return { root, dbPath, loaded };
}

/** An open index with an engine over it. Close it when done. */
export interface OpenIndex extends Location {
  readonly store: SqliteGraphStore;
  readonly repoInfo: RepoInfo;
  close(): Promise<void>;
}

/** The `knowing index` command line that would create the missing index. */
function indexCommandFor(ctx: CommandContext, location: Location): string {
  const parts = ['knowing index'];
  const rootShown = displayPath(location.root, ctx.cwd);
  if (rootShown !== '.') parts.push(/\s/.test(rootShown) ? JSON.stringify(rootShown) : rootShown);
  if (ctx.db !== undefined) parts.push(`--db ${ctx.db}`);
  return parts.join(' ');
}

/** Whether this process may write `path` (false on a read-only mount too). */
function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a query may open the index for writing: the file, its folder (SQLite keeps the
 * write-ahead log and shared memory beside it) and those two files when present.
 */
export function writableIndex(dbPath: string): boolean {
  return [dbPath, dirname(dbPath), `${dbPath}-wal`, `${dbPath}-shm`].every((path, i) => (i >= 2 && !existsSync(path)) || canWrite(path));
}

/** Open the index for a query: for writing (answers are cached in it) when this user can, else read-only. */
async function openForQuery(dbPath: string): Promise<SqliteGraphStore> {
  if (!writableIndex(dbPath)) return createSqliteStore({ path: dbPath, readonly: true });
  try {
    return await createSqliteStore({ path: dbPath });
  } catch (error) {
    // A file system that refuses writes although permissions allow them (a read-only
    // snapshot, some network mounts): queries only read, so read.
    if ((error as { code?: unknown }).code !== 'STORE_READ_ONLY') throw error;
    return createSqliteStore({ path: dbPath, readonly: true });
  }
}

/**
 * Open an existing index for querying. A missing file or a database that was never filled is
 * "no index yet" (exit 3); anything wrong with the file itself is a database error (exit 5).
 */
export async function openIndex(ctx: CommandContext): Promise<OpenIndex> {
  const preliminary = await locate(ctx);
  let stats: ReturnType<typeof statSync> | undefined;
  try {
    stats = statSync(preliminary.dbPath);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // Only a missing file is "no index yet"; a folder this user may not enter is not.
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      throw new CliError(
        ExitCode.PathNotFound,
        'PATH_NOT_FOUND',
        `cannot reach ${displayPath(preliminary.dbPath, ctx.cwd)} (${String(code)})`,
        'check that this user may read the index and enter the folders above it',
      );
    }
    stats = undefined;
  }
  if (stats === undefined) {
    throw new CliError(
      ExitCode.NoIndex,
      'NO_INDEX',
      `no index yet at ${displayPath(preliminary.dbPath, ctx.cwd)}`,
      `run \`${indexCommandFor(ctx, preliminary)}\` first`,
    );
  }
  // Writable when possible: the engine keeps its caches (answers, adjacency) in the index. A
  // read-only index (file, folder or mount) still answers, without caching.
  const store = await openForQuery(preliminary.dbPath);
  try {
    const repoInfo = await store.repo();
    if (repoInfo === null || repoInfo.indexedAt === null) {
      throw new CliError(
        ExitCode.NoIndex,
        'NO_INDEX',
        `${displayPath(preliminary.dbPath, ctx.cwd)} holds no index yet`,
        `run \`${indexCommandFor(ctx, preliminary)}\` first`,
      );
    }
    // With only --db, the repository is the one the index was built from.
    let root = preliminary.root;
    if (ctx.repo === undefined && ctx.db !== undefined && repoInfo.root && existsSync(repoInfo.root)) {
      root = repoInfo.root;
    }
    return { ...preliminary, root, store, repoInfo, close: () => store.close() };
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
}
