/**
 * `@knowing/engine/warm`: the warm-up an index run ends with, without the rest of the engine.
 * `knowing index` builds the adjacency and the communities of the graph it wrote and needs
 * nothing else of the engine; loading all of it (keywords, vocabulary, rankers, packing) cost
 * ~40 ms of every index run.
 */
import type { GraphStore } from '@knowing/graph';
import { GraphStateCache, warmGraphState } from './graph-state.js';
import type { WarmSummary } from './graph-state.js';
import { DEFAULT_ENGINE_OPTIONS } from './options.js';
import type { EngineWalkOptions } from './options.js';

export type { WarmSummary } from './graph-state.js';

/** Options of {@link warmGraph}. */
export interface WarmGraphOptions {
  /** The walk options of the engines that will read the notes (edge weights weigh the communities). @default DEFAULT_ENGINE_OPTIONS.walk */
  readonly walk?: EngineWalkOptions;
}

/**
 * What `createEngine({ store, options: { walk } }).warm()` does — build (or load) the walk's
 * adjacency and the Louvain communities of the store's current snapshot and store them as notes
 * stamped with it — loading only the walk.
 *
 * @example
 * ```ts
 * import { warmGraph } from '@knowing/engine/warm';
 *
 * await indexRepository({ root, store });
 * const { nodes, communities } = await warmGraph(store);
 * ```
 */
export function warmGraph(store: GraphStore, options: WarmGraphOptions = {}): Promise<WarmSummary> {
  return warmGraphState(new GraphStateCache(store, options.walk ?? DEFAULT_ENGINE_OPTIONS.walk));
}
