import type { GraphStore } from '@knowing/graph';
import { CliError, ExitCode, usageError } from './errors.js';

// `--store URL` and the config's `store`: where an index lives when it is not a SQLite file.
// Parsing needs no package; opening loads @knowing/store-postgres (and pg) only then.

/** A PostgreSQL store named by a URL (`postgres://user@host:5432/db?repository=NAME`). */
export interface PostgresTarget {
  readonly kind: 'postgres';
  /** The URL as pg takes it: knowing's own parameters removed. */
  readonly connectionString: string;
  /** `?repository=NAME`: the repository's name in the database; undefined to derive it from the checkout. */
  readonly repository: string | undefined;
  /** The URL with its password hidden, for messages. */
  readonly shown: string;
}

/** The query parameter naming the repository; removed before the URL reaches pg. */
const REPOSITORY_PARAMETER = 'repository';
const SCHEMES = new Set(['postgres:', 'postgresql:']);

/** The URL with its password replaced by `***`. */
export function hidePassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/(:\/\/[^:/@]*:)[^@]*@/, '$1***@');
  }
}

/**
 * Parse `--store` (or the config's `store`, named by `source` in errors). Only PostgreSQL URLs
 * are stores of their own: a SQLite index is a file, named with `--db`.
 *
 * @example
 * ```ts
 * parseStoreUrl('postgres://knowing@db:5432/knowing?repository=shop', '--store');
 * // { kind: 'postgres', connectionString: 'postgres://knowing@db:5432/knowing', repository: 'shop', … }
 * ```
 */
export function parseStoreUrl(text: string, source: string): PostgresTarget {
  const value = text.trim();
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url === undefined || !SCHEMES.has(url.protocol)) {
    throw usageError(
      `${source} ${JSON.stringify(hidePassword(value))} is not a PostgreSQL URL`,
      'write postgres://user@host:5432/database (add ?repository=NAME to name the repository); a SQLite index is a file: use --db FILE',
    );
  }
  if (url.hostname === '' && !url.searchParams.has('host')) {
    throw usageError(`${source} ${JSON.stringify(hidePassword(value))} names no host`, 'write postgres://user@host:5432/database');
  }
  const repository = url.searchParams.get(REPOSITORY_PARAMETER) ?? undefined;
  if (repository !== undefined && repository.trim() === '') {
    throw usageError(`${source}: ?${REPOSITORY_PARAMETER}= is empty`, 'name the repository, e.g. ?repository=github.com/acme/shop, or leave the parameter out');
  }
  url.searchParams.delete(REPOSITORY_PARAMETER);
  const connectionString = url.toString();
  return { kind: 'postgres', connectionString, repository: repository?.trim(), shown: hidePassword(connectionString) };
}

/** The repository name a store URL uses: its `?repository=`, else `fallback` (the checkout's identity). */
export function repositoryName(target: PostgresTarget, fallback: string): string {
  return target.repository ?? fallback;
}

/**
 * The checkout's identity, as `knowing index` names repositories: the normalised git remote
 * (`github.com/acme/shop`), else the directory's name. Loads the indexer only for this.
 */
export async function checkoutIdentity(root: string): Promise<string> {
  const { detectRepoId } = await import('@knowing/indexer');
  return detectRepoId(root);
}

/** A store of the PostgreSQL database, with the extras the CLI shows. */
export type PostgresStore = GraphStore & { readonly schemaVersion: number; readonly readonly: boolean; readonly schema: string; readonly repository: string };

/**
 * Open the repository's store in the database. `readonly` opens without creating the schema
 * (a repository never indexed is NO_INDEX, exit 3).
 */
export async function openPostgresStore(target: PostgresTarget, repository: string, options: { readonly readonly?: boolean; readonly maxConnections?: number } = {}): Promise<PostgresStore> {
  let module: typeof import('@knowing/store-postgres');
  try {
    module = await import('@knowing/store-postgres');
  } catch (error) {
    throw new CliError(
      ExitCode.Failure,
      'STORE_UNAVAILABLE',
      `the PostgreSQL store package @knowing/store-postgres cannot be loaded (${(error as Error).message ?? String(error)})`,
      'reinstall knowing; in the knowing repository, build it with `pnpm --filter @knowing/store-postgres build`',
      { cause: error },
    );
  }
  return module.createPostgresStore({
    connectionString: target.connectionString,
    repository,
    ...(options.readonly ? { readonly: true } : {}),
    ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
  });
}
