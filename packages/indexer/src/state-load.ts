/**
 * Reading back the indexer's bookkeeping (see state.ts): the state of every file and the
 * directory listings of the last walk. Apart from state.ts, which writes them, because a
 * freshness check (fresh.ts) reads them before every answer: this file imports neither the
 * tables' codec nor the resolver, so the light entry point `@knowing/indexer/fresh` does not
 * load them either.
 */
import type { GraphStore, NodeId } from '@knowing/graph';
import type { DirectoryListing, KnownFileState } from './discover.js';
import { LEXICAL_VERSION } from './lexical.js';

export const STATE_KEY = 'indexer:state';
/**
 * Bumped when the layout changes, and when a derived pass's rules change: the fast path keeps
 * derived edges of unchanged tables, so a state of the old rules must not be trusted. 7: files
 * carry lexical documents, which every file of an older index lacks until written again.
 * 8: files carry their ctime. 9: test-support layouts (a top-level `testing/`, `*-test-support`
 * crates) are test code in every language, which changes `isTest` of unchanged files.
 */
const STATE_VERSION = 9;
/**
 * What a stored state is valid for: its layout and rules, and the make-up of the lexical
 * documents its files were written with (a new make-up rewrites every file once).
 */
export const STATE_STAMP = STATE_VERSION * 100 + LEXICAL_VERSION;
const decoder = new TextDecoder();

/** Bookkeeping for one file. */
export interface FileState {
  readonly sizeBytes: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly contentHash: string;
  readonly moduleVersion: string;
  /** Hash of the file's symbol table: equal tables mean other files resolve against it the same way. */
  readonly tableHash: string;
  /** Hash of everything the file owns in the store (nodes come from the content, edges hashed). */
  readonly outputHash: string;
  /** As in the file's record: when its content was last indexed, and its syntax errors. */
  readonly indexedAt: number;
  readonly syntaxErrors: number;
  /** Nodes the file defines (its file node included), by kind. */
  readonly nodes: Readonly<Record<string, number>>;
  /** Edges the file owns, by type. */
  readonly edges: Readonly<Record<string, number>>;
  /** External placeholders the file's edges touch. */
  readonly externals: readonly string[];
  /** Non-test symbols its tests call, first-call order, capped (for co_tested_with). */
  readonly tests: readonly NodeId[];
}

/** Bookkeeping for one derived owner. */
export interface DerivedState {
  readonly hash: string;
  readonly edges: Readonly<Record<string, number>>;
}

export interface IndexState {
  readonly v: number;
  readonly repoId: string;
  /** Id of the tables note this state goes with. */
  readonly tablesId: string;
  readonly files: Readonly<Record<string, FileState>>;
  readonly derived: Readonly<Record<string, DerivedState>>;
  /** Where a loaded state came from, so the next save can write only what changed. */
  readonly basis?: StateBasis;
}

/** A loaded state's origin: the state note, and the files a delta note overrode in it. */
export interface StateBasis {
  /** The id of the state note (see `StoredState.id`). */
  readonly stateId: string;
  readonly deltaPaths: ReadonlySet<string>;
}

/** As stored: external names once, files refer to them by index (they repeat a lot). */
export interface StoredState extends Omit<IndexState, 'files' | 'basis'> {
  /**
   * Drawn anew for every write of the note, so a delta names exactly one of them (snapshot
   * ids name graph contents, which can repeat). Absent in notes of older versions.
   */
  readonly id?: string;
  readonly externalNames: readonly string[];
  readonly files: Readonly<Record<string, Omit<FileState, 'externals'> & { readonly externals: readonly number[] }>>;
}

/**
 * The files of a state that differ from the state note it builds on, stamped with a later
 * snapshot. A one-file re-index rewrites this small note instead of the whole state, which
 * holds every file of the repository.
 */
export interface StoredDelta extends Omit<IndexState, 'basis'> {
  /** The id of the state note this delta applies to. */
  readonly base: string;
}

export const DELTA_KEY = 'indexer:state-delta';

/**
 * The notes this process parsed last, by key, with the bytes they were parsed from. A
 * long-lived process (a watcher) reads the same state and listings before every index run and
 * every answer's freshness check; on a repository of a thousand files, decoding and parsing
 * them costs about as much as checking the files themselves. What is kept is shared by every
 * caller: nobody may change it (loadState overlays a delta on a copy).
 */
const parsedNotes = new Map<string, { readonly bytes: Uint8Array; readonly value: unknown }>();

/** Whether two byte arrays hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/** The note `bytes` of `key` through `parse` (undefined when it fails), parsed again only when they changed. */
function parsedNote<T>(key: string, bytes: Uint8Array, parse: (json: unknown) => T | undefined): T | undefined {
  const last = parsedNotes.get(key);
  if (last && sameBytes(last.bytes, bytes)) return last.value as T | undefined;
  let value: T | undefined;
  try {
    value = parse(JSON.parse(decoder.decode(bytes)));
  } catch {
    value = undefined;
  }
  parsedNotes.set(key, { bytes, value });
  return value;
}

/** A stored state of this version, with its files' external indexes swapped for names. */
type ParsedState = Omit<StoredState, 'files' | 'externalNames'> & { readonly files: Readonly<Record<string, FileState>> };

function parseState(json: unknown): ParsedState | undefined {
  const stored = json as StoredState;
  if (stored.v !== STATE_STAMP) return undefined;
  // The parsed objects are ours: swap the external indexes for names in place rather than
  // copying every file's entry (this runs on every re-index, over every file).
  const names = stored.externalNames;
  for (const entry of Object.values(stored.files) as { externals: readonly number[] | readonly string[] }[]) {
    entry.externals = (entry.externals as readonly number[]).map((index) => names[index]!);
  }
  return stored as unknown as ParsedState;
}

/**
 * The state, if it describes the graph currently in the store: the state note stamped with
 * the current snapshot, or an older state note plus a delta note stamped with it.
 */
export async function loadState(store: GraphStore, repoId: string): Promise<IndexState | undefined> {
  const note = await store.getNote(STATE_KEY);
  if (!note) return undefined;
  const snapshot = await store.currentSnapshot();
  if (!snapshot) return undefined;
  const candidate = await loadDelta(store, snapshot.id, repoId);
  if (!candidate && note.snapshot !== snapshot.id) return undefined;
  const stored = parsedNote(STATE_KEY, note.value, parseState);
  if (!stored || stored.repoId !== repoId) return undefined;
  const delta = candidate && stored.id !== undefined && candidate.base === stored.id ? candidate : undefined;
  if (!delta && note.snapshot !== snapshot.id) return undefined;
  if (!delta) {
    const stateId = stored.id;
    return { v: stored.v, repoId, tablesId: stored.tablesId, files: stored.files, derived: stored.derived, ...(stateId !== undefined ? { basis: { stateId, deltaPaths: new Set<string>() } } : {}) };
  }
  // On a copy: the parsed state note is kept for the next load.
  const files = { ...stored.files };
  for (const [file, entry] of Object.entries(delta.files)) {
    // A delta only ever replaces files the state note has (added or deleted files rewrite it).
    if (!(file in files)) return undefined;
    files[file] = entry;
  }
  return { v: stored.v, repoId, tablesId: delta.tablesId, files, derived: delta.derived, basis: { stateId: delta.base, deltaPaths: new Set(Object.keys(delta.files)) } };
}

/** The delta note, if it is stamped with the current snapshot (whether it applies to the state note is checked by the caller). */
async function loadDelta(store: GraphStore, snapshotId: string, repoId: string): Promise<StoredDelta | undefined> {
  const note = await store.getNote(DELTA_KEY);
  if (!note || note.snapshot !== snapshotId) return undefined;
  try {
    const delta = JSON.parse(decoder.decode(note.value)) as StoredDelta;
    return delta.v === STATE_STAMP && delta.repoId === repoId ? delta : undefined;
  } catch {
    return undefined;
  }
}

export const FILE_STATS_KEY = 'indexer:file-stats';

/**
 * What a freshness check needs of the state, apart from it: per file its size, times and
 * content hash. The state holds much more per file (edge counts, external names, test
 * targets: hundreds of kilobytes on a repository of a thousand files, all parsed to be read),
 * and every answer's check reads this before anything else. Written with every state (or delta)
 * and stamped with the same snapshot, so it stands for the state exactly while that snapshot is
 * current.
 */
export interface StoredFileStats {
  /** {@link STATE_STAMP}: the stats of another layout or rules are not the state's. */
  readonly v: number;
  readonly repoId: string;
  /** Sorted. */
  readonly paths: readonly string[];
  /** Per path, its content hash (`''` for a file whose extraction failed, as in the state). */
  readonly hashes: readonly string[];
  /** Per path, three numbers: size in bytes, mtime and ctime in milliseconds. */
  readonly stats: readonly number[];
}

/** The stats note of `files`. */
export function fileStatsOf(repoId: string, files: Readonly<Record<string, KnownFileState & { readonly ctimeMs: number }>>): StoredFileStats {
  const paths = Object.keys(files).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const hashes: string[] = [];
  const stats: number[] = [];
  for (const file of paths) {
    const entry = files[file]!;
    hashes.push(entry.contentHash);
    stats.push(entry.sizeBytes, entry.mtimeMs, entry.ctimeMs);
  }
  return { v: STATE_STAMP, repoId, paths, hashes, stats };
}

function parseFileStats(json: unknown): { readonly repoId: string; readonly files: ReadonlyMap<string, KnownFileState> } | undefined {
  const stored = json as StoredFileStats;
  if (stored.v !== STATE_STAMP || !Array.isArray(stored.paths) || stored.hashes?.length !== stored.paths.length || stored.stats?.length !== stored.paths.length * 3) return undefined;
  const files = new Map<string, KnownFileState>();
  stored.paths.forEach((file, index) => {
    files.set(file, { sizeBytes: stored.stats[index * 3]!, mtimeMs: stored.stats[index * 3 + 1]!, ctimeMs: stored.stats[index * 3 + 2]!, contentHash: stored.hashes[index]! });
  });
  return { repoId: stored.repoId, files };
}

/**
 * Every indexed file's size, times and content hash, as the state holds them, if the store
 * holds a usable state: from the stats note when it is stamped with the current snapshot,
 * else from the state itself (an index written before the stats note was kept).
 */
export async function loadFileStats(store: GraphStore, repoId: string): Promise<ReadonlyMap<string, KnownFileState> | undefined> {
  const note = await store.getNote(FILE_STATS_KEY);
  if (note && note.snapshot !== null && note.snapshot === (await store.currentSnapshot())?.id) {
    const stats = parsedNote(FILE_STATS_KEY, note.value, parseFileStats);
    if (stats && stats.repoId === repoId) return stats.files;
  }
  const state = await loadState(store, repoId);
  return state ? new Map(Object.entries(state.files)) : undefined;
}

export const DIRECTORIES_KEY = 'indexer:directories';
export const DIRECTORIES_VERSION = 1;

export interface StoredDirectories {
  readonly v: number;
  /** The absolute root the listings were taken under: another root's listings are not reused. */
  readonly root: string;
  readonly listings: Readonly<Record<string, DirectoryListing>>;
}

/** The directory listings last walked under `root` (empty when none were stored). */
export async function loadDirectories(store: GraphStore, root: string): Promise<ReadonlyMap<string, DirectoryListing>> {
  const note = await store.getNote(DIRECTORIES_KEY);
  if (!note) return new Map();
  const stored = parsedNote(DIRECTORIES_KEY, note.value, (json) => {
    const listings = json as StoredDirectories;
    return listings.v === DIRECTORIES_VERSION ? { root: listings.root, listings: new Map(Object.entries(listings.listings)) } : undefined;
  });
  return stored?.root === root ? stored.listings : new Map();
}
