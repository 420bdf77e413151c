/**
 * What the server does with a message before the SDK sees it: a malformed or unusable message
 * gets a JSON-RPC error reply instead of being dropped (the SDK reports those only through
 * `onerror`, so the client waited for an answer that never came) or answered -32603 with a
 * dump of the SDK's schema.
 */
import {
  ClientRequestSchema,
  ErrorCode,
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { z } from 'zod';
import { shown } from './schemas.js';

/** A JSON-RPC error response. `id` is null when the request's id could not be read (JSON-RPC 2.0, section 5). */
export interface ErrorReply {
  readonly jsonrpc: '2.0';
  readonly id: RequestId | null;
  readonly error: { readonly code: number; readonly message: string };
}

/** What to do with one incoming value. */
export type Verdict =
  | { readonly kind: 'message'; readonly message: JSONRPCMessage }
  /** Refused: send this reply (an array answers a batch). */
  | { readonly kind: 'reply'; readonly reply: ErrorReply | ErrorReply[] }
  /** Unusable and nothing to answer (a malformed response to a request of ours). */
  | { readonly kind: 'drop'; readonly reason: string };

/** Most issues one error message lists. */
const MAX_ISSUES = 3;

export function errorReply(id: RequestId | null, code: number, message: string): ErrorReply {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** The request schemas of the methods a client may call, by method, to check `params` before the SDK does. */
const REQUEST_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map(
  ClientRequestSchema.options.map((schema) => [(schema.shape.method as unknown as { value: string }).value, schema as unknown as z.ZodType]),
);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isRequestId = (value: unknown): value is RequestId => typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));

const EXPECTED: Readonly<Record<string, string>> = {
  object: 'an object',
  record: 'an object',
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  literal: 'a fixed value',
};

function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) text += typeof part === 'number' ? `[${part}]` : `${text === '' ? '' : '.'}${String(part)}`;
  return text === '' ? 'the message' : text;
}

/** A zod failure as a sentence naming the arguments at fault, not a dump of the schema. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const parts = issues.slice(0, MAX_ISSUES).map((issue) => {
    const where = pathText(issue.path);
    if (issue.code === 'invalid_type') return `${where}: expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${shown(issue.input)}`;
    if (issue.code === 'unrecognized_keys') return `${where}: unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
    if (issue.code === 'invalid_value') return `${where}: expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${shown(issue.input)}`;
    return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`;
  });
  if (issues.length > MAX_ISSUES) parts.push(`and ${issues.length - MAX_ISSUES} more`);
  return parts.join('; ');
}

/**
 * Classify one incoming value (a parsed line, or what another transport delivered): a message
 * for the SDK, a reply refusing it, or nothing to do.
 *
 * - A batch (a JSON array) is refused whole — MCP 2025-06-18 removed JSON-RPC batching and
 *   the SDK never read one: the reply is an array of -32600 errors, one per element, each with
 *   the element's id when it has one (JSON-RPC's answer to an empty batch is a single error).
 * - A value that is not a JSON-RPC 2.0 request, notification or response: -32600, with the id
 *   when one can be read.
 * - A request whose `params` the method cannot take (`params: null`, `arguments` a string):
 *   -32602 naming the parameter.
 */
export function checkIncoming(value: unknown): Verdict {
  if (Array.isArray(value)) {
    const refuse = (id: RequestId | null): ErrorReply =>
      errorReply(id, ErrorCode.InvalidRequest, 'Invalid Request: batches are not supported (MCP 2025-06-18 removed JSON-RPC batching); send each message on its own line');
    if (value.length === 0) return { kind: 'reply', reply: errorReply(null, ErrorCode.InvalidRequest, 'Invalid Request: an empty batch') };
    return { kind: 'reply', reply: value.map((element) => refuse(isRecord(element) && isRequestId(element['id']) ? element['id'] : null)) };
  }
  if (!isRecord(value)) {
    return { kind: 'reply', reply: errorReply(null, ErrorCode.InvalidRequest, `Invalid Request: expected a JSON-RPC 2.0 message (an object), got ${shown(value)}`) };
  }
  const hasId = 'id' in value;
  const id = isRequestId(value['id']) ? value['id'] : null;
  const method = value['method'];
  const isResponse = method === undefined && ('result' in value || 'error' in value);
  if (isResponse) {
    const parsed = ('error' in value ? JSONRPCErrorResponseSchema : JSONRPCResultResponseSchema).safeParse(value, { reportInput: true });
    if (parsed.success) return { kind: 'message', message: parsed.data };
    // The id of a response is one of ours: replying with it would confuse the client.
    return { kind: 'drop', reason: `a malformed response (${describeIssues(parsed.error.issues)})` };
  }
  const invalid = (message: string): Verdict => ({ kind: 'reply', reply: errorReply(id, ErrorCode.InvalidRequest, `Invalid Request: ${message}`) });
  if (value['jsonrpc'] !== '2.0') return invalid(`"jsonrpc" must be "2.0", got ${shown(value['jsonrpc'])}`);
  if (hasId && id === null) return invalid(`"id" must be a string or a whole number, got ${shown(value['id'])}`);
  if (typeof method !== 'string') {
    return invalid(method === undefined ? 'expected "method" (a request or notification) or "result"/"error" (a response)' : `"method" must be a string, got ${shown(method)}`);
  }
  if (id !== null) {
    const params = value['params'];
    const invalidParams = (message: string): Verdict => ({ kind: 'reply', reply: errorReply(id, ErrorCode.InvalidParams, `Invalid params for ${method}: ${message}`) });
    if (params !== undefined && !isRecord(params)) return invalidParams(`params must be an object, got ${shown(params)}`);
    const schema = REQUEST_SCHEMAS.get(method);
    if (schema) {
      const checked = schema.safeParse({ method, params }, { reportInput: true });
      if (!checked.success) return invalidParams(describeIssues(checked.error.issues));
    }
  }
  const parsed = (id === null ? JSONRPCNotificationSchema : JSONRPCRequestSchema).safeParse(value, { reportInput: true });
  if (!parsed.success) return invalid(describeIssues(parsed.error.issues));
  return { kind: 'message', message: parsed.data };
}

/**
 * The transport as the SDK's server sees it, with every incoming message checked first
 * (`checkIncoming`): refusals are answered here, the rest passed on. Works over any transport
 * (stdio, in-memory, HTTP), so a client gets the same errors whichever it uses.
 */
export function guardTransport(inner: Transport, report: (message: string) => void): Transport {
  const guarded: Transport = {
    // Handlers set before connecting (the stdio runner's onclose) stay first in the chain the SDK builds.
    ...(inner.onclose ? { onclose: inner.onclose } : {}),
    ...(inner.onerror ? { onerror: inner.onerror } : {}),
    start: () => inner.start(),
    send: (message: JSONRPCMessage, options?: TransportSendOptions) => inner.send(message, options),
    close: () => inner.close(),
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion: (version: string) => inner.setProtocolVersion?.(version),
  };
  inner.onclose = () => guarded.onclose?.();
  inner.onerror = (error: Error) => guarded.onerror?.(error);
  inner.onmessage = (message: unknown, extra?: MessageExtraInfo) => {
    const verdict = checkIncoming(message);
    if (verdict.kind === 'message') guarded.onmessage?.(verdict.message, extra);
    else if (verdict.kind === 'drop') report(`knowing: ignored ${verdict.reason}`);
    // A reply is a JSON-RPC message, if not one the SDK's types allow (id null, a batch answer).
    else inner.send(verdict.reply as unknown as JSONRPCMessage).catch((error: unknown) => report(`knowing: could not send an error reply: ${(error as Error).message}`));
  };
  return guarded;
}
