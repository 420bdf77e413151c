import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createSqliteStore } from '@knowing/store-sqlite';
import type { SqliteGraphStore } from '@knowing/store-sqlite';
import type { GraphStore, RepoInfo } from '@knowing/graph';
import { stringValue } from './args.js';
import type { CommandContext } from './command.js';
import { loadConfig } from './config.js';
import type { LoadedConfig } from './config.js';
import { CliError, ExitCode, usageError } from './errors.js';
import { defaultDatabasePath, displayPath, ignoreIndexDirectory, resolveRepoRoot } from './repo.js';
import { checkoutIdentity, hidePassword, openPostgresStore, parseStoreUrl } from './store-url.js';
import type { PostgresTarget } from './store-url.js';

/** Where a command works: the repository, its index (a SQLite file, or a PostgreSQL store) and its config. */
export interface Location {
  readonly root: string;
  /** The SQLite index file (`--db`, else `<root>/.knowing/graph.db`); unused when `postgres` is set. */
  readonly dbPath: string;
  /** The PostgreSQL store (`--store postgres://…`, else the config's `store`), or null for the SQLite file. */
  readonly postgres: PostgresTarget | null;
  readonly loaded: LoadedConfig;
}

/**
 * The repository root (`rootOverride` for `index PATH`, else `--repo`, else the git root of
 * the cwd, else the cwd), the index (`--store URL`, else `--db FILE`, else the config's
 * `store`, else `<root>/.knowing/graph.db`) and the config.
 */
export async function locate(ctx: CommandContext, rootOverride?: string): Promise<Location> {
  const root = rootOverride ?? resolveRepoRoot(ctx.repo, ctx.cwd);
  const dbPath = ctx.db !== undefined ? resolve(ctx.cwd, ctx.db) : defaultDatabasePath(root);
  const loaded = await loadConfig(ctx.config, root, ctx.cwd);
  const flag = stringValue(ctx.values, 'store');
  if (flag !== undefined && ctx.db !== undefined) {
    throw usageError('--store and --db cannot be combined', '--db names a SQLite file, --store a PostgreSQL database: pass one');
  }
  // A flag wins over the config: --db picks the SQLite file even when the config names a store.
  const configured = ctx.db === undefined ? loaded.config.store : undefined;
  const postgres = flag !== undefined ? parseStoreUrl(flag, '--store') : configured !== undefined ? parseStoreUrl(configured, `${loaded.file ?? 'config'}: "store"`) : null;
  return { root, dbPath, postgres, loaded };
}

/** What every store an index command opens offers: the `GraphStore` contract, its schema version and whether it refuses writes. */
export type IndexStore = GraphStore & { readonly schemaVersion: number; readonly readonly: boolean };

/** An open index with an engine over it. Close it when done. */
export interface OpenIndex extends Location {
  readonly store: IndexStore;
  readonly repoInfo: RepoInfo;
  close(): Promise<void>;
}

/** Where the index of a location is, for messages: the database file, or the store URL and repository. */
export function describeIndex(location: Location, cwd: string, repository?: string): string {
  if (!location.postgres) return displayPath(location.dbPath, cwd);
  return `${location.postgres.shown}${repository ? ` (repository ${repository})` : ''}`;
}

/** The repository's name in a PostgreSQL store: `?repository=`, else the checkout's identity (its git remote, else its folder's name). */
export async function postgresRepository(location: Location): Promise<string> {
  return location.postgres?.repository ?? (await checkoutIdentity(location.root));
}

/** A store opened for writing (an index run, a server), with what messages call it. */
export interface WritableIndex {
  readonly store: IndexStore;
  /** The database file, or the store URL (password hidden) and repository. */
  readonly shown: string;
  /** The repository name in a PostgreSQL store; null for a SQLite file. */
  readonly repository: string | null;
  close(): Promise<void>;
}

/**
 * Open the location's index for writing, creating it when missing: the SQLite file (its
 * folder kept out of git, as `knowing index` does), or the repository's schema in PostgreSQL.
 */
export async function openWritableIndex(location: Location, cwd: string): Promise<WritableIndex> {
  if (location.postgres) {
    const repository = await postgresRepository(location);
    const store = await openPostgresStore(location.postgres, repository);
    return { store, shown: describeIndex(location, cwd, repository), repository, close: () => store.close() };
  }
  const store = await createSqliteStore({ path: location.dbPath });
  ignoreIndexDirectory(location.root, location.dbPath);
  return { store, shown: describeIndex(location, cwd), repository: null, close: () => store.close() };
}

/** The `knowing index` command line that would create the missing index. */
function indexCommandFor(ctx: CommandContext, location: Location): string {
  const parts = ['knowing index'];
  const rootShown = displayPath(location.root, ctx.cwd);
  if (rootShown !== '.') parts.push(/\s/.test(rootShown) ? JSON.stringify(rootShown) : rootShown);
  if (ctx.db !== undefined) parts.push(`--db ${ctx.db}`);
  const store = stringValue(ctx.values, 'store');
  if (store !== undefined) parts.push(`--store '${hidePassword(store)}'`);
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
  if (preliminary.postgres) return openPostgresIndex(ctx, preliminary);
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

/**
 * Open the repository's index in PostgreSQL for querying, read-only: the database is shared
 * (a CI job writes it with `knowing index --store`), so a query never writes a working tree's
 * state into it, and a database role that may only read is enough. A repository the database
 * holds no index of is "no index yet" (exit 3). The engine's answer cache is then kept in
 * memory only; the walk's adjacency and communities were stored by the index run.
 */
async function openPostgresIndex(ctx: CommandContext, location: Location): Promise<OpenIndex> {
  const target = location.postgres!;
  const repository = await postgresRepository(location);
  const noIndex = (): CliError =>
    new CliError(
      ExitCode.NoIndex,
      'NO_INDEX',
      `${target.shown} holds no index of repository ${repository}`,
      `run \`${indexCommandFor(ctx, location)}\` first${target.repository === undefined ? ', or name the repository the index was written under with ?repository=NAME' : ''}`,
    );
  let store: IndexStore;
  try {
    store = await openPostgresStore(target, repository, { readonly: true });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'NO_INDEX') throw noIndex();
    throw error;
  }
  try {
    const repoInfo = await store.repo();
    if (repoInfo === null || repoInfo.indexedAt === null) throw noIndex();
    // Named by ?repository= from outside its checkout: the repository is where it was indexed, when that is here.
    let root = location.root;
    if (ctx.repo === undefined && target.repository !== undefined && repoInfo.root && existsSync(repoInfo.root)) root = repoInfo.root;
    return { ...location, root, store, repoInfo, close: () => store.close() };
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
}
