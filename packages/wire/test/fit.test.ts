import { describe, expect, it } from 'vitest';
import { createExactTokenizer, createHeuristicTokenizer } from '@knowing/pack';
import type { RankedSymbol } from '@knowing/graph';
import { createGcfSession, decodeGcb, decodeGcf, fitPack, formatPack } from '../src/index.js';
import type { GcfPackDocument } from '../src/index.js';
import { edge, makePack, sym } from './fixtures.js';

const TEXT_FORMATS = ['xml', 'markdown', 'json', 'gcf'] as const;

/** A module of `count` functions, each `bodyLines` long, and their source. */
function module(count: number, bodyLines: number): { symbols: RankedSymbol[]; source: string } {
  const lines: string[] = [];
  const symbols: RankedSymbol[] = [];
  for (let i = 0; i < count; i++) {
    const start = lines.length + 1;
    lines.push(`export function step${i}(input: number): number {`);
    for (let j = 0; j < bodyLines - 2; j++) lines.push(`  const value${j} = input * ${j} + ${i}; // step ${i} line ${j}`);
    lines.push('}');
    symbols.push(
      sym({
        qualifiedName: `src/steps.ts.step${i}`,
        lines: [start, lines.length],
        signature: `export function step${i}(input: number): number`,
        doc: `Step ${i} of the pipeline.`,
        score: 1 - i / (count + 1),
        distance: i % 3,
      }),
    );
  }
  return { symbols, source: `${lines.join('\n')}\n` };
}

function claimedTokens(format: string, output: string): number {
  if (format === 'gcf') return (decodeGcf(output) as GcfPackDocument).tokens;
  if (format === 'xml') return Number(/tokens_used="(\d+)"/.exec(output)![1]);
  if (format === 'json') return (JSON.parse(output) as { tokens_used: number }).tokens_used;
  return Number(/^Tokens: (\d+) \//m.exec(output)![1]);
}

describe('fitPack', () => {
  const { symbols, source } = module(60, 12);
  const chain = symbols.slice(1).map((s, i) => edge(symbols[i]!, s));
  const pack = makePack('run the pipeline', symbols, chain, 0, 100_000);

  it('prints at most the budget, and the header states the true count, in every text format', async () => {
    const tokenizer = await createExactTokenizer();
    for (const format of TEXT_FORMATS) {
      for (const budget of [120, 300, 777, 2000, 5000, 50_000]) {
        for (const code of [false, true]) {
          const fitted = fitPack(pack, { format, budget, tokenizer, task: 'run the pipeline', ...(code ? { source: () => source } : {}) });
          const output = fitted.output as string;
          const real = tokenizer.count(output);
          expect(real, `${format} ${budget} code=${code}`).toBeLessThanOrEqual(budget);
          expect(claimedTokens(format, output), `${format} ${budget} code=${code}`).toBe(real);
          expect(fitted.tokens).toBe(real);
          expect(fitted.pack.tokensUsed).toBe(real);
        }
      }
    }
  });

  it('counts many pieces in one call when the tokenizer can, and prints the same answer', async () => {
    const exact = await createExactTokenizer();
    let single = 0;
    let batched = 0;
    const oneByOne = { ...exact, count: (text: string) => (single++, exact.count(text)) };
    const inBatches = {
      ...oneByOne,
      countEach: (texts: readonly string[]) => (batched++, texts.map((text) => exact.count(text))),
    };
    for (const code of [false, true]) {
      const options = { format: 'xml', budget: 3000, task: 'run the pipeline', ...(code ? { source: () => source } : {}) } as const;
      single = 0;
      const plain = fitPack(pack, { ...options, tokenizer: oneByOne });
      const callsOneByOne = single;
      single = 0;
      batched = 0;
      const batchedFit = fitPack(pack, { ...options, tokenizer: inBatches });
      expect(batchedFit.output).toBe(plain.output);
      expect(batched).toBeGreaterThan(0);
      // Far fewer calls: pieces of one render go together.
      expect(single + batched).toBeLessThan(callsOneByOne / 4);
    }
  });

  it('keeps the best-ranked symbols and leaves out the rest, lowest first', () => {
    const fitted = fitPack(pack, { format: 'gcf', budget: 600 });
    const kept = fitted.pack.symbols.map((s) => s.node.qualifiedName);
    expect(kept.length).toBeGreaterThan(3);
    expect(kept.length).toBeLessThan(symbols.length);
    expect(kept).toEqual(symbols.slice(0, kept.length).map((s) => s.node.qualifiedName));
    expect(fitted.omitted.symbols).toBe(symbols.length - kept.length);
    // A prefix of the ranking has its own pack root, the same for the same prefix.
    expect(fitted.pack.packRoot).not.toBe(pack.packRoot);
    expect(fitPack(pack, { format: 'gcf', budget: 600 }).pack.packRoot).toBe(fitted.pack.packRoot);
  });

  it('prints a pack that fits unchanged, with its own root', () => {
    const small = makePack('t', symbols.slice(0, 3), chain.slice(0, 2), 0, 100_000);
    const fitted = fitPack(small, { format: 'xml', budget: 50_000 });
    expect(fitted.pack.symbols).toHaveLength(3);
    expect(fitted.pack.edges).toHaveLength(2);
    expect(fitted.pack.packRoot).toBe(small.packRoot);
  });

  it('prints edges only when both ends are printed and they say something the names do not', () => {
    const type = sym({ qualifiedName: 'src/cart.ts.Cart', kind: 'class', lines: [1, 40], score: 0.9, distance: 0 });
    const member = sym({ qualifiedName: 'src/cart.ts.Cart.total', kind: 'method', lines: [5, 9], score: 0.8, distance: 0 });
    const helper = sym({ qualifiedName: 'src/money.ts.round', lines: [1, 3], score: 0.7, distance: 1 });
    const other = sym({ qualifiedName: 'src/cart.ts.Cart.add', kind: 'method', lines: [10, 20], score: 0.6, distance: 1 });
    const edges = [
      edge(type, member, 'contains'), // implied by Cart.total
      edge(member, type, 'member_of'), // implied too
      edge(member, helper, 'calls'),
      edge(member, helper, 'references'), // the same pair: only the strongest type
      edge(other, member, 'calls'),
      edge(other, helper, 'calls'),
      edge(other, type, 'references'), // a third edge for `other`: over the per-symbol cap of 2
      edge(helper, type, 'owned_by'), // organisational: weight 0
    ];
    const fitted = fitPack(makePack('t', [type, member, helper, other], edges), { format: 'json', budget: 10_000 });
    const printed = fitted.pack.edges.map((e) => `${e.source === member.node.id ? 'total' : e.source === other.node.id ? 'add' : '?'}>${e.target === helper.node.id ? 'round' : e.target === member.node.id ? 'total' : 'Cart'} ${e.type}`);
    expect(printed.sort()).toEqual(['add>round calls', 'add>total calls', 'total>round calls']);
    // Edges go with their lower-ranked end: with room for two symbols, no edge to the third.
    const two = fitPack(makePack('t', [type, member, helper, other], edges), { format: 'json', budget: 10_000, edgesPerSymbol: 0 });
    expect(two.pack.edges).toEqual([]);
  });

  it('in code mode, gives the best-ranked symbols their whole bodies, then cuts one at a line end and stops', () => {
    const tokenizer = createHeuristicTokenizer();
    const fitted = fitPack(pack, { format: 'gcf', budget: 1500, tokenizer, source: () => source, codeShare: 0.5 });
    const document = decodeGcf(fitted.output as string) as GcfPackDocument;
    const withCode = document.nodes.flatMap((node, i) => (!node.ref && node.code ? [{ i, code: node.code }] : []));
    expect(withCode.length).toBeGreaterThanOrEqual(2);
    // The first symbols, in rank order, without gaps.
    expect(withCode.map((entry) => entry.i)).toEqual(withCode.map((_, i) => i));
    const lines = source.split('\n');
    for (const [i, entry] of withCode.entries()) {
      const symbol = symbols[i]!;
      const shown = entry.code.text.split('\n');
      shown.forEach((line, j) => expect(line).toBe(lines[symbol.node.startLine - 1 + j]));
      if (!entry.code.truncated) expect(shown).toHaveLength(symbol.node.endLine - symbol.node.startLine + 1);
    }
    // Only the last one may be cut.
    expect(withCode.slice(0, -1).every((entry) => !entry.code.truncated)).toBe(true);
    const codeTokens = withCode.reduce((sum, entry) => sum + tokenizer.count(entry.code.text), 0);
    expect(codeTokens).toBeLessThanOrEqual(750);
  });

  it('in code mode, does not repeat a member inside a body already shown, and skips files it cannot read', () => {
    const text = ['class Cart {', '  total() {', '    return 1;', '  }', '}'].join('\n');
    const cart = sym({ qualifiedName: 'src/cart.ts.Cart', kind: 'class', lines: [1, 5], score: 0.9, distance: 0 });
    const total = sym({ qualifiedName: 'src/cart.ts.Cart.total', kind: 'method', lines: [2, 4], score: 0.8, distance: 0 });
    const gone = sym({ qualifiedName: 'src/gone.ts.lost', lines: [1, 3], score: 0.7, distance: 0 });
    const fitted = fitPack(makePack('t', [cart, total, gone], []), { format: 'xml', budget: 5000, source: (file) => (file === 'src/cart.ts' ? text : undefined) });
    expect([...fitted.code.keys()]).toEqual([cart.node.id]);
    expect(fitted.output).toContain('<code lines="1-5"><![CDATA[class Cart {\n  total() {\n    return 1;\n  }\n}]]></code>');
  });

  it('writes code in each text format so that it reads back exactly', () => {
    const text = ['function odd() {', '  const s = "]]>` ``` <tag> & %";', '', '```', '  return s;', '}'].join('\n');
    const odd = sym({ qualifiedName: 'src/odd.ts.odd', lines: [1, 6], score: 1, distance: 0 });
    const packed = makePack('t', [odd], []);
    const source = (): string => text;
    const json = JSON.parse(fitPack(packed, { format: 'json', budget: 5000, source }).output as string) as { symbols: { code: { text: string; truncated: boolean } }[] };
    expect(json.symbols[0]!.code).toEqual({ start_line: 1, end_line: 6, truncated: false, text });
    const gcf = decodeGcf(fitPack(packed, { format: 'gcf', budget: 5000, source }).output as string) as GcfPackDocument;
    expect(gcf.nodes[0]).toMatchObject({ location: 'src/odd.ts:1-6', code: { text, truncated: false } });
    const markdown = fitPack(packed, { format: 'markdown', budget: 5000, source }).output as string;
    const fence = /^(`{3,})typescript$/m.exec(markdown)![1]!;
    expect(fence.length).toBeGreaterThan(3); // longer than the ``` line inside the code
    expect(markdown).toContain(`${fence}typescript\n${text}\n${fence}\n`);
    const xml = fitPack(packed, { format: 'xml', budget: 5000, source }).output as string;
    expect(xml).toContain('<![CDATA[function odd() {\n  const s = "]]]]><![CDATA[>` ``` <tag> & %";');
  });

  it('does not advance a GCF session with trial renders, only with the answer it prints', () => {
    const session = createGcfSession();
    const fitted = fitPack(pack, { format: 'gcf', budget: 400, session });
    expect(session.size).toBe(fitted.pack.symbols.length);
    const again = fitPack(pack, { format: 'gcf', budget: 400, session });
    expect(again.output).toMatch(/@0 # sent before/);
    expect(session.size).toBeGreaterThanOrEqual(fitted.pack.symbols.length);
  });

  it('writes a symbol the session holds in full when this answer brings its code', () => {
    const session = createGcfSession();
    fitPack(pack, { format: 'gcf', budget: 400, session });
    const withCode = decodeGcf(fitPack(pack, { format: 'gcf', budget: 2000, session, source: () => source }).output as string) as GcfPackDocument;
    const first = withCode.nodes[0]!;
    expect(first).toMatchObject({ ref: false, id: 0, qualifiedName: 'src/steps.ts.step0' });
    expect(first.ref === false && first.code?.text.startsWith('export function step0(')).toBe(true);
    // Symbols it sent before and brings no code for stay references.
    expect(withCode.nodes.some((node) => node.ref)).toBe(true);
  });

  it('fits a binary format as gcf would and writes it as bytes', () => {
    const fitted = fitPack(pack, { format: 'gcb', budget: 600 });
    expect(fitted.output).toBeInstanceOf(Uint8Array);
    const document = decodeGcb(fitted.output as Uint8Array);
    expect(document.symbols.map((s) => s.qualifiedName)).toEqual(fitPack(pack, { format: 'gcf', budget: 600 }).pack.symbols.map((s) => s.node.qualifiedName));
  });

  it('shortens a long task echoed in the header before giving up, and refuses a budget nothing fits in', () => {
    const long = 'x'.repeat(5000);
    const fitted = fitPack(pack, { format: 'xml', budget: 400, task: long });
    expect(createHeuristicTokenizer().count(fitted.output as string)).toBeLessThanOrEqual(400);
    expect(fitted.output).not.toContain(long);
    expect(() => fitPack(pack, { format: 'json', budget: 3 })).toThrow(/cannot hold even an empty json answer/);
    expect(() => fitPack(pack, { format: 'xml', budget: 0 })).toThrow(/budget must be/);
  });

  it('names the tokenizer in the header', async () => {
    const tokenizer = await createExactTokenizer();
    expect(fitPack(pack, { format: 'gcf', budget: 300, tokenizer }).output).toMatch(/ tokenizer=cl100k_base /);
    expect(fitPack(pack, { format: 'xml', budget: 300 }).output).toMatch(/ tokenizer="chars\/4"/);
    // formatPack alone, without a named tokenizer, writes no such field.
    expect(formatPack(pack, { format: 'gcf' })).not.toMatch(/tokenizer=/);
  });
});

describe('lineGroups', () => {
  it('cuts text into runs whose cl100k counts add up to the whole, on real source text with edits', async () => {
    const { readFileSync } = await import('node:fs');
    const { lineGroups } = await import('../src/fit.js');
    const tokenizer = await createExactTokenizer();
    const lines = readFileSync(new URL('../src/gcf.ts', import.meta.url), 'utf8').split('\n');
    let state = 7;
    const random = (n: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % n;
    };
    for (let round = 0; round < 200; round++) {
      const edited = [...lines];
      for (let edit = 0; edit < 3; edit++) {
        const at = random(edited.length);
        // Blank and white-space-only lines join the breaks around them: they must not be cut at.
        const variants = [`  tokens=${random(100000)} budget=${random(9999)}`, '', '   ', '\t', `${edited[at]}  // ${random(50)}`, '\t}', '@12 fn x 0.5 - a.ts:1-2', `${edited[at]}   `, '\u00a0\u2003'];
        edited[at] = variants[random(variants.length)]!;
      }
      const text = edited.join('\n');
      const groups = lineGroups(text);
      expect(groups.join('')).toBe(text);
      expect(groups.length).toBeGreaterThan(10);
      const sum = groups.reduce((total, group) => total + tokenizer.count(group), 0);
      expect(sum, `round ${round}`).toBe(tokenizer.count(text));
    }
  });
});

describe('largestWithin', () => {
  /** Non-decreasing costs of 0..n of several shapes: even, growing, in steps, random increments. */
  function shapes(n: number, seed: number): { name: string; costs: number[] }[] {
    let state = seed;
    const random = (): number => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
    const build = (name: string, step: (k: number) => number): { name: string; costs: number[] } => {
      const costs = [30];
      for (let k = 1; k <= n; k++) costs.push(costs[k - 1]! + step(k));
      return { name, costs };
    };
    return [
      build('even', () => 25),
      build('growing', (k) => k),
      build('steps', (k) => (k % 7 === 0 ? 90 : 0)),
      build('random', () => Math.floor(random() * 60)),
      build('long tail', (k) => (k < n / 2 ? 5 : 400)),
    ];
  }

  it('finds the last k within the limit from any first guess, never probing past twice the answer', async () => {
    const { largestWithin } = await import('../src/fit.js');
    for (const n of [0, 1, 2, 3, 7, 60, 137, 1000]) {
      for (const { name, costs } of shapes(n, n + 1)) {
        const top = costs[n]!;
        for (const limit of [costs[0]!, costs[0]! + 1, Math.floor(top / 3), Math.floor(top / 2), top - 1, top, top + 50]) {
          let last = 0;
          while (last < n && costs[last + 1]! <= limit) last++;
          for (const guess of [-3, 0, 1, last - 1, last, last + 1, Math.floor(last / 3), last * 2, n, n + 10]) {
            const probed: number[] = [];
            const found = largestWithin(n, (k) => (probed.push(k), costs[k]!), limit, guess, costs[0]!);
            const where = `${name} n=${n} limit=${limit} guess=${guess}`;
            expect(found, where).toBe(last);
            expect(probed.every((k) => k >= 0 && k <= n), where).toBe(true);
            expect(Math.max(0, ...probed), where).toBeLessThanOrEqual(Math.max(1, guess, 2 * last + 1));
            // Never more than a bisection of the whole range needs, twice over.
            expect(probed.length, where).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(n + 2)) + 2);
          }
        }
      }
    }
  });

  it('ends two or three probes after the guess when the cost grows evenly, as a prefix of symbols does', async () => {
    const { largestWithin } = await import('../src/fit.js');
    for (const guess of [10, 30, 37, 60, 90]) {
      const probed: number[] = [];
      expect(largestWithin(100, (k) => (probed.push(k), 40 + 25 * k), 1000, guess, 40)).toBe(38);
      expect(probed.length, `guess ${guess}: ${probed.join(', ')}`).toBeLessThanOrEqual(4);
    }
  });

  it('counts the lines of about as many symbols as fit, not those of every candidate', async () => {
    const exact = await createExactTokenizer();
    const { symbols } = module(200, 6);
    const wide = makePack('run the pipeline', symbols, [], 0, 100_000);
    const counted = new Set<string>();
    const count = (text: string): number => (counted.add(text), exact.count(text));
    const spy = { ...exact, count, countEach: (texts: readonly string[]) => texts.map(count) };
    const fitted = fitPack(wide, { format: 'xml', budget: 1500, tokenizer: spy, task: 'run the pipeline' });
    const kept = fitted.pack.symbols.length;
    expect(kept).toBeGreaterThan(5);
    expect(kept).toBeLessThan(100);
    // No line of a symbol ranked past twice what was kept was counted.
    const far = symbols.slice(2 * kept + 2).map((s) => s.node.qualifiedName);
    expect([...counted].filter((text) => far.some((name) => text.includes(`${name}"`)))).toEqual([]);
  });
});
