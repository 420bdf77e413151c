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
  /** Close the connection, wait for a running index run, and close the store if the server opened it. */
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
