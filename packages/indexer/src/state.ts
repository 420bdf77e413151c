/**
 * What the indexer remembers between runs, in the store's notes:
 *
 * - `extraction:<path>`: each file's full extraction, keyed by its content hash, so a file
 *   whose dependencies changed can be re-resolved without parsing.
 * - `indexer:tables`: every file's symbol table (an extraction without references, lines,
 *   docs or signatures): what other files' resolution reads. Unchanged by body-only edits.
 * - `indexer:state`: per file its size, mtime, hashes, edge counts, external names and test
 *   targets; per derived owner its output hash and edge counts.
 *
 * The state is stamped with the snapshot its batch produced and names the tables it goes
 * with; a mismatch (a run killed between writes, another writer) makes the indexer distrust
 * both and take the full path, which rewrites every owner.
 */
import { createHash } from 'node:crypto';
import type { GraphStore, NodeId } from '@knowing/graph';
import { decodeExtractions, encodeExtractions, extractionPayload } from './codec.js';
import type { CachedExtraction } from './codec.js';
import type { FileExtraction } from './languages/types.js';
import { qualifiedNameOf } from './resolve.js';

const STATE_KEY = 'indexer:state';
const STATE_KIND = 'indexer-state';
const TABLES_KEY = 'indexer:tables';
const TABLES_KIND = 'indexer-tables';
const STATE_VERSION = 5;

/** Bookkeeping for one file. */
export interface FileState {
  readonly sizeBytes: number;
  readonly mtimeMs: number;
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
}

/** As stored: external names once, files refer to them by index (they repeat a lot). */
interface StoredState extends Omit<IndexState, 'files'> {
  readonly externalNames: readonly string[];
  readonly files: Readonly<Record<string, Omit<FileState, 'externals'> & { readonly externals: readonly number[] }>>;
}

/** The state, if it describes the graph currently in the store. */
export async function loadState(store: GraphStore, repoId: string): Promise<IndexState | undefined> {
  const note = await store.getNote(STATE_KEY);
  if (!note) return undefined;
  const snapshot = await store.currentSnapshot();
  if (!snapshot || note.snapshot !== snapshot.id) return undefined;
  let stored: StoredState;
  try {
    stored = JSON.parse(new TextDecoder().decode(note.value)) as StoredState;
  } catch {
    return undefined;
  }
  if (stored.v !== STATE_VERSION || stored.repoId !== repoId) return undefined;
  const files: Record<string, FileState> = {};
  for (const [file, entry] of Object.entries(stored.files)) {
    files[file] = { ...entry, externals: entry.externals.map((index) => stored.externalNames[index]!) };
  }
  return { v: stored.v, repoId: stored.repoId, tablesId: stored.tablesId, files, derived: stored.derived };
}

/** Record the state after a batch, stamped with the snapshot the batch produced. */
export async function saveState(store: GraphStore, state: Omit<IndexState, 'v'>, snapshotId: string): Promise<void> {
  const index = new Map<string, number>();
  const externalNames: string[] = [];
  const files: Record<string, StoredState['files'][string]> = {};
  for (const [file, entry] of Object.entries(state.files)) {
    const externals = entry.externals.map((name) => {
      let at = index.get(name);
      if (at === undefined) {
        at = externalNames.length;
        externalNames.push(name);
        index.set(name, at);
      }
      return at;
    });
    files[file] = { ...entry, externals };
  }
  const stored: StoredState = { v: STATE_VERSION, repoId: state.repoId, tablesId: state.tablesId, derived: state.derived, externalNames, files };
  await store.putNote(STATE_KEY, STATE_KIND, new TextEncoder().encode(JSON.stringify(stored)), snapshotId);
}

/** The symbol tables the state names, or undefined when they are missing or another version. */
export async function loadTables(store: GraphStore, state: IndexState): Promise<Map<string, FileExtraction> | undefined> {
  const note = await store.getNote(TABLES_KEY);
  if (!note || tablesIdOf(note.value) !== state.tablesId) return undefined;
  const entries = decodeExtractions(note.value);
  if (!entries) return undefined;
  return new Map(entries.map((entry) => [entry.extraction.path, entry.extraction]));
}

/** Store the tables; returns the id the state must name. */
export async function saveTables(store: GraphStore, tables: ReadonlyMap<string, FileExtraction>): Promise<string> {
  const entries: CachedExtraction[] = [...tables.values()].map((extraction) => ({ extraction, contentHash: '', moduleVersion: '' }));
  const bytes = encodeExtractions(entries);
  await store.putNote(TABLES_KEY, TABLES_KIND, bytes, null);
  return tablesIdOf(bytes);
}

function tablesIdOf(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
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
