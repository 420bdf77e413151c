import { randomUUID } from 'node:crypto';
import { stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ErrorCode, isKnowingError, KnowingError } from '@knowing/graph';
import type { ContextPack, GraphNode, GraphStore, NodeId } from '@knowing/graph';
import { createEngine } from '@knowing/engine';
import { repositoryModel } from '@knowing/history/model';
import type { ContextResult, Engine } from '@knowing/engine';
import type { IndexProgress } from '@knowing/indexer';
import { createSqliteStore } from '@knowing/store-sqlite';
import { costFunctionFor, createGcfSession, fitPack, formatPack } from '@knowing/wire';
import { createExactTokenizer } from '@knowing/pack';
import type { Tokenizer } from '@knowing/pack';
import type { GcfSession } from '@knowing/wire';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, ServerNotification, ServerRequest, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { invalidArgument, notFound } from './errors.js';
import { IndexKeeper, staleCount } from './freshness.js';
import type { Freshness, StaleReport } from './freshness.js';
import { changedFiles } from './git.js';
import type { IndexFiles } from './git.js';
import { guardTransport } from './jsonrpc.js';
import { LruMap } from './lru.js';
import { PathGuard } from './paths.js';
import { pendingText, renderExplanation, renderSummary, runNote } from './render.js';
import {
  FORMATS,
  contextForFilesInput,
  contextForPrInput,
  contextForTaskInput,
  explainSymbolInput,
  feedbackInput,
  indexStatusInput,
  indexStatusOutput,
  reindexInput,
} from './schemas.js';
import type { IndexStatus } from './schemas.js';
import type { KnowingServer, KnowingServerOptions, McpFormat } from './types.js';
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

/**
 * The MCP tool annotations. The read tools change nothing outside the server: the index they
 * bring up to date is a cache of the working tree. Only `feedback` (it re-weights later
 * answers) and `reindex` are marked as writing; neither destroys anything. A call is marked
 * idempotent when repeating it gives the same answer — not `context_for_task`, whose repeat is
 * ranked with session boosts from its own earlier answer, nor `feedback`, which counts again.
 */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;
const ANNOTATIONS = {
  context_for_task: { ...READ_ONLY, idempotentHint: false },
  context_for_files: { ...READ_ONLY, idempotentHint: true },
  context_for_pr: { ...READ_ONLY, idempotentHint: true },
  explain_symbol: { ...READ_ONLY, idempotentHint: true },
  feedback: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  index_status: { ...READ_ONLY, idempotentHint: true },
  reindex: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies Record<(typeof TOOL_NAMES)[number], ToolAnnotations>;

const MAX_STALE_LISTED = 50;
/** The stale report of a server that does not index (it has no working tree to compare). */
const NO_STALE = Object.freeze({ discovered: 0, changed: [] as string[], added: [] as string[], deleted: [] as string[], touched: 0, checkMs: 0 });
const NOT_INDEXED_TEXT =
  'This repository is not indexed yet, and this server does not index it: run `knowing index --store …` where it is checked out (a CI job on push), then ask again.\n';
/** Context answers carry code unless the agent asks for names only (`include_code: false`). */
const DEFAULT_INCLUDE_CODE = true;
const MAX_OBSERVED_FILES = 200;
const PROGRESS_INTERVAL_MS = 250;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

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

const textResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });

function errorResult(error: unknown, tool: string, log: (message: string) => void): CallToolResult {
  if (isKnowingError(error)) return { content: [{ type: 'text', text: `${error.message} (${error.code})` }], isError: true };
  log(`knowing: ${tool} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const message = error instanceof Error ? error.message : String(error);
  return { content: [{ type: 'text', text: `[knowing:mcp] ${tool} failed: ${message} (${ErrorCode.Internal})` }], isError: true };
}

/** Sends MCP progress notifications for index runs when the client asked for them (a progressToken). */
function progressSender(extra: Extra): ((event: IndexProgress) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let count = 0;
  let last = 0;
  return (event) => {
    const now = Date.now();
    if (now - last < PROGRESS_INTERVAL_MS && event.phase !== 'done') return;
    last = now;
    count += 1;
    const message = event.total > 0 ? `indexing: ${event.phase} ${event.done}/${event.total}` : `indexing: ${event.phase}`;
    // Progress must grow with every notification; the phases restart their counts, so send a running count.
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: count, message } }).catch(() => undefined);
  };
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
  /** Wait for a running index run, then close the store if the host opened it. */
  close(): Promise<void>;
}

/** Check the options and open what every connection to the repository shares. */
export async function openRepositoryHost(options: KnowingServerOptions): Promise<RepositoryHost> {
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
  const log = options.log ?? (() => {});

  const guard = await PathGuard.create(options.repoRoot);
  const root = guard.realRoot;
  const requestedDb = options.dbPath ?? DEFAULT_SERVER_OPTIONS.dbPath;
  // With a store passed in, a dbPath is only reported (index_status), never opened.
  const dbPath = options.store && options.dbPath === undefined ? null : requestedDb === ':memory:' ? requestedDb : path.resolve(root, requestedDb);
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
    keeper = new IndexKeeper(root, store, options.indexOptions ?? {}, log);
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
    defaultFormat,
    packHistory,
    refresh,
    indexing,
    indexWaitMs,
    maxTaskChars,
    log,
    async close() {
      if (closed) return;
      closed = true;
      await keeper.idle();
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
  const { guard, root, dbPath, store, indexFiles, keeper, engine, answerTokenizer, readSource, defaultFormat, packHistory, refresh, indexing, indexWaitMs, maxTaskChars, log } = host;
  const sessionId = connection.sessionId ?? randomUUID();
  const gcfSession: GcfSession = createGcfSession();

  /** Recent packs by root, for deltas. Bounded: an agent session can run for hours. */
  const packs = new LruMap<string, ContextPack>(packHistory);
  /** Symbols this connection has been sent, to pick the right one when feedback names an ambiguous name. */
  const sent = new Set<NodeId>();

  const mcp = new McpServer(connection.serverInfo ?? { name: 'knowing', version: packageVersion() }, { instructions: INSTRUCTIONS });

  // ------------------------------------------------------------------ helpers

  /** Bring the index up to date; a result to return instead of answering when there is no index yet. */
  async function freshen(extra: Extra, withRefresh = refresh): Promise<{ notes: string[]; pending?: CallToolResult }> {
    // Without indexing, the store is answered from as it is; another process keeps it.
    if (!indexing) return (await keeper.indexed()) ? { notes: [] } : { notes: [], pending: textResult(NOT_INDEXED_TEXT) };
    const onProgress = progressSender(extra);
    const freshness: Freshness = await keeper.ensureFresh(withRefresh, { waitMs: indexWaitMs, ...(onProgress ? { onProgress } : {}) });
    if (freshness.ready) return { notes: freshness.run ? [runNote(freshness.run)] : [] };
    if (!freshness.indexed) return { notes: [], pending: textResult(pendingText(freshness)) };
    return { notes: [pendingText(freshness)] };
  }

  function unchangedLine(format: McpFormat, tool: string, pack: ContextPack): string {
    if (format === 'gcf') return formatPack(pack, { format: 'gcf', tool, previous: pack });
    if (format === 'json') return `${JSON.stringify({ tool, unchanged: true, pack_root: pack.packRoot, symbols: pack.symbols.length })}\n`;
    return `unchanged: pack_root ${pack.packRoot} (${pack.symbols.length} symbols) is the pack you already have.\n`;
  }

  /**
   * Render a context answer within its budget — unchanged, delta or full — and remember the
   * pack as printed (its root is what an agent passes back as pack_root).
   */
  function answer(
    tool: string,
    result: ContextResult,
    args: { format?: McpFormat | undefined; pack_root?: string | undefined; include_code?: boolean | undefined },
    task: string,
    notes: string[],
  ): CallToolResult {
    const format = args.format ?? defaultFormat;
    const content: CallToolResult['content'] = [];
    const given = args.pack_root;
    const previous = given ? packs.get(given) : undefined;
    const fitted = fitPack(result.pack, {
      format,
      budget: result.pack.tokenBudget,
      tokenizer: answerTokenizer,
      tool,
      task,
      ...(format === 'gcf' ? { session: gcfSession } : {}),
      ...(previous ? { previous } : {}),
      ...((args.include_code ?? DEFAULT_INCLUDE_CODE) ? { source: readSource } : {}),
    });
    const pack = fitted.pack;
    if (given && pack.packRoot !== '' && given === pack.packRoot) {
      content.push({ type: 'text', text: unchangedLine(format, tool, pack) });
    } else {
      if (given && !previous) notes.push(`note: pack_root ${given.slice(0, 12)}… is not among the last ${packHistory} packs this server sent, so this is the full pack.`);
      if (format === 'gcb') {
        const bytes = fitted.output as Uint8Array;
        content.push({
          type: 'resource',
          resource: { uri: `knowing://pack/${pack.packRoot || 'empty'}.gcb`, mimeType: 'application/x-gcb', blob: Buffer.from(bytes).toString('base64') },
        });
        content.push({ type: 'text', text: `gcb pack: ${bytes.length} bytes (base64 in the resource above), ${pack.symbols.length} symbols, pack_root=${pack.packRoot}\n` });
      } else {
        content.push({ type: 'text', text: fitted.output as string });
      }
    }
    if (pack.packRoot !== '') packs.set(pack.packRoot, pack);
    for (const symbol of pack.symbols) sent.add(symbol.node.id);
    if (notes.length > 0) content.push({ type: 'text', text: `${notes.join('\n')}\n` });
    return { content };
  }

  /** Check path arguments; repo-relative paths with links resolved. */
  async function guarded(paths: readonly string[], label: string): Promise<string[]> {
    const relatives: string[] = [];
    for (const [i, file] of paths.entries()) relatives.push((await guard.check(file, `${label}[${i}]`)).relative);
    return relatives;
  }

  /** Expand directories to the indexed files under them, and split off files the index does not know. */
  /**
   * Files the agent asks about or changed are files it works on: their symbols, if an earlier
   * answer returned them, count as used for implicit feedback (an MCP server sees no other
   * sign of use than the tool calls themselves).
   */
  async function observeFiles(files: readonly string[]): Promise<void> {
    const names = new Set<string>();
    for (const file of files.slice(0, MAX_OBSERVED_FILES)) for (const node of await store.nodesInFile(file)) if (node.kind !== 'file') names.add(node.name);
    if (names.size > 0) engine.observe(sessionId, [...names].join('\n'));
  }

  async function splitIndexed(relatives: readonly string[]): Promise<{ files: string[]; unknown: string[] }> {
    const files = new Set<string>();
    const unknown: string[] = [];
    let listed: string[] | undefined;
    for (const relative of relatives) {
      if (await store.getFile(relative)) {
        files.add(relative);
        continue;
      }
      listed ??= (await store.listFiles()).map((record) => record.path);
      const inside = listed.filter((file) => file.startsWith(`${relative}/`));
      if (inside.length > 0) for (const file of inside) files.add(file);
      else unknown.push(relative);
    }
    return { files: [...files], unknown };
  }

  function unknownFilesError(unknown: readonly string[]): KnowingError {
    return notFound(
      `none of the files is in the index: ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', …' : ''}`,
      'they may be of an unsupported language, ignored (.gitignore, .knowingignore), generated, or missing; index_status shows what is indexed',
    );
  }

  const unknownNote = (unknown: readonly string[]): string =>
    `note: not in the index (unsupported language, ignored, or missing): ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', …' : ''}`;

  /** Nodes a feedback reference names: an id, a qualified name, `Type.member`, or a plain name. */
  async function nodesNamed(reference: string): Promise<GraphNode[]> {
    const query = reference.trim();
    if (/^[0-9a-f]{32}$/.test(query)) {
      const node = await store.getNode(query);
      if (node) return [node];
    }
    const exact = (await store.findNodesByQualifiedName(query)).filter((n) => !n.external);
    if (exact.length > 0) return exact;
    const dotted = query.replace(/::|#/g, '.');
    const terminal = dotted.slice(dotted.lastIndexOf('.') + 1);
    if (terminal === '') return [];
    let nodes = (await store.findNodesByName(terminal, { match: 'exact', limit: 500 })).filter((n) => !n.external);
    if (nodes.length === 0) nodes = (await store.findNodesByName(terminal, { match: 'exact_ci', limit: 500 })).filter((n) => !n.external);
    if (dotted !== terminal) {
      const suffix = `.${dotted}`.toLowerCase();
      nodes = nodes.filter((n) => n.qualifiedName.replace(/::|#/g, '.').toLowerCase().endsWith(suffix));
    }
    return nodes;
  }

  async function status(): Promise<IndexStatus> {
    const indexed = await keeper.indexed();
    const [repo, snapshot, counts] = await Promise.all([store.repo(), store.currentSnapshot(), store.counts()]);
    const stale: StaleReport = indexing ? await keeper.stale() : NO_STALE;
    const running = keeper.running;
    return {
      repo_root: root,
      db_path: dbPath,
      indexed,
      repo_id: repo?.id ?? null,
      commit: repo?.commit ?? null,
      last_indexed: repo?.indexedAt ? new Date(repo.indexedAt).toISOString() : null,
      snapshot: snapshot?.id ?? null,
      files: counts.files,
      nodes: counts.nodes,
      edges: counts.edges,
      edges_by_type: { ...counts.edgesByType },
      nodes_by_kind: { ...counts.nodesByKind },
      stale_files: staleCount(stale),
      stale: {
        changed: stale.changed.slice(0, MAX_STALE_LISTED),
        added: stale.added.slice(0, MAX_STALE_LISTED),
        deleted: stale.deleted.slice(0, MAX_STALE_LISTED),
      },
      check_ms: stale.checkMs,
      indexing: running
        ? { kind: running.kind, phase: running.progress?.phase ?? null, done: running.progress?.done ?? 0, total: running.progress?.total ?? 0 }
        : null,
      session: sessionId,
    };
  }

  function statusText(s: IndexStatus): string {
    const lines = [
      `repository: ${s.repo_root}${s.repo_id ? ` (id ${s.repo_id}${s.commit ? `, commit ${s.commit.slice(0, 12)}` : ''})` : ''}`,
      `database: ${s.db_path ?? '(custom store)'}`,
      `indexed: ${s.indexed ? `yes, last at ${s.last_indexed ?? 'unknown'}` : 'no — the first context call (or reindex) builds the index'}`,
      `snapshot: ${s.snapshot ?? 'none'}`,
      `files: ${s.files}, nodes: ${s.nodes}, edges: ${s.edges}`,
      `edges by type: ${Object.entries(s.edges_by_type).sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${n}`).join(', ') || 'none'}`,
      `stale files: ${s.stale_files} (${s.stale.changed.length} changed, ${s.stale.added.length} new, ${s.stale.deleted.length} deleted${s.stale_files > 0 ? '; the next context call re-indexes them' : ''}; checked in ${s.check_ms} ms)`,
    ];
    for (const [label, files] of [['changed', s.stale.changed], ['new', s.stale.added], ['deleted', s.stale.deleted]] as const) {
      if (files.length > 0) lines.push(`  ${label}: ${files.slice(0, 10).join(', ')}${files.length > 10 ? ', …' : ''}`);
    }
    if (s.indexing) lines.push(`indexing now: ${s.indexing.kind} run, ${s.indexing.phase ?? 'starting'} ${s.indexing.done}/${s.indexing.total}`);
    lines.push(`session: ${s.session}`);
    return `${lines.join('\n')}\n`;
  }

  /** Register a tool whose failures become `isError` results that carry the error's code. */
  function tool<Schema extends z.ZodType<Record<string, unknown>>>(
    name: (typeof TOOL_NAMES)[number],
    config: {
      title: string;
      description: string;
      inputSchema: Schema;
      outputSchema?: typeof indexStatusOutput;
    },
    handler: (args: z.output<Schema>, extra: Extra) => Promise<CallToolResult>,
  ): void {
    const callback = async (args: z.output<Schema>, extra: Extra): Promise<CallToolResult> => {
      try {
        return await handler(args, extra);
      } catch (error) {
        return errorResult(error, name, log);
      }
    };
    // The SDK's callback type is a conditional over the schema that TypeScript cannot resolve
    // for a generic schema; `handler` is typed against the schema above.
    mcp.registerTool(name, { ...config, annotations: ANNOTATIONS[name] }, callback as never);
  }

  // ------------------------------------------------------------------ tools

  tool(
    'context_for_task',
    {
      title: 'Context for a task',
      description:
        'The symbols of this repository worth reading for a task, ranked, within a token budget. Call it before exploring code. Pass pack_root from an earlier answer to receive "unchanged" or a delta.',
      inputSchema: contextForTaskInput(maxTaskChars),
    },
    async (args, extra) => {
      engine.observe(sessionId, args.task_description);
      const { notes, pending } = await freshen(extra);
      if (pending) return pending;
      const format = args.format ?? defaultFormat;
      const result = await engine.forTask(args.task_description, {
        format,
        session: sessionId,
        ...(args.token_budget !== undefined ? { budget: args.token_budget } : {}),
      });
      return answer('context_for_task', result, args, args.task_description, notes);
    },
  );

  tool(
    'context_for_files',
    {
      title: 'Context for files',
      description:
        'The symbols defined in the given files (directories expand to their indexed files) and their direct callers, within a token budget. Use it for files you are about to edit.',
      inputSchema: contextForFilesInput,
    },
    async (args, extra) => {
      const relatives = await guarded(args.files, 'files');
      const { notes, pending } = await freshen(extra);
      if (pending) return pending;
      const { files, unknown } = await splitIndexed(relatives);
      if (files.length === 0) throw unknownFilesError(unknown);
      if (unknown.length > 0) notes.push(unknownNote(unknown));
      await observeFiles(files);
      const format = args.format ?? defaultFormat;
      const result = await engine.forFiles(files, {
        format,
        session: sessionId,
        ...(args.token_budget !== undefined ? { budget: args.token_budget } : {}),
      });
      return answer('context_for_files', result, args, `files: ${files.join(', ')}`, notes);
    },
  );

  tool(
    'context_for_pr',
    {
      title: 'Context for a change set',
      description:
        'The impact neighbourhood of changed files: their symbols and what the graph walk reaches from them, within a token budget (default 8000). Without files, uses the working tree changes (git diff HEAD plus untracked files).',
      inputSchema: contextForPrInput,
    },
    async (args, extra) => {
      const notes: string[] = [];
      let relatives: string[];
      if (args.files) {
        relatives = await guarded(args.files, 'files');
      } else {
        relatives = [];
        const changed = await changedFiles(root, indexFiles);
        for (const file of changed) {
          try {
            relatives.push((await guard.check(file, 'changed file')).relative);
          } catch (error) {
            if (!isKnowingError(error)) throw error;
            notes.push(`note: skipped ${file}: ${error.message}`);
          }
        }
        if (relatives.length === 0) {
          return textResult('No changed files: `git diff HEAD` is empty and there are no untracked files. Pass `files` to ask about specific files.\n');
        }
      }
      const fresh = await freshen(extra);
      if (fresh.pending) return fresh.pending;
      notes.unshift(...fresh.notes);
      const { files, unknown } = await splitIndexed(relatives);
      if (files.length === 0) throw unknownFilesError(unknown);
      if (unknown.length > 0) notes.push(unknownNote(unknown));
      await observeFiles(files);
      const format = args.format ?? defaultFormat;
      const result = await engine.forPR(files, {
        format,
        session: sessionId,
        ...(args.token_budget !== undefined ? { budget: args.token_budget } : {}),
      });
      return answer('context_for_pr', result, args, `changes: ${files.join(', ')}`, notes);
    },
  );

  tool(
    'explain_symbol',
    {
      title: 'Explain a symbol',
      description:
        'Why a symbol is (or is not) in the answer for a task: how retrieval found it, its walk and ranking scores, and where it was lost. Returns a markdown report.',
      inputSchema: explainSymbolInput(maxTaskChars),
    },
    async (args, extra) => {
      engine.observe(sessionId, `${args.task_description}\n${args.symbol}`);
      const { notes, pending } = await freshen(extra);
      if (pending) return pending;
      const explanation = await engine.explainSymbol(args.task_description, args.symbol, {
        format: defaultFormat,
        session: sessionId,
        ...(args.token_budget !== undefined ? { budget: args.token_budget } : {}),
      });
      // Closest names by edit distance, then by substring (the engine's suggestions).
      const text = renderExplanation(explanation, explanation.symbol ? [] : explanation.suggestions);
      return { content: [{ type: 'text', text }, ...(notes.length > 0 ? [{ type: 'text' as const, text: `${notes.join('\n')}\n` }] : [])] };
    },
  );

  tool(
    'feedback',
    {
      title: 'Feedback on symbols',
      description:
        'Tell knowing which symbols helped (useful: true) or did not (useful: false); later answers rank them accordingly. Name symbols by id, qualified name (as in gcf lines) or plain name.',
      inputSchema: feedbackInput,
    },
    async (args, extra) => {
      const { pending } = await freshen(extra, false);
      if (pending) return pending;
      const resolved: GraphNode[] = [];
      const missing: string[] = [];
      const ambiguous: string[] = [];
      for (const reference of args.symbols) {
        let nodes = await nodesNamed(reference);
        if (nodes.length > 1) {
          const seen = nodes.filter((n) => sent.has(n.id));
          if (seen.length === 1) nodes = seen;
        }
        if (nodes.length === 0) missing.push(reference);
        else if (nodes.length > 1) {
          const options = nodes.slice(0, 5).map((n) => n.qualifiedName);
          ambiguous.push(`${JSON.stringify(reference)} (could be ${options.join(', ')}${nodes.length > 5 ? ', …' : ''})`);
        } else resolved.push(nodes[0]!);
      }
      if (missing.length > 0 || ambiguous.length > 0) {
        const parts = [];
        if (missing.length > 0) parts.push(`not found: ${missing.map((m) => JSON.stringify(m)).join(', ')}`);
        if (ambiguous.length > 0) parts.push(`ambiguous: ${ambiguous.join('; ')}`);
        throw invalidArgument(`no feedback recorded; ${parts.join('; ')}`, 'name symbols by id or qualified name as the context answers show them');
      }
      const unique = [...new Map(resolved.map((n) => [n.id, n])).values()];
      await engine.recordFeedback(unique.map((node) => ({ symbol: node.id, useful: args.useful, session: sessionId })));
      const names = unique.map((n) => n.qualifiedName);
      return textResult(`Recorded ${args.useful ? 'useful' : 'not useful'} for ${unique.length} symbol${unique.length === 1 ? '' : 's'}: ${names.join(', ')}\n`);
    },
  );

  tool(
    'index_status',
    {
      title: 'Index status',
      description:
        'What the index holds: files, nodes, edges by type, when it was last indexed, its snapshot, and how many files changed on disk since (stale files are re-indexed by the next context call).',
      inputSchema: indexStatusInput,
      outputSchema: indexStatusOutput,
    },
    async () => {
      const s = await status();
      return { content: [{ type: 'text', text: statusText(s) }], structuredContent: s };
    },
  );

  tool(
    'reindex',
    {
      title: 'Re-index the repository',
      description: 'Run the indexer now: only changed files by default, every file with full: true. Returns what it did.',
      inputSchema: reindexInput,
    },
    async (args, extra) => {
      if (!indexing) throw invalidArgument('this server does not index the repository: it answers from a store another process keeps current', 'run `knowing index --store …` where the repository is checked out (a CI job on push)');
      const onProgress = progressSender(extra);
      const freshness = await keeper.reindex(args.full ?? false, { waitMs: indexWaitMs, ...(onProgress ? { onProgress } : {}) });
      if (!freshness.ready) {
        const progress = freshness.progress;
        const where = progress ? `${progress.phase} ${progress.done}/${progress.total}` : 'starting';
        return textResult(`The ${freshness.kind} index run is still going (${where}); it continues in the background. Call index_status to follow it.\n`);
      }
      const run = freshness.run!;
      return textResult(renderSummary(run.kind, run.summary));
    },
  );

  // ------------------------------------------------------------------ lifecycle

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
