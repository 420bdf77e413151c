import { ErrorCode, KnowingError } from '@knowing/graph';
import type { ContextPack, GraphEdge, NodeId, RankedSymbol } from '@knowing/graph';
import { estimateTokens, lineCost } from './tokens.js';
import type { DiffOptions, PackComparison, PackDelta } from './types.js';

/** Defaults of {@link diffPacks}. */
export const DEFAULT_DIFF_OPTIONS: Readonly<Required<Pick<DiffOptions, 'threshold'>>> = Object.freeze({
  threshold: 0.6,
});

const edgeKey = (edge: GraphEdge): string => `${edge.source}\0${edge.target}\0${edge.type}`;

function byId(symbols: readonly RankedSymbol[]): Map<NodeId, RankedSymbol> {
  const map = new Map<NodeId, RankedSymbol>();
  for (const symbol of symbols) if (!map.has(symbol.node.id)) map.set(symbol.node.id, symbol);
  return map;
}

/**
 * Which symbols two packs share. `overlap` is the Jaccard index |kept| / |union|.
 *
 * @example
 * ```ts
 * const { added, removed, overlap } = comparePacks(before, after);
 * ```
 */
export function comparePacks(a: Pick<ContextPack, 'symbols'>, b: Pick<ContextPack, 'symbols'>): PackComparison {
  const first = byId(a.symbols);
  const second = byId(b.symbols);
  const added = [...second.values()].filter((symbol) => !first.has(symbol.node.id));
  const kept = [...second.values()].filter((symbol) => first.has(symbol.node.id));
  const removed = [...first.values()].filter((symbol) => !second.has(symbol.node.id));
  const union = kept.length + added.length + removed.length;
  return { added, removed, kept, overlap: union === 0 ? 1 : kept.length / union, identical: added.length === 0 && removed.length === 0 };
}

/**
 * The delta from `previous` to `next` — symbols and edges removed and added — or null when
 * sending it would not pay: its estimated cost must be below `threshold` (60 %) of the full
 * next pack's. Costs are estimated on one scale: added symbols like packed ones (see
 * `estimateTokens`), removed symbols as a `kind qualifiedName` reference line, edges as a
 * `source -> target type` line.
 *
 * @example
 * ```ts
 * const delta = diffPacks(lastSent, pack, { format: 'gcf' });
 * if (delta) send(encodeDelta(delta)); else send(encodePack(pack));
 * ```
 */
export function diffPacks(previous: ContextPack, next: ContextPack, options: DiffOptions = {}): PackDelta | null {
  const threshold = options.threshold ?? DEFAULT_DIFF_OPTIONS.threshold;
  if (Number.isNaN(threshold) || threshold < 0) {
    throw new KnowingError(ErrorCode.InvalidArgument, `threshold must be a number ≥ 0, got ${threshold}`, { source: 'pack' });
  }
  const { added, removed } = comparePacks(previous, next);
  const previousEdges = new Set(previous.edges.map(edgeKey));
  const nextEdges = new Set(next.edges.map(edgeKey));
  const removedEdges = previous.edges.filter((edge) => !nextEdges.has(edgeKey(edge)));
  const addedEdges = next.edges.filter((edge) => !previousEdges.has(edgeKey(edge)));

  const names = new Map<NodeId, string>();
  for (const symbol of [...previous.symbols, ...next.symbols]) names.set(symbol.node.id, symbol.node.qualifiedName);
  const line = lineCost(options);
  const symbolCost = (symbol: RankedSymbol): number => estimateTokens(symbol, options);
  const edgeCost = (edge: GraphEdge): number => line(`${names.get(edge.source) ?? edge.source} -> ${names.get(edge.target) ?? edge.target} ${edge.type}`);
  const sum = <T>(items: readonly T[], cost: (item: T) => number): number => items.reduce((total, item) => total + cost(item), 0);

  const fullTokens = sum(next.symbols, symbolCost) + sum(next.edges, edgeCost);
  const tokens =
    sum(removed, (symbol) => line(`${symbol.node.kind} ${symbol.node.qualifiedName}`)) +
    sum(added, symbolCost) +
    sum(removedEdges, edgeCost) +
    sum(addedEdges, edgeCost);
  if (!(tokens < threshold * fullTokens)) return null;
  return {
    baseRoot: previous.packRoot,
    newRoot: next.packRoot,
    removedSymbols: removed,
    addedSymbols: added,
    removedEdges,
    addedEdges,
    tokens,
    fullTokens,
    savings: 1 - tokens / fullTokens,
  };
}
