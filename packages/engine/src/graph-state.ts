import type { Adjacency, GraphStore, NodeId } from '@knowing/graph';
import {
  detectCommunities,
  deserializeCommunities,
  deserializeTransitions,
  loadAdjacency,
  serializeCommunities,
  serializeTransitions,
  weightedTransitions,
} from '@knowing/walk';
import type { Communities, WalkTransitions } from '@knowing/walk';
import type { EngineWalkOptions } from './options.js';

/** The in-memory view of one snapshot of the graph the walk needs. */
export interface GraphState {
  readonly snapshotId: string | null;
  readonly adjacency: Adjacency;
  readonly transitions: WalkTransitions;
  /** Louvain communities, when stored or cheap enough to compute. */
  readonly communities: Communities | undefined;
  /** Merkle root of each package (directory) at this snapshot, for walk-cache keys. */
  readonly packageRoots: ReadonlyMap<string, string>;
  /** Memo of {@link namespaceWrappers}: whether a module node only wraps types, at this snapshot. */
  readonly namespaces: Map<NodeId, boolean>;
}

const COMMUNITY_NOTE = 'communities';
/**
 * The walk's weighted transitions, stored by a warm-up (`knowing index`): weighing every edge
 * again ran as cold code in every query process (10–30 ms on caddy's 44 K edges).
 */
const TRANSITIONS_NOTE = 'walk-transitions';
/** Communities are computed on demand only for graphs this small; larger ones need `warm()` (at index time). */
const LAZY_COMMUNITY_LIMIT = 30_000;

/**
 * Loads adjacency, transitions and communities once per snapshot and reuses them until the
 * store's snapshot changes. Concurrent callers share one load.
 */
export class GraphStateCache {
  private current: Promise<GraphState> | undefined;
  private currentSnapshot: string | null | undefined;

  /** What the transitions depend on besides the adjacency: the edge weights (sorted) and the lsp weight. */
  private readonly transitionsKey: string;

  constructor(
    private readonly store: GraphStore,
    private readonly walk: EngineWalkOptions,
  ) {
    const weights = Object.entries(walk.edgeWeights).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.transitionsKey = JSON.stringify({ edgeWeights: weights, lspWeight: walk.lspWeight });
  }

  async get(options: { computeCommunities?: boolean } = {}): Promise<GraphState> {
    const snapshot = (await this.store.currentSnapshot())?.id ?? null;
    if (this.current && this.currentSnapshot === snapshot && !options.computeCommunities) return this.current;
    const previous = this.currentSnapshot === snapshot ? this.current : undefined;
    this.currentSnapshot = snapshot;
    this.current = this.load(snapshot, options.computeCommunities ?? false, previous);
    try {
      return await this.current;
    } catch (error) {
      this.current = undefined;
      this.currentSnapshot = undefined;
      throw error;
    }
  }

  clear(): void {
    this.current = undefined;
    this.currentSnapshot = undefined;
  }

  private async load(snapshotId: string | null, forceCommunities: boolean, previous: Promise<GraphState> | undefined): Promise<GraphState> {
    const reused = previous ? await previous.catch(() => undefined) : undefined;
    const adjacency = reused?.adjacency ?? (await loadAdjacency(this.store, { notes: this.store, snapshotId })).adjacency;
    const stored = await this.readNote(snapshotId, TRANSITIONS_NOTE, (bytes) => deserializeTransitions(bytes, { adjacency, key: this.transitionsKey }));
    const transitions = reused?.transitions ?? stored ?? weightedTransitions(adjacency, { edgeWeights: this.walk.edgeWeights, lspWeight: this.walk.lspWeight });
    // A warm-up leaves them stored for the next process, as it does the communities.
    if (forceCommunities && snapshotId && stored === undefined) {
      await this.store.putNote(TRANSITIONS_NOTE, TRANSITIONS_NOTE, serializeTransitions(transitions, this.transitionsKey), snapshotId);
    }
    let communities = reused?.communities ?? (await this.readNote(snapshotId, COMMUNITY_NOTE, (bytes) => deserializeCommunities(bytes, { adjacency })));
    if (!communities && (forceCommunities || adjacency.nodeCount <= LAZY_COMMUNITY_LIMIT)) {
      communities = detectCommunities(adjacency, { transitions });
      if (snapshotId) await this.store.putNote(COMMUNITY_NOTE, COMMUNITY_NOTE, serializeCommunities(communities), snapshotId);
    }
    const packageRoots = reused?.packageRoots ?? (await this.store.packageRoots());
    const namespaces = reused?.namespaces ?? new Map<NodeId, boolean>();
    return { snapshotId, adjacency, transitions, communities, packageRoots, namespaces };
  }

  /** A note stamped with this snapshot, decoded; undefined when missing, stale or undecodable. */
  private async readNote<T>(snapshotId: string | null, key: string, decode: (bytes: Uint8Array) => T | undefined): Promise<T | undefined> {
    if (!snapshotId) return undefined;
    const note = await this.store.getNote(key);
    if (!note || note.snapshot !== snapshotId) return undefined;
    try {
      return decode(note.value);
    } catch {
      return undefined;
    }
  }
}

/** What a warm-up built: the sizes of the adjacency and how many communities it holds. */
export interface WarmSummary {
  readonly nodes: number;
  readonly edges: number;
  readonly communities: number;
}

/** Build (or load) the adjacency and the communities of the store's current snapshot, storing both as notes. */
export async function warmGraphState(cache: GraphStateCache): Promise<WarmSummary> {
  const state = await cache.get({ computeCommunities: true });
  return { nodes: state.adjacency.nodeCount, edges: state.adjacency.edgeCount, communities: state.communities?.count ?? 0 };
}
