import { ErrorCode, KnowingError } from '@knowing/graph';
import type { RankedSymbol } from '@knowing/graph';
import { estimateTokens } from './tokens.js';
import type { CostOptions, DensityOptions, FileGroupedOptions, PackSelection, ProximityOptions, StrategyOptions, TopKOptions } from './types.js';

/** Defaults of the packing strategies. */
export const DEFAULT_PACK_OPTIONS: Readonly<Required<Pick<TopKOptions, 'budget' | 'limit'> & Pick<DensityOptions, 'rankedShare'>>> = Object.freeze({
  budget: 50_000,
  limit: Number.POSITIVE_INFINITY,
  rankedShare: 0.5,
});

/**
 * The adaptive proximity exponent: clamp(base + slope · phantomRatio, min, max). Repositories
 * without phantoms get the cube-root-like 0.3 found best in the original's sweep; heavily
 * enriched ones lean harder on proximity to the seeds.
 */
export const DEFAULT_PROXIMITY: Readonly<Required<ProximityOptions>> = Object.freeze({
  base: 0.3,
  slope: 0.2,
  min: 0.3,
  max: 0.7,
});

function invalid(message: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source: 'pack' });
}

/**
 * Phantoms (external placeholders) per non-phantom symbol among the candidates: 0 without
 * phantoms, Infinity when every candidate is one.
 *
 * @example
 * ```ts
 * phantomRatio(candidates); // 0.5 for 10 phantoms among 30 candidates
 * ```
 */
export function phantomRatio(candidates: readonly RankedSymbol[]): number {
  let phantoms = 0;
  for (const candidate of candidates) if (candidate.node.external || candidate.node.kind === 'external') phantoms++;
  const others = candidates.length - phantoms;
  if (phantoms === 0) return 0;
  return others === 0 ? Number.POSITIVE_INFINITY : phantoms / others;
}

/**
 * The proximity exponent for a phantom ratio: clamp(0.3 + 0.2 · ratio, 0.3, 0.7).
 *
 * @example
 * ```ts
 * proximityExponent(0); // 0.3
 * proximityExponent(1); // 0.5
 * proximityExponent(5); // 0.7
 * ```
 */
export function proximityExponent(ratio: number, proximity: ProximityOptions = {}): number {
  const { base, slope, min, max } = { ...DEFAULT_PROXIMITY, ...proximity };
  if (Number.isNaN(ratio) || ratio < 0) throw invalid(`phantom ratio must be ≥ 0, got ${ratio}`);
  const value = base + slope * ratio;
  return Math.min(max, Math.max(min, Number.isNaN(value) ? max : value));
}

interface Prepared {
  readonly budget: number;
  /** Estimated tokens per candidate, aligned with the candidates. */
  readonly costs: Float64Array;
}

function prepare(candidates: readonly RankedSymbol[], options: StrategyOptions): Prepared {
  const budget = options.budget ?? DEFAULT_PACK_OPTIONS.budget;
  if (Number.isNaN(budget) || budget < 0) throw invalid(`budget must be a number ≥ 0, got ${budget}`);
  const seen = new Set<string>();
  const costs = new Float64Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!;
    const id = candidate.node.id;
    if (seen.has(id)) throw invalid(`symbol ${id} (${candidate.node.qualifiedName}) is listed twice`);
    seen.add(id);
    if (!Number.isFinite(candidate.score)) throw invalid(`symbol ${candidate.node.qualifiedName} has a non-finite score ${candidate.score}`);
    if (!Number.isFinite(candidate.rwr)) throw invalid(`symbol ${candidate.node.qualifiedName} has a non-finite rwr ${candidate.rwr}`);
    costs[i] = costOf(candidate, options);
  }
  return { budget, costs };
}

function costOf(symbol: RankedSymbol, options: CostOptions): number {
  return estimateTokens(symbol, options);
}

/** Positions sorted by score, best first; ties keep the input order. */
function byScore(candidates: readonly RankedSymbol[], positions: readonly number[]): number[] {
  return [...positions].sort((a, b) => candidates[b]!.score - candidates[a]!.score || a - b);
}

function selection(candidates: readonly RankedSymbol[], picked: readonly number[], costs: Float64Array, budget: number): PackSelection {
  let tokensUsed = 0;
  for (const position of picked) tokensUsed += costs[position]!;
  return { symbols: byScore(candidates, picked).map((position) => candidates[position]!), tokensUsed, tokenBudget: budget };
}

function resolveExponent(candidates: readonly RankedSymbol[], options: DensityOptions): number {
  if (options.exponent !== undefined) {
    if (!Number.isFinite(options.exponent) || options.exponent < 0) throw invalid(`exponent must be a finite number ≥ 0, got ${options.exponent}`);
    return options.exponent;
  }
  return proximityExponent(options.phantomRatio ?? phantomRatio(candidates), options.proximity);
}

function proximity(rwr: number, exponent: number): number {
  return exponent === 0 ? 1 : Math.pow(Math.max(0, rwr), exponent);
}

/**
 * Score order first, then a density-ranked greedy knapsack. The best-scored symbols are taken
 * until `rankedShare` of the budget is used (each one that fits the budget): the ranker has
 * already weighed graph proximity with every other evidence, and a symbol found by its text
 * alone has no walk score, so density alone would drop the ranking's best answer for a pile of
 * small neighbours of the seeds. The rest of the budget goes by density = score / tokens ×
 * rwr^exponent, where the exponent adapts to the phantom ratio (clamp(0.3 + 0.2 · ratio, 0.3,
 * 0.7)) unless given (ties: higher score, then input order); one that does not fit is skipped
 * and smaller ones are still tried. The selection is returned best score first.
 *
 * @example
 * ```ts
 * const { symbols, tokensUsed } = packDensity(ranked, { budget: 8000 });
 * packDensity(ranked, { budget: 8000, rankedShare: 0 }); // the pure density knapsack
 * ```
 */
export function packDensity(candidates: readonly RankedSymbol[], options: DensityOptions = {}): PackSelection {
  const { budget, costs } = prepare(candidates, options);
  const share = options.rankedShare ?? DEFAULT_PACK_OPTIONS.rankedShare;
  if (!(share >= 0 && share <= 1)) throw invalid(`rankedShare must be between 0 and 1, got ${share}`);
  const exponent = resolveExponent(candidates, options);
  const taken = new Uint8Array(candidates.length);
  const picked: number[] = [];
  let remaining = budget;
  const take = (position: number): void => {
    taken[position] = 1;
    picked.push(position);
    remaining -= costs[position]!;
  };
  if (share > 0) {
    const lead = share * budget;
    for (const position of byScore(candidates, candidates.map((_, i) => i))) {
      if (budget - remaining >= lead) break;
      if (costs[position]! <= remaining) take(position);
    }
  }
  const density = new Float64Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!;
    density[i] = (candidate.score / costs[i]!) * proximity(candidate.rwr, exponent);
  }
  const order = candidates.map((_, i) => i).filter((i) => taken[i] === 0);
  order.sort((a, b) => density[b]! - density[a]! || candidates[b]!.score - candidates[a]!.score || a - b);
  for (const position of order) if (costs[position]! <= remaining) take(position);
  return selection(candidates, picked, costs, budget);
}

/**
 * Highest score first, stopping at the first symbol that does not fit (so the selection is
 * always a prefix of the score order) or after `limit` symbols.
 *
 * @example
 * ```ts
 * packTopK(ranked, { budget: 8000, limit: 20 });
 * ```
 */
export function packTopK(candidates: readonly RankedSymbol[], options: TopKOptions = {}): PackSelection {
  const { budget, costs } = prepare(candidates, options);
  const limit = options.limit ?? DEFAULT_PACK_OPTIONS.limit;
  if (Number.isNaN(limit) || limit < 0) throw invalid(`limit must be ≥ 0, got ${limit}`);
  const picked: number[] = [];
  let remaining = budget;
  for (const position of byScore(candidates, candidates.map((_, i) => i))) {
    if (picked.length >= limit) break;
    const cost = costs[position]!;
    if (cost > remaining) break;
    picked.push(position);
    remaining -= cost;
  }
  return selection(candidates, picked, costs, budget);
}

/**
 * Pack whole files: symbols are grouped by file (external placeholders each form their own
 * group) and files are taken densest first, file density being Σ(score × rwr^exponent) / Σ
 * tokens. Within a file, symbols go in density order and any that does not fit is skipped,
 * so a file that does not fit whole is filled partly. The selection is returned best score
 * first.
 *
 * @example
 * ```ts
 * packFileGrouped(ranked, { budget: 8000 });
 * ```
 */
export function packFileGrouped(candidates: readonly RankedSymbol[], options: FileGroupedOptions = {}): PackSelection {
  const { budget, costs } = prepare(candidates, options);
  const exponent = resolveExponent(candidates, options);
  const weighted = new Float64Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) weighted[i] = candidates[i]!.score * proximity(candidates[i]!.rwr, exponent);

  interface Group {
    readonly first: number;
    readonly members: number[];
    value: number;
    cost: number;
    best: number;
  }
  const groups = new Map<string, Group>();
  for (let i = 0; i < candidates.length; i++) {
    const node = candidates[i]!.node;
    const key = node.file ? `file\0${node.file}` : `node\0${node.id}`;
    let group = groups.get(key);
    if (!group) {
      group = { first: i, members: [], value: 0, cost: 0, best: Number.NEGATIVE_INFINITY };
      groups.set(key, group);
    }
    group.members.push(i);
    group.value += weighted[i]!;
    group.cost += costs[i]!;
    group.best = Math.max(group.best, candidates[i]!.score);
  }
  const ordered = [...groups.values()].sort((a, b) => b.value / b.cost - a.value / a.cost || b.best - a.best || a.first - b.first);
  const picked: number[] = [];
  let remaining = budget;
  for (const group of ordered) {
    const members = [...group.members].sort(
      (a, b) => weighted[b]! / costs[b]! - weighted[a]! / costs[a]! || candidates[b]!.score - candidates[a]!.score || a - b,
    );
    for (const position of members) {
      const cost = costs[position]!;
      if (cost > remaining) continue;
      picked.push(position);
      remaining -= cost;
    }
  }
  return selection(candidates, picked, costs, budget);
}
