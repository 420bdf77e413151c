/**
 * What the server's thread and its index worker (index-worker.ts) say to each other. Kept apart
 * from both so that the worker loads nothing of the server (the MCP SDK, the engine).
 */
import { ErrorCode, KnowingError } from '@knowing/graph';
import type { IndexProgress, IndexSummary } from '@knowing/indexer';
import type { McpIndexOptions, StoreLocator } from './types.js';

/** The worker's `workerData`: one repository, one store, for the worker's whole life. */
export interface IndexWorkerData {
  readonly root: string;
  readonly locator: StoreLocator;
  readonly indexOptions: McpIndexOptions;
}

/** To the worker: run the indexer; or stop the run in progress (at its next checkpoint before the write) and close the store. */
export type ToIndexWorker = { readonly type: 'run'; readonly full: boolean } | { readonly type: 'close' };

/** An error as it crosses threads: enough to throw the same `KnowingError` (code, message, hint) again. */
export type SentError =
  | { readonly knowing: true; readonly code: ErrorCode; readonly detail: string; readonly source?: string; readonly hint?: string; readonly stack?: string }
  | { readonly knowing: false; readonly name: string; readonly message: string; readonly stack?: string };

/**
 * From the worker: loaded (modules and the store's driver; a death before this is a failure to
 * start), a run's progress and outcome, and the store closed.
 */
export type FromIndexWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'progress'; readonly event: IndexProgress }
  | { readonly type: 'done'; readonly summary: IndexSummary }
  | { readonly type: 'failed'; readonly error: SentError }
  | { readonly type: 'closed' };

export function sendableError(error: unknown): SentError {
  if (error instanceof KnowingError) {
    return {
      knowing: true,
      code: error.code,
      detail: error.detail,
      ...(error.source !== undefined ? { source: error.source } : {}),
      ...(error.hint !== undefined ? { hint: error.hint } : {}),
      ...(error.stack !== undefined ? { stack: error.stack } : {}),
    };
  }
  const plain = error instanceof Error ? error : new Error(String(error));
  return { knowing: false, name: plain.name, message: plain.message, ...(plain.stack !== undefined ? { stack: plain.stack } : {}) };
}

/** The error the worker sent, as the in-thread run would have thrown it; its stack is the worker's. */
export function receivedError(sent: SentError): Error {
  const error =
    sent.knowing
      ? new KnowingError(sent.code, sent.detail, {
          ...(sent.source !== undefined ? { source: sent.source } : {}),
          ...(sent.hint !== undefined ? { hint: sent.hint } : {}),
        })
      : Object.assign(new Error(sent.message), { name: sent.name });
  if (sent.stack !== undefined) error.stack = sent.stack;
  return error;
}

/** The error of a run the server gave up on because it is closing. */
export function abandonedRun(cause?: unknown): KnowingError {
  return new KnowingError(ErrorCode.StoreClosed, 'the index run was abandoned: the server is closing', {
    source: 'mcp',
    hint: 'the index keeps the graph it had before the run; the next index run picks up the changes',
    ...(cause !== undefined ? { cause } : {}),
  });
}
