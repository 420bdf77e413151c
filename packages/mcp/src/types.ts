import type { GraphStore } from '@knowing/graph';
import type { CreateEngineOptions, EngineOptionsInput } from '@knowing/engine';
import type { IndexOptions } from '@knowing/indexer';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Readable, Writable } from 'node:stream';

/** Output formats the context tools accept. `gcb` is binary and comes back base64-encoded. */
export type McpFormat = 'gcf' | 'xml' | 'markdown' | 'json' | 'gcb';

/** Indexer settings the server passes through (root, store and progress are its own). */
export type McpIndexOptions = Omit<IndexOptions, 'root' | 'store' | 'onProgress' | 'signal' | 'full'>;

/**
 * Where a store lives, for the server's index worker to open a connection of its own
 * ({@link KnowingServerOptions.storeLocator}): a SQLite file (in WAL mode, so the server's own
 * connection reads the previous graph until the worker's write commits), or a PostgreSQL
 * database as `createPostgresStore` of `@knowing/store-postgres` (then an installed peer
 * dependency) takes it.
 *
 * @example
 * ```ts
 * const sqlite: StoreLocator = { kind: 'sqlite', path: '/src/shop/.knowing/graph.db' };
 * const postgres: StoreLocator = { kind: 'postgres', connectionString: 'postgres://knowing@db:5432/knowing', repository: 'shop' };
 * ```
 */
export type StoreLocator =
  | { readonly kind: 'sqlite'; readonly path: string }
  | {
      readonly kind: 'postgres';
      /** A libpq-style URL (`postgres://user:password@host:5432/database`). */
      readonly connectionString: string;
      /** The repository's name in the database. @default 'default' (as `createPostgresStore`) */
      readonly repository?: string;
    };

/** Engine settings the server passes through (the store and the format costs are its own). */
export type McpEngineExtras = Omit<CreateEngineOptions, 'store' | 'symbolCost' | 'options'>;

/**
 * Options of {@link createKnowingServer}. Defaults are in `DEFAULT_SERVER_OPTIONS`.
 *
 * @example
 * ```ts
 * const options: KnowingServerOptions = { repoRoot: '/src/flask', defaultFormat: 'gcf' };
 * ```
 */
export interface KnowingServerOptions {
  /** The repository the server answers about. Tool paths must lie inside it. */
  readonly repoRoot: string;
  /**
   * SQLite database of the index (relative paths are resolved against the root; `:memory:`
   * keeps it in memory). Ignored when `store` is given.
   * @default `<repoRoot>/.knowing/graph.db`
   */
  readonly dbPath?: string;
  /** Use this store instead of opening `dbPath` (then only shown by `index_status`); `close()` leaves it open. */
  readonly store?: GraphStore;
  /**
   * Where the `store` passed in lives, so that index runs (the first index, the refresh before
   * an answer, `reindex`) run in a worker thread over a connection of their own while this
   * thread goes on answering. It must name the database `store` reads: the run's write is one
   * transaction, and the server sees the new graph once it commits. A server that opens
   * `dbPath` itself knows where its store is and needs no locator.
   *
   * Without one — a server handed only a store object (a memory store, a wrapped store), or one
   * on `dbPath: ':memory:'` — runs stay in the server's thread: discovery and parsing let other
   * requests in, but resolution and the write hold the thread, about 1–2 s for a full index of
   * a few hundred files. They stay there too when the worker cannot start (the log says why).
   * @default none with `store`; `{ kind: 'sqlite', path: dbPath }` when the server opens `dbPath`
   */
  readonly storeLocator?: StoreLocator;
  /** Engine tunables (budgets, channels, walk, …); the engine's defaults otherwise. */
  readonly engineOptions?: EngineOptionsInput;
  /** A custom ranker, equivalence classes, tokenizer or vector channel for the engine. */
  readonly engine?: McpEngineExtras;
  /** Indexer settings (languages, workers, repoId, …). */
  readonly indexOptions?: McpIndexOptions;
  /** Format of context answers when a call names none. @default 'gcf' */
  readonly defaultFormat?: McpFormat;
  /**
   * Packs remembered (by pack root) so a later `pack_root` argument can be answered with a
   * delta. Least recently used packs are forgotten first. @default 16
   */
  readonly packHistory?: number;
  /** Re-index changed files before each answer, so an edit shows in the next answer. @default true */
  readonly refresh?: boolean;
  /**
   * Whether the server runs the indexer at all (first index, refresh, `reindex`). `false` for a
   * server that answers from a store another process keeps current (`knowing index --store …`
   * in CI) and has no checkout of its own: answers come from the store as it is, `reindex` is
   * refused, `index_status` lists no stale files, and a repository not indexed yet says so.
   * @default true
   */
  readonly indexing?: boolean;
  /**
   * How long a tool call waits for an index run before answering without it: with no index
   * yet, the answer says indexing is under way; otherwise it comes from the previous index,
   * with a note. The run continues either way. @default 25000
   */
  readonly indexWaitMs?: number;
  /**
   * Longest `task_description` (context_for_task, explain_symbol) a call may pass, in
   * characters (UTF-16 code units) after trimming; a longer one is refused with -32602 naming
   * the argument and this limit. 20,000 characters is about 5,000 tokens: an issue with its
   * stack trace fits. Reading the task (keyword extraction, stack frames) and the index
   * queries it drives grow with the text — on knowing's own sources (229 files) an answer to a
   * 20,000-character task takes about 0.3 s, to a 1.9 MB one about 15 s — while the search
   * uses a few dozen of its terms. @default 20000
   */
  readonly maxTaskChars?: number;
  /** Session id for the engine's session boosts and implicit feedback. @default a random UUID */
  readonly sessionId?: string;
  /** Where diagnostics go (never stdout: that is the protocol channel). @default discard */
  readonly log?: (message: string) => void;
  /** Server name and version announced to clients. @default { name: 'knowing', version: package version } */
  readonly serverInfo?: { readonly name: string; readonly version: string };
}

/**
 * A knowing MCP server: the SDK's `McpServer` with the knowing tools registered, plus the
 * resources it owns (the store, the engine, the index runs).
 *
 * @example
 * ```ts
 * const server = await createKnowingServer({ repoRoot: process.cwd() });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export interface KnowingServer {
  /** The SDK server, for registering more tools or sending notifications. */
  readonly mcp: McpServer;
  /** Real path of the repository root. */
  readonly repoRoot: string;
  /** Database path, or null when a store was passed in without one. */
  readonly dbPath: string | null;
  /** The session id this server's connection uses for boosts and feedback. */
  readonly sessionId: string;
  /** Attach to a transport (one connection per server). */
  connect(transport: Transport): Promise<void>;
  /**
   * Close the connection, stop the index runs — one in the index worker is abandoned (the store
   * keeps its graph, or gets the new one when the write had begun), one in this thread is
   * waited for — and close the store if the server opened it.
   */
  close(): Promise<void>;
}

/**
 * Options of {@link runStdioServer}: the server's options plus the process streams.
 *
 * @example
 * ```ts
 * await runStdioServer({ repoRoot: process.cwd(), log: (m) => process.stderr.write(`${m}\n`) });
 * ```
 */
export interface StdioServerOptions extends KnowingServerOptions {
  /** @default process.stdin */
  readonly stdin?: Readable;
  /** @default process.stdout */
  readonly stdout?: Writable;
  /**
   * Longest message (one line of stdin) read, in bytes. A longer line is skipped — its bytes
   * are not kept — and answered with a -32600 error; the connection goes on. @default 10485760 (10 MiB, the MCP SDK's limit)
   */
  readonly maxMessageBytes?: number;
}

/**
 * One repository of an HTTP server ({@link HttpServerOptions}): the name clients use and the
 * server options for it.
 *
 * @example
 * ```ts
 * const shop: HttpRepository = { name: 'github.com/acme/shop', server: { repoRoot: '/srv/shop', refresh: false } };
 * ```
 */
export interface HttpRepository {
  /**
   * The name in the URL: the repository answers at `/mcp/<name>`. Letters, digits, `._~-`,
   * and `/` between parts (`shop`, `github.com/acme/shop`).
   */
  readonly name: string;
  /**
   * As for `createKnowingServer`: the checkout (`repoRoot`), the store (`store`, or the SQLite
   * file `dbPath`), engine and index settings. `sessionId` and `serverInfo` are per client
   * session and set by the HTTP server; `log` defaults to the HTTP server's.
   */
  readonly server: Omit<KnowingServerOptions, 'sessionId' | 'serverInfo'>;
}

/**
 * A bearer token clients of the HTTP server send (`Authorization: Bearer <token>`).
 *
 * @example
 * ```ts
 * const ci: HttpToken = { token: 'c0ffee…', label: 'ci', write: true };
 * ```
 */
export interface HttpToken {
  /** At least 16 characters, no spaces (`openssl rand -hex 32`). */
  readonly token: string;
  /** May call `reindex`; every token may call the other tools. @default false */
  readonly write?: boolean;
  /** Names the token in logs and errors, instead of the token itself. @default `token <n>` (1-based) */
  readonly label?: string;
}

/**
 * Options of {@link startHttpServer}. Defaults are in `DEFAULT_HTTP_OPTIONS`.
 *
 * @example
 * ```ts
 * const options: HttpServerOptions = {
 *   repositories: [{ name: 'shop', server: { repoRoot: '/srv/shop' } }],
 *   tokens: [{ token: readFileSync('/etc/knowing/token', 'utf8').trim() }],
 *   host: '0.0.0.0',
 * };
 * ```
 */
export interface HttpServerOptions {
  readonly repositories: readonly HttpRepository[];
  /** Who may call: every MCP request must carry one of these. */
  readonly tokens: readonly HttpToken[];
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** 0 picks a free port (`KnowingHttpServer.port` says which). @default 7420 */
  readonly port?: number;
  /** Longest request body; a longer one is answered 413. @default 1048576 (1 MiB) */
  readonly maxBodyBytes?: number;
  /** Requests a token may make per minute (0: no limit); beyond, 429 with `Retry-After`. @default 600 */
  readonly requestsPerMinute?: number;
  /** Requests a token may make at once before the per-minute rate applies. @default 60 */
  readonly burst?: number;
  /** A session without requests for this long is closed. @default 1800000 (30 minutes) */
  readonly sessionIdleMs?: number;
  /** Sessions open at once; a new one beyond is answered 503. @default 1000 */
  readonly maxSessions?: number;
  /** How long `close()` waits for requests in flight. @default 10000 */
  readonly shutdownTimeoutMs?: number;
  /**
   * Browser origins allowed to call (the `Origin` header); a request from any other origin is
   * refused with 403, against DNS rebinding. Clients outside browsers send no `Origin`.
   * @default []
   */
  readonly allowedOrigins?: readonly string[];
  /** Diagnostics (sessions opened and closed, failures); never a token. @default discard */
  readonly log?: (message: string) => void;
  /** Server name and version announced to clients and shown by `/healthz`. @default { name: 'knowing', version: package version } */
  readonly serverInfo?: { readonly name: string; readonly version: string };
}

/**
 * A running HTTP server ({@link startHttpServer}).
 *
 * @example
 * ```ts
 * const server = await startHttpServer(options);
 * console.error(`serving ${server.endpoint('shop')}`);
 * await server.close();
 * ```
 */
export interface KnowingHttpServer {
  /** `http://host:port`, the address it listens on. */
  readonly url: string;
  readonly port: number;
  /** Names of the repositories served, in the order given. */
  readonly repositories: readonly string[];
  /** The MCP endpoint of a repository: `<url>/mcp/<name>`. */
  endpoint(name: string): string;
  /** Stop accepting, let requests in flight finish, close the sessions and the stores opened. */
  close(): Promise<void>;
}
