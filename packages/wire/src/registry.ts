import type { ContextPack, RankedSymbol } from '@knowing/graph';
import { estimateTokens } from '@knowing/pack';
import type { CostOptions, Tokenizer } from '@knowing/pack';
import { invalidArgument, pluginInvalid } from './errors.js';
import { gcbFormat } from './gcb.js';
import { gcfFormat } from './gcf.js';
import { jsonFormat } from './json.js';
import { markdownFormat } from './markdown.js';
import { xmlFormat } from './xml.js';
import type { CostFunctionOptions, FormatPackOptions, FormatRegistry, Formatter, RegisterOptions } from './types.js';

/** The built-in formats, in the order `list()` shows them. */
export const defaultFormats: readonly Formatter[] = Object.freeze([xmlFormat, markdownFormat, jsonFormat, gcfFormat, gcbFormat]);

const NAME = /^[a-z][a-z0-9_-]*$/;

function checkFormatter(formatter: Formatter): void {
  const label = typeof formatter?.name === 'string' ? `formatter ${JSON.stringify(formatter.name)}` : 'a formatter';
  if (typeof formatter !== 'object' || formatter === null) throw invalidArgument('register() takes a formatter object');
  if (typeof formatter.name !== 'string' || !NAME.test(formatter.name)) {
    throw invalidArgument(`${label} needs a name of lowercase letters, digits, - and _, starting with a letter`);
  }
  if (typeof formatter.mediaType !== 'string' || formatter.mediaType === '') throw invalidArgument(`${label} needs a mediaType such as text/plain`);
  if (typeof formatter.binary !== 'boolean') throw invalidArgument(`${label} must say whether it is binary`);
  if (typeof formatter.encode !== 'function') throw invalidArgument(`${label} needs an encode(pack, options) function`);
  if (formatter.symbolCost !== undefined && typeof formatter.symbolCost !== 'function') throw invalidArgument(`${label} has a symbolCost that is not a function`);
}

/**
 * A registry of output formats, starting with `initial` (the built-in xml, markdown, json, gcf
 * and gcb by default). Register your own formatter to make it available by name.
 *
 * @example
 * ```ts
 * const registry = createFormatRegistry();
 * registry.register({ name: 'csv', mediaType: 'text/csv', binary: false, encode: toCsv });
 * formatPack(pack, { format: 'csv', registry });
 * registry.register(myGcf, { replace: true }); // swap a built-in
 * ```
 */
export function createFormatRegistry(initial: readonly Formatter[] = defaultFormats): FormatRegistry {
  const formatters = new Map<string, Formatter>();
  const registry: FormatRegistry = {
    register(formatter: Formatter, options: RegisterOptions = {}) {
      checkFormatter(formatter);
      if (formatters.has(formatter.name) && !options.replace) {
        throw invalidArgument(`a format named ${JSON.stringify(formatter.name)} is already registered`, 'pass { replace: true } to replace it');
      }
      formatters.set(formatter.name, formatter);
    },
    get(name: string) {
      const formatter = typeof name === 'string' ? formatters.get(name.trim().toLowerCase()) : undefined;
      if (!formatter) throw invalidArgument(`unknown format ${JSON.stringify(name)}`, `known formats: ${[...formatters.keys()].join(', ')}`);
      return formatter;
    },
    has: (name: string) => typeof name === 'string' && formatters.has(name.trim().toLowerCase()),
    list: () => Object.freeze([...formatters.values()]),
  };
  for (const formatter of initial) registry.register(formatter);
  return registry;
}

const builtIn = createFormatRegistry();

/**
 * Render a pack in a named format: text for the text formats, bytes for gcb. Checks that the
 * formatter returned what it declares (text or bytes) and names it when not.
 *
 * @example
 * ```ts
 * const text = formatPack(pack, { format: 'gcf', tool: 'context_for_task', session });
 * const bytes = formatPack(pack, { format: 'gcb' });
 * const xml = formatPack(pack, { format: 'xml', task: 'fix the login redirect' });
 * ```
 */
export function formatPack(pack: ContextPack, options: FormatPackOptions & { readonly format: 'gcb' }): Uint8Array;
export function formatPack(pack: ContextPack, options: FormatPackOptions & { readonly format: 'xml' | 'markdown' | 'json' | 'gcf' }): string;
export function formatPack(pack: ContextPack, options: FormatPackOptions): string | Uint8Array;
export function formatPack(pack: ContextPack, options: FormatPackOptions): string | Uint8Array {
  const { format, registry, ...formatOptions } = options;
  const formatter = (registry ?? builtIn).get(format);
  const output = formatter.encode(pack, formatOptions);
  if (formatter.binary ? !(output instanceof Uint8Array) : typeof output !== 'string') {
    throw pluginInvalid(`formatter ${JSON.stringify(formatter.name)} returned ${output instanceof Uint8Array ? 'bytes' : typeof output}, but declares binary: ${formatter.binary}`);
  }
  return output;
}

/**
 * The token cost of a symbol in a format, for packing: the formatter's `symbolCost` (the
 * symbol's real rendered lines) or, for a formatter without one, `@knowing/pack`'s
 * `estimateTokens` scaled for the format. At least 1; a formatter returning a non-finite or
 * negative cost is reported by name.
 *
 * @example
 * ```ts
 * const cost = costFunctionFor('gcf');
 * cost(symbol); // tokens of `@10 fn src/a.ts.run 0.91 -`
 * ```
 */
export function costFunctionFor(format: string, tokenizer?: Tokenizer, options: CostFunctionOptions = {}): (symbol: RankedSymbol) => number {
  const { registry, ...rest } = options;
  const formatter = (registry ?? builtIn).get(format);
  const formatOptions = { ...rest, ...(tokenizer ? { tokenizer } : {}) };
  const symbolCost = formatter.symbolCost;
  if (!symbolCost) return (symbol) => estimateTokens(symbol, { format: formatter.name, tokenizer: formatOptions.tokenizer });
  return (symbol) => {
    const cost = symbolCost.call(formatter, symbol, formatOptions);
    if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) {
      throw pluginInvalid(`formatter ${JSON.stringify(formatter.name)} returned cost ${String(cost)} for ${symbol.node.qualifiedName}; costs are finite numbers ≥ 0`);
    }
    return Math.max(1, cost);
  };
}

/**
 * `@knowing/pack` cost options that charge each symbol `costFunctionFor(format)` tokens, so
 * `packSymbols` and `diffPacks` spend the budget in the chosen format's real cost.
 *
 * @example
 * ```ts
 * const pack = packSymbols(ranked, { ...costOptionsFor('gcf', tokenizer), budget: 8000, task, edges });
 * ```
 */
export function costOptionsFor(format: string, tokenizer?: Tokenizer, options: CostFunctionOptions = {}): CostOptions {
  return { format, ...(tokenizer ? { tokenizer } : {}), cost: costFunctionFor(format, tokenizer, options) };
}
