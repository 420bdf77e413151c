import type { ContextPack, GraphEdge, NodeId, RankedSymbol } from '@knowing/graph';
import { invalidArgument } from './errors.js';

/** A pack as every format writes it: unique symbols in display order, edges among them. */
export interface PreparedPack {
  readonly symbols: readonly RankedSymbol[];
  /** Unique (source, target, type) edges with both ends in `symbols`, by source, target, type. */
  readonly edges: readonly GraphEdge[];
  /** Position of each node id in `symbols`. */
  readonly position: ReadonlyMap<NodeId, number>;
  readonly tokensUsed: number;
  readonly tokenBudget: number;
  readonly packRoot: string;
}

/** Descending by score; NaN sorts last so the order stays total. */
function compareScoreDesc(a: number, b: number): number {
  const aNaN = Number.isNaN(a);
  const bNaN = Number.isNaN(b);
  if (aNaN || bNaN) return aNaN === bNaN ? 0 : aNaN ? 1 : -1;
  return a === b ? 0 : a > b ? -1 : 1;
}

/** Plain code-unit comparison: locale-independent, so output is the same everywhere. */
export function compareText(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * Display order: score descending — an agent reads the best first, whatever its distance from a
 * seed — then distance, qualified name, kind and id.
 */
export function compareSymbols(a: RankedSymbol, b: RankedSymbol): number {
  return (
    compareScoreDesc(a.score, b.score) ||
    a.distance - b.distance ||
    compareText(a.node.qualifiedName, b.node.qualifiedName) ||
    compareText(a.node.kind, b.node.kind) ||
    compareText(a.node.id, b.node.id)
  );
}

export function sortSymbols(symbols: readonly RankedSymbol[]): RankedSymbol[] {
  return [...symbols].sort(compareSymbols);
}

function checkCount(value: number, what: string): number {
  const rounded = Math.round(value);
  if (!Number.isSafeInteger(rounded) || rounded < 0) throw invalidArgument(`${what} must be a finite number ≥ 0 (at most 2^53 − 1), got ${value}`);
  return rounded;
}

export function checkSymbol(symbol: RankedSymbol): void {
  const { node } = symbol;
  if (!Number.isSafeInteger(symbol.distance) || symbol.distance < 0) {
    throw invalidArgument(`symbol ${node.qualifiedName} has distance ${symbol.distance}; distances are whole hops ≥ 0`);
  }
  for (const [field, value] of [
    ['startLine', node.startLine],
    ['endLine', node.endLine],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw invalidArgument(`symbol ${node.qualifiedName} has ${field} ${value}; lines are whole numbers ≥ 0`);
  }
}

export const edgeKey = (edge: Pick<GraphEdge, 'source' | 'target' | 'type'>): string => `${edge.source}\0${edge.target}\0${edge.type}`;

/**
 * Deduplicate symbols by node id (first wins), sort them for display, keep each
 * (source, target, type) edge once when both ends are in the pack. Validates what the
 * formats rely on: whole, non-negative distances and lines; finite, non-negative token counts.
 */
export function preparePack(pack: ContextPack): PreparedPack {
  const seen = new Set<NodeId>();
  const unique: RankedSymbol[] = [];
  for (const symbol of pack.symbols) {
    if (seen.has(symbol.node.id)) continue;
    seen.add(symbol.node.id);
    checkSymbol(symbol);
    unique.push(symbol);
  }
  const symbols = unique.sort(compareSymbols);
  const position = new Map<NodeId, number>(symbols.map((symbol, i) => [symbol.node.id, i]));
  const keys = new Set<string>();
  const edges: GraphEdge[] = [];
  for (const edge of pack.edges) {
    if (!position.has(edge.source) || !position.has(edge.target)) continue;
    const key = edgeKey(edge);
    if (keys.has(key)) continue;
    keys.add(key);
    edges.push(edge);
  }
  edges.sort((a, b) => position.get(a.source)! - position.get(b.source)! || position.get(a.target)! - position.get(b.target)! || compareText(a.type, b.type));
  return {
    symbols,
    edges,
    position,
    tokensUsed: checkCount(pack.tokensUsed, 'tokensUsed'),
    tokenBudget: checkCount(pack.tokenBudget, 'tokenBudget'),
    packRoot: pack.packRoot,
  };
}

/** Edges of `pack` that `previous` did not have (by source, target and type). */
export function newEdgeKeys(pack: PreparedPack, previous: ContextPack | undefined): ReadonlySet<string> | undefined {
  if (!previous) return undefined;
  const before = new Set(previous.edges.map(edgeKey));
  return new Set(pack.edges.map(edgeKey).filter((key) => !before.has(key)));
}

/** The three groups of the xml and markdown formats. */
export type GroupName = 'target' | 'related' | 'extended';

export function groupOf(distance: number): GroupName {
  return distance === 0 ? 'target' : distance === 1 ? 'related' : 'extended';
}

/** Consecutive runs of symbols sharing `keyOf` (the symbols are sorted by distance already). */
export function runs<K>(symbols: readonly RankedSymbol[], keyOf: (symbol: RankedSymbol) => K): { key: K; symbols: RankedSymbol[] }[] {
  const out: { key: K; symbols: RankedSymbol[] }[] = [];
  for (const symbol of symbols) {
    const key = keyOf(symbol);
    const last = out.at(-1);
    if (last && last.key === key) last.symbols.push(symbol);
    else out.push({ key, symbols: [symbol] });
  }
  return out;
}
