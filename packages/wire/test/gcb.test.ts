import { describe, expect, it } from 'vitest';
import { isKnowingError, nodeId } from '@knowing/graph';
import type { ContextPack, GraphEdge, NodeKind, Provenance, RankedSymbol } from '@knowing/graph';
import { GCB_EDGE_TYPE_CODES, GCB_KIND_CODES, decodeGcb, gcbFormat } from '../src/index.js';
import type { GcbDocument } from '../src/index.js';
import { hostilePack, loginPack, rng } from './fixtures.js';

const encode = (pack: ContextPack, tool = 'knowing'): Uint8Array => gcbFormat.encode(pack, { tool }) as Uint8Array;

/** The document a pack must decode to, computed independently of the encoder. */
function expectedDocument(pack: ContextPack, tool: string): GcbDocument {
  const seen = new Set<string>();
  const unique = pack.symbols.filter((s) => !seen.has(s.node.id) && seen.add(s.node.id));
  const text = (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1);
  const symbols = unique.sort(
    (a, b) => (a.score === b.score ? 0 : a.score > b.score ? -1 : 1) || a.distance - b.distance || text(a.node.qualifiedName, b.node.qualifiedName) || text(a.node.kind, b.node.kind) || text(a.node.id, b.node.id),
  );
  const at = new Map(symbols.map((s, i) => [s.node.id, i]));
  const edgeSeen = new Set<string>();
  const edges = pack.edges
    .filter((e) => at.has(e.source) && at.has(e.target))
    .filter((e) => {
      const key = `${e.source} ${e.target} ${e.type}`;
      return !edgeSeen.has(key) && edgeSeen.add(key);
    })
    .map((e) => ({ source: at.get(e.source)!, target: at.get(e.target)!, type: e.type }))
    .sort((a, b) => a.source - b.source || a.target - b.target || text(a.type, b.type));
  return {
    version: 1,
    tool,
    tokensUsed: pack.tokensUsed,
    tokenBudget: pack.tokenBudget,
    packRoot: pack.packRoot,
    symbols: symbols.map((s) => ({
      qualifiedName: s.node.qualifiedName,
      kind: s.node.kind,
      score: Math.fround(s.score),
      ...(s.provenance ? { provenance: s.provenance } : {}),
      distance: s.distance,
      file: s.node.file,
      startLine: s.node.startLine,
      endLine: s.node.endLine,
      signature: s.node.signature,
      components: Object.fromEntries(Object.entries(s.components).map(([k, v]) => [k, Math.fround(v)])),
    })),
    edges,
  };
}

/** Random packs: unicode everywhere, unknown kinds, provenances and edge types, huge numbers, duplicates. */
function randomPack(random: () => number): { pack: ContextPack; tool: string } {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const int = (max: number) => Math.floor(random() * max);
  const char = (): string => {
    const r = random();
    if (r < 0.5) return String.fromCharCode(0x20 + int(95));
    if (r < 0.6) return pick(['\n', '\t', '\u0000', '%', ' ', '\u2028', '\uFEFF']);
    if (r < 0.8) return String.fromCodePoint(0x4e00 + int(2000));
    if (r < 0.9) return String.fromCodePoint(0x1f300 + int(500));
    return String.fromCodePoint(0xa0 + int(0xd000));
  };
  const str = (max: number) => Array.from({ length: int(max) }, char).join('');
  const kinds = Object.keys(GCB_KIND_CODES) as NodeKind[];
  const edgeTypes = Object.keys(GCB_EDGE_TYPE_CODES);
  const number = (): number => pick([() => random(), () => -random() * 10, () => random() * 1e30, () => 3.5e38, () => -1e300, () => 0, () => 1e-45, () => int(1000)])();
  const files = Array.from({ length: 1 + int(4) }, () => (random() < 0.2 ? '' : `src/${str(12)}.ts`));
  const componentNames = ['relevance', 'blast_radius', '__proto__', 'constructor', str(6), str(6)];
  const count = random() < 0.1 ? 0 : int(30);
  const symbols: RankedSymbol[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0 && random() < 0.05) {
      symbols.push(symbols[int(symbols.length)]!); // a duplicate: written once
      continue;
    }
    const kind = (random() < 0.15 ? pick(['', 'unknown_3', 'widget', str(5)]) : pick(kinds)) as NodeKind;
    const qualifiedName = `${str(20)}.${i}`;
    const components: Record<string, number> = {};
    for (let c = int(7); c > 0; c--) Object.defineProperty(components, pick(componentNames), { value: number(), enumerable: true, configurable: true, writable: true });
    symbols.push({
      node: {
        id: nodeId('repo', qualifiedName, kind),
        name: String(i),
        qualifiedName,
        kind,
        language: 'typescript',
        file: pick(files),
        startLine: pick([0, int(100), int(2 ** 31)]),
        endLine: pick([0, int(100), 2 ** 40]),
        signature: str(40),
        doc: '',
        isTest: false,
        external: false,
      },
      score: number(),
      distance: pick([0, 1, 2, int(400)]),
      rwr: random(),
      components,
      ...(random() < 0.7 ? { provenance: pick(['ast_inferred', 'ast_resolved', 'lsp_resolved', 'runtime', 'derived', '', str(8)]) as Provenance } : {}),
    });
  }
  const edges: GraphEdge[] = [];
  if (symbols.length > 0) {
    for (let e = int(symbols.length * 2); e > 0; e--) {
      const outside = random() < 0.1;
      edges.push({
        source: symbols[int(symbols.length)]!.node.id,
        target: outside ? 'not-in-the-pack' : symbols[int(symbols.length)]!.node.id,
        type: random() < 0.2 ? pick(['unknown_type', str(6), '']) : pick(edgeTypes),
        confidence: random(),
        provenance: 'ast_resolved',
      });
      if (random() < 0.1) edges.push(edges.at(-1)!);
    }
  }
  const pack: ContextPack = {
    symbols,
    edges,
    tokensUsed: pick([0, int(50_000), 2 ** 45]),
    tokenBudget: pick([0, 8000, 2 ** 53 - 1]),
    packRoot: random() < 0.2 ? '' : Array.from({ length: 64 }, () => '0123456789abcdef'[int(16)]).join(''),
  };
  return { pack, tool: random() < 0.2 ? '' : str(16) };
}

function expectBadFormat(run: () => unknown, message?: RegExp): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(isKnowingError(thrown, 'BAD_FORMAT'), `expected BAD_FORMAT, got ${String(thrown)}`).toBe(true);
  if (message) expect((thrown as Error).message).toMatch(message);
}

/** Byte builders following docs/formats.md, to craft documents without the encoder. */
const uv = (value: number): number[] => {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return out;
};
const str = (value: string): number[] => {
  const bytes = [...new TextEncoder().encode(value)];
  return [...uv(bytes.length), ...bytes];
};
const f32 = (value: number): number[] => {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setFloat32(0, value, true);
  return [...bytes];
};
const header = (strings: number, symbols: number, edges: number): number[] => [0x47, 0x43, 0x42, 1, ...str('t'), ...uv(10), ...uv(100), ...str('ab'), ...uv(strings), ...uv(symbols), ...uv(edges)];
/** One symbol `a.b` (function, score 0.5, ast_resolved, distance 1, file string 0, lines 3–4, signature `f()`). */
const symbolBytes = (kind: number[] = [1], components: number[] = [0]): number[] => [...str('a.b'), ...kind, ...f32(0.5), 2, 1, 0, 3, 4, ...str('f()'), ...components];

describe('gcb round trip', () => {
  it('decodes the login pack to its symbols, scores, components and edges', () => {
    expect(decodeGcb(encode(loginPack, 'context_for_task'))).toEqual(expectedDocument(loginPack, 'context_for_task'));
    expect(decodeGcb(encode(hostilePack))).toEqual(expectedDocument(hostilePack, 'knowing'));
  });

  it('round-trips 300 random packs', () => {
    const random = rng(20240601);
    let empty = 0;
    let custom = 0;
    for (let round = 0; round < 300; round++) {
      const { pack, tool } = randomPack(random);
      if (pack.symbols.length === 0) empty++;
      if (pack.symbols.some((s) => !(s.node.kind in GCB_KIND_CODES))) custom++;
      const decoded = decodeGcb(encode(pack, tool));
      expect(decoded).toEqual(expectedDocument(pack, tool));
      // Components keep awkward names as plain own keys.
      for (const symbol of decoded.symbols) expect(Object.getPrototypeOf(symbol.components)).toBe(Object.prototype);
    }
    expect(empty).toBeGreaterThan(5);
    expect(custom).toBeGreaterThan(50);
  });

  it('decodes a document built by hand from docs/formats.md', () => {
    const bytes = new Uint8Array([
      ...header(3, 2, 2),
      ...str('src/a.ts'),
      ...str('relevance'),
      ...str('spawns'),
      ...symbolBytes([1], [1, ...uv(1), ...f32(0.25)]),
      ...str('x'),
      255,
      ...uv(2), // custom kind "spawns" from the string table
      ...f32(-2),
      0,
      ...uv(200),
      ...uv(0),
      0,
      0,
      ...str(''),
      0,
      ...[0, 1, 1, 1], // a.b calls x, added
      ...[1, 0, 255, ...uv(2), 2], // x spawns a.b, removed
    ]);
    expect(decodeGcb(bytes)).toEqual({
      version: 1,
      tool: 't',
      tokensUsed: 10,
      tokenBudget: 100,
      packRoot: 'ab',
      symbols: [
        { qualifiedName: 'a.b', kind: 'function', score: 0.5, provenance: 'ast_resolved', distance: 1, file: 'src/a.ts', startLine: 3, endLine: 4, signature: 'f()', components: { relevance: 0.25 } },
        { qualifiedName: 'x', kind: 'spawns', score: -2, distance: 200, file: 'src/a.ts', startLine: 0, endLine: 0, signature: '', components: {} },
      ],
      edges: [
        { source: 0, target: 1, type: 'calls', status: 'added' },
        { source: 1, target: 0, type: 'spawns', status: 'removed' },
      ],
    });
  });

  it('reads enum codes it does not know as unknown_<n>, so new codes need no new version', () => {
    const bytes = new Uint8Array([...header(1, 1, 1), ...str('f'), ...symbolBytes([100]), 0, 0, 77, 0]);
    const doc = decodeGcb(bytes);
    expect(doc.symbols[0]!.kind).toBe('unknown_100');
    expect(doc.edges[0]!.type).toBe('unknown_77');
  });

  it('reads a view into a larger buffer', () => {
    const bytes = encode(loginPack);
    const padded = new Uint8Array(bytes.length + 10);
    padded.set(bytes, 5);
    expect(decodeGcb(padded.subarray(5, 5 + bytes.length))).toEqual(decodeGcb(bytes));
  });
});

describe('gcb rejects malformed input with BAD_FORMAT', () => {
  const valid = () => [...header(1, 1, 0), ...str('f'), ...symbolBytes()];

  it('accepts the base document the cases below corrupt', () => {
    expect(decodeGcb(new Uint8Array(valid())).symbols).toHaveLength(1);
  });

  const cases: Record<string, [() => number[], RegExp]> = {
    'empty input': [() => [], /GCB/],
    'wrong magic': [() => [0x47, 0x43, 0x58, ...valid().slice(3)], /must start with the bytes "GCB"/],
    'the original GCB1 layout': [() => [0x47, 0x43, 0x42, 0x31, 1], /original/],
    'a newer version': [() => [0x47, 0x43, 0x42, 2, ...valid().slice(4)], /version 2.*upgrade/],
    'trailing bytes': [() => [...valid(), 0], /more byte/],
    'counts the payload cannot hold': [() => [...header(0, 2 ** 40, 2 ** 40)], /exceed/],
    'a varint longer than 8 bytes': [() => [0x47, 0x43, 0x42, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], /longer than 8/],
    'a non-minimal varint': [() => [0x47, 0x43, 0x42, 1, 0x81, 0x00, 0x61], /minimally/],
    'a string running past the end': [() => [0x47, 0x43, 0x42, 1, 50, 0x61], /truncated/],
    'invalid UTF-8': [() => [0x47, 0x43, 0x42, 1, 2, 0xc3, 0x28], /UTF-8/],
    'a string id out of range': [() => [...header(1, 1, 0), ...str('f'), ...symbolBytes([255, 9])], /string 9/],
    'a repeated component': [() => [...header(1, 1, 0), ...str('f'), ...symbolBytes([1], [2, 0, ...f32(1), 0, ...f32(2)])], /repeats component/],
    'an edge to a missing symbol': [() => [...header(1, 1, 1), ...str('f'), ...symbolBytes(), 0, 5, 1, 0], /refers to symbol 5/],
    'an unknown edge status': [() => [...header(1, 1, 1), ...str('f'), ...symbolBytes(), 0, 0, 1, 3], /status 3/],
  };
  for (const [name, [bytes, message]] of Object.entries(cases)) {
    it(name, () => expectBadFormat(() => decodeGcb(new Uint8Array(bytes())), message));
  }

  it('rejects input that is not bytes', () => {
    expectBadFormat(() => decodeGcb('GCB' as unknown as Uint8Array));
  });

  it('rejects every truncation of real documents', () => {
    for (const bytes of [encode(loginPack), encode(hostilePack)]) {
      for (let length = 0; length < bytes.length; length++) expectBadFormat(() => decodeGcb(bytes.subarray(0, length)));
    }
  });

  it('survives hundreds of random corruptions: either a document or BAD_FORMAT, quickly', () => {
    const random = rng(99);
    const seeds = [encode(loginPack), encode(hostilePack), ...Array.from({ length: 3 }, () => encode(randomPack(random).pack))];
    const started = performance.now();
    let rejected = 0;
    for (let round = 0; round < 600; round++) {
      const bytes = [...seeds[round % seeds.length]!];
      for (let k = 1 + Math.floor(random() * 4); k > 0; k--) {
        const at = Math.floor(random() * bytes.length);
        const op = random();
        const value = random() < 0.3 ? [0x00, 0x7f, 0x80, 0xff][Math.floor(random() * 4)]! : Math.floor(random() * 256);
        if (op < 0.5) bytes[at] = value;
        else if (op < 0.75) bytes.splice(at, 1);
        else bytes.splice(at, 0, value);
      }
      try {
        decodeGcb(new Uint8Array(bytes));
      } catch (error) {
        expect(isKnowingError(error, 'BAD_FORMAT'), String(error)).toBe(true);
        rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(300);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('gcb encoding', () => {
  it('is far smaller than the json of the same pack', async () => {
    const { jsonFormat } = await import('../src/index.js');
    expect(encode(loginPack).length).toBeLessThan(0.3 * (jsonFormat.encode(loginPack) as string).length);
  });

  it('rejects values the layout cannot carry', () => {
    const bad = { ...loginPack, symbols: [{ ...loginPack.symbols[0]!, distance: 1.5 }] };
    expect(() => encode(bad)).toThrow(/distance 1.5/);
    expect(() => encode({ ...loginPack, tokensUsed: -1 })).toThrow(/tokensUsed/);
  });

  it('costs a symbol a quarter of its record bytes', () => {
    const cost = gcbFormat.symbolCost!(loginPack.symbols[0]!);
    // handleLogin: 30 (name) + 1 + 4 + 1 + 1 + 1 + 1 + 1 + 78 (signature) + 1 + 5·5 (components) = 144 bytes.
    expect(cost).toBe(36);
  });
});
