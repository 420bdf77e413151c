import { describe, expect, it } from 'vitest';
import { isKnowingError } from '@knowing/graph';
import type { RankedSymbol } from '@knowing/graph';
import { estimateTokens, packSymbols } from '@knowing/pack';
import { costFunctionFor, costOptionsFor, createFormatRegistry, defaultFormats, formatPack, gcfFormat, xmlFormat } from '../src/index.js';
import type { Formatter } from '../src/index.js';
import { LOGIN_TASK, loginPack, makePack, sym } from './fixtures.js';

const csv: Formatter = {
  name: 'csv',
  mediaType: 'text/csv',
  binary: false,
  encode: (pack) => pack.symbols.map((s) => `${s.node.qualifiedName},${s.score}`).join('\n'),
};

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isKnowingError(error) ? error.code : 'not a KnowingError';
  }
  return undefined;
}

describe('format registry', () => {
  it('starts with the five built-in formats', () => {
    expect(createFormatRegistry().list().map((f) => f.name)).toEqual(['xml', 'markdown', 'json', 'gcf', 'gcb']);
    expect(defaultFormats.map((f) => [f.name, f.binary])).toEqual([
      ['xml', false],
      ['markdown', false],
      ['json', false],
      ['gcf', false],
      ['gcb', true],
    ]);
  });

  it('adds a user format and renders with it by name', () => {
    const registry = createFormatRegistry();
    registry.register(csv);
    expect(registry.has('csv')).toBe(true);
    expect(registry.get('CSV ')).toBe(csv);
    expect(formatPack(makePack('t', [sym({ qualifiedName: 'a.b', score: 0.5, distance: 0 })], []), { format: 'csv', registry })).toBe('a.b,0.5');
    // The built-in registry is not affected.
    expect(codeOf(() => formatPack(loginPack, { format: 'csv' }))).toBe('INVALID_ARGUMENT');
  });

  it('rejects a duplicate name unless asked to replace', () => {
    const registry = createFormatRegistry();
    expect(codeOf(() => registry.register({ ...csv, name: 'gcf' }))).toBe('INVALID_ARGUMENT');
    expect(registry.get('gcf')).toBe(gcfFormat);
    const mine = { ...csv, name: 'gcf' };
    registry.register(mine, { replace: true });
    expect(registry.get('gcf')).toBe(mine);
    expect(registry.list()).toHaveLength(5);
  });

  it('names the known formats when asked for an unknown one', () => {
    let message = '';
    try {
      createFormatRegistry().get('yaml');
    } catch (error) {
      expect(isKnowingError(error, 'INVALID_ARGUMENT')).toBe(true);
      message = (error as Error).message;
    }
    expect(message).toContain('"yaml"');
    expect(message).toContain('xml, markdown, json, gcf, gcb');
  });

  it('checks formatters when they are registered', () => {
    const registry = createFormatRegistry([]);
    expect(registry.list()).toEqual([]);
    for (const bad of [{ ...csv, name: 'Has Space' }, { ...csv, name: '' }, { ...csv, mediaType: '' }, { ...csv, encode: 'no' }, { ...csv, binary: 'yes' }, { ...csv, symbolCost: 3 }, null]) {
      expect(codeOf(() => registry.register(bad as unknown as Formatter))).toBe('INVALID_ARGUMENT');
    }
  });

  it('reports a formatter that returns the wrong kind of output, by name', () => {
    const registry = createFormatRegistry([{ ...csv, binary: true }]);
    let message = '';
    try {
      formatPack(loginPack, { format: 'csv', registry });
    } catch (error) {
      expect(isKnowingError(error, 'PLUGIN_INVALID')).toBe(true);
      message = (error as Error).message;
    }
    expect(message).toContain('"csv"');
  });

  it('passes task, tool and other options through to the formatter', () => {
    const seen: unknown[] = [];
    const registry = createFormatRegistry([{ ...csv, encode: (_pack, options) => (seen.push(options), '') }]);
    formatPack(loginPack, { format: 'csv', registry, task: 'x', tool: 'y', pretty: true });
    expect(seen).toEqual([{ task: 'x', tool: 'y', pretty: true }]);
  });
});

describe('cost functions', () => {
  const chars = { count: (text: string) => text.length };

  it('charge each format its own rendered size', () => {
    const symbol = loginPack.symbols[0]!;
    const costs = Object.fromEntries(['xml', 'markdown', 'json', 'gcf', 'gcb'].map((format) => [format, costFunctionFor(format)(symbol)]));
    expect(costs.gcf).toBeLessThan(costs.markdown!);
    expect(costs.markdown).toBeLessThan(costs.xml!);
    expect(costs.xml).toBeLessThan(costs.json!);
    expect(costs.gcf).toBe(Math.floor('@10 fn src/auth/login.ts.handleLogin 0.91 - src/auth/login.ts:12-40\n'.length / 4));
  });

  it('use the tokenizer passed in', () => {
    const symbol = loginPack.symbols[0]!;
    expect(costFunctionFor('gcf', chars)(symbol)).toBe('@10 fn src/auth/login.ts.handleLogin 0.91 - src/auth/login.ts:12-40\n'.length);
  });

  it('count the text the format really writes for the symbol', () => {
    const xml = formatPack(loginPack, { format: 'xml', task: LOGIN_TASK });
    const markdown = formatPack(loginPack, { format: 'markdown', task: LOGIN_TASK });
    for (const symbol of loginPack.symbols) {
      const name = symbol.node.qualifiedName;
      const start = xml.indexOf(`    <symbol name="${name}"`);
      const selfClosing = xml.indexOf('/>\n', start);
      const closing = xml.indexOf('</symbol>\n', start);
      const end = selfClosing >= 0 && (closing < 0 || selfClosing < xml.indexOf('\n', start) + 1) ? selfClosing + 3 : closing + 10;
      expect(costFunctionFor('xml', chars)(symbol)).toBe(end - start);
      const line = markdown.split('\n').find((l) => l.startsWith(`- \`${name}\``))!;
      expect(costFunctionFor('markdown', chars)(symbol)).toBe(line.length + 1);
    }
  });

  it('fall back to the scaled pack estimate for formatters without symbolCost', () => {
    const registry = createFormatRegistry([csv]);
    const symbol = loginPack.symbols[0]!;
    expect(costFunctionFor('csv', undefined, { registry })(symbol)).toBe(estimateTokens(symbol, { format: 'csv' }));
  });

  it('report a formatter whose cost is not a number ≥ 0', () => {
    const registry = createFormatRegistry([{ ...csv, symbolCost: () => Number.NaN }]);
    expect(codeOf(() => costFunctionFor('csv', undefined, { registry })(loginPack.symbols[0]!))).toBe('PLUGIN_INVALID');
  });

  it('let packSymbols spend a budget in real gcf tokens', () => {
    const candidates: RankedSymbol[] = Array.from({ length: 40 }, (_, i) => sym({ qualifiedName: `src/lib/module${i % 4}.ts.function${i}`, signature: `export function function${i}(a: string, b: number): Promise<void>`, score: 1 - i / 50, distance: 1 }));
    const budget = 100;
    const gcfPack = packSymbols(candidates, { ...costOptionsFor('gcf'), budget, strategy: 'top-k', task: 't' });
    const xmlPack = packSymbols(candidates, { ...costOptionsFor('xml'), budget, strategy: 'top-k', task: 't' });
    expect(gcfPack.symbols.length).toBeGreaterThan(3 * xmlPack.symbols.length);
    const cost = costFunctionFor('gcf');
    expect(gcfPack.tokensUsed).toBe(gcfPack.symbols.reduce((sum, s) => sum + cost(s), 0));
    expect(gcfPack.tokensUsed).toBeLessThanOrEqual(budget);
    // The gcf body really is about that size.
    const body = (formatPack(gcfPack, { format: 'gcf' }) as string).split('\n').filter((line) => /^@\d+ /.test(line)).join('\n');
    expect(Math.abs(estimateTokens(body) - gcfPack.tokensUsed)).toBeLessThanOrEqual(gcfPack.symbols.length);
    expect(xmlFormat.symbolCost!(candidates[0]!)).toBeGreaterThan(gcfFormat.symbolCost!(candidates[0]!));
  });
});
