/**
 * What the in-memory store holds, shared by its reads, its batch writer and its searches.
 * Internal: `@knowing/graph/memory` exports only the factory and its options.
 */
import { ErrorCode, KnowingError } from './errors.js';
import { merkleRoot } from './identity.js';
import { packageOf } from './names.js';
import type {
  FileRecord,
  GraphEdge,
  GraphNode,
  LexicalField,
  Note,
  NodeId,
  RepoInfo,
  Snapshot,
  TextColumn,
  VocabAssociation,
} from './types.js';

const SOURCE = 'graph';

export function invalid(message: string, hint?: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, `memory store: ${message}`, { source: SOURCE, ...(hint ? { hint } : {}) });
}

export function closedError(action: string): KnowingError {
  return new KnowingError(ErrorCode.StoreClosed, `memory store: ${action} after the store was closed`, {
    source: SOURCE,
    hint: 'create a new store with createMemoryStore()',
  });
}

export function limitOf(limit: number | undefined, fallback: number, where: string): number {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 0) throw invalid(`${where}: limit must be a non-negative integer, got ${String(limit)}`);
  return limit;
}

export function weightsOf<K extends string>(
  base: Readonly<Record<K, number>>,
  keys: readonly K[],
  override: Readonly<Partial<Record<K, number>>> | undefined,
  where: string,
): Record<K, number> {
  const merged: Record<K, number> = { ...base };
  for (const [key, weight] of Object.entries(override ?? {}) as [string, number | undefined][]) {
    if (!keys.includes(key as K)) throw invalid(`${where}: unknown column '${key}'`, `use one of ${keys.join(', ')}`);
    if (weight === undefined) continue;
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      throw invalid(`${where}: weight of '${key}' must be a finite number ≥ 0, got ${String(weight)}`);
    }
    merged[key as K] = weight;
  }
  return merged;
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface StoredNode {
  readonly node: GraphNode;
  /** Insertion order, the last tie-breaker of every ordered result. */
  readonly seq: number;
  /** Tokens per text column, computed on first search. */
  text?: Readonly<Record<TextColumn, readonly string[]>>;
}

export interface StoredEdge {
  readonly edge: GraphEdge;
  readonly owner: string;
  /** The Merkle leaf: `edgeKey(source, target, type)`. */
  readonly leaf: string;
}

export interface LexicalEntry {
  readonly terms: Readonly<Record<LexicalField, readonly string[]>>;
  readonly length: number;
}

export interface FeedbackRow {
  readonly symbol: NodeId;
  readonly useful: boolean;
  readonly root: string | null;
  readonly cluster: string | null;
}

export interface MemoryState {
  closed: boolean;
  repo: RepoInfo | null;
  nextSeq: number;
  snapshot: Snapshot | null;
  readonly nodes: Map<NodeId, StoredNode>;
  readonly nodesByFile: Map<string, Set<NodeId>>;
  readonly files: Map<string, FileRecord>;
  /** Edges by `source \0 type \0 target`. */
  readonly edges: Map<string, StoredEdge>;
  /** Edge keys by source node. */
  readonly outgoing: Map<NodeId, Set<string>>;
  /** Edge keys by target node. */
  readonly incoming: Map<NodeId, Set<string>>;
  /** Edge keys by owner. */
  readonly owned: Map<string, Set<string>>;
  readonly lexical: Map<NodeId, LexicalEntry>;
  readonly notes: Map<string, Note>;
  readonly feedback: FeedbackRow[];
  /** Vocabulary pairs by `keyword \0 symbol`. */
  readonly vocab: Map<string, VocabAssociation>;
}

export function emptyMemoryState(): MemoryState {
  return {
    closed: false,
    repo: null,
    nextSeq: 1,
    snapshot: null,
    nodes: new Map(),
    nodesByFile: new Map(),
    files: new Map(),
    edges: new Map(),
    outgoing: new Map(),
    incoming: new Map(),
    owned: new Map(),
    lexical: new Map(),
    notes: new Map(),
    feedback: [],
    vocab: new Map(),
  };
}

/** The documented Merkle layout, over every edge: per package, the root of its edge types' roots. */
export function packageRootsOf(state: MemoryState): Map<string, string> {
  const groups = new Map<string, Map<string, string[]>>();
  for (const { edge, leaf } of state.edges.values()) {
    const source = state.nodes.get(edge.source)!.node;
    const pkg = source.external || source.file === '' ? '' : packageOf(source.file);
    let types = groups.get(pkg);
    if (!types) groups.set(pkg, (types = new Map()));
    const leaves = types.get(edge.type);
    if (leaves) leaves.push(leaf);
    else types.set(edge.type, [leaf]);
  }
  const roots = new Map<string, string>();
  for (const pkg of [...groups.keys()].sort(compareText)) {
    roots.set(pkg, merkleRoot([...groups.get(pkg)!.values()].map((leaves) => merkleRoot(leaves))));
  }
  return roots;
}
