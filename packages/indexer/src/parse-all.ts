/**
 * The parse of a batch of files: this thread and, when that pays off, worker threads beside it,
 * all taking the next file from one list.
 */
import { readFileSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { DiscoveredFile } from './discover.js';
import { emptyExtraction, extractFile } from './extract.js';
import type { ExtractResult, ExtractTask } from './extract.js';
import type { LanguageModule } from './languages/types.js';
import type { LexicalResult, LexicalTask } from './lexical-task.js';
import { TaskTimeoutError, WorkerStartupError } from './pool.js';
import type { WorkerPool } from './pool.js';
import type { IndexProgress } from './types.js';

/** Batches smaller than this are parsed in the calling thread: starting workers costs more. */
export const MIN_FILES_FOR_WORKERS = 24;

/** Files a worker holds at once (one parsing, the rest waiting in it): no idle gap between two. */
export const WORKER_DEPTH = 2;

/** A worker pool started (possibly before discovery ends) for a parse. */
export interface ParserPool {
  readonly pool: WorkerPool<ExtractTask | LexicalTask, ExtractResult | LexicalResult>;
  readonly size: number;
  /** Set when parseAll must leave it open: its owner closes it. */
  readonly closedByCaller?: boolean;
}

/** What the parse reads of a file to parse. */
export interface ParseEntry {
  readonly file: Pick<DiscoveredFile, 'path' | 'absolutePath' | 'contentHash' | 'sizeBytes'>;
  readonly module: LanguageModule;
  readonly sizeBytes: number;
}

export interface ParseSettings {
  /** Threads to parse on, this one included (see parserThreads). */
  readonly threads: number;
  readonly fileTimeoutMs: number;
  /** A batch of fewer bytes is parsed in this thread alone (see automaticWorkerMinBytes). @default 0 */
  readonly minBytesForWorkers?: number;
}

export interface ParseHooks<E extends ParseEntry> {
  readonly progress: (event: IndexProgress) => void;
  readonly signal: AbortSignal | undefined;
  /** Awaited before each file this thread parses: it may yield to the event loop, or throw to stop. */
  readonly checkpoint: () => Promise<void>;
  /** Takes one file's result; called once per file, in the order results arrive. */
  readonly accept: (entry: E, result: ExtractResult) => Promise<void>;
  /** Starts `size` workers, or answers undefined when there can be none. */
  readonly startPool: (size: number) => ParserPool | undefined;
}

export interface ParseOutcome {
  readonly threads: number;
  readonly inWorkers: boolean;
  readonly warnings: string[];
}

function taskOf(entry: ParseEntry, timeoutMs: number): ExtractTask {
  return { path: entry.file.path, absolutePath: entry.file.absolutePath, language: entry.module.id, timeoutMs };
}

/**
 * Parse files in this thread and, when that pays off and is possible, in worker threads beside
 * it: every thread takes the next file from one list, largest first, so none waits on a
 * straggler at the end. This thread parses too (it would otherwise only wait), and it takes in
 * the workers' results between its own files, so decoding them overlaps the parse. Every file
 * is accepted exactly once.
 */
export async function parseAll<E extends ParseEntry>(toParse: readonly E[], settings: ParseSettings, hooks: ParseHooks<E>): Promise<ParseOutcome> {
  const { progress, signal, checkpoint, accept, startPool } = hooks;
  const warnings: string[] = [];
  const total = toParse.length;
  let done = 0;
  const queue = [...toParse].sort((a, b) => b.sizeBytes - a.sizeBytes);
  let next = 0;
  /** The next file nobody has taken; every taker goes through here, so none reads past the end. */
  const take = (): E | undefined => (next < queue.length ? queue[next++] : undefined);
  const bytes = queue.reduce((sum, entry) => sum + entry.sizeBytes, 0);
  const pool = settings.threads > 1 && total >= MIN_FILES_FOR_WORKERS && bytes >= (settings.minBytesForWorkers ?? 0) ? startPool(settings.threads - 1) : undefined;
  progress({ phase: 'parse', done: 0, total });
  const finish = async (entry: E, result: ExtractResult): Promise<void> => {
    await accept(entry, result);
    progress({ phase: 'parse', done: ++done, total, path: entry.file.path });
  };
  const parseHere = async (entry: E): Promise<void> => {
    // Read synchronously: a thread-pool round trip per file costs more than the read here.
    await finish(entry, await extractFile(taskOf(entry, settings.fileTimeoutMs), [entry.module], readFileSync));
  };
  let fellBack = false;
  /** One worker's feed: it holds `depth` files at a time and asks for the next as each returns. */
  const feed = async (): Promise<void> => {
    for (let entry = fellBack ? undefined : take(); entry !== undefined; entry = fellBack ? undefined : take()) {
      let result: ExtractResult;
      try {
        result = (await pool!.pool.run(taskOf(entry, settings.fileTimeoutMs))) as ExtractResult;
      } catch (error) {
        if (signal?.aborted) throw error;
        if (error instanceof WorkerStartupError) {
          // Workers cannot run in this process: this thread parses everything.
          if (!fellBack) warnings.push(`parser workers unavailable (${error.message}); parsing in the calling thread`);
          fellBack = true;
          await parseHere(entry);
          return;
        }
        const reason = error instanceof TaskTimeoutError ? 'worker timed out' : `worker failed: ${(error as Error).message}`;
        result = {
          path: entry.file.path,
          encoded: new Uint8Array(0),
          extraction: emptyExtraction(entry.file.path, entry.module.id),
          contentHash: entry.file.contentHash,
          sizeBytes: entry.file.sizeBytes,
          warning: `${entry.file.path}: ${reason}; indexed without symbols`,
          cacheable: false,
        };
      }
      signal?.throwIfAborted();
      await finish(entry, result);
    }
  };
  // A feed's failure (an abort) is kept, not left unhandled: this thread may be the one to stop.
  let feedFailure: unknown;
  const feeds = pool
    ? Array.from({ length: pool.size * WORKER_DEPTH }, () =>
        feed().catch((error: unknown) => {
          feedFailure ??= error;
          next = queue.length;
        }),
      )
    : [];
  try {
    while (next < queue.length) {
      await checkpoint();
      // The feeds go on taking files while the checkpoint yields: the last may be gone by now.
      const entry = take();
      if (entry === undefined) break;
      await parseHere(entry);
      // A turn of the event loop between files: the workers' results come in, and each gets its
      // next file, while this thread parses.
      if (pool) await yieldToEventLoop();
    }
    await Promise.all(feeds);
    if (feedFailure !== undefined) throw feedFailure;
  } finally {
    if (!pool?.closedByCaller) await pool?.pool.close();
  }
  const used = pool && !fellBack ? pool.size + 1 : total > 0 ? 1 : 0;
  return { threads: used, inWorkers: used > 1, warnings };
}
