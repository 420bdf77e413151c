import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { HttpRepository, HttpServerOptions, HttpToken, KnowingHttpServer } from '@knowing/mcp';
import type { GraphStore } from '@knowing/graph';
import { booleanValue, positiveInteger, stringValue } from '../args.js';
import type { CommandContext } from '../command.js';
import { loadConfig } from '../config.js';
import { CliError, ExitCode, toFailure, usageError } from '../errors.js';
import { existingDirectory, refuseBroadRoot, resolveRepoRoot } from '../repo.js';
import { locate, openWritableIndex } from '../session.js';
import type { Location } from '../session.js';
import { checkoutIdentity, openPostgresStore } from '../store-url.js';
import { version } from '../run.js';
import { configuredServerOptions, importMcp } from './mcp.js';

/** The environment variable holding tokens when `--tokens` is not given. */
export const TOKENS_VARIABLE = 'KNOWING_TOKENS';
const MIN_TOKEN_CHARS = 16;

/** A repository to serve, before its store is opened. */
interface Planned {
  readonly name: string;
  /** The checkout, or null for a repository served from the store alone. */
  readonly root: string | null;
  readonly location: Location;
}

/** What was opened for one repository, closed at the end. */
interface Opened {
  readonly repository: HttpRepository;
  readonly store: GraphStore;
  readonly shown: string;
  /** The empty directory standing in for the checkout of a store-only repository. */
  readonly scratch: string | null;
}

/**
 * Tokens, one a line: `TOKEN [read|write] [# label]`. Blank lines and lines starting with `#`
 * are skipped. `source` names the file or variable in errors (tokens themselves are never shown).
 */
export function parseTokens(text: string, source: string, separator: RegExp = /\r?\n/): HttpToken[] {
  const tokens: HttpToken[] = [];
  for (const [i, raw] of text.split(separator).entries()) {
    const where = separator.source === '\\r?\\n' ? `${source} line ${i + 1}` : `${source} entry ${i + 1}`;
    const hash = raw.search(/(^|\s)#/);
    const comment = hash === -1 ? '' : raw.slice(hash).replace(/^\s*#\s*/, '').trim();
    const fields = (hash === -1 ? raw : raw.slice(0, hash)).trim().split(/\s+/).filter((field) => field !== '');
    if (fields.length === 0) continue;
    const [token, mode, ...rest] = fields as [string, ...string[]];
    if (rest.length > 0 || (mode !== undefined && mode !== 'write' && mode !== 'read')) {
      throw usageError(`${where}: expected TOKEN [read|write] [# label]`, 'one token a line; write allows reindex');
    }
    if (token.length < MIN_TOKEN_CHARS) throw usageError(`${where}: the token is shorter than ${MIN_TOKEN_CHARS} characters`, 'generate one with `openssl rand -hex 32`');
    if (tokens.some((t) => t.token === token)) throw usageError(`${where}: the token repeats an earlier one`, 'give each client its own token');
    tokens.push({ token, write: mode === 'write', label: comment || where });
  }
  return tokens;
}

/** `--tokens FILE`, else KNOWING_TOKENS (entries separated by newlines or commas); at least one. */
function readTokens(ctx: CommandContext): HttpToken[] {
  const file = stringValue(ctx.values, 'tokens');
  let tokens: HttpToken[];
  if (file !== undefined) {
    const path = resolve(ctx.cwd, file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new CliError(ExitCode.PathNotFound, 'PATH_NOT_FOUND', `--tokens ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, 'check the path and its permissions');
    }
    // Like ssh with a private key: a token file others can read is worth a warning.
    if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) ctx.out.warn(`${file} can be read by other users: chmod 600 ${file}`);
    tokens = parseTokens(text, file);
  } else {
    const value = ctx.env[TOKENS_VARIABLE];
    tokens = value === undefined ? [] : parseTokens(value, TOKENS_VARIABLE, /[\r\n,]+/);
  }
  if (tokens.length === 0) {
    throw usageError(
      'knowing serve needs at least one token: every request must carry one (Authorization: Bearer TOKEN)',
      `pass --tokens FILE (lines of "TOKEN [write] [# label]") or set ${TOKENS_VARIABLE}; make a token with \`openssl rand -hex 32\``,
    );
  }
  return tokens;
}

/** `--checkout [NAME=]PATH`: a directory given whole, else NAME=PATH split at the first `=`. */
function parseCheckout(value: string, cwd: string): { name: string | undefined; root: string } {
  const equals = value.indexOf('=');
  if (equals > 0 && !existsSync(resolve(cwd, value))) {
    return { name: value.slice(0, equals).trim(), root: existingDirectory(value.slice(equals + 1), cwd, 'checkout') };
  }
  return { name: undefined, root: existingDirectory(value, cwd, 'checkout') };
}

function multiValue(ctx: CommandContext, name: string): string[] {
  const value = ctx.values[name];
  if (value === undefined || typeof value === 'boolean') return [];
  return (Array.isArray(value) ? value : [value]).map((v) => v.trim()).filter((v) => v !== '');
}

/** The repositories named on the command line (or the one you are in), each with its store location. */
async function plan(ctx: CommandContext): Promise<Planned[]> {
  const checkouts = multiValue(ctx, 'checkout').map((value) => parseCheckout(value, ctx.cwd));
  const storeOnly = multiValue(ctx, 'repository');
  if (checkouts.length === 0 && storeOnly.length === 0) checkouts.push({ name: undefined, root: resolveRepoRoot(ctx.repo, ctx.cwd) });
  if (ctx.db !== undefined && checkouts.length + storeOnly.length > 1) {
    throw usageError('--db names one SQLite file, for one repository', 'serve several repositories from their own .knowing/graph.db, or from PostgreSQL with --store');
  }
  const planned: Planned[] = [];
  for (const checkout of checkouts) {
    refuseBroadRoot(checkout.root, false);
    const location = await locate(ctx, checkout.root);
    const name = checkout.name || location.postgres?.repository || (await checkoutIdentity(checkout.root));
    planned.push({ name, root: checkout.root, location });
  }
  if (storeOnly.length > 0) {
    const location = await locate(ctx, ctx.cwd);
    if (!location.postgres) {
      throw usageError('--repository serves a repository from a PostgreSQL store alone', 'add --store postgres://…, or serve a checkout with --checkout PATH');
    }
    for (const name of storeOnly) planned.push({ name, root: null, location });
  }
  const seen = new Set<string>();
  for (const { name } of planned) {
    if (seen.has(name)) throw usageError(`the repository name ${JSON.stringify(name)} is given twice`, 'name checkouts apart with --checkout NAME=PATH');
    seen.add(name);
  }
  return planned;
}

async function open(ctx: CommandContext, planned: Planned, log: (message: string) => void): Promise<Opened> {
  const { location } = planned;
  const refresh = booleanValue(ctx.values, 'refresh');
  if (planned.root === null) {
    // No checkout: the store alone, as another process (CI) keeps it. An empty directory stands
    // in for the checkout, so that no file of this machine is ever read into an answer.
    const store = await openPostgresStore(location.postgres!, planned.name);
    const scratch = mkdtempSync(join(tmpdir(), 'knowing-serve-'));
    const settings = await configuredServerOptions(location.loaded, store).catch(async (error: unknown) => {
      await store.close();
      throw error;
    });
    return {
      repository: { name: planned.name, server: { repoRoot: scratch, store, indexing: false, ...settings, log } },
      store,
      shown: `${location.postgres!.shown} (repository ${planned.name}, no checkout)`,
      scratch,
    };
  }
  // In PostgreSQL the repository is stored under the name it is served by.
  const index = await openWritableIndex(location.postgres ? { ...location, postgres: { ...location.postgres, repository: planned.name } } : location, ctx.cwd);
  try {
    const settings = await configuredServerOptions(location.loaded, index.store);
    // Where the store is, for the server's index runs: they open it again in a worker thread.
    const where: Pick<HttpRepository['server'], 'dbPath' | 'storeLocator'> = location.postgres
      ? { storeLocator: { kind: 'postgres', connectionString: location.postgres.connectionString, repository: index.repository ?? planned.name } }
      : { dbPath: location.dbPath, storeLocator: { kind: 'sqlite', path: location.dbPath } };
    return {
      repository: {
        name: planned.name,
        server: { repoRoot: planned.root, store: index.store, ...where, refresh, ...settings, log },
      },
      store: index.store,
      shown: index.shown,
      scratch: null,
    };
  } catch (error) {
    await index.close();
    throw error;
  }
}

function untilAborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolvePromise) => {
    if (!signal) return;
    if (signal.aborted) resolvePromise();
    else signal.addEventListener('abort', () => resolvePromise(), { once: true });
  });
}

export async function runServe(ctx: CommandContext): Promise<ExitCode> {
  const tokens = readTokens(ctx);
  const port = stringValue(ctx.values, 'port');
  const portNumber = port === undefined ? undefined : port.trim() === '0' ? 0 : positiveInteger(port, '--port');
  if (portNumber !== undefined && portNumber > 65_535) throw usageError(`--port must be at most 65535, got ${portNumber}`);
  const rate = stringValue(ctx.values, 'rate');
  const maxBody = positiveInteger(stringValue(ctx.values, 'max-body'), '--max-body');
  const burst = positiveInteger(stringValue(ctx.values, 'burst'), '--burst');
  const options: Omit<HttpServerOptions, 'repositories' | 'tokens'> = {
    ...(stringValue(ctx.values, 'host') !== undefined ? { host: stringValue(ctx.values, 'host')! } : {}),
    ...(portNumber !== undefined ? { port: portNumber } : {}),
    ...(maxBody !== undefined ? { maxBodyBytes: maxBody } : {}),
    ...(rate !== undefined ? { requestsPerMinute: rate.trim() === '0' ? 0 : positiveInteger(rate, '--rate')! } : {}),
    ...(burst !== undefined ? { burst } : {}),
    allowedOrigins: multiValue(ctx, 'allow-origin'),
  };
  const planned = await plan(ctx);
  const log = (message: string): void => {
    if (!ctx.out.quiet) ctx.io.stderr.write(`${message.startsWith('knowing') ? message : `knowing: ${message}`}\n`);
  };

  const { startHttpServer } = await importMcp();

  const opened: Opened[] = [];
  const cleanup = async (): Promise<void> => {
    for (const entry of opened) {
      await entry.store.close().catch((error: unknown) => log(`knowing: closing ${entry.repository.name} failed: ${toFailure(error).message}`));
      if (entry.scratch) rmSync(entry.scratch, { recursive: true, force: true });
    }
  };
  let server: KnowingHttpServer;
  try {
    for (const entry of planned) opened.push(await open(ctx, entry, log));
    server = await startHttpServer({
      ...options,
      repositories: opened.map((entry) => entry.repository),
      tokens,
      log,
      serverInfo: { name: 'knowing', version: version() },
    });
  } catch (error) {
    await cleanup();
    throw error;
  }

  const listing = opened.map((entry) => ({
    name: entry.repository.name,
    endpoint: server.endpoint(entry.repository.name),
    store: entry.shown,
    checkout: entry.scratch === null ? entry.repository.server.repoRoot : null,
  }));
  if (ctx.out.json) {
    ctx.io.stdout.write(`${JSON.stringify({ event: 'listening', url: server.url, port: server.port, tokens: tokens.length, repositories: listing })}\n`);
  } else {
    ctx.out.line(`knowing serve: ${listing.length === 1 ? '1 repository' : `${listing.length} repositories`} on ${server.url} (${tokens.length} ${tokens.length === 1 ? 'token' : 'tokens'}, ${tokens.filter((t) => t.write).length} may write)`);
    for (const entry of listing) ctx.out.line(`  ${entry.endpoint}  ${entry.store}${entry.checkout ? `, checkout ${entry.checkout}` : ''}`);
    ctx.out.note('health: GET /healthz; Ctrl-C (or SIGTERM) stops after the requests in flight');
  }

  await untilAborted(ctx.io.signal);
  ctx.out.note('stopping: finishing the requests in flight');
  try {
    await server.close();
  } finally {
    await cleanup();
  }
  if (ctx.out.json) ctx.io.stdout.write(`${JSON.stringify({ event: 'stopped' })}\n`);
  else ctx.out.note('stopped');
  return ExitCode.Ok;
}
