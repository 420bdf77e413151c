/**
 * What the indexer remembers between runs, in the store's notes:
 *
 * - `extraction:<path>`: each file's full extraction, keyed by its content hash, so a file
 *   whose dependencies changed can be re-resolved without parsing.
 * - `indexer:tables`: every file's symbol table (an extraction without references, lines,
 *   docs or signatures): what other files' resolution reads, with the links the project-wide
 *   passes computed from them (see `ProjectLinks`). Unchanged by body-only edits, which
 *   resolve against it reading only the tables they reach.
 * - `indexer:state`: per file its size, mtime, hashes, edge counts, external names and test
 *   targets; per derived owner its output hash and edge counts.
 * - `indexer:file-stats`: per file its size, times and content hash alone, which is all a
 *   freshness check reads (see `StoredFileStats`).
 * - `indexer:directories`: the directory listings of the last walk (see `DirectoryListing`),
 *   a cache that each listing's mtime validates on its own: written only when it changed,
 *   and trusted whatever state it comes with.
 *
 * The state is stamped with the snapshot its batch produced and names the tables it goes
 * with; a mismatch (a run killed between writes, another writer) makes the indexer distrust
 * both and take the full path, which rewrites every owner.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { GraphStore } from '@knowing/graph';
import { encodeTables, extractionPayload, openTables, peekTablesId } from './codec.js';
import type { TablesReader } from './codec.js';
import type { DirectoryListing } from './discover.js';
import { Interner } from './interner.js';
import type { FileExtraction } from './languages/types.js';
import { qualifiedNameOf } from './resolve.js';
import type { ProjectLinks } from './resolve.js';
import { DELTA_KEY, DIRECTORIES_KEY, DIRECTORIES_VERSION, FILE_STATS_KEY, STATE_KEY, STATE_STAMP, fileStatsOf, sameBytes } from './state-load.js';
import type { FileState, IndexState, StoredDelta, StoredDirectories, StoredState } from './state-load.js';

// The read side lives in state-load.ts (see there why); indexer.ts takes both from here.
export { loadDirectories, loadState } from './state-load.js';
export type { DerivedState, FileState, IndexState } from './state-load.js';

const STATE_KIND = 'indexer-state';
const TABLES_KEY = 'indexer:tables';
const TABLES_KIND = 'indexer-tables';
const encoder = new TextEncoder();

const DELTA_KIND = 'indexer-state-delta';
const FILE_STATS_KIND = 'indexer-file-stats';
/** A delta of more files than this is folded into a rewritten state note. */
const MAX_DELTA_FILES = 64;

/**
 * Record the state after a batch, stamped with the snapshot the batch produced. When the
 * state was loaded as `previous` and the same files remain, only the files that differ from
 * its state note go out, in the delta note; otherwise (or when the delta grew too large) the
 * whole state is rewritten and the delta dropped.
 */
export async function saveState(store: GraphStore, state: Omit<IndexState, 'v' | 'basis'>, snapshotId: string, previous?: IndexState): Promise<void> {
  await saveStateNotes(store, state, snapshotId, previous);
  // After the state: stamped with the snapshot, it stands for a state that is there.
  await store.putNote(FILE_STATS_KEY, FILE_STATS_KIND, encoder.encode(JSON.stringify(fileStatsOf(state.repoId, state.files))), snapshotId);
}

async function saveStateNotes(store: GraphStore, state: Omit<IndexState, 'v' | 'basis'>, snapshotId: string, previous?: IndexState): Promise<void> {
  const changed = previous?.basis ? filesToDelta(previous, state.files) : undefined;
  if (changed) {
    const delta: StoredDelta = { v: STATE_STAMP, base: previous!.basis!.stateId, repoId: state.repoId, tablesId: state.tablesId, derived: state.derived, files: changed };
    await store.putNote(DELTA_KEY, DELTA_KIND, encoder.encode(JSON.stringify(delta)), snapshotId);
    return;
  }
  const externalNames = new Interner<string>();
  const files: Record<string, StoredState['files'][string]> = {};
  for (const [file, entry] of Object.entries(state.files)) {
    files[file] = { ...entry, externals: entry.externals.map((name) => externalNames.id(name)) };
  }
  const stored: StoredState = { v: STATE_STAMP, id: randomUUID(), repoId: state.repoId, tablesId: state.tablesId, derived: state.derived, externalNames: externalNames.list, files };
  await store.putNote(STATE_KEY, STATE_KIND, encoder.encode(JSON.stringify(stored)), snapshotId);
  // A delta left behind names a state note that no longer exists: harmless, but dead weight.
  await store.deleteNote(DELTA_KEY);
}

/**
 * The files of `files` that differ from `previous`'s state note (entries this run replaced,
 * and those its delta already overrode), or undefined when a delta cannot express the change
 * (files added or removed) or would hold more than {@link MAX_DELTA_FILES} or a quarter of the files.
 */
function filesToDelta(previous: IndexState, files: Readonly<Record<string, FileState>>): Record<string, FileState> | undefined {
  const changed: Record<string, FileState> = {};
  let count = 0;
  let total = 0;
  for (const file in files) {
    const before = previous.files[file];
    if (!before) return undefined;
    total++;
    // Untouched entries are the very objects loaded (see indexRepository), so identity tells.
    if (files[file] === before && !previous.basis!.deltaPaths.has(file)) continue;
    if (++count > MAX_DELTA_FILES) return undefined;
    changed[file] = files[file]!;
  }
  // Past a quarter of the files, the whole state is about as cheap and keeps the delta small.
  return total === Object.keys(previous.files).length && count * 4 <= total ? changed : undefined;
}

const DIRECTORIES_KIND = 'indexer-directories';

/** Store the listings of a walk under `root`, unless they are the ones already stored. */
export async function saveDirectories(store: GraphStore, root: string, previous: ReadonlyMap<string, DirectoryListing>, listings: ReadonlyMap<string, DirectoryListing>): Promise<void> {
  if (sameListings(previous, listings)) return;
  const stored: StoredDirectories = { v: DIRECTORIES_VERSION, root, listings: Object.fromEntries(listings) };
  await store.putNote(DIRECTORIES_KEY, DIRECTORIES_KIND, encoder.encode(JSON.stringify(stored)), null);
}

/**
 * Whether two sets of listings name the same directories with the same mtimes and ignore
 * verdicts (entries change only with the mtime; verdicts with the rules).
 */
function sameListings(a: ReadonlyMap<string, DirectoryListing>, b: ReadonlyMap<string, DirectoryListing>): boolean {
  if (a.size !== b.size) return false;
  for (const [dir, listing] of a) {
    const other = b.get(dir);
    if (other === listing) continue;
    if (other?.mtimeMs !== listing.mtimeMs || other.rules !== listing.rules || other.ignored !== listing.ignored) return false;
  }
  return true;
}

/**
 * The tables the state names, opened to read one file's table at a time, with the links
 * stored with them; undefined when they are missing, of another version or without links.
 */
export async function loadLinkedTables(store: GraphStore, state: IndexState): Promise<(TablesReader & { readonly links: ProjectLinks }) | undefined> {
  const note = await store.getNote(TABLES_KEY);
  if (!note || peekTablesId(note.value) !== state.tablesId) return undefined;
  const reader = openedTables(note.value);
  if (!reader?.links || reader.count !== reader.links.paths.length) return undefined;
  return reader as TablesReader & { readonly links: ProjectLinks };
}

/**
 * The tables note this process opened last, with its bytes. Body-only edits leave the tables
 * as they are, so a watcher opens the same note on every run; opening it parses its strings
 * and links (about 5 ms on cargo). A reader only reads: it is safe to hand out again.
 */
let lastTables: { readonly bytes: Uint8Array; readonly reader: TablesReader | undefined } | undefined;

function openedTables(bytes: Uint8Array): TablesReader | undefined {
  if (lastTables && sameBytes(lastTables.bytes, bytes)) return lastTables.reader;
  const reader = openTables(bytes);
  lastTables = { bytes, reader };
  return reader;
}

/** Store the tables, in the order of `links.paths`, with the links; returns the id the state must name. */
export async function saveTables(store: GraphStore, tables: Iterable<FileExtraction>, links: ProjectLinks): Promise<string> {
  const { id, bytes } = encodeTables(tables, links);
  await store.putNote(TABLES_KEY, TABLES_KIND, bytes, null);
  return id;
}

/**
 * The part of an extraction other files' resolution reads: definitions' names (and local
 * names), kinds, nesting, supertypes, value types and test flags, the imports, the
 * implementations and the namespace. Lines,
 * signatures, docs, decorators, annotations and references are the file's own business.
 */
export function tableOf(extraction: FileExtraction): FileExtraction {
  // Duplicates (same qualified name and kind) are dropped here, keeping the first as the
  // resolver does, so a project built from tables need not look for them.
  const keep: number[] = [];
  const remap = new Int32Array(extraction.symbols.length);
  const seen = new Map<string, number>();
  extraction.symbols.forEach((symbol, index) => {
    const key = `${qualifiedNameOf(extraction.path, symbol)}\0${symbol.kind}`;
    const first = seen.get(key);
    if (first !== undefined) {
      remap[index] = first;
      return;
    }
    seen.set(key, keep.length);
    remap[index] = keep.length;
    keep.push(index);
  });
  return {
    path: extraction.path,
    language: extraction.language,
    namespace: extraction.namespace,
    syntaxErrors: 0,
    references: [],
    imports: extraction.imports.map((decl) => ({ ...decl, line: 0 })),
    ...(extraction.implementations && extraction.implementations.length > 0
      ? { implementations: extraction.implementations.map((implementation) => ({ ...implementation, line: 0 })) }
      : {}),
    symbols: keep.map((index) => {
      const symbol = extraction.symbols[index]!;
      const parent = symbol.parent >= 0 && symbol.parent < remap.length ? remap[symbol.parent]! : -1;
      return {
        name: symbol.name,
        kind: symbol.kind,
        scope: symbol.scope,
        ...(symbol.localName !== undefined ? { localName: symbol.localName } : {}),
        startLine: 0,
        endLine: 0,
        signature: '',
        doc: '',
        isTest: symbol.isTest,
        parent,
        exported: symbol.exported,
        ...(symbol.supertypes ? { supertypes: symbol.supertypes } : {}),
        ...(symbol.valueType ? { valueType: symbol.valueType } : {}),
      };
    }),
  };
}

/** Hash of a table (see {@link tableOf}), stable across runs. */
export function tableHash(table: FileExtraction, moduleVersion: string): string {
  return createHash('sha1').update(JSON.stringify(extractionPayload(table, '', moduleVersion))).digest('hex');
}
