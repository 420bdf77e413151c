import { CALLABLE_KINDS, TYPE_LIKE_KINDS, symbolPath } from '@knowing/graph';
import type { GraphNode, GraphReader, NodeKind } from '@knowing/graph';
import { isDottedTarget, isGenericTarget } from './generic.js';
import { isForcedInjectionEligible } from './match.js';
import { DEFAULT_CAP_OPTIONS, DEFAULT_RESOLVE_OPTIONS, checkInteger, checkNumber, withDefaults } from './options.js';
import type {
  CapOptions,
  EquivalenceHit,
  EquivalenceHits,
  EquivalenceMatch,
  ResolvedMatch,
  ResolveOptions,
  TargetType,
} from './types.js';

const TYPE_KINDS: readonly NodeKind[] = Object.freeze([...TYPE_LIKE_KINDS]);
const CALLABLE: readonly NodeKind[] = Object.freeze([...CALLABLE_KINDS]);
/** Module files whose name adds nothing to the module path (`pkg/__init__.py` is `pkg`). */
const INDEX_MODULES = new Set(['__init__', 'index', 'mod', 'lib']);

function kindsFor(targetType: TargetType): readonly NodeKind[] | undefined {
  return targetType === 'type' ? TYPE_KINDS : targetType === 'callable' ? CALLABLE : undefined;
}

/** `a::b.c` → `a.b.c`, lower case. */
function dotted(path: string): string {
  return path.replaceAll('::', '.').toLowerCase();
}

/** The terminal name of a target: the part after the last `.` or `::`. */
function terminalName(target: string): string {
  const parts = target.split(/\.|::/);
  return parts[parts.length - 1] ?? target;
}

/**
 * The file as module paths: `src/flask/scaffold.py` → `src.flask.scaffold`; an index module
 * (`pkg/__init__.py`, `src/lib.rs`) also as its directory (`pkg`).
 */
function modulePaths(file: string): string[] {
  const parts = file.replace(/\.[^./]+$/, '').split('/');
  const paths = [parts.join('.')];
  if (parts.length > 1 && INDEX_MODULES.has(parts[parts.length - 1] ?? '')) paths.push(parts.slice(0, -1).join('.'));
  return paths;
}

/**
 * Whether a node's name ends with a dotted target at a `.`/`::` boundary. Checked against
 * the qualified name, the symbol path (`Scaffold.before_request`) and the module-qualified
 * path (`src.flask.scaffold.Scaffold.before_request`), so `Scaffold.before_request`,
 * `scaffold.Scaffold` and `django.utils.html.escape` all resolve. Case-insensitive.
 */
function endsWithPath(node: GraphNode, target: string): boolean {
  const path = dotted(target);
  const symbol = symbolPath(node.qualifiedName, node.file);
  const forms = [dotted(node.qualifiedName), dotted(symbol)];
  if (node.file !== '') for (const module of modulePaths(node.file)) forms.push(dotted(`${module}.${symbol}`));
  return forms.some((form) => form === path || form.endsWith(`.${path}`));
}

function compareNodes(a: GraphNode, b: GraphNode): number {
  return (
    Number(a.isTest) - Number(b.isTest) ||
    a.qualifiedName.length - b.qualifiedName.length ||
    (a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0)
  );
}

/**
 * Resolve each match's targets to graph nodes.
 *
 * - A class with `targetIds` resolves to exactly those nodes (learned and graph classes).
 * - Otherwise each target is looked up by its terminal name with `findNodesByName(name,
 *   { match: 'exact_ci' })`, restricted to class-like kinds (`targetType: 'type'`) or
 *   callables (`'callable'`). A dotted target (`Library.filter`, `Scaffold.before_request`,
 *   `std::fs::read`) keeps only nodes whose qualified name ends with the dotted path at a
 *   `.`/`::` boundary — the original looked up the whole dotted string as a terminal name,
 *   so such targets never resolved.
 * - Undotted generic targets (three characters or fewer, or in `GENERIC_TARGET_NAMES`) are
 *   skipped and reported in `skippedTargets`.
 * - Per target, non-test nodes come first, then shallower ones; at most `maxNodesPerTarget`
 *   are kept. Lookups are shared between matches.
 *
 * @example
 * ```ts
 * const resolved = await resolveTargets(store, matchClasses(task, classes, { language }));
 * const { channel, forced } = collectEquivalenceHits(resolved);
 * ```
 */
export async function resolveTargets(
  reader: GraphReader,
  matches: readonly EquivalenceMatch[],
  options?: ResolveOptions,
): Promise<ResolvedMatch[]> {
  const o = withDefaults(DEFAULT_RESOLVE_OPTIONS, options);
  checkInteger('maxNodesPerTarget', o.maxNodesPerTarget, 1);
  checkInteger('lookupLimit', o.lookupLimit, 1);
  const lookups = new Map<string, Promise<GraphNode[]>>();

  function lookup(name: string, targetType: TargetType): Promise<GraphNode[]> {
    const key = `${targetType}\0${name.toLowerCase()}`;
    let pending = lookups.get(key);
    if (!pending) {
      const kinds = kindsFor(targetType);
      pending = reader.findNodesByName(name, { match: 'exact_ci', limit: o.lookupLimit, ...(kinds ? { kinds } : {}) });
      lookups.set(key, pending);
    }
    return pending;
  }

  async function resolveOne(match: EquivalenceMatch): Promise<ResolvedMatch> {
    const cls = match.equivalenceClass;
    const forced = isForcedInjectionEligible(match, o.force);
    const seen = new Set<string>();
    const nodes: GraphNode[] = [];
    const skipped: string[] = [];
    const keep = (node: GraphNode): void => {
      if (seen.has(node.id) || node.external) return;
      seen.add(node.id);
      nodes.push(node);
    };
    if (cls.targetIds !== undefined && cls.targetIds.length > 0) {
      for (const node of await reader.getNodes(cls.targetIds)) keep(node);
    } else {
      for (const target of cls.targets) {
        if (isGenericTarget(target, o)) {
          skipped.push(target);
          continue;
        }
        let found = await lookup(terminalName(target), cls.targetType);
        if (isDottedTarget(target)) found = found.filter((node) => endsWithPath(node, target));
        [...found].sort(compareNodes).slice(0, o.maxNodesPerTarget).forEach(keep);
      }
    }
    return Object.freeze({
      match,
      weight: cls.weight,
      forced,
      nodes: Object.freeze(nodes),
      skippedTargets: Object.freeze(skipped),
    });
  }

  return Promise.all(matches.map(resolveOne));
}

/**
 * Flatten resolved matches into the equivalence channel (each node once, in match order,
 * attributed to the first class that produced it) and the forced-injection list (nodes of
 * forced-eligible matches, each once — also present in the channel, as in the original).
 *
 * @example
 * ```ts
 * const { channel, forced } = collectEquivalenceHits(await resolveTargets(store, matches));
 * const equivChannel = capEquivalenceResults(channel, tiered.length + bm25.length);
 * ```
 */
export function collectEquivalenceHits(resolved: readonly ResolvedMatch[]): EquivalenceHits {
  const channel: EquivalenceHit[] = [];
  const forced: EquivalenceHit[] = [];
  const inChannel = new Set<string>();
  const inForced = new Set<string>();
  for (const r of resolved) {
    const cls = r.match.equivalenceClass;
    for (const node of r.nodes) {
      const hit: EquivalenceHit = Object.freeze({ node, weight: r.weight, concept: cls.concept, source: cls.source });
      if (!inChannel.has(node.id)) {
        inChannel.add(node.id);
        channel.push(hit);
      }
      if (r.forced && !inForced.has(node.id)) {
        inForced.add(node.id);
        forced.push(hit);
      }
    }
  }
  return Object.freeze({ channel: Object.freeze(channel), forced: Object.freeze(forced) });
}

/**
 * Cap the equivalence channel in proportion to what the lexical channels (tiered + BM25)
 * found: at most `max(floor, factor × lexicalCount)` results, from the front. Uncapped,
 * vocabulary hits outnumber the lexical ones on small graphs and flatten the walk — the
 * original's largest single regression (66 equivalence results against 11 lexical ones).
 * Forced injections are not part of the channel and are not capped.
 *
 * @example
 * ```ts
 * capEquivalenceResults(channel, 3);  // at most 10 (the floor)
 * capEquivalenceResults(channel, 12); // at most 24
 * ```
 */
export function capEquivalenceResults<T>(results: readonly T[], lexicalCount: number, options?: CapOptions): T[] {
  const o = withDefaults(DEFAULT_CAP_OPTIONS, options);
  checkNumber('factor', o.factor, 0);
  checkInteger('floor', o.floor, 0);
  checkInteger('lexicalCount', lexicalCount, 0);
  return results.slice(0, Math.max(o.floor, Math.floor(o.factor * lexicalCount)));
}
