import type { GraphNode, GraphStore, NodeId } from '@knowing/graph';
import { isTypeLike, packageOf } from '@knowing/graph';
import { isAuxiliaryCode } from '@knowing/rank/formula';
import type { SeedOptions } from './options.js';
import type { ChannelHit, FusedCandidate, Seed } from './types.js';

const BUILD_SEGMENTS = ['/dist/', '/build/', '/vendor/', '/node_modules/', '/target/', '/out/'];
const FIXTURE_MARKERS = ['conftest.py', 'fixtures.py', '/testutil', '/testhelper', 'test_helper', '/fixtures/', '/testdata/'];
const MOCK_WORDS = /(mock|fake|stub|dummy)/i;
const SHORT_NAMES_KEPT = new Set(['id', 'ok', 'db', 'ip', 'io', 'go', 'do', 'os', 'ui', 'fs', 'h1', 'h2']);

/**
 * Why a candidate is noise for seeding, or null when it is not: externals, file nodes, build output and
 * vendored code, minified files, test fixtures and helpers, mock/fake/stub types and their
 * members, and minified-looking names.
 */
export function noiseReason(node: GraphNode): string | null {
  if (node.external || node.kind === 'external') return 'external';
  // A file is never an answer (results are symbols), so as a seed it only takes a slot a symbol could use.
  if (node.kind === 'file') return 'file';
  const path = '/' + node.file.toLowerCase();
  if (BUILD_SEGMENTS.some((s) => path.includes(s))) return 'build-output';
  if (path.includes('.min.') || path.includes('.bundle.')) return 'minified-file';
  if (FIXTURE_MARKERS.some((m) => path.includes(m))) return 'fixture';
  const symbolPath = node.qualifiedName.slice(node.file.length + 1);
  const owner = symbolPath.split('.').slice(0, -1).join('.');
  if (MOCK_WORDS.test(owner) || (isTypeLike(node.kind) && MOCK_WORDS.test(node.name))) return 'mock';
  if (node.name.length <= 2 && !SHORT_NAMES_KEPT.has(node.name.toLowerCase())) return 'short-name';
  return null;
}

/**
 * Code seeded after everything else, and never forced to the front, unless the task is about
 * tests: test code (the language module's `node.isTest`, the one test rule) and auxiliary code
 * (benchmarks and examples, `isAuxiliaryCode`), which the rankers demote alike.
 */
export function seedsLast(node: GraphNode): boolean {
  return node.isTest || isAuxiliaryCode(node);
}

/** Maximum seeds for a graph of `nodeCount` nodes (more seeds on larger graphs). */
export function seedBudget(nodeCount: number, options: SeedOptions): number {
  if (nodeCount > options.largeGraph) return options.largeGraphSeeds;
  if (nodeCount > options.mediumGraph) return options.mediumGraphSeeds;
  return options.maxSeeds;
}

/** Implementors of interface/trait candidates, as extra candidates right after their interface. */
export async function addImplementors(store: GraphStore, candidates: readonly FusedCandidate[], perInterface: number): Promise<FusedCandidate[]> {
  const out: FusedCandidate[] = [];
  const seen = new Set(candidates.map((c) => c.node.id));
  for (const candidate of candidates) {
    out.push(candidate);
    if (candidate.node.kind !== 'interface' && candidate.node.kind !== 'trait') continue;
    const edges = await store.edgesTo(candidate.node.id, { types: ['implements'], limit: perInterface });
    const implementors = await store.getNodes(edges.map((e) => e.source).filter((id) => !seen.has(id)));
    for (const node of implementors) {
      seen.add(node.id);
      out.push({ node, score: candidate.score * 0.5, channels: candidate.channels, details: {}, implementsCandidate: candidate.node.id });
    }
  }
  return out;
}

/**
 * Move the largest cluster of candidates sharing a package (directory) to the front, keeping
 * the order inside each part. A cohesive seed set walks into one neighbourhood instead of
 * spreading thin across the graph.
 */
export function focusCandidates<T extends { readonly node: GraphNode }>(candidates: readonly T[]): T[] {
  const counts = new Map<string, number>();
  for (const c of candidates) counts.set(packageOf(c.node.file), (counts.get(packageOf(c.node.file)) ?? 0) + 1);
  let best: string | undefined;
  let bestCount = 1;
  for (const c of candidates) {
    const count = counts.get(packageOf(c.node.file))!;
    if (count > bestCount) {
      best = packageOf(c.node.file);
      bestCount = count;
    }
  }
  if (best === undefined) return [...candidates];
  const inCluster = candidates.filter((c) => packageOf(c.node.file) === best);
  const rest = candidates.filter((c) => packageOf(c.node.file) !== best);
  return [...inCluster, ...rest];
}

/** Stable reorder putting type-like candidates first (dense graphs: types walk to their members). */
export function preferTypes<T extends { readonly node: GraphNode }>(candidates: readonly T[]): T[] {
  return [...candidates.filter((c) => isTypeLike(c.node.kind)), ...candidates.filter((c) => !isTypeLike(c.node.kind))];
}

/** Turn ordered candidates into weighted seeds, then append path hits as supplemental seeds. */
export function selectSeeds(
  candidates: readonly FusedCandidate[],
  pathHits: readonly ChannelHit[],
  nodeCount: number,
  options: SeedOptions,
  supplementalWeight: number,
  aboutTests: boolean,
): Seed[] {
  let ordered = candidates.filter((c) => noiseReason(c.node) === null);
  if (nodeCount > options.preferTypesAbove) ordered = preferTypes(ordered);
  if (options.testsLast && !aboutTests) {
    const code = ordered.filter((c) => !seedsLast(c.node));
    const tests = ordered.filter((c) => seedsLast(c.node));
    ordered = [...(options.focused && code.length > 5 ? focusCandidates(code) : code), ...tests];
  } else if (options.focused && ordered.length > 5) {
    ordered = focusCandidates(ordered);
  }
  const max = seedBudget(nodeCount, options);
  const seeds: Seed[] = ordered.slice(0, max).map((c, rank) => ({
    node: c.node,
    weight: 1 / (1 + options.weightDecay * rank),
    origin: c.implementsCandidate ? 'interface' : 'fused',
    channels: c.channels,
  }));
  const seen = new Set(seeds.map((s) => s.node.id));
  for (const hit of pathHits) {
    if (seeds.length >= max + 10) break;
    if (seen.has(hit.node.id) || noiseReason(hit.node) !== null || (!aboutTests && seedsLast(hit.node))) continue;
    seen.add(hit.node.id);
    seeds.push({ node: hit.node, weight: supplementalWeight, origin: 'path', channels: ['path'] });
  }
  return seeds;
}

/**
 * Module nodes that only wrap types: `module ActiveRecord` around `class Base`, repeated in
 * hundreds of Ruby files, or a Rust `mod` of structs. Such a node is a namespace, not code an
 * agent reads (its body is the types, which are symbols of their own), so like a file it is
 * walked through but neither seeded nor returned. A module with methods, fields or constants of
 * its own (a Ruby mixin, a Rust `mod` of functions) is kept. `memo` caches the answer per node.
 *
 * @example
 * ```ts
 * const wrappers = await namespaceWrappers(store, returned, new Map());
 * returned.filter((node) => !wrappers.has(node.id)); // the code an agent reads
 * ```
 */
export async function namespaceWrappers(store: GraphStore, nodes: readonly GraphNode[], memo: Map<NodeId, boolean>): Promise<Set<NodeId>> {
  const wrappers = new Set<NodeId>();
  for (const node of nodes) {
    if (node.kind !== 'module') continue;
    let wraps = memo.get(node.id);
    if (wraps === undefined) {
      const children = await store.edgesFrom(node.id, { types: ['contains'] });
      const kinds = (await store.getNodes(children.map((e) => e.target))).map((child) => child.kind);
      wraps = kinds.length > 0 && kinds.every(isTypeLike);
      memo.set(node.id, wraps);
    }
    if (wraps) wrappers.add(node.id);
  }
  return wrappers;
}
