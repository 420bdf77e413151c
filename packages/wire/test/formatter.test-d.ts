import { describe, expectTypeOf, it } from 'vitest';
import type { ContextPack, RankedSymbol } from '@knowing/graph';
import { createFormatRegistry, formatPack } from '@knowing/wire';
import type { FormatOptions, FormatRegistry, Formatter } from '@knowing/wire';

declare const pack: ContextPack;

const csv: Formatter = {
  name: 'csv',
  mediaType: 'text/csv',
  binary: false,
  encode: (p) => p.symbols.map((s) => `${s.node.qualifiedName},${s.score}`).join('\n'),
};

describe('formatter registration', () => {
  it('registers text and binary formatters, with an optional symbolCost', () => {
    const registry = createFormatRegistry();
    expectTypeOf(registry).toEqualTypeOf<FormatRegistry>();
    registry.register(csv);
    registry.register({ ...csv, name: 'csv' }, { replace: true });
    registry.register({
      name: 'bytes',
      mediaType: 'application/octet-stream',
      binary: true,
      encode: (p, options?: FormatOptions) => new TextEncoder().encode(`${options?.task ?? ''}${p.packRoot}`),
      symbolCost: (symbol: RankedSymbol) => Math.max(1, symbol.node.name.length),
    });
    expectTypeOf(registry.get('csv')).toEqualTypeOf<Formatter>();
    expectTypeOf(registry.list()).toEqualTypeOf<readonly Formatter[]>();
    expectTypeOf(formatPack(pack, { format: 'csv', registry })).toEqualTypeOf<string | Uint8Array>();
    expectTypeOf<Formatter['symbolCost']>().toEqualTypeOf<((symbol: RankedSymbol, options?: FormatOptions) => number) | undefined>();
  });

  it('rejects incomplete formatters and unknown options', () => {
    const registry = createFormatRegistry();
    // @ts-expect-error encode is required
    registry.register({ name: 'empty', mediaType: 'text/plain', binary: false });
    // @ts-expect-error mediaType and binary are required
    registry.register({ name: 'short', encode: () => '' });
    // @ts-expect-error encode returns text or bytes, not objects
    registry.register({ name: 'obj', mediaType: 'application/json', binary: false, encode: (p: ContextPack) => ({ p }) });
    // @ts-expect-error symbolCost returns a token count
    registry.register({ ...csv, symbolCost: () => 'cheap' });
    // @ts-expect-error registration options only know `replace`
    registry.register(csv, { override: true });
    // @ts-expect-error formatPack needs the format's name
    formatPack(pack, { registry });
  });
});
