import { describe, expect, it } from 'vitest';
import { isKnowingError } from '@knowing/graph';
import type { ContextPack, NodeKind } from '@knowing/graph';
import { diffPacks, estimateTokens } from '@knowing/pack';
import { GCF_KIND_ABBREVIATIONS, createGcfSession, decodeGcf, gcfFormat, jsonFormat, planDelta } from '../src/index.js';
import type { GcfPackDocument } from '../src/index.js';
import { LOGIN_TASK, edge, hostilePack, login, loginPack, makePack, rng, sym } from './fixtures.js';

const gcf = (pack: ContextPack, options: Parameters<typeof gcfFormat.encode>[1] = {}): string => gcfFormat.encode(pack, options) as string;
const chars = { count: (text: string) => text.length };

function expectBadFormat(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    expect(isKnowingError(error, 'BAD_FORMAT'), String(error)).toBe(true);
    return;
  }
  throw new Error('expected BAD_FORMAT');
}

describe('gcf full documents', () => {
  it('fills the provenance column, with - when unknown, and never leaves trailing spaces', () => {
    const text = gcf(loginPack);
    expect(text).toContain('@3 method src/auth/session.ts.SessionStore.create 0.62 lsp_resolved src/auth/session.ts:20-31\n');
    expect(text).toContain('@0 fn src/auth/login.ts.handleLogin 0.91 - src/auth/login.ts:12-40\n');
    for (const line of text.split('\n')) expect(line).not.toMatch(/\s$/);
  });

  it('abbreviates every node kind to a distinct token that reads back as the kind', () => {
    const kinds = Object.keys(GCF_KIND_ABBREVIATIONS) as NodeKind[];
    expect(new Set(Object.values(GCF_KIND_ABBREVIATIONS)).size).toBe(kinds.length);
    const symbols = kinds.map((kind, i) => sym({ qualifiedName: `src/k.ts.s${i}`, kind, score: 1 - i / 100, distance: 0 }));
    const document = decodeGcf(gcf(makePack('kinds', symbols, []))) as GcfPackDocument;
    expect(document.nodes.map((node) => (node.ref ? '' : node.kind))).toEqual(kinds);
  });

  it('puts distances into targets, related, extended and distance_K sections', () => {
    const sections = gcf(loginPack)
      .split('\n')
      .filter((line) => line.startsWith('## '));
    expect(sections).toEqual(['## targets', '## related', '## extended', '## distance_3', '## edges [6]']);
  });

  it('escapes spaces, newlines, % and reserved spellings in tokens and reads them back', () => {
    const text = gcf(hostilePack);
    expect(text.split('\n').filter((line) => line.startsWith('@') && !line.includes('<')).every((line) => line.split(' ').length === 6)).toBe(true);
    const document = decodeGcf(text) as GcfPackDocument;
    const nodes = document.nodes.map((node) => (node.ref ? undefined : { kind: node.kind, qualifiedName: node.qualifiedName, provenance: node.provenance, location: node.location }));
    // Score order: the negative-scored target comes last, in a second `targets` section.
    expect(nodes).toEqual([
      { kind: 'function', qualifiedName: 'src/odd file.ts.weird name', provenance: 'custom provenance', location: 'src/odd file.ts:1-2' },
      { kind: 'widget', qualifiedName: '-', provenance: '-', location: 'x.ts' },
      { kind: '#kind', qualifiedName: '#private', provenance: undefined, location: 'x.ts' },
      { kind: 'fn', qualifiedName: 'src/日本.ts.挨拶😀\n%20#x', provenance: undefined, location: 'src/日本.ts' },
    ]);
    expect(document.edges).toEqual([
      { target: 2, source: 1, type: 'calls' },
      { target: 3, source: 0, type: 'spawns work' },
    ]);
  });

  it('reads back a random pack line for line: ids, kinds, names, scores, distances, edges', () => {
    const random = rng(11);
    for (let round = 0; round < 50; round++) {
      const symbols = Array.from({ length: 1 + Math.floor(random() * 12) }, (_, i) =>
        sym({
          qualifiedName: `src/m${Math.floor(random() * 3)}.ts.f ${i}\t${String.fromCodePoint(0x4e00 + Math.floor(random() * 500))}`,
          kind: random() < 0.2 ? `kind${i}` : 'method',
          score: Math.round(random() * 10000) / 100,
          distance: Math.floor(random() * 5),
          provenance: random() < 0.5 ? undefined : 'ast_resolved',
        }),
      );
      const edges = symbols.flatMap((a, i) => (i > 0 && random() < 0.7 ? [edge(symbols[i - 1]!, a, random() < 0.5 ? 'calls' : 'odd type')] : []));
      const pack = makePack('t', symbols, edges, 10, 100);
      const document = decodeGcf(gcf(pack)) as GcfPackDocument;
      expect(document).toMatchObject({ mode: 'pack', budget: 100, tokens: 10, symbols: symbols.length, session: false, packRoot: pack.packRoot });
      const sorted = [...symbols].sort((a, b) => b.score - a.score || a.distance - b.distance || (a.node.qualifiedName < b.node.qualifiedName ? -1 : 1));
      expect(document.nodes).toEqual(
        sorted.map((s, id) => ({
          ref: false,
          id,
          distance: s.distance,
          kind: s.node.kind,
          qualifiedName: s.node.qualifiedName,
          score: Number(s.score.toFixed(2)),
          ...(s.provenance ? { provenance: s.provenance } : {}),
          location: s.node.file,
        })),
      );
      const idOf = new Map(sorted.map((s, id) => [s.node.id, id]));
      expect(new Set(document.edges.map((e) => `${e.source}>${e.target} ${e.type}`))).toEqual(new Set(edges.map((e) => `${idOf.get(e.source)}>${idOf.get(e.target)} ${e.type}`)));
    }
  });

  it('is much smaller than json for the same pack', () => {
    const gcfTokens = estimateTokens(gcf(loginPack));
    const jsonTokens = estimateTokens(jsonFormat.encode(loginPack) as string);
    expect(gcfTokens / jsonTokens).toBeLessThan(0.2);
    // Also against the json of the same fields only (no docs, ids or per-edge detail).
    const lean = JSON.stringify(loginPack.symbols.map((s) => ({ qualified_name: s.node.qualifiedName, kind: s.node.kind, score: s.score, provenance: s.provenance ?? null, distance: s.distance })));
    expect(gcfTokens).toBeLessThan(estimateTokens(lean));
  });

  it('costs a symbol as its real node line', () => {
    const text = gcf(loginPack);
    for (const symbol of loginPack.symbols) {
      const line = text.split('\n').find((l) => l.includes(` ${symbol.node.qualifiedName} ${symbol.score.toFixed(2)} ${symbol.provenance ?? '-'}`))!;
      // The cost line uses a two-digit placeholder id; ids here are one digit.
      expect(gcfFormat.symbolCost!(symbol, { tokenizer: chars })).toBe(line.length + 1 + 1);
    }
  });
});

describe('gcf sessions', () => {
  const first = makePack(LOGIN_TASK, [login.handleLogin, login.sessionStore, login.create], [edge(login.handleLogin, login.create)], 100, 8000);
  const second = makePack(LOGIN_TASK, [login.create, login.verifyPassword, login.handleLogin, login.ttl], [edge(login.handleLogin, login.create), edge(login.handleLogin, login.verifyPassword)], 100, 8000);

  it('refers back to symbols sent earlier and numbers new ones after the last id', () => {
    const session = createGcfSession();
    const one = gcf(first, { session });
    expect(one).toContain('session=true');
    expect(one).toContain('@0 fn src/auth/login.ts.handleLogin 0.91 - src/auth/login.ts:12-40\n');
    expect(session.size).toBe(3);
    const two = gcf(second, { session });
    expect(two).toBe(
      [
        `GCF profile=graph tool=knowing budget=8000 tokens=100 symbols=4 edges=2 session=true pack_root=${second.packRoot}`,
        '## targets',
        '@0 # sent before',
        '## related',
        '@3 fn src/auth/password.ts.verifyPassword 0.62 ast_resolved src/auth/password.ts:5',
        '@2 # sent before',
        '## extended',
        '@4 const src/config.ts.SESSION_TTL 0.21 derived src/config.ts:3',
        '## edges [2]',
        '@2<@0 calls',
        '@3<@0 calls',
        '',
      ].join('\n'),
    );
    expect(session.idOf(login.ttl.node.qualifiedName, 'constant')).toBe(4);
    const document = decodeGcf(two) as GcfPackDocument;
    expect(document.nodes.filter((node) => node.ref).map((node) => node.id)).toEqual([0, 2]);
  });

  it('keeps ids stable across restores and does not record a document that was not sent', () => {
    const session = createGcfSession();
    gcf(first, { session });
    const restored = createGcfSession(session.entries());
    expect(gcf(second, { session: restored })).toBe(gcf(second, { session }));
    // planDelta only looks: the session stays as it was.
    const before = restored.size;
    planDelta(first, second, { session: restored });
    expect(restored.size).toBe(before);
  });

  it('costs a symbol the session already holds as a reference line', () => {
    const session = createGcfSession();
    gcf(first, { session });
    expect(gcfFormat.symbolCost!(login.handleLogin, { session, tokenizer: chars })).toBe('@0 # sent before\n'.length);
    expect(gcfFormat.symbolCost!(login.ttl, { session, tokenizer: chars })).toBeGreaterThan('@0 # sent before\n'.length);
  });

  it('rejects corrupt restores', () => {
    expect(() => createGcfSession([{ qualifiedName: 'a', kind: 'function', id: 1 }, { qualifiedName: 'b', kind: 'function', id: 1 }])).toThrow(/repeat id 1/);
    expect(() => createGcfSession([{ qualifiedName: 'a', kind: 'function', id: -1 }])).toThrow(/whole numbers/);
  });
});

describe('gcf deltas', () => {
  // Ten similar symbols; the next pack swaps one of them.
  const many = Array.from({ length: 10 }, (_, i) =>
    sym({ qualifiedName: `src/service/handlers.ts.handler${i}`, signature: `function handler${i}()`, score: 0.9 - i / 100, distance: i < 3 ? 0 : 1, provenance: 'ast_resolved' }),
  );
  const extra = sym({ qualifiedName: 'src/service/handlers.ts.fallback', score: 0.5, distance: 1 });
  const base = makePack('handlers', many, [edge(many[0]!, many[1]!), edge(many[1]!, many[2]!)], 100, 1000);
  const next = makePack('handlers', [...many.slice(0, 9), extra], [edge(many[0]!, many[1]!), edge(many[1]!, extra)], 100, 1000);

  it('answers unchanged for the same pack root', () => {
    expect(planDelta(base, base)).toEqual({ mode: 'unchanged' });
    expect(gcf(base, { previous: base, tool: 'context_for_task' })).toBe(`GCF tool=context_for_task unchanged=true pack_root=${base.packRoot} symbols=10\n`);
    expect(decodeGcf(gcf(base, { previous: base }))).toEqual({ mode: 'unchanged', tool: 'knowing', packRoot: base.packRoot, symbols: 10 });
  });

  it('sends the diffPacks difference when it is under 60 % of the full pack', () => {
    const plan = planDelta(base, next);
    expect(plan.mode).toBe('delta');
    if (plan.mode !== 'delta') return;
    const expected = diffPacks(base, next, { threshold: Number.POSITIVE_INFINITY })!;
    expect(plan.delta.removedSymbols.map((s) => s.node.id)).toEqual(expected.removedSymbols.map((s) => s.node.id));
    expect(plan.delta.addedEdges).toEqual(expected.addedEdges);
    expect(plan.tokens).toBeLessThan(0.6 * plan.fullTokens);
    const text = gcf(next, { previous: base });
    expect(text).toBe(
      [
        `GCF tool=knowing delta=true base_root=${base.packRoot} new_root=${next.packRoot} tokens=${plan.tokens} savings=${Math.round(plan.savings * 100)}%`,
        '## removed',
        'fn src/service/handlers.ts.handler9',
        '## added',
        '@0 fn src/service/handlers.ts.fallback 0.50 - src/service/handlers.ts',
        '## edges_removed',
        'src/service/handlers.ts.handler1 -> src/service/handlers.ts.handler2 calls',
        '## edges_added',
        'src/service/handlers.ts.handler1 -> src/service/handlers.ts.fallback calls',
        '',
      ].join('\n'),
    );
    const document = decodeGcf(text);
    expect(document).toMatchObject({
      mode: 'delta',
      removed: [{ kind: 'function', qualifiedName: 'src/service/handlers.ts.handler9' }],
      added: [{ id: 0, kind: 'function', qualifiedName: 'src/service/handlers.ts.fallback', score: 0.5 }],
      edgesAdded: [{ source: 'src/service/handlers.ts.handler1', target: 'src/service/handlers.ts.fallback', type: 'calls' }],
    });
  });

  it('sends the full pack when the delta would not pay, marking edges new since the previous pack', () => {
    const replaced = makePack('other', [...many.slice(0, 3).map((s) => s), extra, ...Array.from({ length: 6 }, (_, i) => sym({ qualifiedName: `src/other.ts.x${i}`, score: 0.3, distance: 1 }))], [edge(many[0]!, many[1]!), edge(many[1]!, extra)], 50, 1000);
    expect(planDelta(base, replaced).mode).toBe('full');
    const text = gcf(replaced, { previous: base });
    expect(text.startsWith('GCF profile=graph')).toBe(true);
    expect(text).toMatch(/^@\d+<@\d+ calls added$/m);
    const document = decodeGcf(text) as GcfPackDocument;
    expect(document.edges.map((e) => e.status)).toEqual([undefined, 'added']);
  });

  it('honours the threshold option', () => {
    expect(planDelta(base, next, { deltaThreshold: 0 }).mode).toBe('full');
    expect(planDelta(base, next, { deltaThreshold: 1 }).mode).toBe('delta');
    expect(() => planDelta(base, next, { deltaThreshold: -1 })).toThrow(/deltaThreshold/);
  });

  it('in a session, weighs the delta against the reference-compressed full pack', () => {
    const session = createGcfSession();
    gcf(base, { session });
    expect(session.nextId).toBe(10);
    // Nine of ten symbols are references now, so the full document is cheap: no delta.
    expect(planDelta(base, next, { session }).mode).toBe('full');
    const full = gcf(next, { session, previous: base });
    expect(full).toContain('@8 # sent before\n@10 fn src/service/handlers.ts.fallback 0.50 - src/service/handlers.ts\n');
  });

  it('numbers added symbols from the session and records them only when the delta is sent', () => {
    // Forty symbols, one swapped: even against references the delta pays.
    const forty = Array.from({ length: 40 }, (_, i) => sym({ qualifiedName: `src/service/routes.ts.route${i}`, score: 0.9 - i / 100, distance: 1 }));
    const large = makePack('routes', forty, [], 100, 1000);
    const swapped = makePack('routes', [...forty.slice(0, 39), extra], [], 100, 1000);
    const session = createGcfSession();
    gcf(large, { session });
    const unsent = createGcfSession(session.entries());
    planDelta(large, swapped, { session: unsent });
    expect(unsent.nextId).toBe(40);
    const text = gcf(swapped, { session, previous: large });
    expect(text).toContain('## added\n@40 fn src/service/handlers.ts.fallback 0.50 - src/service/handlers.ts\n');
    expect(session.idOf(extra.node.qualifiedName, 'function')).toBe(40);
    expect(session.nextId).toBe(41);
  });
});

describe('decodeGcf rejects malformed documents', () => {
  const good = gcf(loginPack);
  const cases: Record<string, string> = {
    'no header': '## targets\n',
    'wrong magic': good.replace(/^GCF/, 'GCX'),
    'unknown profile': good.replace('profile=graph', 'profile=tree'),
    'symbol count mismatch': good.replace('symbols=7', 'symbols=8'),
    'edge count mismatch': good.replace('## edges [6]', '## edges [5]'),
    'edge to an undeclared id': good.replace('@6<@2 calls', '@9<@2 calls'),
    'duplicate id': good.replace('@1 class', '@0 class'),
    'bad score': good.replace('0.91', 'zero'),
    'bad escape': good.replace('handleLogin', 'handle%zzLogin'),
    'escape that is not UTF-8': good.replace('handleLogin', 'handle%FFLogin'),
    'raw tab in a token': good.replace('handleLogin', 'handle\tLogin'),
    'node line before a section': good.replace('## targets\n', ''),
    'reference outside a session': good.replace('@0 fn src/auth/login.ts.handleLogin 0.91 - src/auth/login.ts:12-40', '@0 # sent before'),
    'bad edge line': good.replace('@6<@2 calls', '@6<-@2 calls'),
    'body after unchanged': 'GCF tool=x unchanged=true pack_root=ab symbols=1\n@0 fn a 1.00 -\n',
    'delta without savings': 'GCF tool=x delta=true base_root=a new_root=b tokens=1\n',
    'repeated header key': good.replace('tool=knowing', 'tool=knowing tool=again'),
  };
  for (const [name, text] of Object.entries(cases)) {
    it(name, () => expectBadFormat(() => decodeGcf(text)));
  }

  it('skips unknown header fields, sections and comment lines', () => {
    const extended = good.replace('tool=knowing', 'tool=knowing future=1').replace('## edges', '## notes\nanything at all\n# a comment\n## edges');
    expect(decodeGcf(extended)).toEqual(decodeGcf(good));
  });

  it('never throws anything but BAD_FORMAT on mutated input', () => {
    const random = rng(5);
    const alphabet = ['@', '<', ' ', '\n', '#', '%', '-', '0', '9', 'x', '=', '[', ']'];
    for (let round = 0; round < 300; round++) {
      const chars = [...good];
      for (let k = 0; k < 1 + Math.floor(random() * 4); k++) {
        const at = Math.floor(random() * chars.length);
        const op = random();
        if (op < 0.4) chars[at] = alphabet[Math.floor(random() * alphabet.length)]!;
        else if (op < 0.7) chars.splice(at, 1);
        else chars.splice(at, 0, alphabet[Math.floor(random() * alphabet.length)]!);
      }
      try {
        decodeGcf(chars.join(''));
      } catch (error) {
        expect(isKnowingError(error, 'BAD_FORMAT'), String(error)).toBe(true);
      }
    }
  });
});
