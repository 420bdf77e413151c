import type { ContextPack, RankedSymbol } from '@knowing/graph';
import { groupOf, preparePack, runs } from './order.js';
import { codeFence, codeSpan, countTokens, formatScore, location, oneLine, tokenizerName } from './text.js';
import type { FormatOptions, Formatter, SymbolCode } from './types.js';

const HEADING = {
  target: 'Target Symbols (distance 0)',
  related: 'Related Symbols (distance 1)',
  extended: 'Extended Context (distance 2+)',
} as const;

function renderCode(code: SymbolCode, language: string): string {
  const fence = codeFence(code.text);
  const cut = code.truncated ? `\n(cut after line ${code.endLine})\n` : '';
  return `\n${fence}${language}\n${code.text}\n${fence}\n${cut}\n`;
}

function renderSymbol(symbol: RankedSymbol, code?: SymbolCode): string {
  const { node } = symbol;
  const signature = oneLine(node.signature);
  const where = location(node);
  const line = `- ${codeSpan(node.qualifiedName)} (${oneLine(node.kind)}, ${formatScore(symbol.score)})${where ? ` ${codeSpan(where)}` : ''}${signature ? ` — ${codeSpan(signature)}` : ''}\n`;
  return code ? line + renderCode(code, oneLine(node.language)) : line;
}

function encodeMarkdown(pack: ContextPack, options: FormatOptions = {}): string {
  const prepared = preparePack(pack);
  const task = options.task ? oneLine(options.task) : '';
  let out = task ? `# Context: ${task}\n\n` : '# Context\n\n';
  out += `Tokens: ${prepared.tokensUsed} / ${prepared.tokenBudget}`;
  const counter = tokenizerName(options.tokenizer);
  if (counter) out += ` (${counter})`;
  if (prepared.packRoot) out += ` · pack root ${codeSpan(prepared.packRoot)}`;
  out += '\n';
  for (const group of runs(prepared.symbols, (symbol) => groupOf(symbol.distance))) {
    out += `\n## ${HEADING[group.key]}\n\n`;
    for (const symbol of group.symbols) out += renderSymbol(symbol, options.code?.get(symbol.node.id));
  }
  if (prepared.edges.length > 0) {
    out += '\n## Edges\n\n';
    for (const edge of prepared.edges) {
      const source = prepared.symbols[prepared.position.get(edge.source)!]!.node.qualifiedName;
      const target = prepared.symbols[prepared.position.get(edge.target)!]!.node.qualifiedName;
      out += `- ${codeSpan(source)} ${oneLine(edge.type)} ${codeSpan(target)}\n`;
    }
  }
  return out;
}

/**
 * The markdown format: a heading per distance group, one line per symbol
 * (``- `qname` (kind, score) `file:start-end` — `signature` ``, followed in code mode by a
 * fenced block of its source), then the edges as `source type target` lines.
 *
 * @example
 * ```ts
 * const text = markdownFormat.encode(pack, { task: 'add a before-request hook' }) as string;
 * ```
 */
export const markdownFormat: Formatter = Object.freeze({
  name: 'markdown',
  mediaType: 'text/markdown',
  binary: false,
  encode: encodeMarkdown,
  symbolCost: (symbol: RankedSymbol, options: FormatOptions = {}) => countTokens(renderSymbol(symbol), options.tokenizer, 1),
});
