import { NodeFlag, buildAdjacency, deserializeAdjacency, isTypeLike, serializeAdjacency } from '@knowing/graph';
import type { Adjacency, AdjacencyEdge, AdjacencyNode, GraphNode } from '@knowing/graph';
import type { AdjacencyReader, LoadAdjacencyOptions, LoadedAdjacency } from './types.js';

/** Defaults of {@link loadAdjacency}. */
export const DEFAULT_LOAD_OPTIONS: Readonly<Required<Pick<LoadAdjacencyOptions, 'noteKey'>>> = Object.freeze({
  noteKey: 'adjacency',
});

/** Note kind under which the adjacency blob is stored. */
export const ADJACENCY_NOTE_KIND = 'adjacency';

/**
 * Version of what this package puts in the note around the graph's own adjacency layout.
 * Bump it when the node flags, edge selection or order change, so older blobs are rebuilt
 * (2: the canonical order of {@link canonicalOrder}).
 */
export const ADJACENCY_NOTE_VERSION = 2;

const NOTE_MAGIC = [0x4b, 0x4e, 0x57, 0x41]; // "KNWA"
const NOTE_HEADER_BYTES = 8;

/**
 * `NodeFlag` bits of a node: `External` for external placeholders, `Test` for test symbols,
 * `TypeLike` for class-like kinds.
 *
 * @example
 * ```ts
 * nodeFlags({ kind: 'class', external: false, isTest: false }) === NodeFlag.TypeLike; // true
 * ```
 */
export function nodeFlags(node: Pick<GraphNode, 'kind' | 'external' | 'isTest'>): number {
  let flags = 0;
  if (node.external || node.kind === 'external') flags |= NodeFlag.External;
  if (node.isTest) flags |= NodeFlag.Test;
  if (isTypeLike(node.kind)) flags |= NodeFlag.TypeLike;
  return flags;
}

function encodeNote(adjacency: Adjacency): Uint8Array {
  const body = serializeAdjacency(adjacency);
  const bytes = new Uint8Array(NOTE_HEADER_BYTES + body.length);
  bytes.set(NOTE_MAGIC, 0);
  new DataView(bytes.buffer).setUint32(4, ADJACENCY_NOTE_VERSION, true);
  bytes.set(body, NOTE_HEADER_BYTES);
  return bytes;
}

/** The adjacency in a note, or undefined when the note is of another version or corrupt. */
function decodeNote(bytes: Uint8Array): Adjacency | undefined {
  if (bytes.length < NOTE_HEADER_BYTES) return undefined;
  for (let i = 0; i < NOTE_MAGIC.length; i++) if (bytes[i] !== NOTE_MAGIC[i]) return undefined;
  const version = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
  if (version !== ADJACENCY_NOTE_VERSION) return undefined;
  try {
    return deserializeAdjacency(bytes.subarray(NOTE_HEADER_BYTES));
  } catch {
    // A damaged blob is a cache miss: the caller rebuilds from the store.
    return undefined;
  }
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The graph in one order whatever the store's numbering: nodes by id, edges by their ends'
 * places, type, then the stronger evidence first. A store numbers nodes in the order batches
 * created them, so an index kept up to date by incremental runs numbers them differently from a
 * fresh index of the same tree; the walk, its communities and HITS visit nodes in adjacency
 * order, and with the store's order the same code and the same graph could rank differently
 * on two machines.
 */
function canonicalOrder(nodes: AdjacencyNode[], edges: readonly AdjacencyEdge[]): AdjacencyEdge[] {
  nodes.sort((a, b) => compareText(a.id, b.id));
  const place = new Map(nodes.map((node, i) => [node.id, i]));
  // It runs on every rebuild of the adjacency (120K edges on cargo): edges go to their source's
  // bucket in one pass, and only each bucket — a few edges — is sorted. Edges with an end
  // outside the graph are dropped here, as the adjacency would drop them.
  const source = new Int32Array(edges.length);
  const target = new Int32Array(edges.length);
  const start = new Int32Array(nodes.length + 1);
  edges.forEach((edge, i) => {
    source[i] = place.get(edge.source) ?? -1;
    target[i] = place.get(edge.target) ?? -1;
    if (source[i]! >= 0 && target[i]! >= 0) start[source[i]! + 1]!++;
  });
  for (let n = 0; n < nodes.length; n++) start[n + 1]! += start[n]!;
  const order = new Int32Array(start[nodes.length]!);
  const next = start.slice(0, nodes.length);
  for (let i = 0; i < edges.length; i++) if (source[i]! >= 0 && target[i]! >= 0) order[next[source[i]!]!++] = i;
  const byTargetThenEvidence = (i: number, j: number): number => {
    const a = edges[i]!;
    const b = edges[j]!;
    return target[i]! - target[j]! || compareText(a.type, b.type) || b.confidence - a.confidence || compareText(a.provenance, b.provenance);
  };
  for (let n = 0; n < nodes.length; n++) if (start[n + 1]! - start[n]! > 1) order.subarray(start[n]!, start[n + 1]!).sort(byTargetThenEvidence);
  return Array.from(order, (i) => edges[i]!);
}

async function buildFromStore(reader: AdjacencyReader): Promise<Adjacency> {
  const nodes: AdjacencyNode[] = [];
  const edges: AdjacencyEdge[] = [];
  if (reader.graphOutline) {
    const outline = await reader.graphOutline();
    for (const node of outline.nodes) nodes.push({ id: node.id, flags: nodeFlags(node) });
    for (const edge of outline.edges) edges.push(edge);
  } else {
    for await (const node of reader.allNodes()) nodes.push({ id: node.id, flags: nodeFlags(node) });
    for await (const edge of reader.allEdges()) {
      edges.push({ source: edge.source, target: edge.target, type: edge.type, provenance: edge.provenance, confidence: edge.confidence });
    }
  }
  return buildAdjacency(nodes, canonicalOrder(nodes, edges));
}

interface MemoEntry {
  readonly snapshotId: string;
  readonly noteKey: string;
  readonly loading: Promise<LoadedAdjacency>;
}

// One entry per reader: only the latest snapshot's adjacency is worth keeping.
const memo = new WeakMap<object, MemoEntry>();

async function resolveSnapshot(reader: AdjacencyReader, snapshotId: string | null | undefined): Promise<string | null> {
  if (snapshotId !== undefined) return snapshotId;
  if (typeof reader.currentSnapshot === 'function') return (await reader.currentSnapshot())?.id ?? null;
  return null;
}

async function loadFresh(reader: AdjacencyReader, options: LoadAdjacencyOptions, snapshotId: string, noteKey: string): Promise<LoadedAdjacency> {
  const notes = options.notes;
  if (notes) {
    const note = await notes.getNote(noteKey);
    if (note && note.snapshot === snapshotId) {
      const adjacency = decodeNote(note.value);
      if (adjacency) return { adjacency, source: 'note', snapshotId };
    }
  }
  const adjacency = await buildFromStore(reader);
  if (!notes) return { adjacency, source: 'store', snapshotId };
  try {
    await notes.putNote(noteKey, ADJACENCY_NOTE_KIND, encodeNote(adjacency), snapshotId);
    return { adjacency, source: 'store', snapshotId };
  } catch (persistError) {
    // A read-only or busy store still gets a correct adjacency; the caller sees why it was not kept.
    return { adjacency, source: 'store', snapshotId, persistError };
  }
}

/**
 * The CSR adjacency of a store's graph, for the current snapshot. Looked up, in order: in
 * memory (per reader, for the same snapshot), in the note store (a versioned blob of kind
 * `adjacency` stamped with the snapshot id), else built from `allNodes()`/`allEdges()` and
 * written back as a note. A note stamped with another snapshot, or that fails to decode, is
 * rebuilt. Without any snapshot id nothing is cached. Node flags: `External` for external
 * placeholders, `Test` for test symbols, `TypeLike` for class-like kinds.
 *
 * @example
 * ```ts
 * const { adjacency, source } = await loadAdjacency(store, { notes: store });
 * // source: 'memory' | 'note' | 'store'
 * ```
 */
export async function loadAdjacency(reader: AdjacencyReader, options: LoadAdjacencyOptions = {}): Promise<LoadedAdjacency> {
  const noteKey = options.noteKey ?? DEFAULT_LOAD_OPTIONS.noteKey;
  const snapshotId = await resolveSnapshot(reader, options.snapshotId);
  if (snapshotId === null) return { adjacency: await buildFromStore(reader), source: 'store', snapshotId: null };

  const cached = memo.get(reader);
  if (cached && cached.snapshotId === snapshotId && cached.noteKey === noteKey) {
    const loaded = await cached.loading;
    return { adjacency: loaded.adjacency, source: 'memory', snapshotId };
  }
  const loading = loadFresh(reader, options, snapshotId, noteKey);
  const entry: MemoEntry = { snapshotId, noteKey, loading };
  memo.set(reader, entry);
  try {
    return await loading;
  } catch (error) {
    // Do not keep a failed load; the next call tries again.
    if (memo.get(reader) === entry) memo.delete(reader);
    throw error;
  }
}

/**
 * Forget the in-memory adjacency of a reader (for instance after closing its store).
 *
 * @example
 * ```ts
 * await store.close();
 * forgetAdjacency(store);
 * ```
 */
export function forgetAdjacency(reader: object): void {
  memo.delete(reader);
}
