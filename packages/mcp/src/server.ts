import { randomUUID } from 'node:crypto';
import { stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ErrorCode, KnowingError } from '@knowing/graph';
import type { ContextPack, GraphStore, NodeId } from '@knowing/graph';
import { createEngine } from '@knowing/engine';
import { repositoryModel } from '@knowing/history/model';
import type { Engine } from '@knowing/engine';
import { createSqliteStore } from '@knowing/store-sqlite';
import { costFunctionFor, createGcfSession } from '@knowing/wire';
import { createExactTokenizer } from '@knowing/pack';
import type { Tokenizer } from '@knowing/pack';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Connection } from './connection.js';
import { registerContextTools } from './context-tools.js';
import { IndexKeeper, inThreadRunner } from './freshness.js';
import type { IndexRunner } from './freshness.js';
import { workerIndexRunner } from './index-thread.js';
import type { IndexFiles } from './git.js';
import { registerIndexTools } from './index-tools.js';
import { guardTransport } from './jsonrpc.js';
import { LruMap } from './lru.js';
import { PathGuard } from './paths.js';
import { FORMATS } from './schemas.js';
import { registerSymbolTools } from './symbol-tools.js';
import type { KnowingServer, KnowingServerOptions, McpFormat, McpIndexOptions, StoreLocator } from './types.js';
import { yieldingStore } from './yielding.js';
import { sourceReader } from './source.js';

/**
 * Defaults of {@link KnowingServerOptions}.
 *
 * @example
 * ```ts
 * createKnowingServer({ repoRoot: '.', packHistory: DEFAULT_SERVER_OPTIONS.packHistory * 2 });
 * ```
 */
export const DEFAULT_SERVER_OPTIONS = Object.freeze({
  /** Relative to the repository root. */
  dbPath: path.join('.knowing', 'graph.db'),
  defaultFormat: 'gcf' as McpFormat,
  packHistory: 16,
  refresh: true,
  indexing: true,
  indexWaitMs: 25_000,
  maxTaskChars: 20_000,
});

/** Where the index lives by default, relative to the repository root; never a change to the code. */
const INDEX_DIRECTORY = '.knowing';

/** The tools the server registers, in the order `tools/list` shows them. */
export const TOOL_NAMES = Object.freeze([
  'context_for_task',
  'context_for_files',
  'context_for_pr',
  'explain_symbol',
  'feedback',
  'index_status',
  'reindex',
] as const);

const INSTRUCTIONS = [
  'knowing indexes this repository into a symbol graph and picks the symbols worth reading for a task, within a token budget.',
  'Call context_for_task before exploring code for a task; context_for_files for files you are about to edit; context_for_pr to review changes.',
  'Answers are gcf by default: `@ID KIND QUALIFIED_NAME SCORE PROVENANCE` lines (a qualified name is `file/path.Class.member`), grouped by distance from the task, then `@TARGET<@SOURCE TYPE` edges; `@ID # sent before` refers to a symbol an earlier answer listed.',
  'Pass the pack_root of an answer you already hold to get only what changed. Tell the server which symbols helped with feedback.',
].join(' ');

/** This package's version, announced to clients. */
export function packageVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    return (require('../package.json') as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * Keep the default index directory out of git (and so out of `context_for_pr`'s untracked
 * files), the way tool caches such as `.pytest_cache` do. An existing file is left alone.
 */
async function ignoreIndexDirectory(directory: string): Promise<void> {
  await writeFile(path.join(directory, '.gitignore'), '# Created by knowing: the index is local to this checkout.\n*\n', { flag: 'wx' }).catch(() => undefined);
}

/**
 * What every connection to one repository shares: the store, the engine (its graph caches;
 * sessions are kept apart by session id), the index runs (one at a time) and the answer
 * tokenizer. `createKnowingServer` opens one for its single connection; the HTTP server
 * (`startHttpServer`) opens one per repository and a connection server per client session
 * over it (`connectionServer`).
 */
export interface RepositoryHost {
  readonly options: KnowingServerOptions;
  readonly guard: PathGuard;
  /** Real path of the repository root. */
  readonly root: string;
  readonly dbPath: string | null;
  /** The store as the server uses it (yielding between calls). */
  readonly store: GraphStore;
  readonly indexFiles: IndexFiles;
  readonly keeper: IndexKeeper;
  readonly engine: Engine;
  readonly answerTokenizer: Tokenizer;
  readonly readSource: (file: string) => string | undefined;
  readonly defaultFormat: McpFormat;
  readonly packHistory: number;
  readonly refresh: boolean;
  readonly indexing: boolean;
  readonly indexWaitMs: number;
  readonly maxTaskChars: number;
  readonly log: (message: string) => void;
  /** Stop the index runs (`IndexKeeper.close`), then close the store if the host opened it. */
  close(): Promise<void>;
}

/** The options a host runs with: checked, defaults filled in. */
type HostSettings = Pick<RepositoryHost, 'defaultFormat' | 'packHistory' | 'refresh' | 'indexing' | 'indexWaitMs' | 'maxTaskChars' | 'log'>;

async function hostSettings(options: KnowingServerOptions): Promise<HostSettings> {
  if (!options || typeof options.repoRoot !== 'string' || options.repoRoot === '') {
    throw new KnowingError(ErrorCode.InvalidArgument, 'createKnowingServer needs a repoRoot', { source: 'mcp', hint: 'pass { repoRoot: "/path/to/repo" }' });
  }
  const rootInfo = await stat(options.repoRoot).catch(() => undefined);
  if (!rootInfo?.isDirectory()) {
    throw new KnowingError(ErrorCode.PathNotFound, `${path.resolve(options.repoRoot)} does not exist or is not a directory`, {
      source: 'mcp',
      hint: 'pass the root of the repository the server should answer about',
    });
  }
  const defaultFormat = options.defaultFormat ?? DEFAULT_SERVER_OPTIONS.defaultFormat;
  if (!(FORMATS as readonly string[]).includes(defaultFormat)) {
    throw new KnowingError(ErrorCode.InvalidArgument, `unknown defaultFormat ${JSON.stringify(defaultFormat)}`, { source: 'mcp', hint: `use one of ${FORMATS.join(', ')}` });
  }
  const packHistory = options.packHistory ?? DEFAULT_SERVER_OPTIONS.packHistory;
  if (!Number.isInteger(packHistory) || packHistory < 1) {
    throw new KnowingError(ErrorCode.InvalidArgument, `packHistory must be a whole number ≥ 1, got ${packHistory}`, { source: 'mcp' });
  }
  const indexing = options.indexing ?? DEFAULT_SERVER_OPTIONS.indexing;
  // Without indexing there is nothing to refresh with.
  const refresh = indexing && (options.refresh ?? DEFAULT_SERVER_OPTIONS.refresh);
  const indexWaitMs = options.indexWaitMs ?? DEFAULT_SERVER_OPTIONS.indexWaitMs;
  const maxTaskChars = options.maxTaskChars ?? DEFAULT_SERVER_OPTIONS.maxTaskChars;
  if (!Number.isInteger(maxTaskChars) || maxTaskChars < 1) {
    throw new KnowingError(ErrorCode.InvalidArgument, `maxTaskChars must be a whole number ≥ 1, got ${maxTaskChars}`, { source: 'mcp' });
  }
  return { defaultFormat, packHistory, refresh, indexing, indexWaitMs, maxTaskChars, log: options.log ?? (() => {}) };
}

/**
 * Where the index worker opens the store: the locator given with a store, or the file the host
 * opened; none for a store given alone or an in-memory database (runs stay in this thread).
 */
function storeLocatorOf(options: KnowingServerOptions, root: string, opened: string | null): StoreLocator | undefined {
  const given = options.storeLocator;
  if (given === undefined) return options.store || opened === null || opened === ':memory:' ? undefined : { kind: 'sqlite', path: opened };
  const refuse = (message: string, hint: string): never => {
    throw new KnowingError(ErrorCode.InvalidArgument, message, { source: 'mcp', hint });
  };
  if (!options.store) refuse('storeLocator says where a store passed as `store` lives, and no store was passed', 'pass the store too, or leave storeLocator out: a server that opens dbPath knows where it is');
  if (given.kind === 'sqlite') {
    if (typeof given.path !== 'string' || given.path === '' || given.path === ':memory:') {
      refuse(`storeLocator.path must name the SQLite file of the store, got ${JSON.stringify(given.path)}`, 'an in-memory database cannot be opened twice: leave storeLocator out to index in the server\'s thread');
    }
    return { kind: 'sqlite', path: path.resolve(root, given.path) };
  }
  if (given.kind === 'postgres') {
    if (typeof given.connectionString !== 'string' || given.connectionString === '') refuse('storeLocator.connectionString must be a PostgreSQL URL', 'postgres://user@host:5432/database');
    return given;
  }
  return refuse(`unknown storeLocator kind ${JSON.stringify((given as { kind?: unknown }).kind)}`, "use { kind: 'sqlite', path } or { kind: 'postgres', connectionString, repository }");
}

/** In a worker when the store can be opened there too, else in this thread. */
function indexRunner(root: string, store: GraphStore, indexOptions: McpIndexOptions, locator: StoreLocator | undefined, log: (message: string) => void): IndexRunner {
  const inThread = inThreadRunner(root, store, indexOptions);
  return locator ? workerIndexRunner({ root, locator, indexOptions, log, inThread }) : inThread;
}

/** Check the options and open what every connection to the repository shares. */
export async function openRepositoryHost(options: KnowingServerOptions): Promise<RepositoryHost> {
  const settings = await hostSettings(options);
  const { log } = settings;

  const guard = await PathGuard.create(options.repoRoot);
  const root = guard.realRoot;
  const requestedDb = options.dbPath ?? DEFAULT_SERVER_OPTIONS.dbPath;
  // With a store passed in, a dbPath is only reported (index_status), never opened.
  const dbPath = options.store && options.dbPath === undefined ? null : requestedDb === ':memory:' ? requestedDb : path.resolve(root, requestedDb);
  const locator = settings.indexing ? storeLocatorOf(options, root, options.store ? null : dbPath) : undefined;
  const ownStore: GraphStore = options.store ?? (await createSqliteStore({ path: dbPath! }));
  const ownsStore = !options.store;
  if (ownsStore && options.dbPath === undefined) await ignoreIndexDirectory(path.dirname(dbPath!));
  // Everything the server runs goes through a store that lets other requests in between calls.
  const store = yieldingStore(ownStore);
  /** The index's own files, left out of the working-tree changes (context_for_pr). */
  const indexFiles: IndexFiles = {
    directories: [INDEX_DIRECTORY],
    databases: dbPath && dbPath !== ':memory:' ? [guard.relativeInside(dbPath)].filter((file): file is string => file !== undefined) : [],
  };

  let keeper: IndexKeeper;
  let engine: Engine;
  let answerTokenizer: Tokenizer;
  try {
    const indexOptions = options.indexOptions ?? {};
    keeper = new IndexKeeper(root, store, indexOptions, log, indexRunner(root, store, indexOptions, locator, log));
    const tokenizer = options.engine?.tokenizer;
    // A ranker passed in wins; else the repository's own model (`knowing train`), when usable.
    const learnedModel =
      options.engine?.ranker || options.engine?.learnedModel || options.engineOptions?.rankingModel === 'formula' ? undefined : repositoryModel(root, { warn: log });
    engine = createEngine({
      ...options.engine,
      ...(learnedModel ? { learnedModel } : {}),
      store,
      ...(options.engineOptions ? { options: options.engineOptions } : {}),
      // Budgets count the chosen format's real cost per symbol: its full line. Not the cheaper
      // `@ID # sent before` reference of a symbol sent earlier — that would make the selection
      // depend on what this connection happened to receive before, so asking the same task
      // again would pick a different pack and `pack_root` could never answer "unchanged".
      symbolCost: (format) => costFunctionFor(format, tokenizer),
    });
    // Answers hold their budget in real tokens: the whole printed text, counted with cl100k_base
    // (or the tokenizer the embedder passed in).
    answerTokenizer = options.engine?.tokenizer ?? (await createExactTokenizer());
  } catch (error) {
    if (ownsStore) await ownStore.close();
    throw error;
  }

  let closed = false;
  return {
    options,
    guard,
    root,
    dbPath,
    store,
    indexFiles,
    keeper,
    engine,
    answerTokenizer,
    readSource: sourceReader(root),
    ...settings,
    async close() {
      if (closed) return;
      closed = true;
      // The worker's connection goes first: the last one to close removes SQLite's -wal file.
      await keeper.close();
      if (ownsStore) await ownStore.close();
    },
  };
}

/**
 * Create the knowing MCP server for one repository: seven tools over the engine, an index
 * kept current with the working tree, one session per connection.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * import { createKnowingServer } from '@knowing/mcp';
 *
 * const server = await createKnowingServer({ repoRoot: '/src/flask' });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export async function createKnowingServer(options: KnowingServerOptions): Promise<KnowingServer> {
  const host = await openRepositoryHost(options);
  return connectionServer(host, options, { ownsHost: true });
}

/**
 * One connection's server over a repository host: its own MCP server, session id, gcf session
 * and pack history. `close()` closes the host too only when `ownsHost`.
 */
export function connectionServer(
  host: RepositoryHost,
  connection: Pick<KnowingServerOptions, 'sessionId' | 'serverInfo'>,
  { ownsHost }: { readonly ownsHost: boolean },
): KnowingServer {
  const { root, dbPath, log } = host;
  const sessionId = connection.sessionId ?? randomUUID();
  const mcp = new McpServer(connection.serverInfo ?? { name: 'knowing', version: packageVersion() }, { instructions: INSTRUCTIONS });
  const connectionState: Connection = {
    host,
    sessionId,
    mcp,
    gcfSession: createGcfSession(),
    packs: new LruMap<string, ContextPack>(host.packHistory),
    sent: new Set<NodeId>(),
  };
  // In the order TOOL_NAMES lists them: `tools/list` shows them as registered.
  registerContextTools(connectionState);
  registerSymbolTools(connectionState);
  registerIndexTools(connectionState);

  let closed = false;
  return {
    mcp,
    repoRoot: root,
    dbPath,
    sessionId,
    // Malformed messages are answered with JSON-RPC errors before the SDK sees them (jsonrpc.ts).
    connect: (transport: Transport) => mcp.connect(guardTransport(transport, log)),
    async close() {
      if (closed) return;
      closed = true;
      await mcp.close().catch(() => undefined);
      if (ownsHost) await host.close();
    },
  };
}
