/**
 * The entry of dist/cli.cjs, the CommonJS bundle `context` and `index` run from through a V8 code
 * cache (tsup.config.ts, compile-cache.ts): the command line itself, and the copy of graphology
 * the bundle holds, handed to @knowing/walk's community detection.
 *
 * The walk loads graphology on its first detection with a require() of its own, which a bundle
 * cannot follow: from node_modules, compiled afresh in every process (about 25 ms of a full
 * index). The require() calls below are bundled instead, and run only when a detection asks.
 */
import type { UndirectedGraph } from 'graphology';
import type louvain from 'graphology-communities-louvain';

/** The name @knowing/walk reads a bundled copy under (communities.ts, BUNDLED_LOUVAIN_MODULES). */
const BUNDLED_LOUVAIN_MODULES = Symbol.for('@knowing/walk:louvain-modules');

(globalThis as { [BUNDLED_LOUVAIN_MODULES]?: unknown })[BUNDLED_LOUVAIN_MODULES] = () => ({
  UndirectedGraph: (require('graphology') as { UndirectedGraph: typeof UndirectedGraph }).UndirectedGraph,
  louvain: require('graphology-communities-louvain') as typeof louvain,
});

export * from './run.js';
// Read by bin.cjs before it writes the bundle's code cache (see run-weight.ts).
export { wasLightRun } from './run-weight.js';
