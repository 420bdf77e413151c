import type { ContextPack, RankedSymbol } from '@knowing/graph';
import { groupOf, preparePack, runs } from './order.js';
import { codeSpan, countTokens, formatScore, oneLine } from './text.js';
import type { FormatOptions, Formatter } from './types.js';

const HEADING = {
  target: 'Target Symbols (distance 0)',
  related: 'Related Symbols (distance 1)',
  extended: 'Extended Context (distance 2+)',
} as const;

function renderSymbol(symbol: RankedSymbol): string {
  const { node } = symbol;
  const signature = oneLine(node.signature);
  return `- ${codeSpan(node.qualifiedName)} (${oneLine(node.kind)}, ${formatScore(symbol.score)})${signature ? ` — ${codeSpan(signature)}` : ''}\n`;
}

function encodeMarkdown(pack: ContextPack, options: FormatOptions = {}): string {
  const prepared = preparePack(pack);
  const task = options.task ? oneLine(options.task) : '';
  let out = task ? `# Context: ${task}\n\n` : '# Context\n\n';
  out += `Tokens: ${prepared.tokensUsed} / ${prepared.tokenBudget}`;
  if (prepared.packRoot) out += ` · pack root ${codeSpan(prepared.packRoot)}`;
  out += '\n';
  for (const group of runs(prepared.symbols, (symbol) => groupOf(symbol.distance))) {
    out += `\n## ${HEADING[group.key]}\n\n`;
    for (const symbol of group.symbols) out += renderSymbol(symbol);
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
 * (``- `qname` (kind, score) — `signature` ``), then the edges as `source type target` lines.
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
