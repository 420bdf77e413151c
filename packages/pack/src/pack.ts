import { ErrorCode, KnowingError } from '@knowing/graph';
import type { ContextPack, GraphEdge, NodeId, RankedSymbol } from '@knowing/graph';
import { packRoot } from './root.js';
import { packDensity, packFileGrouped, packTopK } from './strategies.js';
import type { NodeIdSet, PackOptions, PackSelection, PackStrategy } from './types.js';

/** Defaults of {@link packSymbols} beyond the strategies' own. */
export const DEFAULT_PACK_SYMBOLS_OPTIONS: Readonly<Required<Pick<PackOptions, 'strategy' | 'task'>>> = Object.freeze({
  strategy: 'density',
  task: '',
});

/** The strategies `packSymbols` dispatches to. */
export const PACK_STRATEGIES: readonly PackStrategy[] = Object.freeze(['density', 'file-grouped', 'top-k']);

function idsOf(selected: NodeIdSet): ReadonlySet<NodeId> {
  const ids = new Set<NodeId>();
  for (const entry of selected as Iterable<NodeId | RankedSymbol>) ids.add(typeof entry === 'string' ? entry : entry.node.id);
  return ids;
}

/**
 * The edges whose both endpoints are selected, each (source, target, type) once, in input
 * order.
 *
 * @example
 * ```ts
 * const edges = edgesAmong(pack.symbols, candidateEdges);
 * ```
 */
export function edgesAmong(selected: NodeIdSet, edges: Iterable<GraphEdge>): GraphEdge[] {
  const ids = idsOf(selected);
  const seen = new Set<string>();
  const out: GraphEdge[] = [];
  for (const edge of edges) {
    if (!ids.has(edge.source) || !ids.has(edge.target)) continue;
    const key = `${edge.source}\0${edge.target}\0${edge.type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(edge);
  }
  return out;
}

function select(candidates: readonly RankedSymbol[], options: PackOptions): PackSelection {
  const strategy = options.strategy ?? DEFAULT_PACK_SYMBOLS_OPTIONS.strategy;
  switch (strategy) {
    case 'density':
      return packDensity(candidates, options);
    case 'file-grouped':
      return packFileGrouped(candidates, options);
    case 'top-k':
      return packTopK(candidates, options);
    default:
      throw new KnowingError(ErrorCode.InvalidArgument, `unknown packing strategy ${JSON.stringify(strategy)}`, {
        source: 'pack',
        hint: `use one of ${PACK_STRATEGIES.join(', ')}`,
      });
  }
}

/**
 * Pack ranked symbols into a token budget with the chosen strategy and return a
 * `ContextPack`: the selection (best score first), the given edges among it, the estimated
 * tokens used and the pack root of `task` and the selected ids.
 *
 * @example
 * ```ts
 * const pack = packSymbols(ranked, { task, budget: 8000, strategy: 'density', format: 'gcf', edges });
 * pack.packRoot; // same task and selection → same root
 * ```
 */
export function packSymbols(candidates: readonly RankedSymbol[], options: PackOptions = {}): ContextPack {
  const selection = select(candidates, options);
  const ids = selection.symbols.map((symbol) => symbol.node.id);
  return {
    symbols: selection.symbols,
    edges: options.edges ? edgesAmong(ids, options.edges) : [],
    tokensUsed: selection.tokensUsed,
    tokenBudget: selection.tokenBudget,
    packRoot: packRoot(options.task ?? DEFAULT_PACK_SYMBOLS_OPTIONS.task, ids),
  };
}
