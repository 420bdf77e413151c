import { PATH_STOP_WORDS, STOP_WORDS } from '@knowing/keywords/data';
import { splitIdentifier } from '@knowing/keywords';
import { isTypeLike } from '@knowing/graph';
import type { GraphNode } from '@knowing/graph';
import { GRAPH_ALIAS_GENERIC_WORDS } from './data/words.js';
import { isGenericTarget } from './generic.js';
import { DEFAULT_AUTO_CONCEPT_OPTIONS, checkInteger, checkNumber, withDefaults } from './options.js';
import { phraseWords } from './text.js';
import type { AutoConceptOptions, EquivalenceClass } from './types.js';

const NUMERIC = /^\p{N}+$/u;
const MIN_DIRECTORY_WORD = 4;

interface Concept {
  readonly id: string;
  readonly phrase: string;
  readonly targets: string[];
}

function conceptId(prefix: string, key: string): string {
  return `${prefix}${key.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}

/**
 * Concepts read off naming conventions: a role suffix or prefix around a domain phrase
 * (`RateLimitMiddleware`, `BlastRadiusHandler`, `handleBlastRadius`, `onPaymentCaptured`)
 * makes the phrase ("rate limit", "blast radius", "payment captured") a class targeting every
 * symbol that carries it; for graph nodes, the directory of a class-like node ("billing" for
 * `src/billing/Invoice.ts`) becomes a phrase targeting the types defined there. Weight 0.6,
 * source `auto`.
 *
 * Off by default in the engine: the original measured these neutral (its experiment 21)
 * because CamelCase splitting already makes the same words searchable through BM25 and the
 * path channel — an auto concept restates a name, it adds no vocabulary the name lacks. It
 * is kept for repositories whose tasks name roles ("the rate limit middleware") more than
 * symbols.
 *
 * @example
 * ```ts
 * autoConcepts(['RateLimitMiddleware', 'handleRateLimit', 'Parser']);
 * // [{ concept: 'AUTO_RATE_LIMIT', phrases: ['rate limit'],
 * //    targets: ['RateLimitMiddleware', 'handleRateLimit'], weight: 0.6, source: 'auto', … }]
 * ```
 */
export function autoConcepts(input: readonly (GraphNode | string)[], options?: AutoConceptOptions): EquivalenceClass[] {
  const o = withDefaults(DEFAULT_AUTO_CONCEPT_OPTIONS, options);
  checkInteger('minWordLength', o.minWordLength, 1);
  checkInteger('maxTargetsPerConcept', o.maxTargetsPerConcept, 1);
  checkInteger('maxClasses', o.maxClasses, 0);
  checkNumber('weight', o.weight, Number.MIN_VALUE, 1);
  const generic = new Set([...GRAPH_ALIAS_GENERIC_WORDS, ...STOP_WORDS]);
  const suffixes = new Set(o.suffixes.map((s) => s.toLowerCase()));
  const prefixes = new Set(o.prefixes.map((p) => p.toLowerCase()));
  const pathStop = new Set(PATH_STOP_WORDS);
  const concepts = new Map<string, Concept>();

  /** Group by the phrase's comparison key; name the concept after the first phrase seen. */
  const addTarget = (prefix: string, phrase: string, target: string): void => {
    const key = phraseWords(phrase).join(' ');
    if (key === '' || isGenericTarget(target)) return;
    let concept = concepts.get(prefix + key);
    if (!concept) {
      if (concepts.size >= o.maxClasses) return;
      concept = { id: conceptId(prefix, phrase), phrase, targets: [] };
      concepts.set(prefix + key, concept);
    }
    if (concept.targets.length < o.maxTargetsPerConcept && !concept.targets.includes(target)) concept.targets.push(target);
  };

  for (const item of input) {
    const node = typeof item === 'string' ? undefined : item;
    if (node && (node.external || node.isTest)) continue;
    const name = node ? node.name : (item as string);
    const words = splitIdentifier(name);
    const lower = words.map((w) => w.toLowerCase());
    let core: string[] | undefined;
    if (lower.length >= 2 && suffixes.has(lower[lower.length - 1] ?? '')) core = lower.slice(0, -1);
    else if (lower.length >= 2 && prefixes.has(lower[0] ?? '')) core = lower.slice(1);
    if (core) {
      const meaningful = core.filter((w) => w.length >= o.minWordLength && !NUMERIC.test(w) && !generic.has(w));
      if (meaningful.length > 0) {
        addTarget('AUTO_', meaningful.join(' '), name);
      }
    }
    if (o.directories && node && isTypeLike(node.kind) && node.file.includes('/')) {
      const directory = node.file.slice(0, node.file.lastIndexOf('/'));
      const last = directory.slice(directory.lastIndexOf('/') + 1);
      const dirWords = splitIdentifier(last)
        .map((w) => w.toLowerCase())
        .filter((w) => w.length >= MIN_DIRECTORY_WORD && !NUMERIC.test(w) && !pathStop.has(w));
      if (dirWords.length > 0) {
        addTarget('AUTO_DIR_', dirWords.join(' '), name);
      }
    }
  }

  return [...concepts.values()]
    .filter((c) => c.targets.length > 0)
    .map((c) =>
      Object.freeze({
        concept: c.id,
        phrases: Object.freeze([c.phrase]),
        targets: Object.freeze(c.targets),
        targetType: 'any' as const,
        weight: o.weight,
        source: 'auto' as const,
      }),
    );
}
