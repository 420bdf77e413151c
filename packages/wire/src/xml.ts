import type { ContextPack, GraphNode, RankedSymbol } from '@knowing/graph';
import { DEFAULT_FORMAT_OPTIONS } from './options.js';
import { compareText, groupOf, preparePack, runs } from './order.js';
import { countTokens, docExcerpt, escapeXmlAttribute as attr, escapeXmlText as text, formatScore, location, tokenizerName, xmlCdata } from './text.js';
import type { FormatOptions, Formatter, SymbolCode } from './types.js';

const GROUP_ELEMENT = { target: 'target_symbols', related: 'related_symbols', extended: 'extended_context' } as const;

function renderCode(code: SymbolCode): string {
  const lines = `${code.startLine}-${code.endLine}`;
  return `      <code lines="${lines}"${code.truncated ? ' truncated="true"' : ''}>${xmlCdata(code.text)}</code>\n`;
}

function renderSymbol(symbol: RankedSymbol, docChars: number, code?: SymbolCode): string {
  const { node } = symbol;
  let open = `    <symbol name="${attr(node.qualifiedName)}" kind="${attr(node.kind)}" score="${formatScore(symbol.score)}"`;
  if (symbol.provenance) open += ` provenance="${attr(symbol.provenance)}"`;
  open += ` distance="${symbol.distance}"`;
  const where = location(node);
  if (where) open += ` location="${attr(where)}"`;
  const doc = docExcerpt(node.doc, docChars);
  if (!node.signature && !doc && !code) return `${open}/>\n`;
  let out = `${open}>\n`;
  if (node.signature) out += `      <signature>${text(node.signature)}</signature>\n`;
  if (doc) out += `      <doc>${text(doc)}</doc>\n`;
  if (code) out += renderCode(code);
  return `${out}    </symbol>\n`;
}

function encodeXml(pack: ContextPack, options: FormatOptions = {}): string {
  const prepared = preparePack(pack);
  const docChars = options.docChars ?? DEFAULT_FORMAT_OPTIONS.docChars;
  let root = '<context';
  if (options.task) root += ` task="${attr(options.task)}"`;
  root += ` tokens_used="${prepared.tokensUsed}" token_budget="${prepared.tokenBudget}"`;
  const counter = tokenizerName(options.tokenizer);
  if (counter) root += ` tokenizer="${attr(counter)}"`;
  if (prepared.packRoot) root += ` pack_root="${attr(prepared.packRoot)}"`;
  let out = `${root}>\n`;

  for (const group of runs(prepared.symbols, (symbol) => groupOf(symbol.distance))) {
    const element = GROUP_ELEMENT[group.key];
    out += `  <${element}>\n`;
    for (const symbol of group.symbols) out += renderSymbol(symbol, docChars, options.code?.get(symbol.node.id));
    out += `  </${element}>\n`;
  }

  out += '  <relationship_summary>\n';
  out += `    <total_symbols>${prepared.symbols.length}</total_symbols>\n`;
  // Symbols are in score order, so one distance can come back: count per distance, ascending.
  const perDistance = new Map<number, number>();
  for (const symbol of prepared.symbols) perDistance.set(symbol.distance, (perDistance.get(symbol.distance) ?? 0) + 1);
  const hops = [...perDistance].sort((a, b) => a[0] - b[0]);
  if (hops.length === 0) out += '    <by_distance/>\n';
  else {
    out += '    <by_distance>\n';
    for (const [hop, count] of hops) out += `      <distance hop="${hop}" count="${count}"/>\n`;
    out += '    </by_distance>\n';
  }
  const byType = new Map<string, number>();
  for (const edge of prepared.edges) byType.set(edge.type, (byType.get(edge.type) ?? 0) + 1);
  if (byType.size === 0) out += '    <edges total="0"/>\n';
  else {
    out += `    <edges total="${prepared.edges.length}">\n`;
    const types = [...byType].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
    for (const [type, count] of types) out += `      <edge type="${attr(type)}" count="${count}"/>\n`;
    out += '    </edges>\n';
  }
  out += '  </relationship_summary>\n';
  return `${out}</context>\n`;
}

/**
 * The XML format: symbols grouped by distance (`target_symbols` 0, `related_symbols` 1,
 * `extended_context` 2+), each with qualified name, kind, score, provenance, distance,
 * location, signature, a doc excerpt and (code mode) the source lines, then a `relationship_summary` with counts per
 * distance and edges per type.
 *
 * @example
 * ```ts
 * const text = xmlFormat.encode(pack, { task: 'fix the login redirect' }) as string;
 * ```
 */
export const xmlFormat: Formatter = Object.freeze({
  name: 'xml',
  mediaType: 'application/xml',
  binary: false,
  encode: encodeXml,
  symbolCost: (symbol: RankedSymbol, options: FormatOptions = {}) =>
    countTokens(renderSymbol(symbol, options.docChars ?? DEFAULT_FORMAT_OPTIONS.docChars), options.tokenizer, 1),
});
