import type { EdgeTypeInfo } from './types.js';

/**
 * Every edge type knowing knows, with its default random-walk weight.
 *
 * Weights are the original system's documented table. `contains`/`member_of` carry the
 * documented 0.8/0.6 so a walk started from a type reaches its members and vice versa
 * (the original's code had silently zeroed them). Organisational edges are 0: they are
 * kept in the graph but never carry walk mass. Types not listed here walk at
 * {@link DEFAULT_EDGE_WEIGHT}.
 */
export const EDGE_TYPES: readonly EdgeTypeInfo[] = Object.freeze([
  { type: 'calls', weight: 1.0, structural: false, description: 'source invokes target' },
  { type: 'implements', weight: 0.8, structural: false, description: 'type implements interface or trait' },
  { type: 'implements_rpc', weight: 0.8, structural: false, description: 'server implements an RPC service' },
  { type: 'overrides', weight: 0.8, structural: false, description: 'method overrides or implements a parent method' },
  { type: 'contains', weight: 0.8, structural: true, description: 'type or module contains a member' },
  { type: 'member_of', weight: 0.6, structural: true, description: 'member belongs to a type or module' },
  { type: 'handles_route', weight: 0.7, structural: false, description: 'route is handled by a function' },
  { type: 'extends', weight: 0.7, structural: false, description: 'class extends a parent class' },
  { type: 'tests', weight: 0.6, structural: false, description: 'test exercises target' },
  { type: 'consumes_rpc', weight: 0.6, structural: false, description: 'client calls an RPC service' },
  { type: 'accesses_field', weight: 0.6, structural: false, description: 'function reads or writes a field' },
  { type: 'imports', weight: 0.5, structural: false, description: 'module imports module' },
  { type: 'depends_on', weight: 0.5, structural: false, description: 'resource depends on resource' },
  { type: 'consumes_endpoint', weight: 0.5, structural: false, description: 'client calls an HTTP endpoint' },
  { type: 'tested_by', weight: 0.5, structural: false, description: 'target is exercised by a test' },
  { type: 'co_tested_with', weight: 0.5, structural: false, description: 'symbols exercised by the same test file' },
  { type: 'type_hint_of', weight: 0.5, structural: false, description: 'function parameter or return annotated with a type' },
  { type: 'executes_process', weight: 0.5, structural: false, description: 'function spawns a process' },
  { type: 'references', weight: 0.4, structural: false, description: 'non-call use of a type or constant' },
  { type: 'reads_env', weight: 0.4, structural: false, description: 'function reads an environment variable' },
  { type: 'throws', weight: 0.4, structural: false, description: 'function raises an error type' },
  { type: 'deployed_by', weight: 0.4, structural: false, description: 'deployment relationship' },
  { type: 'inherits', weight: 0.3, structural: true, description: 'child class inherits a parent method' },
  { type: 'gated_by_flag', weight: 0.3, structural: false, description: 'code gated by a feature flag' },
  { type: 'decorates', weight: 0.3, structural: false, description: 'decorator or annotation applied to target' },
  { type: 'documents', weight: 0.2, structural: false, description: 'doc comment documents a symbol' },
  { type: 'similar_to', weight: 0.15, structural: false, description: 'lexically similar symbols' },
  { type: 'deploys', weight: 0.3, structural: false, description: 'infrastructure deploys a service' },
  { type: 'exposes', weight: 0.3, structural: false, description: 'service exposes a port or endpoint' },
  { type: 'configures', weight: 0.3, structural: false, description: 'configuration applies to a component' },
  { type: 'publishes', weight: 0.3, structural: false, description: 'code publishes to a topic' },
  { type: 'subscribes', weight: 0.3, structural: false, description: 'code subscribes to a topic' },
  { type: 'connects_to', weight: 0.3, structural: false, description: 'component connects to another' },
  { type: 'runtime_calls', weight: 0.3, structural: false, description: 'call observed at runtime' },
  { type: 'runtime_rpc', weight: 0.3, structural: false, description: 'RPC observed at runtime' },
  { type: 'runtime_produces', weight: 0.3, structural: false, description: 'message produced at runtime' },
  { type: 'runtime_consumes', weight: 0.3, structural: false, description: 'message consumed at runtime' },
  { type: 'owned_by', weight: 0.0, structural: false, description: 'code owner (organisational)' },
  { type: 'authored_by', weight: 0.0, structural: false, description: 'primary author (organisational)' },
].map((info) => Object.freeze(info)));

/** Walk weight for edge types missing from {@link EDGE_TYPES}. */
export const DEFAULT_EDGE_WEIGHT = 0.3;

const byType = new Map(EDGE_TYPES.map((info) => [info.type, info]));

/** Registry entry for `type`, or undefined for a type knowing does not know. */
export function edgeTypeInfo(type: string): EdgeTypeInfo | undefined {
  return byType.get(type);
}

/**
 * Walk weight of an edge type. An override map wins, including explicit zeros; unknown
 * types fall back to {@link DEFAULT_EDGE_WEIGHT}.
 *
 * @example
 * ```ts
 * edgeWeight('calls'); // 1
 * edgeWeight('owned_by'); // 0, never the default
 * edgeWeight('calls', { calls: 0.5 }); // 0.5
 * ```
 */
export function edgeWeight(type: string, overrides?: Readonly<Record<string, number>>): number {
  const override = overrides?.[type];
  if (override !== undefined) return override;
  return byType.get(type)?.weight ?? DEFAULT_EDGE_WEIGHT;
}

/** True for edges that mirror containment or inheritance rather than code behaviour. */
export function isStructuralEdge(type: string): boolean {
  return byType.get(type)?.structural ?? false;
}
