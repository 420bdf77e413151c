import type { ContextPack, RankedSymbol } from '@knowing/graph';
import { DEFAULT_FORMAT_OPTIONS } from './options.js';
import { compareText, edgeKey, newEdgeKeys, preparePack } from './order.js';
import { countTokens, tokenizerName } from './text.js';
import type { FormatOptions, Formatter, SymbolCode } from './types.js';

/** Components with their keys sorted, built with data properties (a `__proto__` key stays a key). */
function sortedComponents(components: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(components).sort((a, b) => compareText(a[0], b[0])));
}

function symbolObject(symbol: RankedSymbol, code?: SymbolCode): Record<string, unknown> {
  const { node } = symbol;
  const object: Record<string, unknown> = {
    id: node.id,
    qualified_name: node.qualifiedName,
    name: node.name,
    kind: node.kind,
    language: node.language,
    file: node.file,
    start_line: node.startLine,
    end_line: node.endLine,
    score: symbol.score,
    distance: symbol.distance,
    rwr: symbol.rwr,
    provenance: symbol.provenance ?? null,
    signature: node.signature,
    doc: node.doc,
    is_test: node.isTest,
    external: node.external,
    components: sortedComponents(symbol.components),
  };
  if (code) object.code = { start_line: code.startLine, end_line: code.endLine, truncated: code.truncated, text: code.text };
  return object;
}

function encodeJson(pack: ContextPack, options: FormatOptions = {}): string {
  const prepared = preparePack(pack);
  const fresh = newEdgeKeys(prepared, options.previous);
  const nameOf = (id: string): string => prepared.symbols[prepared.position.get(id)!]!.node.qualifiedName;
  const document = {
    tool: options.tool ?? DEFAULT_FORMAT_OPTIONS.tool,
    task: options.task ?? null,
    tokens_used: prepared.tokensUsed,
    token_budget: prepared.tokenBudget,
    ...(tokenizerName(options.tokenizer) ? { tokenizer: tokenizerName(options.tokenizer) } : {}),
    pack_root: prepared.packRoot,
    symbols: prepared.symbols.map((symbol) => symbolObject(symbol, options.code?.get(symbol.node.id))),
    edges: prepared.edges.map((edge) => ({
      source: nameOf(edge.source),
      target: nameOf(edge.target),
      source_id: edge.source,
      target_id: edge.target,
      type: edge.type,
      confidence: edge.confidence,
      provenance: edge.provenance,
      line: edge.line ?? null,
      ...(fresh ? { status: fresh.has(edgeKey(edge)) ? 'added' : 'unchanged' } : {}),
    })),
  };
  const pretty = options.pretty ?? DEFAULT_FORMAT_OPTIONS.pretty;
  return `${JSON.stringify(document, null, pretty ? 2 : undefined)}\n`;
}

function symbolText(symbol: RankedSymbol, options: FormatOptions): string {
  if (!(options.pretty ?? DEFAULT_FORMAT_OPTIONS.pretty)) return `${JSON.stringify(symbolObject(symbol))},`;
  const nested = JSON.stringify(symbolObject(symbol), null, 2).replace(/^/gm, '    ');
  return `${nested},\n`;
}

/**
 * The JSON format: every field of every symbol (including each score component, keys sorted)
 * and every edge with both qualified names and ids, plus tool, task, tokens, budget and pack
 * root. Keys come in a fixed order; `pretty` indents.
 *
 * @example
 * ```ts
 * const data = JSON.parse(jsonFormat.encode(pack, { pretty: true }) as string);
 * data.symbols[0].components.blast_radius;
 * ```
 */
export const jsonFormat: Formatter = Object.freeze({
  name: 'json',
  mediaType: 'application/json',
  binary: false,
  encode: encodeJson,
  symbolCost: (symbol: RankedSymbol, options: FormatOptions = {}) => countTokens(symbolText(symbol, options), options.tokenizer, 1),
});
