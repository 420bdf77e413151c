import { costFunctionFor, createFormatRegistry } from '@knowing/wire';
import type { RankedSymbol } from '@knowing/graph';
import { usageError } from './errors.js';

// The output formats, apart from engine.ts: checking a format loads the formats only, not the
// engine (context checks its flags before it loads the engine).

const formats = createFormatRegistry();

/** The names of the output formats, in registry order. */
export function formatNames(): string[] {
  return formats.list().map((f) => f.name);
}

/** A known format name (normalised), or a usage error listing the known ones. */
export function checkFormat(name: string, flag = '--format'): string {
  const normalized = name.trim().toLowerCase();
  if (!formats.has(normalized)) {
    throw usageError(`unknown format "${name}"${flag ? ` for ${flag}` : ''}`, `known formats: ${formatNames().join(', ')}`);
  }
  return normalized;
}

export function isBinaryFormat(name: string): boolean {
  return formats.get(name).binary;
}

/** What one symbol costs in a format, for the engine's budget (`symbolCost`); undefined for a format this build does not know. */
export function formatCost(format: string): ((symbol: RankedSymbol) => number) | undefined {
  return formats.has(format) ? costFunctionFor(format) : undefined;
}
