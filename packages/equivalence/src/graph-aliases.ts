import { STOP_WORDS } from '@knowing/keywords/data';
import { splitIdentifier } from '@knowing/keywords';
import { symbolPath } from '@knowing/graph';
import type { GraphNode, GraphReader, NodeId } from '@knowing/graph';
import { DEFAULT_GRAPH_ALIAS_OPTIONS, checkInteger, checkNumber, withDefaults } from './options.js';
import { phraseWords } from './text.js';
import type { EquivalenceClass, GraphAliasOptions } from './types.js';

const NUMERIC = /^\p{N}+$/u;

/** The part of a neighbour's name worth reading: `Scaffold.before_request`, not its file path. */
function readableName(node: GraphNode): string {
  return node.file !== '' ? symbolPath(node.qualifiedName, node.file) : node.name;
}

/**
 * Equivalence classes derived from the graph around the best lexical hits: for each seed,
 * the words of its callers' and callees' names (split at CamelCase and `_`, at least three
 * characters, minus generic words, stop words and words contained in the seed's own name)
 * and the bigrams of adjacent such words become phrases of a class (source `graph`, weight
 * 0.7) that targets the seed itself. A task that says "blast radius" then finds
 * `TransitiveCallers` because `handleBlastRadius` calls it.
 *
 * Phrases are ordered by how many neighbours use them; the class targets the seed by name
 * and by id, so it resolves to that very node.
 *
 * @example
 * ```ts
 * const seeds = tiered.slice(0, 10).map((hit) => hit.node);
 * const aliases = await graphAliases(store, seeds);
 * const matches = matchClasses(task, [...registry.classes(), ...aliases], { language });
 * ```
 */
export async function graphAliases(
  reader: GraphReader,
  seeds: readonly GraphNode[],
  options?: GraphAliasOptions,
): Promise<EquivalenceClass[]> {
  const o = withDefaults(DEFAULT_GRAPH_ALIAS_OPTIONS, options);
  checkInteger('maxSeeds', o.maxSeeds, 0);
  checkInteger('maxNeighbors', o.maxNeighbors, 1);
  checkInteger('minWordLength', o.minWordLength, 1);
  checkInteger('maxPhrases', o.maxPhrases, 1);
  checkNumber('weight', o.weight, Number.MIN_VALUE, 1);
  const generic = new Set([...o.genericWords, ...STOP_WORDS].map((w) => w.toLowerCase()));
  const edgeOptions = { types: o.edgeTypes, limit: o.maxNeighbors };

  const unique: GraphNode[] = [];
  const seenSeeds = new Set<NodeId>();
  for (const seed of seeds) {
    if (unique.length >= o.maxSeeds) break;
    if (!seenSeeds.has(seed.id)) {
      seenSeeds.add(seed.id);
      unique.push(seed);
    }
  }

  const perSeed = await Promise.all(
    unique.map(async (seed) => {
      const [incoming, outgoing] = await Promise.all([reader.edgesTo(seed.id, edgeOptions), reader.edgesFrom(seed.id, edgeOptions)]);
      const ids = [...new Set([...incoming.map((e) => e.source), ...outgoing.map((e) => e.target)])].filter((id) => id !== seed.id);
      return { seed, neighbours: ids.length > 0 ? await reader.getNodes(ids) : [] };
    }),
  );

  const classes: EquivalenceClass[] = [];
  const concepts = new Set<string>();
  for (const { seed, neighbours } of perSeed) {
    const seedName = seed.name.toLowerCase();
    const frequency = new Map<string, { phrase: string; count: number; order: number }>();
    let order = 0;
    for (const neighbour of neighbours) {
      const words = splitIdentifier(readableName(neighbour))
        .map((w) => w.toLowerCase())
        .filter((w) => w.length >= o.minWordLength && !NUMERIC.test(w) && !generic.has(w) && !seedName.includes(w));
      const phrases = new Set(words);
      if (o.bigrams) for (let i = 0; i + 1 < words.length; i++) if (words[i] !== words[i + 1]) phrases.add(`${words[i]} ${words[i + 1]}`);
      const keys = new Set<string>();
      for (const phrase of phrases) {
        const key = phraseWords(phrase).join(' ');
        if (key === '' || keys.has(key)) continue;
        keys.add(key);
        const entry = frequency.get(key);
        if (entry) entry.count++;
        else frequency.set(key, { phrase, count: 1, order: order++ });
      }
    }
    if (frequency.size === 0) continue;
    const phrases = [...frequency.values()]
      .sort((a, b) => b.count - a.count || a.order - b.order)
      .slice(0, o.maxPhrases)
      .map((e) => e.phrase);
    let concept = `GRAPH_${seed.name}`;
    if (concepts.has(concept)) concept = `${concept}_${seed.id.slice(0, 8)}`;
    concepts.add(concept);
    classes.push(
      Object.freeze({
        concept,
        phrases: Object.freeze(phrases),
        targets: Object.freeze([seed.name]),
        targetIds: Object.freeze([seed.id]),
        targetType: 'any',
        weight: o.weight,
        source: 'graph',
      }),
    );
  }
  return classes;
}
