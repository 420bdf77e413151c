import { DEFAULT_DIFF_OPTIONS } from '@knowing/pack';
import type { FormatOptions } from './types.js';

/**
 * Defaults of the {@link FormatOptions} that have one.
 *
 * @example
 * ```ts
 * formatPack(pack, { format: 'xml', docChars: DEFAULT_FORMAT_OPTIONS.docChars * 2 });
 * ```
 */
export const DEFAULT_FORMAT_OPTIONS: Readonly<Required<Pick<FormatOptions, 'tool' | 'pretty' | 'docChars' | 'deltaThreshold'>>> = Object.freeze({
  tool: 'knowing',
  pretty: false,
  docChars: 200,
  deltaThreshold: DEFAULT_DIFF_OPTIONS.threshold,
});
