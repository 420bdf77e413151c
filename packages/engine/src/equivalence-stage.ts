import type { GraphNode, GraphStore, LanguageId, NodeId } from '@knowing/graph';
import { allKeywords } from '@knowing/keywords';
import type { KeywordSet } from '@knowing/keywords';
import {
  capEquivalenceResults,
  collectEquivalenceHits,
  detectRepoLanguage,
  expandWithThesaurus,
  graphAliases,
  learnedClasses,
  isStrongMatch,
} from '@knowing/equivalence/stage';
import { matchClasses, resolveTargets } from '@knowing/equivalence';
import type { ClassRegistry, EquivalenceClass } from '@knowing/equivalence';
import type { EquivalenceChannelOptions } from './options.js';
import type { ChannelHit } from './types.js';
import type { GraphState } from './graph-state.js';

export interface EquivalenceStageInput {
  readonly store: GraphStore;
  readonly task: string;
  readonly keywords: KeywordSet;
  readonly tiered: readonly ChannelHit[];
  readonly keywordCluster: string;
  readonly state: GraphState;
}

export interface EquivalenceOutcome {
  /** The channel's hits capped against the lexical channels' result count. */
  capped(lexicalCount: number): ChannelHit[];
  /** Nodes of strong framework matches, to inject at the top of the ranking. */
  readonly forced: readonly GraphNode[];
  readonly matched: readonly { readonly concept: string; readonly phrases: readonly string[]; readonly strong: boolean }[];
  /** Concepts that named each node. */
  readonly classesByNode: ReadonlyMap<NodeId, readonly string[]>;
}

export interface EquivalenceStage {
  /**
   * Thesaurus terms related to the task's words, which widen a thin BM25 query. They depend on
   * the words only, so the seeding derives them before the channels run (`ChannelContext.relatedTerms`).
   */
  relatedTerms(keywords: KeywordSet): readonly string[];
  /** Matches the classes; runs after the channels, since aliases come from the tiered hits. */
  run(input: EquivalenceStageInput): Promise<EquivalenceOutcome>;
}

const GRAPH_ALIAS_SEEDS = 10;

/**
 * The vocabulary stage: registered classes (built-in and plugins), graph-derived aliases of the
 * top tiered hits, and classes learned from agent usage are matched against the task, scoped to
 * the repository's language, resolved to nodes, and split into the (capped) RRF channel and the
 * forced injections.
 */
export function createEquivalenceStage(registry: ClassRegistry, options: EquivalenceChannelOptions): EquivalenceStage {
  let languageFor: { snapshot: string | null; language: LanguageId | null } | undefined;

  async function repoLanguage(store: GraphStore, state: GraphState): Promise<LanguageId | null> {
    const snapshot = state.snapshotId;
    if (languageFor && languageFor.snapshot === snapshot) return languageFor.language;
    // The counts a warm-up stored, else node counts alone where the store has them: counting
    // edges by type reads every edge.
    const counts = state.nodesByLanguage ?? (store.nodeCounts ? await store.nodeCounts() : await store.counts()).nodesByLanguage;
    languageFor = { snapshot, language: detectRepoLanguage(counts) };
    return languageFor.language;
  }

  return {
    relatedTerms(keywords) {
      return options.thesaurusTerms > 0 ? expandWithThesaurus(allKeywords(keywords), { maxTerms: options.thesaurusTerms }) : [];
    },
    async run(input) {
      const { store, task, keywords } = input;
      const words = allKeywords(keywords);
      const language = await repoLanguage(store, input.state);
      const extra: EquivalenceClass[] = [];
      if (options.graphAliases && input.tiered.length > 0) {
        extra.push(...(await graphAliases(store, input.tiered.slice(0, GRAPH_ALIAS_SEEDS).map((h) => h.node))));
      }
      if (options.learned) extra.push(...(await learnedClasses(store, words, { cluster: input.keywordCluster })));
      const matches = matchClasses(task, [...registry.classes(), ...extra], { language });
      const resolved = await resolveTargets(store, matches);
      const hits = collectEquivalenceHits(resolved);
      const classesByNode = new Map<NodeId, string[]>();
      for (const r of resolved) {
        for (const node of r.nodes) {
          const list = classesByNode.get(node.id) ?? [];
          if (!list.includes(r.match.equivalenceClass.concept)) list.push(r.match.equivalenceClass.concept);
          classesByNode.set(node.id, list);
        }
      }
      const channel: ChannelHit[] = hits.channel.map((h) => ({ node: h.node, detail: h.concept }));
      return {
        capped: (lexicalCount) => capEquivalenceResults(channel, lexicalCount, { factor: options.capFactor, floor: options.capFloor }),
        forced: hits.forced.map((h) => h.node),
        matched: matches.map((m) => ({ concept: m.equivalenceClass.concept, phrases: m.phrases, strong: isStrongMatch(m) })),
        classesByNode,
      };
    },
  };
}
