import { close, fstatSync, openSync, read, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import { ErrorCode, KnowingError } from '@knowing/graph';
import type { GraphNode, RankedSymbol } from '@knowing/graph';
import type { CostOptions, HeuristicTokenizerOptions, Tokenizer } from './types.js';
import { readBpeTable } from './bpe.js';
import type { BpeCounter } from './bpe.js';

/**
 * Cost of a symbol in each output format relative to its canonical line (qualified name, kind,
 * signature). gcf and gcb are the compact formats' measured ratios in the original system;
 * markdown drops the XML tags, json adds quoted keys. Unknown formats cost 1×.
 */
export const FORMAT_COST_SCALE: Readonly<Record<string, number>> = Object.freeze({
  xml: 1.0,
  markdown: 0.9,
  json: 1.3,
  gcf: 0.16,
  gcb: 0.26,
});

/** Defaults of the cost options. */
export const DEFAULT_COST_OPTIONS: Readonly<Required<Pick<CostOptions, 'format'>>> = Object.freeze({
  format: 'xml',
});

/** Defaults of {@link createHeuristicTokenizer}. */
export const DEFAULT_HEURISTIC_OPTIONS: Readonly<Required<HeuristicTokenizerOptions>> = Object.freeze({
  charsPerToken: 4,
});

function invalid(message: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source: 'pack' });
}

/**
 * A tokenizer that estimates ⌊characters / charsPerToken⌋. No dependency, no start-up cost;
 * a lower bound for code in practice.
 *
 * @example
 * ```ts
 * createHeuristicTokenizer().count('function run() {}'); // 4
 * ```
 */
export function createHeuristicTokenizer(options: HeuristicTokenizerOptions = {}): Tokenizer {
  const charsPerToken = options.charsPerToken ?? DEFAULT_HEURISTIC_OPTIONS.charsPerToken;
  if (!(charsPerToken > 0) || !Number.isFinite(charsPerToken)) throw invalid(`charsPerToken must be a finite number > 0, got ${charsPerToken}`);
  return { name: `chars/${charsPerToken}`, count: (text) => Math.floor(text.length / charsPerToken) };
}

const heuristic = createHeuristicTokenizer();

interface Cl100k {
  countTokens(text: string): number;
}

let cl100k: Promise<Cl100k> | undefined;

function encodingMissing(cause: unknown): KnowingError {
  return new KnowingError(ErrorCode.Internal, 'could not load the cl100k_base encoding of gpt-tokenizer', {
    source: 'pack',
    cause,
    hint: 'check that gpt-tokenizer is installed',
  });
}

let shipped: BpeCounter | null | undefined;
/** The background read {@link preloadExactTokenizer} started, while it runs. */
let preloading: Promise<boolean> | undefined;

const TABLE_URL = (): URL => new URL('./cl100k.bin', import.meta.url);

/** The table from its bytes; null when they are not one (a later count then uses gpt-tokenizer). */
function tableOf(bytes: Uint8Array): BpeCounter | null {
  try {
    return readBpeTable(bytes);
  } catch {
    return null;
  }
}

/**
 * Start reading the cl100k_base table this package ships on libuv's thread pool, so that the
 * first exact count does not read it in this thread (2 MB, several milliseconds of a cold
 * command, most of it the first touch of fresh memory). One read of the whole file, so it goes
 * on while this thread is busy. The promise says whether the table is ready (false: there is
 * none, and counts use gpt-tokenizer); it never rejects. A count before it settles reads the
 * table itself, as without a preload.
 *
 * @example
 * ```ts
 * const ready = preloadExactTokenizer();
 * const tokenizer = startExactTokenizer();
 * const answer = await engine.forTask(task);
 * await ready;
 * tokenizer.count(render(answer));
 * ```
 */
export function preloadExactTokenizer(): Promise<boolean> {
  if (shipped !== undefined) return Promise.resolve(shipped !== null);
  preloading ??= new Promise<boolean>((resolve) => {
    const done = (bytes?: Uint8Array): void => {
      if (shipped === undefined) shipped = bytes ? tableOf(bytes) : null;
      preloading = undefined;
      resolve(shipped !== null);
    };
    let fd: number;
    let buffer: Buffer;
    try {
      fd = openSync(TABLE_URL(), 'r');
      buffer = Buffer.allocUnsafeSlow(fstatSync(fd).size);
    } catch {
      return done();
    }
    const readFrom = (offset: number): void => {
      read(fd, buffer, offset, buffer.length - offset, offset, (error, bytesRead) => {
        const end = offset + (error ? 0 : bytesRead);
        if (!error && bytesRead > 0 && end < buffer.length) return readFrom(end);
        close(fd, () => undefined);
        done(!error && end === buffer.length ? buffer : undefined);
      });
    };
    readFrom(0);
  });
  return preloading;
}

/**
 * The cl100k_base table this package's build writes beside its entry (dist/cl100k.bin, made
 * from gpt-tokenizer's ranks; the CLI's build copies it beside its bundle, which holds this
 * code): read in a few milliseconds, where gpt-tokenizer's own tables take ~150 ms to load.
 * It counts exactly what gpt-tokenizer counts (the tests compare them on this workspace's
 * sources and on random text).
 */
function shippedCl100k(): BpeCounter | undefined {
  if (shipped === undefined) {
    shipped = null;
    try {
      // Beside this module, not found through the package's name: resolving a package costs a few ms of a cold start.
      shipped = tableOf(readFileSync(TABLE_URL()));
    } catch {
      // Not built (sources run by tests), or a bundle without the table: gpt-tokenizer's tables count instead.
    }
  }
  return shipped ?? undefined;
}

/** A tokenizer on the shipped table; a text holding a special token goes to gpt-tokenizer, which refuses it as before. */
function tableTokenizer(table: () => BpeCounter | undefined, fallback: () => Cl100k): Tokenizer {
  const count = (text: string): number => table()?.count(text) ?? fallback().countTokens(text);
  return { name: 'cl100k_base', linesAdd: true, count, countEach: (texts) => texts.map(count) };
}

function loadCl100kHere(): Cl100k {
  try {
    return createRequire(import.meta.url)('gpt-tokenizer/encoding/cl100k_base') as Cl100k;
  } catch (cause) {
    throw encodingMissing(cause);
  }
}

/**
 * A tokenizer counting real cl100k_base tokens (GPT-4 / GPT-3.5), as gpt-tokenizer counts
 * them, so a budget can mean real tokens. Async because, without the table the build ships,
 * gpt-tokenizer's tables (a few MB) are loaded when first asked for; later calls share them.
 *
 * @example
 * ```ts
 * const tokenizer = await createExactTokenizer();
 * tokenizer.count('hello world'); // 2
 * packSymbols(ranked, { budget: 8000, tokenizer });
 * ```
 */
export async function createExactTokenizer(): Promise<Tokenizer> {
  if (preloading) await preloading;
  const table = shippedCl100k();
  if (table) return tableTokenizer(() => table, loadCl100kHere);
  cl100k ??= import('gpt-tokenizer/encoding/cl100k_base');
  let encoding: Cl100k;
  try {
    encoding = await cl100k;
  } catch (cause) {
    cl100k = undefined;
    throw encodingMissing(cause);
  }
  return { name: 'cl100k_base', linesAdd: true, count: (text) => encoding.countTokens(text) };
}

/** Source of the worker {@link startExactTokenizer} counts in (CommonJS: `eval` workers are scripts). */
const COUNTING_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
let encoding;
try {
  encoding = require(workerData.encoding);
} catch {}
// A request is { texts, answer }: answer[1 + i] gets the count of texts[i], then answer[0] says
// 1 (counted) or 2 (could not count), and the waiting thread is woken.
parentPort.on('message', ({ texts, answer }) => {
  const state = new Int32Array(answer);
  let outcome = 2;
  if (encoding) {
    try {
      for (let i = 0; i < texts.length; i++) state[1 + i] = encoding.countTokens(texts[i]);
      outcome = 1;
    } catch {}
  }
  Atomics.store(state, 0, outcome);
  Atomics.notify(state, 0);
});
`;

/** Longest a count waits for the worker (its first count also waits for the tables to load). */
const WORKER_ANSWER_TIMEOUT_MS = 20_000;

/**
 * A cl100k_base tokenizer for a short-lived process (one CLI command), counting as
 * {@link createExactTokenizer} does, that returns at once. With the table the build ships it
 * counts in this thread; without it, gpt-tokenizer's tables (a few MB of JavaScript, ~150 ms
 * to load) load in a worker thread while the caller goes on, and `count` hands the text to the
 * worker and waits for the answer (the first count also waits for the tables). When the worker
 * cannot count (no worker threads, a load failure) the tables are loaded in this thread
 * instead. The worker never keeps the process alive.
 *
 * @example
 * ```ts
 * const tokenizer = startExactTokenizer(); // returns at once
 * const answer = await engine.forTask(task); // meanwhile the tables load
 * tokenizer.count(render(answer));
 * ```
 */
export function startExactTokenizer(): Tokenizer {
  const require = createRequire(import.meta.url);
  let inThread: Cl100k | undefined;
  const loadHere = (): Cl100k => (inThread ??= loadCl100kHere());
  // While a preload reads the table, counts use it once it is read (one asked for sooner reads it here).
  if (preloading) return tableTokenizer(shippedCl100k, loadHere);
  const table = shippedCl100k();
  if (table) return tableTokenizer(() => table, loadHere);
  let worker: Worker | undefined;
  try {
    // Required here: worker_threads would load in every cold start, and the shipped table
    // (above) makes this path the exception.
    const { Worker: CountingWorker } = require('node:worker_threads') as typeof import('node:worker_threads');
    worker = new CountingWorker(COUNTING_WORKER, { eval: true, workerData: { encoding: require.resolve('gpt-tokenizer/encoding/cl100k_base') } });
    worker.unref();
    // A worker that fails is only a slower start: this thread counts instead.
    worker.on('error', () => {
      worker = undefined;
    });
  } catch {
    worker = undefined;
  }
  const countInWorker = (texts: readonly string[]): number[] | undefined => {
    if (!worker) return undefined;
    const answer = new SharedArrayBuffer(4 * (texts.length + 1));
    const state = new Int32Array(answer);
    worker.postMessage({ texts, answer });
    Atomics.wait(state, 0, 0, WORKER_ANSWER_TIMEOUT_MS);
    if (Atomics.load(state, 0) === 1) return Array.from(state.subarray(1));
    void worker.terminate();
    worker = undefined;
    return undefined;
  };
  const countEach = (texts: readonly string[]): number[] => countInWorker(texts) ?? texts.map((text) => loadHere().countTokens(text));
  return {
    name: 'cl100k_base',
    linesAdd: true,
    count: (text) => countEach([text])[0]!,
    countEach,
  };
}

/**
 * The line a symbol's cost is estimated from when no renderer is given: `QN kind signature`.
 *
 * @example
 * ```ts
 * canonicalLine(node); // 'src/app.py.Flask.run method def run(self, host=None)'
 * ```
 */
export function canonicalLine(node: Pick<GraphNode, 'qualifiedName' | 'kind' | 'signature'>): string {
  return `${node.qualifiedName} ${node.kind} ${node.signature}`;
}

/**
 * Cost multiplier of a format: the override in `formatScale`, else `FORMAT_COST_SCALE`, else 1.
 *
 * @example
 * ```ts
 * formatScale({ format: 'gcf' }); // 0.16
 * formatScale({ format: 'gcf', formatScale: { gcf: 0.2 } }); // 0.2
 * ```
 */
export function formatScale(options: CostOptions = {}): number {
  const format = options.format ?? DEFAULT_COST_OPTIONS.format;
  const scale = options.formatScale?.[format] ?? FORMAT_COST_SCALE[format] ?? 1;
  if (!(scale > 0) || !Number.isFinite(scale)) throw invalid(`format scale of ${format} must be a finite number > 0, got ${scale}`);
  return scale;
}

/**
 * Estimated tokens of a symbol or a text.
 *
 * - A text is counted as is (no format scale): it already is what will be sent.
 * - A symbol with a `cost` callback: its answer, as is.
 * - A symbol with a `render` callback: the rendered text is counted.
 * - A symbol without: its canonical line (`qualifiedName kind signature`) is counted and
 *   scaled by `FORMAT_COST_SCALE[format]` (overridable with `formatScale`).
 *
 * Symbols always cost at least 1. The default counter is ⌊characters / 4⌋; pass
 * `tokenizer` (for instance `await createExactTokenizer()`) to count real tokens.
 *
 * @example
 * ```ts
 * estimateTokens(symbol); // ≈ characters / 4 of its canonical line
 * estimateTokens(symbol, { format: 'gcf' }); // 16 % of that
 * estimateTokens(symbol, { render: (s) => myGcfLine(s), tokenizer }); // the real line, real tokens
 * ```
 */
export function estimateTokens(input: string | RankedSymbol, options: CostOptions = {}): number {
  const tokenizer = options.tokenizer ?? heuristic;
  if (typeof input === 'string') return checkCount(tokenizer.count(input));
  if (options.cost) return Math.max(1, checkCount(options.cost(input)));
  if (options.render) return Math.max(1, checkCount(tokenizer.count(options.render(input))));
  const scale = formatScale(options);
  return Math.max(1, Math.round(checkCount(tokenizer.count(canonicalLine(input.node))) * scale));
}

function checkCount(count: number): number {
  if (!Number.isFinite(count) || count < 0) throw invalid(`tokenizer returned ${count}; a count must be a finite number ≥ 0`);
  return count;
}

/** A cost function for lines that are not whole symbols (references, edges), on the same scale. */
export function lineCost(options: CostOptions = {}): (text: string) => number {
  const tokenizer = options.tokenizer ?? heuristic;
  const scale = options.render || options.cost ? 1 : formatScale(options);
  return (text) => Math.max(1, Math.round(checkCount(tokenizer.count(text)) * scale));
}
