import type { ContextPack, RankedSymbol } from '@knowing/graph';
import { createHeuristicTokenizer } from '@knowing/pack';
import type { FormatOptions, Formatter } from '@knowing/wire';

const heuristic = createHeuristicTokenizer();

/** Spaces, tabs and newlines inside a field would break the one-line-per-symbol layout. */
function field(text: string): string {
  return text.replace(/\s+/g, '_');
}

/**
 * The line a symbol is written as: score, kind, qualified name, file and line range, separated
 * by single spaces. `0.912 method src/app.ts.App.run src/app.ts:10-24`
 */
export function symbolLine(symbol: RankedSymbol): string {
  const { node } = symbol;
  return `${symbol.score.toFixed(3)} ${field(node.kind)} ${field(node.qualifiedName)} ${field(node.file)}:${node.startLine}-${node.endLine}`;
}

/**
 * "lines": one line per symbol, best first, after a single header line. Made for grep, shell
 * pipelines, and agents that only need to know where to look. Edges and score components are
 * left out on purpose: this format sends locations, not explanations.
 *
 * `symbolCost` is the tokens of the symbol's own line, newline included, on the tokenizer the
 * caller passes (⌊characters / 4⌋ otherwise). Packing with it means a budget of N is N tokens
 * of these lines.
 *
 * @example
 * ```ts
 * const registry = createFormatRegistry();
 * registry.register(linesFormat);
 * formatPack(pack, { format: 'lines', registry, task: 'add a retry' });
 * ```
 */
export const linesFormat: Formatter = {
  name: 'lines',
  mediaType: 'text/plain',
  binary: false,
  encode(pack: ContextPack, options: FormatOptions = {}): string {
    const header = `# lines symbols=${pack.symbols.length} tokens=${pack.tokensUsed} budget=${pack.tokenBudget}${options.task ? ` task=${JSON.stringify(options.task)}` : ''}`;
    return [header, ...pack.symbols.map(symbolLine)].join('\n') + '\n';
  },
  symbolCost(symbol: RankedSymbol, options: FormatOptions = {}): number {
    return Math.max(1, (options.tokenizer ?? heuristic).count(`${symbolLine(symbol)}\n`));
  },
};
