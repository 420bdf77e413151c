import type { GraphEdge, GraphNode, RankedSymbol } from '@knowing/graph';

export interface SymbolSpec {
  readonly score: number;
  readonly rwr?: number;
  readonly file?: string;
  readonly kind?: GraphNode['kind'];
  readonly signature?: string;
  readonly external?: boolean;
  readonly distance?: number;
}

/** A ranked symbol named `name` whose id is `id-<name>`. */
export function sym(name: string, spec: SymbolSpec): RankedSymbol {
  const file = spec.external ? '' : (spec.file ?? 'src/app.ts');
  const kind = spec.external ? 'external' : (spec.kind ?? 'function');
  return {
    node: {
      id: `id-${name}`,
      name,
      qualifiedName: file ? `${file}.${name}` : name,
      kind,
      language: spec.external ? '' : 'typescript',
      file,
      startLine: 1,
      endLine: 1,
      signature: spec.signature ?? `function ${name}()`,
      doc: '',
      isTest: false,
      external: spec.external ?? false,
    },
    score: spec.score,
    distance: spec.distance ?? 1,
    rwr: spec.rwr ?? 1,
    components: {},
  };
}

/**
 * Cost options under which a symbol costs exactly `costs[name]` tokens: the renderer writes
 * that many characters and the tokenizer counts characters.
 */
export function exactCosts(costs: Readonly<Record<string, number>>) {
  return {
    tokenizer: { count: (text: string) => text.length },
    render: (symbol: RankedSymbol) => 'x'.repeat(costs[symbol.node.name] ?? 1),
  };
}

export function edge(source: string, target: string, type = 'calls'): GraphEdge {
  return { source: `id-${source}`, target: `id-${target}`, type, confidence: 1, provenance: 'ast_resolved' };
}

export const names = (symbols: readonly RankedSymbol[]): string[] => symbols.map((s) => s.node.name);

/** Deterministic pseudo-random numbers. */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}
