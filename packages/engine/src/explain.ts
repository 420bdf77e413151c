import type { ContextPack, GraphNode, GraphStore, NodeId, RankedSymbol } from '@knowing/graph';
import type { RankExplanation } from '@knowing/rank';
import type { PipelineRun } from './pipeline.js';
import type { ChannelName, ExplainStage, SymbolExplanation } from './types.js';
import { matchesQualifier, splitQualified } from './channels/common.js';
import type { GraphState } from './graph-state.js';
import { DIVERSITY_COMPONENT, TESTS_LAST_COMPONENT } from './diversity.js';

/** Nodes a user's symbol query names: a qualified name, `Type.member`, `A::B`, or a bare name. */
export async function findSymbol(store: GraphStore, query: string): Promise<GraphNode[]> {
  const trimmed = query.trim();
  const exact = await store.findNodesByQualifiedName(trimmed);
  if (exact.length > 0) return exact.filter((n) => !n.external);
  const { qualifier, terminal } = splitQualified(trimmed);
  const nodes = await store.findNodesByName(terminal, { match: 'exact_ci', limit: 500 });
  return nodes.filter((n) => matchesQualifier(n, qualifier));
}

export interface ExplainInput {
  readonly store: GraphStore;
  readonly state: GraphState;
  readonly task: string;
  readonly query: string;
  readonly run: PipelineRun;
  readonly pack: ContextPack;
  /** The ranker's own breakdown of a ranked symbol, when it gives one (`Ranker.explain`). */
  readonly explainRank?: (symbol: NodeId) => Promise<RankExplanation | undefined>;
  /** The names closest to a query that matches nothing (only asked when nothing matches). */
  readonly suggest?: (query: string) => Promise<GraphNode[]>;
}

/**
 * Explain one symbol from a real run of the pipeline (not an approximation of it): where it was
 * found, its seed weight, walk score, HITS scores, every ranking component, and whether the
 * budget kept it — or at which stage it was lost.
 */
export async function explainRun(input: ExplainInput): Promise<SymbolExplanation> {
  const { run, pack, state } = input;
  const { trace } = run;
  const matches = await findSymbol(input.store, input.query);
  const rankOf = new Map(run.ranked.map((s, i) => [s.node.id, i]));
  const packed = new Set(pack.symbols.map((s) => s.node.id));
  const placed = [...matches].sort((a, b) => place(a) - place(b));
  function place(node: GraphNode): number {
    const rank = rankOf.get(node.id);
    if (rank !== undefined) return rank;
    const index = state.adjacency.indexOf(node.id);
    const score = index >= 0 ? (run.walked.scores[index] ?? 0) : 0;
    return 1e9 - score * 1e6;
  }
  const symbol = placed[0] ?? null;
  const base = { task: input.task, query: input.query, matches, keywords: trace.keywords, matchedClasses: [] as string[] };
  if (!symbol) {
    return {
      ...base,
      suggestions: input.suggest ? await input.suggest(input.query) : [],
      symbol: null,
      stage: 'not_in_graph',
      rank: null,
      score: null,
      components: {},
      seed: null,
      channelDetails: {},
      walk: null,
      hits: null,
      forced: false,
      inPack: false,
    };
  }
  const rank = rankOf.get(symbol.id);
  const ranked = rank !== undefined ? run.ranked[rank]! : undefined;
  const seed = trace.seeds.find((s) => s.node.id === symbol.id);
  const channelDetails: Partial<Record<ChannelName, string>> = {};
  for (const [name, hits] of Object.entries(trace.channels) as [ChannelName, typeof trace.channels.tiered][]) {
    const hit = hits.find((h) => h.node.id === symbol.id);
    if (hit) channelDetails[name] = hit.detail;
  }
  const index = state.adjacency.indexOf(symbol.id);
  const walkScore = index >= 0 ? (run.walked.scores[index] ?? 0) : 0;
  const hops = index >= 0 ? (run.walked.hops[index] ?? -1) : -1;
  const inPack = packed.has(symbol.id);
  const stage: ExplainStage = inPack
    ? 'packed'
    : ranked
      ? 'ranked'
      : walkScore > 0
        ? 'below_cutoff'
        : 'not_reached';
  const hits = trace.hits.get(symbol.id) ?? null;
  const detailed = ranked && input.explainRank ? await input.explainRank(symbol.id) : undefined;
  return {
    ...base,
    suggestions: [],
    symbol,
    stage,
    rank: rank === undefined ? null : rank + 1,
    score: ranked?.score ?? null,
    components: withDiversity(detailed?.components ?? ranked?.components ?? {}, ranked),
    ...(detailed?.factors ? { factors: detailed.factors } : {}),
    seed: seed ? { weight: seed.weight, origin: seed.origin, channels: seed.channels } : null,
    channelDetails,
    walk: walkScore > 0 ? { score: walkScore, hops } : null,
    hits,
    forced: trace.forced.some((n) => n.id === symbol.id),
    matchedClasses: trace.matchedClasses.map((m) => m.concept),
    inPack,
  };
}

/** A ranker explains its own score; what the engine's diversity steps took off comes after it. */
function withDiversity(components: Readonly<Record<string, number>>, ranked: RankedSymbol | undefined): Readonly<Record<string, number>> {
  let out = components;
  for (const step of [TESTS_LAST_COMPONENT, DIVERSITY_COMPONENT]) {
    const lowered = ranked?.components[step];
    if (lowered !== undefined) out = { ...out, [step]: lowered };
  }
  return out;
}
