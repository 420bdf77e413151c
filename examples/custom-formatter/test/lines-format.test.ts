import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '@knowing/engine';
import { ErrorCode, isKnowingError } from '@knowing/graph';
import type { RankedSymbol } from '@knowing/graph';
import { createHeuristicTokenizer } from '@knowing/pack';
import { costFunctionFor, createFormatRegistry, formatPack } from '@knowing/wire';
import { linesFormat, symbolLine } from '../src/lines-format.js';
import { createRegistry, openSample } from '../src/project.js';

const TASK = 'store a long url and return its short code';
const LINE = /^(-?\d+\.\d{3}) (\S+) (\S+) (\S+):(\d+)-(\d+)$/;
const tokens = createHeuristicTokenizer();

describe('the "lines" format', () => {
  const registry = createRegistry();
  let sample: { engine: Engine; close(): Promise<void> };

  beforeAll(async () => {
    sample = await openSample(registry, { workers: 0 });
  }, 60_000);
  afterAll(async () => sample?.close());

  it('is registered next to the built-in formats', () => {
    expect(registry.list().map((f) => f.name)).toEqual(['xml', 'markdown', 'json', 'gcf', 'gcb', 'lines']);
    expect(registry.get('LINES')).toBe(linesFormat);
  });

  it('writes a header and then one line per packed symbol, best first', async () => {
    const { pack } = await sample.engine.forTask(TASK, { format: 'lines', budget: 200 });
    const output = formatPack(pack, { format: 'lines', registry, task: TASK });
    expect(typeof output).toBe('string');
    const [header, ...lines] = (output as string).trimEnd().split('\n');
    expect(header).toBe(`# lines symbols=${pack.symbols.length} tokens=${pack.tokensUsed} budget=200 task=${JSON.stringify(TASK)}`);
    expect(lines).toHaveLength(pack.symbols.length);
    lines.forEach((line, i) => {
      const symbol = pack.symbols[i]!;
      const match = LINE.exec(line);
      expect(match, line).not.toBeNull();
      expect(match![3]).toBe(symbol.node.qualifiedName);
      expect(match![4]).toBe(symbol.node.file);
      expect(Number(match![5])).toBe(symbol.node.startLine);
    });
    const scores = lines.map((line) => Number(LINE.exec(line)![1]));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The answer is about shortening: the type first, and the member that does it within the budget.
    const packed = lines.map((l) => LINE.exec(l)![3]);
    expect(packed[0]).toBe('lib/shortener.js.Shortener');
    expect(packed).toContain('lib/shortener.js.Shortener.shorten');
    // Deterministic: the same pack renders to the same text.
    expect(formatPack(pack, { format: 'lines', registry, task: TASK })).toBe(output);
  });

  it('packs within the budget as counted in its own lines', async () => {
    for (const budget of [20, 60, 150]) {
      const { pack } = await sample.engine.forTask(TASK, { format: 'lines', budget });
      const output = formatPack(pack, { format: 'lines', registry }) as string;
      const symbolLines = output.split('\n').slice(1, -1);
      const spent = symbolLines.reduce((sum, line) => sum + tokens.count(`${line}\n`), 0);
      expect(pack.tokenBudget).toBe(budget);
      expect(pack.tokensUsed).toBe(spent); // the engine charged exactly what the lines cost
      expect(spent).toBeLessThanOrEqual(budget);
      expect(pack.symbols.length).toBeGreaterThan(0);
    }
  });

  it('spends the budget in its own cost, so the same budget holds more symbols than xml', async () => {
    const budget = 60;
    const lines = await sample.engine.forTask(TASK, { format: 'lines', budget });
    const xml = await sample.engine.forTask(TASK, { format: 'xml', budget });
    expect(lines.pack.symbols.length).toBeGreaterThan(xml.pack.symbols.length);
    const linesCost = costFunctionFor('lines', undefined, { registry });
    const xmlCost = costFunctionFor('xml');
    for (const symbol of xml.pack.symbols) expect(linesCost(symbol)).toBeLessThan(xmlCost(symbol));
  });

  it('counts a symbol as the tokens of its line, on the caller\'s tokenizer', async () => {
    const { ranked } = await sample.engine.forTask(TASK, { format: 'lines' });
    const symbol = ranked[0]!;
    expect(linesFormat.symbolCost!(symbol)).toBe(Math.floor((symbolLine(symbol).length + 1) / 4));
    const perCharacter = { count: (text: string) => text.length };
    expect(linesFormat.symbolCost!(symbol, { tokenizer: perCharacter })).toBe(symbolLine(symbol).length + 1);
  });

  it('keeps whitespace in names from breaking the layout', () => {
    // Only the fields the line shows; a real node has more.
    const symbol = {
      node: { kind: 'method', qualifiedName: 'a b.ts.odd\tname', file: 'a b.ts', startLine: 1, endLine: 2 },
      score: 0.5,
    } as unknown as RankedSymbol;
    expect(symbolLine(symbol)).toBe('0.500 method a_b.ts.odd_name a_b.ts:1-2');
  });

  it('is refused a second time under the same name, and unknown formats are named', () => {
    const fresh = createFormatRegistry();
    fresh.register(linesFormat);
    expect(() => fresh.register(linesFormat)).toThrow(/already registered/);
    let error: unknown;
    try {
      formatPack({ symbols: [], edges: [], tokensUsed: 0, tokenBudget: 10, packRoot: '' }, { format: 'lines' });
    } catch (e) {
      error = e;
    }
    expect(isKnowingError(error, ErrorCode.InvalidArgument)).toBe(true);
    expect((error as Error).message).toMatch(/unknown format "lines"/);
  });
});
