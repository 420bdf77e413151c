import { ErrorCode, isKnowingError } from '@knowing/graph';
import type { ContextPack, NodeId } from '@knowing/graph';
import type { ContextResult } from '@knowing/engine';
import type { IndexProgress } from '@knowing/indexer';
import { fitPack, formatPack } from '@knowing/wire';
import type { GcfSession } from '@knowing/wire';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Freshness } from './freshness.js';
import type { LruMap } from './lru.js';
import { pendingText, runNote } from './render.js';
import type { indexStatusOutput } from './schemas.js';
import type { RepositoryHost, TOOL_NAMES } from './server.js';
import type { McpFormat } from './types.js';

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
export type ToolName = (typeof TOOL_NAMES)[number];

/** One client connection over a repository host: what its tools read and remember between calls. */
export interface Connection {
  readonly host: RepositoryHost;
  readonly sessionId: string;
  readonly mcp: McpServer;
  readonly gcfSession: GcfSession;
  /** Recent packs by root, for deltas. Bounded: an agent session can run for hours. */
  readonly packs: LruMap<string, ContextPack>;
  /** Symbols this connection has been sent, to pick the right one when feedback names an ambiguous name. */
  readonly sent: Set<NodeId>;
}

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
} as const satisfies Record<ToolName, ToolAnnotations>;

const NOT_INDEXED_TEXT =
  'This repository is not indexed yet, and this server does not index it: run `knowing index --store …` where it is checked out (a CI job on push), then ask again.\n';
/** Context answers carry code unless the agent asks for names only (`include_code: false`). */
const DEFAULT_INCLUDE_CODE = true;
const PROGRESS_INTERVAL_MS = 250;

export const textResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });

function errorResult(error: unknown, tool: string, log: (message: string) => void): CallToolResult {
  if (isKnowingError(error)) return { content: [{ type: 'text', text: `${error.message} (${error.code})` }], isError: true };
  log(`knowing: ${tool} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const message = error instanceof Error ? error.message : String(error);
  return { content: [{ type: 'text', text: `[knowing:mcp] ${tool} failed: ${message} (${ErrorCode.Internal})` }], isError: true };
}

/** Register a tool whose failures become `isError` results that carry the error's code. */
export function registerTool<Schema extends z.ZodType<Record<string, unknown>>>(
  connection: Connection,
  name: ToolName,
  config: {
    title: string;
    description: string;
    inputSchema: Schema;
    outputSchema?: typeof indexStatusOutput;
  },
  handler: (args: z.output<Schema>, extra: Extra) => Promise<CallToolResult>,
): void {
  const { log } = connection.host;
  const callback = async (args: z.output<Schema>, extra: Extra): Promise<CallToolResult> => {
    try {
      return await handler(args, extra);
    } catch (error) {
      return errorResult(error, name, log);
    }
  };
  // The SDK's callback type is a conditional over the schema that TypeScript cannot resolve
  // for a generic schema; `handler` is typed against the schema above.
  connection.mcp.registerTool(name, { ...config, annotations: ANNOTATIONS[name] }, callback as never);
}

/** Sends MCP progress notifications for index runs when the client asked for them (a progressToken). */
export function progressSender(extra: Extra): ((event: IndexProgress) => void) | undefined {
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

/** Bring the index up to date; a result to return instead of answering when there is no index yet. */
export async function freshen(host: RepositoryHost, extra: Extra, withRefresh = host.refresh): Promise<{ notes: string[]; pending?: CallToolResult }> {
  const { keeper, indexWaitMs } = host;
  // Without indexing, the store is answered from as it is; another process keeps it.
  if (!host.indexing) return (await keeper.indexed()) ? { notes: [] } : { notes: [], pending: textResult(NOT_INDEXED_TEXT) };
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

/** What a context tool's arguments say about its answer's form. */
export interface AnswerArgs {
  format?: McpFormat | undefined;
  pack_root?: string | undefined;
  include_code?: boolean | undefined;
}

/**
 * Render a context answer within its budget — unchanged, delta or full — and remember the
 * pack as printed (its root is what an agent passes back as pack_root).
 */
export function answer(connection: Connection, tool: string, result: ContextResult, args: AnswerArgs, task: string, notes: string[]): CallToolResult {
  const { host, packs, sent, gcfSession } = connection;
  const format = args.format ?? host.defaultFormat;
  const content: CallToolResult['content'] = [];
  const given = args.pack_root;
  const previous = given ? packs.get(given) : undefined;
  const fitted = fitPack(result.pack, {
    format,
    budget: result.pack.tokenBudget,
    tokenizer: host.answerTokenizer,
    tool,
    task,
    ...(format === 'gcf' ? { session: gcfSession } : {}),
    ...(previous ? { previous } : {}),
    ...((args.include_code ?? DEFAULT_INCLUDE_CODE) ? { source: host.readSource } : {}),
  });
  const pack = fitted.pack;
  if (given && pack.packRoot !== '' && given === pack.packRoot) {
    content.push({ type: 'text', text: unchangedLine(format, tool, pack) });
  } else {
    if (given && !previous) notes.push(`note: pack_root ${given.slice(0, 12)}… is not among the last ${host.packHistory} packs this server sent, so this is the full pack.`);
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
