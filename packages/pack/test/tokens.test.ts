import { describe, expect, it } from 'vitest';
import { ErrorCode, isKnowingError } from '@knowing/graph';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FORMAT_COST_SCALE, canonicalLine, createExactTokenizer, createHeuristicTokenizer, estimateTokens, formatScale, packSymbols, startExactTokenizer } from '../src/index.js';
import { sym } from './fixtures.js';

// Canonical line: 'src/app.ts.handleLogin function function handleLogin(req, res)' = 63 characters.
const login = sym('handleLogin', { score: 1, signature: 'function handleLogin(req, res)' });

describe('estimateTokens', () => {
  it('counts about four characters per token of the canonical line', () => {
    expect(canonicalLine(login.node)).toBe('src/app.ts.handleLogin function function handleLogin(req, res)');
    expect(estimateTokens(login)).toBe(15);
    expect(estimateTokens('abcdefghi')).toBe(2);
    expect(estimateTokens('abc')).toBe(0);
    expect(estimateTokens(sym('f', { score: 1, signature: '' }), { tokenizer: { count: () => 0 } })).toBe(1);
  });

  it('scales by the output format, with overrides', () => {
    expect(FORMAT_COST_SCALE).toMatchObject({ xml: 1, markdown: 0.9, json: 1.3, gcf: 0.16, gcb: 0.26 });
    expect(estimateTokens(login, { format: 'xml' })).toBe(15);
    expect(estimateTokens(login, { format: 'markdown' })).toBe(14); // 13.5
    expect(estimateTokens(login, { format: 'json' })).toBe(20); // 19.5
    expect(estimateTokens(login, { format: 'gcf' })).toBe(2); // 2.4
    expect(estimateTokens(login, { format: 'gcb' })).toBe(4); // 3.9
    expect(estimateTokens(login, { format: 'gcf', formatScale: { gcf: 1 } })).toBe(15);
    expect(estimateTokens(login, { format: 'yaml' })).toBe(15);
    expect(formatScale({ format: 'gcb' })).toBe(0.26);
    expect(() => formatScale({ format: 'xml', formatScale: { xml: 0 } })).toThrow(/scale/);
  });

  it('uses an exact cost callback over a renderer and the estimate', () => {
    const render = (): string => 'x'.repeat(400);
    expect(estimateTokens(login, { format: 'gcf', render, cost: () => 7 })).toBe(7);
    expect(estimateTokens(login, { cost: () => 0 })).toBe(1);
  });

  it('counts the rendered line, unscaled, when a renderer is given', () => {
    const render = (s: typeof login) => `fn ${s.node.name}`; // 14 characters
    expect(estimateTokens(login, { format: 'gcf', render })).toBe(3);
  });

  it('does not scale plain text', () => {
    expect(estimateTokens('x'.repeat(40), { format: 'gcf' })).toBe(10);
  });

  it('uses a plugged tokenizer and checks what it returns', () => {
    const words = { count: (text: string) => text.split(/\s+/).filter(Boolean).length };
    expect(estimateTokens(login, { tokenizer: words })).toBe(5);
    try {
      estimateTokens('x', { tokenizer: { count: () => Number.NaN } });
      expect.unreachable();
    } catch (error) {
      expect(isKnowingError(error, ErrorCode.InvalidArgument)).toBe(true);
    }
  });

  it('offers a heuristic tokenizer with a configurable ratio', () => {
    expect(createHeuristicTokenizer({ charsPerToken: 3 }).count('abcdefg')).toBe(2);
    expect(() => createHeuristicTokenizer({ charsPerToken: 0 })).toThrow(/charsPerToken/);
  });
});

describe('createExactTokenizer', () => {
  it('counts cl100k_base tokens', async () => {
    const tokenizer = await createExactTokenizer();
    expect(tokenizer.count('hello world')).toBe(2);
    expect(tokenizer.count('')).toBe(0);
    // Whitespace and punctuation are real tokens; the heuristic would say 1.
    expect(tokenizer.count('a, b; c.')).toBe(6);
    expect(await createExactTokenizer()).not.toBe(tokenizer); // fresh wrapper, shared tables
  });

  it('lets a budget mean real tokens', async () => {
    const tokenizer = await createExactTokenizer();
    const candidates = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((name, i) =>
      sym(name, { score: 1 - i / 10, signature: `export async function ${name}(request: Request, options?: Options): Promise<void>` }),
    );
    const render = (s: (typeof candidates)[number]) => `${s.node.qualifiedName} ${s.node.signature}`;
    const costs = candidates.map((c) => tokenizer.count(render(c)));
    const budget = costs[0]! + costs[1]! + costs[2]!;
    const pack = packSymbols(candidates, { budget, tokenizer, render });
    expect(pack.tokensUsed).toBe(budget);
    expect(pack.symbols).toHaveLength(3);
  });
});

describe('startExactTokenizer', () => {
  it('counts exactly what createExactTokenizer counts, for any text', async () => {
    const background = startExactTokenizer();
    const reference = await createExactTokenizer();
    expect(background.name).toBe(reference.name);
    expect(background.linesAdd).toBe(true);
    const source = readFileSync(fileURLToPath(new URL('../src/tokens.ts', import.meta.url)), 'utf8');
    const texts = ['', 'hello world', 'a, b; c.', 'naïve café — 東京 🚀', '\n\n\t  \n', source, source.repeat(20)];
    for (const text of texts) expect(background.count(text)).toBe(reference.count(text));
    // Many at once, in one round trip: each the same as alone.
    expect(background.countEach!(texts)).toEqual(texts.map((text) => reference.count(text)));
    expect(background.countEach!([])).toEqual([]);
  });
});
