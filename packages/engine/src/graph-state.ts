import type { Adjacency, GraphStore, NodeId } from '@knowing/graph';
import { detectCommunities, deserializeCommunities, loadAdjacency, serializeCommunities, transitionsFor } from '@knowing/walk';
import type { Communities, TransitionOptions } from '@knowing/walk';
import type { EngineWalkOptions } from './options.js';

/** The in-memory view of one snapshot of the graph the walk needs. */
export interface GraphState {
  readonly snapshotId: string | null;
  readonly adjacency: Adjacency;
  /** How the walk weighs the edges (the engine's edge weights and lsp weight); its kernel weighs them itself. */
  readonly weighting: TransitionOptions;
  /** Louvain communities, when stored or cheap enough to compute. */
  readonly communities: Communities | undefined;
  /** Merkle root of each package (directory) at this snapshot, for walk-cache keys. */
  readonly packageRoots: ReadonlyMap<string, string>;
  /** Memo of {@link namespaceWrappers}: whether a module node only wraps types, at this snapshot. */
  readonly namespaces: Map<NodeId, boolean>;
  /** Nodes per language at this snapshot, when a warm-up stored them (undefined: ask the store). */
  readonly nodesByLanguage: Readonly<Record<string, number>> | undefined;
}

const COMMUNITY_NOTE = 'communities';
/**
 * The walk's weighted transitions, which warm-ups stored until the walk's kernel weighed the
 * edges itself (reading megabytes back took a cold query longer than weighing them).
 * A warm-up deletes the note where an older version left it.
 */
const TRANSITIONS_NOTE = 'walk-transitions';
/**
 * Nodes per language, stored by a warm-up: the vocabulary stage scopes classes to the
 * repository's main language, and counting them scans the whole node table (15 ms of a cold
 * query on cargo).
 */
const LANGUAGES_NOTE = 'node-languages';
/** Communities are computed on demand only for graphs this small; larger ones need `warm()` (at index time). */
const LAZY_COMMUNITY_LIMIT = 30_000;

/**
 * Loads adjacency, transitions and communities once per snapshot and reuses them until the
 * store's snapshot changes. Concurrent callers share one load.
 */
export class GraphStateCache {
  private current: Promise<GraphState> | undefined;
  private currentSnapshot: string | null | undefined;

  /** How the walk weighs the edges: the engine's edge weights and lsp weight. */
  private readonly weighting: TransitionOptions;

  constructor(
    private readonly store: GraphStore,
    private readonly walk: EngineWalkOptions,
  ) {
    this.weighting = { edgeWeights: walk.edgeWeights, lspWeight: walk.lspWeight };
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
    let communities = reused?.communities ?? (await this.readNote(snapshotId, COMMUNITY_NOTE, (bytes) => deserializeCommunities(bytes, { adjacency })));
    if (!communities && (forceCommunities || adjacency.nodeCount <= LAZY_COMMUNITY_LIMIT)) {
      communities = detectCommunities(adjacency, { transitions: transitionsFor(adjacency, this.weighting) });
      if (snapshotId) await this.store.putNote(COMMUNITY_NOTE, COMMUNITY_NOTE, serializeCommunities(communities), snapshotId);
    }
    // A warm-up (after every index run) drops the transitions an older version stored.
    if (forceCommunities) await this.store.deleteNote(TRANSITIONS_NOTE);
    let nodesByLanguage = reused?.nodesByLanguage ?? (await this.readNote(snapshotId, LANGUAGES_NOTE, decodeLanguageCounts));
    if (!nodesByLanguage && forceCommunities && snapshotId) {
      nodesByLanguage = (this.store.nodeCounts ? await this.store.nodeCounts() : await this.store.counts()).nodesByLanguage;
      await this.store.putNote(LANGUAGES_NOTE, LANGUAGES_NOTE, new TextEncoder().encode(JSON.stringify(nodesByLanguage)), snapshotId);
    }
    const packageRoots = reused?.packageRoots ?? (await this.store.packageRoots());
    const namespaces = reused?.namespaces ?? new Map<NodeId, boolean>();
    return { snapshotId, adjacency, weighting: this.weighting, communities, packageRoots, namespaces, nodesByLanguage };
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

/** A stored count per language; undefined for anything else (the counts are then asked of the store). */
function decodeLanguageCounts(bytes: Uint8Array): Record<string, number> | undefined {
  const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const counts: Record<string, number> = {};
  for (const [language, count] of Object.entries(value)) {
    if (typeof count !== 'number' || !Number.isFinite(count) || count < 0) return undefined;
    counts[language] = count;
  }
  return counts;
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
