/**
 * What a process answering many `knowing context` commands keeps between them (the watcher,
 * for its socket's clients): the open index, the engine over it and the tokenizer. Reusing
 * them skips opening the database, building the engine, reading the graph into memory and
 * loading the tokenizer's tables on every answer — and their caches stay warm. Each piece is
 * checked before it is reused: an index file replaced on disk is reopened, a changed config
 * or model builds a new engine.
 */
import { statSync } from 'node:fs';
import type { Engine } from '@knowing/engine';
import type { Tokenizer } from '@knowing/pack';
import type { Location, OpenIndex } from './session.js';

/** How long a replaced index stays open for a command that may still be using it. */
const RETIRED_CLOSE_MS = 60_000;

export interface WarmPool {
  /** The open index of a location, opened with `open` the first time and kept; never close it. */
  index(location: Location, open: () => Promise<OpenIndex>): Promise<OpenIndex>;
  /**
   * The engine over a kept index, built with `create` the first time and again when one of
   * `inputs` (files the engine reads when built: the repository's model) changed.
   */
  engine(index: OpenIndex, inputs: readonly string[], create: () => Promise<Engine>): Promise<Engine>;
  /**
   * Run an answer's check for changed files and their re-index (`work`) in step with this
   * process's own index runs of the same index file (a watcher's batches): after the changes
   * the watcher has seen are indexed, and with no batch starting meanwhile. Two runs indexing one
   * edit side by side would each parse and write it, and the answer would wait for both.
   */
  refresh<T>(location: Location, work: () => Promise<T>): Promise<T>;
  /** A tokenizer by name, started once. */
  tokenizer(name: string, start: () => Promise<Tokenizer>): Promise<Tokenizer>;
  /** Close every kept index. */
  close(): Promise<void>;
}

/** A process's own index runs over one index file: how a watcher lets answers take turns with its batches. */
export interface IndexWriter {
  /** The SQLite index file the process writes. */
  readonly dbPath: string;
  /** Run `work` once the changes seen so far are indexed, with no index run of the process starting until it ends. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

interface KeptIndex {
  readonly identity: string;
  readonly index: Promise<OpenIndex>;
}

/** What identifies the file behind a path: replaced (a restored backup, a copy) means another file. */
export function fileIdentity(path: string): string {
  try {
    const stats = statSync(path);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return 'missing';
  }
}

function modifiedAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Where an index lives, and what it was opened with: the identity of its file and the config
 * (an open index carries the config it was opened under, which the engine is built from).
 */
function indexKeys(location: Location): { key: string; identity: string } {
  const config = `${JSON.stringify(location.loaded.config)}\0${location.loaded.file ?? ''}\0${modifiedAt(location.loaded.file ?? '')}`;
  if (location.postgres) return { key: `${location.postgres.shown}\0${location.root}`, identity: config };
  return { key: location.dbPath, identity: `${fileIdentity(location.dbPath)}\0${config}` };
}

export function createWarmPool(options: { readonly writer?: IndexWriter } = {}): WarmPool {
  const { writer } = options;
  const indexes = new Map<string, KeptIndex>();
  const engines = new WeakMap<OpenIndex, { readonly key: string; readonly engine: Promise<Engine> }>();
  const tokenizers = new Map<string, Promise<Tokenizer>>();

  // A replaced index may still serve a command that took it a moment ago: it is closed a
  // while later (or when the pool closes), not at once.
  const retired = new Map<KeptIndex, ReturnType<typeof setTimeout>>();
  const closeKept = (kept: KeptIndex): Promise<void> => kept.index.then((index) => index.close()).catch(() => {});
  const forget = (key: string, kept: KeptIndex): void => {
    if (indexes.get(key) !== kept) return;
    indexes.delete(key);
    const timer = setTimeout(() => {
      retired.delete(kept);
      void closeKept(kept);
    }, RETIRED_CLOSE_MS);
    timer.unref();
    retired.set(kept, timer);
  };

  return {
    async index(location, open) {
      const { key, identity } = indexKeys(location);
      const kept = indexes.get(key);
      if (kept && kept.identity === identity) return kept.index;
      if (kept) forget(key, kept);
      const fresh: KeptIndex = { identity, index: open() };
      indexes.set(key, fresh);
      // A failed open is not kept: the next command tries again.
      fresh.index.catch(() => indexes.get(key) === fresh && indexes.delete(key));
      return fresh.index;
    },
    async engine(index, inputs, create) {
      const key = inputs.map(modifiedAt).join('\0');
      const kept = engines.get(index);
      if (kept && kept.key === key) return kept.engine;
      const engine = create();
      engines.set(index, { key, engine });
      engine.catch(() => engines.get(index)?.engine === engine && engines.delete(index));
      return engine;
    },
    refresh(location, work) {
      return writer && !location.postgres && location.dbPath === writer.dbPath ? writer.exclusive(work) : work();
    },
    async tokenizer(name, start) {
      let kept = tokenizers.get(name);
      if (!kept) {
        kept = start();
        tokenizers.set(name, kept);
        kept.catch(() => tokenizers.get(name) === kept && tokenizers.delete(name));
      }
      return kept;
    },
    async close() {
      const kept = [...indexes.values(), ...retired.keys()];
      for (const timer of retired.values()) clearTimeout(timer);
      indexes.clear();
      retired.clear();
      await Promise.all(kept.map(closeKept));
    },
  };
}

let active: WarmPool | undefined;

/** The pool of this process when it answers for others (`knowing watch`), else undefined. */
export function activeWarmPool(): WarmPool | undefined {
  return active;
}

/**
 * Keep indexes, engines and tokenizers warm in this process from now on, until the pool is
 * closed. `writer`: the process's own index runs, which answers' refreshes take turns with.
 */
export function startWarmPool(options: { readonly writer?: IndexWriter } = {}): WarmPool {
  const pool = createWarmPool(options);
  active = pool;
  return {
    ...pool,
    async close() {
      if (active === pool) active = undefined;
      await pool.close();
    },
  };
}
