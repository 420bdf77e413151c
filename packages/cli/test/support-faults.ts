/**
 * Fault injection for the CLI's fault tests: run the built binary with a preloaded module that
 * sends a signal to its own process at an exact point of an index run, and read what a run
 * left behind in its database.
 *
 * The preload fires from inside the process, synchronously, so a point is hit every time
 * however loaded the machine is: the progress line that starts a phase (stderr passes for a
 * terminal, so every phase announces itself), or a statement better-sqlite3 is about to run
 * (the n-th parse result stored; the n-th write to the graph's tables inside the batch's
 * transaction; the first statement after that transaction committed). SIGKILL ends the
 * process there; SIGINT and SIGTERM are delivered there and handled as the product handles
 * them. It can also fill a disk there.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { createSqliteStore } from '@knowing/store-sqlite';
import { BIN } from './helpers.js';

/** Where in an index run the fault fires. */
export type FaultPoint =
  /** The progress line of the discover phase (before any file is read). */
  | 'discover'
  /** A parse progress line with at least one file parsed (at the latest, the phase's last line). */
  | 'parse'
  /** The n-th parse result stored as a note (after parsing, before resolving: the notes are half written). */
  | 'extraction-note'
  /** The progress line of the resolve phase. */
  | 'resolve'
  /** The progress line of the write phase: after the last abort check, before the batch. */
  | 'write'
  /** The n-th INSERT, UPDATE or DELETE on `nodes` or `edges` inside a transaction: mid-batch, uncommitted. */
  | 'batch'
  /** The first statement outside a transaction after the snapshot row was written: the batch committed, the indexer state not yet saved. */
  | 'committed'
  /** The first statement the process runs; no signal (the lock tests release the lock then). */
  | 'first-statement';

export interface Fault {
  readonly at: FaultPoint;
  /** What to send; none: only announce the point on stderr. */
  readonly signal?: NodeJS.Signals;
  /** A folder to fill up at the point (a file `filler` written until the disk is full), before any signal. */
  readonly fill?: string;
  /** For `extraction-note` and `batch`: which statement of that kind. @default 1 */
  readonly n?: number;
}

/** better-sqlite3 as the store package resolves it: the module the binary loads. */
const fromStore = createRequire(fileURLToPath(new URL('../../store-sqlite/package.json', import.meta.url)));
const SQLITE_MODULE = fromStore.resolve('better-sqlite3');

/** The line the preload writes to stderr when it fires. */
export const FIRED = 'KNOWING-FAULT-FIRED';

// Worker threads inherit --import: the progress lines are the main thread's, the statements
// those of whichever thread runs the index (an MCP server's index worker). Statement.prototype
// is shared by every statement a thread prepares, so wrapping its run() sees the store's.
const PRELOAD_SOURCE = `
import { createRequire } from 'node:module';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
const spec = JSON.parse(process.env.KNOWING_FAULT ?? 'null');
Object.defineProperty(process.stderr, 'isTTY', { value: true });
if (spec) {
  let fired = false;
  const fire = (detail) => {
    if (fired) return;
    fired = true;
    writeSync(2, '\\n${FIRED} ' + spec.at + ' ' + detail + '\\n');
    if (spec.fill) {
      const fd = openSync(join(spec.fill, 'filler'), 'w');
      const chunk = Buffer.alloc(64 * 1024);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if (error.code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
    }
    if (spec.signal) process.kill(process.pid, spec.signal);
  };
  const phases = {
    discover: (text) => /finding files/.test(text),
    parse: (text) => { const m = /(\\d+)\\/\\d+ files/.exec(text); return m !== null && +m[1] > 0; },
    resolve: (text) => /resolving references/.test(text),
    write: (text) => /writing (the graph|\\d+\\/\\d+)/.test(text),
  };
  const phase = phases[spec.at];
  if (phase) {
    if (isMainThread) {
      const write = process.stderr.write.bind(process.stderr);
      process.stderr.write = (chunk, ...rest) => {
        const text = String(chunk);
        if (phase(text)) fire(JSON.stringify(text.replace(/\\r/g, '').trim()));
        return write(chunk, ...rest);
      };
    }
  } else {
    const Database = createRequire(spec.sqlite)(spec.sqlite);
    const scratch = new Database(':memory:');
    const proto = Object.getPrototypeOf(scratch.prepare('SELECT 1'));
    scratch.close();
    const run = proto.run;
    let count = 0;
    let snapshotWritten = false;
    proto.run = function (...args) {
      const sql = this.source;
      const inTransaction = this.database.inTransaction;
      if (spec.at === 'first-statement') fire(sql.slice(0, 40));
      else if (spec.at === 'extraction-note' && /^\\s*INSERT INTO notes/i.test(sql) && args[1] === 'extraction' && ++count === (spec.n ?? 1)) fire('#' + count);
      else if (spec.at === 'batch' && inTransaction && /^\\s*(INSERT|UPDATE|DELETE)\\b.*\\b(nodes|edges)\\b/is.test(sql) && ++count === (spec.n ?? 1)) fire('#' + count + ' ' + sql.slice(0, 40));
      else if (spec.at === 'committed' && snapshotWritten && !inTransaction) fire(sql.slice(0, 40));
      if (/^\\s*INSERT INTO snapshots/i.test(sql)) snapshotWritten = true;
      return run.apply(this, args);
    };
  }
}
`;

/** The preload, as a URL for `node --import`. */
export const FAULT_PRELOAD = `data:text/javascript,${encodeURIComponent(PRELOAD_SOURCE)}`;

export interface FaultRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Whether the fault point was reached. */
  readonly fired: boolean;
}

/** A running `node dist/bin.cjs …args` with the fault preload. */
export interface FaultProcess {
  readonly pid: number;
  /** Resolves once stderr holds `text`. */
  stderrIncludes(text: string): Promise<void>;
  /** Write to stdin. */
  write(text: string): void;
  readonly done: Promise<FaultRun>;
}

/** Start the binary with `fault` armed (or none: the preload only makes stderr a terminal). */
export function startWithFault(args: readonly string[], options: { cwd: string; fault?: Fault }): FaultProcess {
  const child = spawn(process.execPath, ['--import', FAULT_PRELOAD, BIN, ...args], {
    cwd: options.cwd,
    env: {
      ...process.env,
      NO_COLOR: '1',
      ...(options.fault ? { KNOWING_FAULT: JSON.stringify({ ...options.fault, sqlite: SQLITE_MODULE }) } : {}),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    for (const waiter of waiters.splice(0)) {
      if (stderr.includes(waiter.text)) waiter.resolve();
      else waiters.push(waiter);
    }
  });
  const done = new Promise<FaultRun>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr, fired: stderr.includes(FIRED) }));
  });
  return {
    pid: child.pid!,
    stderrIncludes: (text) =>
      new Promise<void>((resolvePromise, reject) => {
        if (stderr.includes(text)) return resolvePromise();
        waiters.push({ text, resolve: resolvePromise });
        void done.then(() => (stderr.includes(text) ? resolvePromise() : reject(new Error(`the process ended before stderr held "${text}":\n${stderr}`))));
      }),
    write: (text) => child.stdin.write(text),
    done,
  };
}

/** Run the binary to its end with `fault` armed; stdin is closed. */
export function knowingWithFault(args: readonly string[], options: { cwd: string; fault?: Fault }): Promise<FaultRun> {
  const started = startWithFault(args, options);
  started.write('');
  return started.done;
}

/** The graph a database holds: its snapshot's Merkle root and counts, or null before any graph. */
export interface GraphState {
  readonly root: string;
  readonly nodes: number;
  readonly edges: number;
}

interface RawDatabase {
  pragma(sql: string, options?: { simple: boolean }): unknown;
  close(): void;
}
const Database = fromStore('better-sqlite3') as new (path: string) => RawDatabase;

/**
 * Open what a run left at `db` the way the next command would: SQLite recovers its log,
 * `integrity_check` must say ok, and the store must open and name its current snapshot.
 */
export async function graphAt(db: string): Promise<GraphState | null> {
  const raw = new Database(db);
  try {
    expect(raw.pragma('integrity_check', { simple: true }), `integrity_check of ${db}`).toBe('ok');
  } finally {
    raw.close();
  }
  const store = await createSqliteStore({ path: db });
  try {
    const snapshot = await store.currentSnapshot();
    return snapshot ? { root: snapshot.root, nodes: snapshot.nodeCount, edges: snapshot.edgeCount } : null;
  } finally {
    await store.close();
  }
}

/** Which of the expected graphs `state` is, for messages: 'old', 'new' or what it is instead. */
export function whichGraph(state: GraphState | null, graphs: { old: GraphState | null; new: GraphState }): string {
  if (JSON.stringify(state) === JSON.stringify(graphs.old)) return 'old';
  if (JSON.stringify(state) === JSON.stringify(graphs.new)) return 'new';
  return `neither: ${JSON.stringify(state)}`;
}
