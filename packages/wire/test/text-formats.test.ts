import { describe, expect, it } from 'vitest';
import { formatPack } from '../src/index.js';
import { LOGIN_TASK, hostile, hostilePack, loginPack, makePack, sym } from './fixtures.js';

/**
 * A strict check of the XML subset the formatter writes: elements, double-quoted attributes,
 * the five entities and numeric references. Returns the element tree's attributes and texts,
 * unescaped, or throws on anything not well-formed.
 */
function parseXml(xml: string): { name: string; attributes: Record<string, string>; text: string }[] {
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(xml)) throw new Error('forbidden character');
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(xml)) throw new Error('lone surrogate');
  const unescape = (value: string): string => {
    if (/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(value)) throw new Error(`bare & in ${value}`);
    return value.replace(/&(amp|lt|gt|quot|apos|#\d+);/g, (_, entity: string) =>
      entity.startsWith('#') ? String.fromCodePoint(Number(entity.slice(1))) : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[entity]!,
    );
  };
  const elements: { name: string; attributes: Record<string, string>; text: string }[] = [];
  const stack: { name: string; attributes: Record<string, string>; text: string }[] = [];
  const token = /<(\/?)([a-z_]+)((?:\s+[a-z_]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = token.exec(xml))) {
    consumed = token.lastIndex;
    const [, close, name, attributeText, selfClose, text] = match;
    if (text !== undefined) {
      if (text.includes('>') && text.includes(']]>')) throw new Error('raw ]]> in text');
      if (stack.length === 0) {
        if (text.trim() !== '') throw new Error('text outside the root');
        continue;
      }
      stack.at(-1)!.text += unescape(text);
      continue;
    }
    if (close) {
      if (stack.pop()?.name !== name) throw new Error(`mismatched </${name}>`);
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, key, value] of attributeText!.matchAll(/([a-z_]+)="([^"]*)"/g)) {
      if (key! in attributes) throw new Error(`repeated attribute ${key}`);
      attributes[key!] = unescape(value!);
    }
    const element = { name: name!, attributes, text: '' };
    elements.push(element);
    if (!selfClose) stack.push(element);
  }
  if (consumed !== xml.length) throw new Error(`not well-formed at ${consumed}: ${xml.slice(consumed, consumed + 40)}`);
  if (stack.length > 0) throw new Error('unclosed element');
  return elements;
}

/** What XML can carry of a string: unrepresentable characters become U+FFFD. */
const sanitized = (value: string): string =>
  value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

describe('xml', () => {
  it('escapes hostile names, signatures, docs and tasks so the document stays well-formed and reads back', () => {
    const task = '</context><context task="x">&amp; \u0000\r\n';
    const elements = parseXml(formatPack(hostilePack, { format: 'xml', task }));
    expect(elements[0]).toMatchObject({ name: 'context', attributes: { task: sanitized(task), tokens_used: '30', token_budget: '100' } });
    const symbols = elements.filter((e) => e.name === 'symbol');
    expect(symbols.map((e) => e.attributes.name)).toEqual([hostile.spaced, hostile.dash, hostile.hash, hostile.unicode].map((s) => s.node.qualifiedName));
    expect(symbols[0]!.attributes.provenance).toBe('custom provenance');
    const signatures = elements.filter((e) => e.name === 'signature').map((e) => e.text);
    expect(signatures[0]).toBe(hostile.spaced.node.signature);
    expect(signatures).toContain(hostile.hash.node.signature);
    const doc = elements.find((e) => e.name === 'doc')!.text;
    expect(doc).toBe(sanitized('Line one line <two> & "three"\u0000 with a NUL, a lone \uD800 surrogate and \u0007 bell.'));
    expect(elements.filter((e) => e.name === 'edge').map((e) => e.attributes.type)).toEqual(['calls', 'spawns work']);
  });

  it('groups by distance and summarises counts per distance and edges per type', () => {
    const elements = parseXml(formatPack(loginPack, { format: 'xml', task: LOGIN_TASK }));
    const names = elements.map((e) => e.name);
    expect(names.filter((n) => ['target_symbols', 'related_symbols', 'extended_context'].includes(n))).toEqual(['target_symbols', 'related_symbols', 'extended_context']);
    const hops = elements.filter((e) => e.name === 'distance').map((e) => [e.attributes.hop, e.attributes.count]);
    expect(hops).toEqual([
      ['0', '2'],
      ['1', '3'],
      ['2', '1'],
      ['3', '1'],
    ]);
    expect(elements.find((e) => e.name === 'edges')!.attributes.total).toBe('6');
    const symbol = elements.find((e) => e.name === 'symbol' && e.attributes.name === 'src/auth/session.ts.SessionStore.create')!;
    expect(symbol.attributes).toEqual({ name: 'src/auth/session.ts.SessionStore.create', kind: 'method', score: '0.62', provenance: 'lsp_resolved', distance: '1', location: 'src/auth/session.ts:20-31' });
  });

  it('cuts long docs at a word boundary and hides them with docChars 0', () => {
    const long = sym({ qualifiedName: 'src/a.ts.f', score: 1, distance: 0, doc: `${'word '.repeat(100)}end`, signature: 'f()' });
    const pack = makePack('t', [long], []);
    const doc = parseXml(formatPack(pack, { format: 'xml' })).find((e) => e.name === 'doc')!.text;
    expect(doc.length).toBeLessThanOrEqual(201);
    expect(doc.endsWith('word…')).toBe(true);
    expect(formatPack(pack, { format: 'xml', docChars: 0 })).not.toContain('<doc>');
  });
});

describe('markdown', () => {
  it('keeps code spans intact around backticks and newlines', () => {
    const ticked = sym({ qualifiedName: 'src/a.ts.`weird`', score: 1, distance: 0, signature: 'const s = `a ``b`` c`\nnext' });
    const text = formatPack(makePack('t', [ticked], []), { format: 'markdown' });
    expect(text).toContain('- `` src/a.ts.`weird` `` (function, 1.00) `src/a.ts` — ```const s = `a ``b`` c` next```\n');
  });
});

describe('json', () => {
  it('carries every field, every score component and the edges, in a fixed key order', () => {
    const data = JSON.parse(formatPack(loginPack, { format: 'json', task: LOGIN_TASK }));
    expect(Object.keys(data)).toEqual(['tool', 'task', 'tokens_used', 'token_budget', 'pack_root', 'symbols', 'edges']);
    expect(data.symbols).toHaveLength(7);
    const first = data.symbols[0];
    expect(first).toMatchObject({ qualified_name: 'src/auth/login.ts.handleLogin', distance: 0, provenance: null, start_line: 12, end_line: 40 });
    expect(first.components).toEqual({ blast_radius: 0.2, confidence: 0.12, distance: 0.15, recency: 0.06, relevance: 0.5 });
    expect(Object.keys(first.components)).toEqual(['blast_radius', 'confidence', 'distance', 'recency', 'relevance']);
    expect(data.edges).toHaveLength(6);
    expect(data.edges[0]).toEqual({
      source: 'src/auth/login.ts.handleLogin',
      target: 'src/auth/password.ts.verifyPassword',
      source_id: loginPack.symbols[0]!.node.id,
      target_id: loginPack.symbols[3]!.node.id,
      type: 'calls',
      confidence: 0.85,
      provenance: 'ast_resolved',
      line: null,
    });
  });

  it('marks edges as added or unchanged relative to a previous pack', () => {
    const first = loginPack.edges[0]!;
    // The pack lists its first edge twice; drop both copies from the previous pack.
    const previous = { ...loginPack, edges: loginPack.edges.filter((e) => e.source !== first.source || e.target !== first.target) };
    const data = JSON.parse(formatPack(loginPack, { format: 'json', previous }));
    expect(data.edges.map((e: { status: string }) => e.status)).toEqual(['added', 'unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(JSON.parse(formatPack(loginPack, { format: 'json' })).edges[0]).not.toHaveProperty('status');
  });

  it('indents only when asked', () => {
    expect(formatPack(loginPack, { format: 'json' }).split('\n')).toHaveLength(2);
    expect(formatPack(loginPack, { format: 'json', pretty: true }).split('\n').length).toBeGreaterThan(100);
  });
});


describe('display order', () => {
  // A neighbour the ranking put first must be read first: distance is a label, not the order.
  const seed = sym({ qualifiedName: 'src/a.ts.seed', file: 'src/a.ts', score: 0.3, distance: 0 });
  const best = sym({ qualifiedName: 'src/b.ts.best', file: 'src/b.ts', score: 0.9, distance: 1 });
  const far = sym({ qualifiedName: 'src/c.ts.far', file: 'src/c.ts', score: 0.6, distance: 2 });
  const pack = makePack('order', [seed, far, best], []);
  const order = ['src/b.ts.best', 'src/c.ts.far', 'src/a.ts.seed'];

  it.each(['gcf', 'markdown', 'xml', 'json'] as const)('%s lists symbols by score, whatever their distance', (format) => {
    const text = formatPack(pack, { format, task: 'order' });
    const positions = order.map((name) => text.indexOf(name));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});
