import type { GraphNode } from '@knowing/graph';
import { CALLABLE_KINDS, isTypeLike } from '@knowing/graph';
import type { ChannelHit } from '../channel.js';

/** Collects hits once per node, in order, up to a cap. */
export class HitList {
  readonly hits: ChannelHit[] = [];
  private readonly seen = new Set<string>();

  get size(): number {
    return this.hits.length;
  }

  has(id: string): boolean {
    return this.seen.has(id);
  }

  /** Add nodes not seen yet until `cap` hits; returns false once the cap is reached. */
  add(nodes: readonly GraphNode[], detail: string, cap = Number.POSITIVE_INFINITY): boolean {
    for (const node of nodes) {
      if (this.hits.length >= cap) return false;
      if (node.external || this.seen.has(node.id)) continue;
      this.seen.add(node.id);
      this.hits.push({ node, detail });
    }
    return this.hits.length < cap;
  }
}

/**
 * Order name matches so the likeliest intended symbol comes first: code over tests, types and
 * callables over fields and variables, then shorter qualified names (closer to a package's
 * surface), then by name for determinism.
 */
export function byLikelyIntent(a: GraphNode, b: GraphNode): number {
  return (
    Number(a.isTest) - Number(b.isTest) ||
    kindRank(a) - kindRank(b) ||
    a.qualifiedName.length - b.qualifiedName.length ||
    (a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0)
  );
}

function kindRank(node: GraphNode): number {
  if (isTypeLike(node.kind)) return 0;
  if (CALLABLE_KINDS.has(node.kind)) return 1;
  if (node.kind === 'property' || node.kind === 'type_alias') return 2;
  return 3;
}

/** Split a keyword that names a qualified symbol (`Flask.run`, `Jekyll::Site`, `a.b.c`) into qualifier and terminal. */
export function splitQualified(keyword: string): { qualifier: string[]; terminal: string } {
  const parts = keyword.split(/::|\.|#/).filter((p) => p.length > 0);
  const terminal = parts.pop() ?? keyword;
  return { qualifier: parts, terminal };
}

/** Lower-case dot components of a qualified name, with `/` and `::` as separators too. */
export function qualifiedComponents(qualifiedName: string): Set<string> {
  return new Set(qualifiedName.toLowerCase().split(/::|[./#]/));
}

/** True when every qualifier segment is a component of the node's qualified name. */
export function matchesQualifier(node: GraphNode, qualifier: readonly string[]): boolean {
  if (qualifier.length === 0) return true;
  const components = qualifiedComponents(node.qualifiedName);
  return qualifier.every((q) => components.has(q.toLowerCase()));
}
