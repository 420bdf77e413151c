import type { NodeKind } from '@knowing/graph';

/**
 * How GCF writes each node kind. Kinds not listed (a future or plugin kind) are written as
 * themselves, escaped; one spelled like an abbreviation gets its first character
 * percent-encoded so it cannot be read back as ours.
 *
 * @example
 * ```ts
 * GCF_KIND_ABBREVIATIONS.function; // 'fn'
 * GCF_KIND_ABBREVIATIONS.type_alias; // 'type'
 * ```
 */
export const GCF_KIND_ABBREVIATIONS: Readonly<Record<NodeKind, string>> = Object.freeze({
  function: 'fn',
  method: 'method',
  constructor: 'ctor',
  class: 'class',
  struct: 'struct',
  interface: 'iface',
  trait: 'trait',
  enum: 'enum',
  type_alias: 'type',
  field: 'field',
  property: 'prop',
  constant: 'const',
  variable: 'var',
  module: 'mod',
  file: 'file',
  route: 'route',
  external: 'ext',
});

/**
 * GCB code of each node kind. 255 means "see the string table"; other unknown codes decode as
 * `unknown_<n>`.
 *
 * @example
 * ```ts
 * GCB_KIND_CODES.method; // 2
 * ```
 */
export const GCB_KIND_CODES: Readonly<Record<NodeKind, number>> = Object.freeze({
  function: 1,
  method: 2,
  constructor: 3,
  class: 4,
  struct: 5,
  interface: 6,
  trait: 7,
  enum: 8,
  type_alias: 9,
  field: 10,
  property: 11,
  constant: 12,
  variable: 13,
  module: 14,
  file: 15,
  route: 16,
  external: 17,
});

/**
 * GCB code of each provenance; 0 is "unknown", 255 "see the string table".
 *
 * @example
 * ```ts
 * GCB_PROVENANCE_CODES.lsp_resolved; // 3
 * ```
 */
export const GCB_PROVENANCE_CODES: Readonly<Record<string, number>> = Object.freeze({
  ast_inferred: 1,
  ast_resolved: 2,
  lsp_resolved: 3,
  runtime: 4,
  derived: 5,
});

/**
 * GCB code of each edge type: 1–38 keep the original system's numbering, 39 adds `inherits`.
 * 255 means "see the string table".
 *
 * @example
 * ```ts
 * GCB_EDGE_TYPE_CODES.calls; // 1
 * GCB_EDGE_TYPE_CODES.inherits; // 39
 * ```
 */
export const GCB_EDGE_TYPE_CODES: Readonly<Record<string, number>> = Object.freeze({
  calls: 1,
  imports: 2,
  implements: 3,
  references: 4,
  handles_route: 5,
  depends_on: 6,
  deploys: 7,
  exposes: 8,
  configures: 9,
  extends: 10,
  overrides: 11,
  decorates: 12,
  throws: 13,
  owned_by: 14,
  authored_by: 15,
  tests: 16,
  runtime_calls: 17,
  runtime_rpc: 18,
  runtime_produces: 19,
  runtime_consumes: 20,
  contains: 21,
  member_of: 22,
  documents: 23,
  consumes_endpoint: 24,
  implements_rpc: 25,
  consumes_rpc: 26,
  gated_by_flag: 27,
  deployed_by: 28,
  tested_by: 29,
  publishes: 30,
  subscribes: 31,
  connects_to: 32,
  similar_to: 33,
  co_tested_with: 34,
  type_hint_of: 35,
  accesses_field: 36,
  reads_env: 37,
  executes_process: 38,
  inherits: 39,
});

/** The enum value that defers to the string table. */
export const GCB_CUSTOM = 255;

export function invert(table: Readonly<Record<string, number>>): Map<number, string>;
export function invert(table: Readonly<Record<string, string>>): Map<string, string>;
export function invert(table: Readonly<Record<string, number | string>>): Map<number | string, string> {
  return new Map(Object.entries(table).map(([name, code]) => [code, name]));
}

/** Own-property lookup, so `constructor` or `__proto__` never hit Object.prototype. */
export function lookup<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
