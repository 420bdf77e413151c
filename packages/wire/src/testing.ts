/**
 * Conformance kit for {@link Formatter} implementations. It checks the contract written in
 * `types.ts` (and what `formatPack` and `costFunctionFor` enforce at the boundary) on a few
 * packs chosen to break careless encoders, so the built-in formats and custom ones run the
 * same suite in their own tests.
 */
import { describe, expect, it } from 'vitest';
import { nodeId } from '@knowing/graph';
import type { ContextPack, GraphEdge, GraphNode, NodeKind, Provenance, RankedSymbol } from '@knowing/graph';
import { packRoot } from '@knowing/pack';
import { createFormatRegistry, formatPack } from './registry.js';
import { createGcfSession } from './session.js';
import type { FormatOptions, Formatter, SymbolCode } from './types.js';

/** A named pack with the options it is encoded with. */
export interface FormatFixture {
  readonly name: string;
  readonly pack: ContextPack;
  readonly options: FormatOptions;
}

/** Options of {@link testFormatter}. */
export interface TestFormatterOptions {
  /**
   * Reads an output back and returns the qualified names of the symbols it carries. With it
   * the kit also checks that every symbol, hostile names included, survives the round trip.
   * Leave it out for a lossy format (one that shortens or escapes names for display).
   */
  readonly decode?: (output: string | Uint8Array) => readonly string[];
  /** Packs to check in addition to {@link FORMAT_FIXTURES}. */
  readonly fixtures?: readonly FormatFixture[];
  /**
   * Names of tests to skip (as printed by vitest, without the suite prefix), for a formatter
   * that knowingly does not meet one part of the contract yet. Say why next to the list.
   */
  readonly skip?: readonly string[];
}

const REPO = 'github.com/acme/fixture';
const NAME = /^[a-z][a-z0-9_-]*$/;
const MEDIA_TYPE = /^[A-Za-z0-9][\w!#$&^.+-]*\/[A-Za-z0-9][\w!#$&^.+-]*(?:\s*;.*)?$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** What an encoder prints when it formats a missing or wrong value. */
const LEAKED_VALUE = /\bundefined\b|\bNaN\b|\[object Object\]/;

interface SymbolSpec {
  readonly qualifiedName: string;
  readonly kind?: NodeKind;
  readonly file?: string;
  readonly lines?: readonly [number, number];
  readonly signature?: string;
  readonly doc?: string;
  readonly score: number;
  readonly distance: number;
  readonly rwr?: number;
  readonly provenance?: Provenance;
  readonly components?: Readonly<Record<string, number>>;
  readonly external?: boolean;
  readonly isTest?: boolean;
}

function symbol(spec: SymbolSpec): RankedSymbol {
  const kind = spec.kind ?? 'function';
  const external = spec.external ?? false;
  const file = spec.file ?? (external ? '' : spec.qualifiedName.replace(/(\.(ts|py|go))\..*$/s, '$1'));
  const node: GraphNode = {
    id: nodeId(REPO, spec.qualifiedName, kind),
    name: spec.qualifiedName.slice(spec.qualifiedName.lastIndexOf('.') + 1),
    qualifiedName: spec.qualifiedName,
    kind,
    language: external ? '' : 'typescript',
    file,
    startLine: spec.lines?.[0] ?? 0,
    endLine: spec.lines?.[1] ?? 0,
    signature: spec.signature ?? '',
    doc: spec.doc ?? '',
    isTest: spec.isTest ?? false,
    external,
  };
  return {
    node,
    score: spec.score,
    distance: spec.distance,
    rwr: spec.rwr ?? 0.5,
    components: spec.components ?? {},
    ...(spec.provenance === undefined ? {} : { provenance: spec.provenance }),
  };
}

function link(source: RankedSymbol, target: RankedSymbol, type = 'calls', line?: number): GraphEdge {
  return { source: source.node.id, target: target.node.id, type, confidence: 0.8, provenance: 'ast_resolved', ...(line === undefined ? {} : { line }) };
}

function pack(task: string, symbols: RankedSymbol[], edges: GraphEdge[], tokensUsed: number, tokenBudget: number): ContextPack {
  return { symbols, edges, tokensUsed, tokenBudget, packRoot: packRoot(task, symbols.map((s) => s.node.id)) };
}

const components = (relevance: number, blast: number, confidence: number) => ({ relevance, blast_radius: blast, confidence });

const small = {
  login: symbol({
    qualifiedName: 'src/auth/login.ts.handleLogin',
    lines: [12, 40],
    signature: 'export async function handleLogin(req: Request, res: Response): Promise<void>',
    doc: 'Checks the credentials, starts a session and redirects back.',
    score: 0.91,
    distance: 0,
    rwr: 1,
    components: components(0.5, 0.2, 0.12),
  }),
  store: symbol({
    qualifiedName: 'src/auth/session.ts.SessionStore',
    kind: 'class',
    lines: [8, 77],
    signature: 'export class SessionStore',
    score: 0.74,
    distance: 0,
    components: components(0.4, 0.15, 0.1),
  }),
  create: symbol({
    qualifiedName: 'src/auth/session.ts.SessionStore.create',
    kind: 'method',
    lines: [20, 31],
    signature: 'async create(userId: string): Promise<Session>',
    score: 0.62,
    distance: 1,
    provenance: 'lsp_resolved',
    components: components(0.3, 0.12, 0.1),
  }),
  compare: symbol({ qualifiedName: 'bcrypt.compare', kind: 'external', external: true, score: 0.05, distance: 3, provenance: 'ast_inferred' }),
};

const smallPack = pack(
  'fix the login redirect',
  [small.login, small.store, small.create, small.compare],
  [link(small.login, small.create, 'calls', 18), link(small.store, small.create, 'contains'), link(small.login, small.compare)],
  120,
  8000,
);

/** Every character class an encoder has to escape, quote or keep: whitespace, quotes, markup, Unicode. */
const hostile = {
  spaced: symbol({
    qualifiedName: 'src/odd dir/my file.ts.weird name',
    file: 'src/odd dir/my file.ts',
    lines: [1, 2],
    signature: 'function f<T extends "a" & \'b\'>(x: T): T // ]]> </signature> --> & <doc>',
    doc: 'Line one\r\nline <two> & "three" \'four\' `five` ${six} | seven # eight\ttab',
    score: 0.5,
    distance: 0,
    provenance: 'runtime',
    components: { 'weird key': 1.5, ['__proto__']: 2, constructor: 3, 'quote"key': 0.25 },
  }),
  newline: symbol({
    qualifiedName: 'src/x.ts.first\nsecond\r\nthird\tfourth',
    file: 'src/x.ts',
    lines: [3, 4],
    signature: 'a\tb\u2028c\u2029d',
    score: 0.45,
    distance: 0,
  }),
  markup: symbol({
    qualifiedName: 'src/m.ts.<script>alert("x")</script>&amp;\'`|*_[link](url)',
    file: 'src/m.ts',
    lines: [5, 6],
    signature: '<![CDATA[ x ]]> <!-- y --> {{ z }} @@ -1 +1 @@',
    score: 0.3,
    distance: 1,
    provenance: 'ast_inferred',
  }),
  unicode: symbol({
    qualifiedName: 'src/日本.ts.挨拶😀 café\u0301 \u202Eevil\u202C שלום\u200D👩‍💻',
    file: 'src/日本.ts',
    lines: [7, 9],
    signature: 'const 挨拶 = () => "😀"',
    // Long enough to be shortened, with surrogate pairs at every cut point.
    doc: `x${'😀'.repeat(400)}`,
    score: -0.001,
    distance: 0,
  }),
  symbols: symbol({ qualifiedName: '-', kind: 'variable', file: 'x.ts', score: 0, distance: 2, provenance: 'derived' }),
  numbers: symbol({
    qualifiedName: 'src/n.ts.#private',
    file: 'src/n.ts',
    lines: [1_000_000, 2_000_000],
    score: 1e6,
    distance: 99,
    rwr: 1e-12,
    components: { tiny: 1e-12, huge: 1e12, negative: -3.5, zero: 0 },
  }),
};

const hostilePack = pack(
  '<script>alert("x")</script> & co\nsecond line',
  [hostile.spaced, hostile.newline, hostile.markup, hostile.unicode, hostile.symbols, hostile.numbers],
  [
    link(hostile.spaced, hostile.unicode, 'spawns work'),
    link(hostile.markup, hostile.newline, 'calls', 7),
    link(hostile.symbols, hostile.numbers, 'references'),
  ],
  30,
  100,
);

const emptyPack: ContextPack = { symbols: [], edges: [], tokensUsed: 0, tokenBudget: 8000, packRoot: '' };

const code: ReadonlyMap<string, SymbolCode> = new Map([
  [small.login.node.id, { text: 'export async function handleLogin(req, res) {\n  const user = await check(req);\n  // <b> & "q"', startLine: 12, endLine: 14, truncated: true }],
  [small.create.node.id, { text: 'async create(userId: string): Promise<Session> {\n}', startLine: 20, endLine: 21, truncated: false }],
]);

/**
 * The kit's packs: a small realistic one (with an external placeholder), the same in code mode
 * with every option set, one of hostile names, signatures, docs and numbers, and an empty one.
 *
 * @example
 * ```ts
 * const hostile = FORMAT_FIXTURES.find((f) => f.name === 'hostile names')!;
 * myFormat.encode(hostile.pack, hostile.options);
 * ```
 */
export const FORMAT_FIXTURES: readonly FormatFixture[] = Object.freeze([
  { name: 'small pack', pack: smallPack, options: { task: 'fix the login redirect' } },
  {
    name: 'small pack, every option',
    pack: smallPack,
    options: {
      task: 'fix the login redirect',
      tool: 'context_for_task',
      previous: pack('fix the login redirect', [small.login, small.store], [], 60, 8000),
      tokenizer: { count: (text: string) => text.length },
      pretty: true,
      docChars: 10,
      deltaThreshold: 0.5,
      code,
    },
  },
  { name: 'hostile names', pack: hostilePack, options: { task: '<script>alert("x")</script> & co\nsecond line' } },
  { name: 'empty pack', pack: emptyPack, options: {} },
]);

/** A fresh, unfrozen copy: the kit never hands a formatter an object another test sees. */
function copy<T>(value: T): T {
  return structuredClone(value);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value) && !ArrayBuffer.isView(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Options with a fresh gcf session when the fixture wants one, so encodes are comparable. */
function optionsOf(fixture: FormatFixture): FormatOptions {
  const { tokenizer, ...rest } = fixture.options;
  return { ...copy(rest), ...(tokenizer ? { tokenizer } : {}) };
}

function same(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/**
 * Register the vitest tests every {@link Formatter} must pass: a registry name and media type,
 * output of the declared kind (text or bytes), deterministic output, an empty pack, hostile
 * names (spaces, newlines, quotes, markup, Unicode) without leaking `undefined` or splitting a
 * surrogate pair, packs and options left unmutated, different packs rendered differently, and
 * (when `symbolCost` exists) finite costs ≥ 1. Call it at the top level of a test file.
 *
 * @example
 * ```ts
 * import { testFormatter } from '@knowing/wire/testing';
 * import { csvFormat } from '../src/csv.js';
 *
 * testFormatter(csvFormat);
 * testFormatter(jsonFormat, { decode: (out) => JSON.parse(out as string).symbols.map((s) => s.qualified_name) });
 * ```
 */
export function testFormatter(formatter: Formatter, options: TestFormatterOptions = {}): void {
  const skip = new Set(options.skip ?? []);
  const fixtures = [...FORMAT_FIXTURES, ...(options.fixtures ?? [])];
  const test = (title: string, fn: () => void): void => {
    if (skip.has(title)) it.skip(title, fn);
    else it(title, fn);
  };
  const label = typeof formatter?.name === 'string' ? formatter.name : String(formatter);

  describe(`Formatter conformance: ${label}`, () => {
    test('has a registry name, a media type, binary, encode and an optional symbolCost', () => {
      expect(formatter.name, 'name: lowercase letters, digits, - and _, starting with a letter').toMatch(NAME);
      expect(formatter.mediaType, 'mediaType: type/subtype').toMatch(MEDIA_TYPE);
      expect(typeof formatter.binary).toBe('boolean');
      expect(typeof formatter.encode).toBe('function');
      expect(formatter.symbolCost === undefined || typeof formatter.symbolCost === 'function').toBe(true);
      expect(() => createFormatRegistry([]).register(formatter)).not.toThrow();
    });

    test('encodes without options', () => {
      const output = formatter.encode(copy(smallPack));
      expect(formatter.binary ? output instanceof Uint8Array : typeof output === 'string').toBe(true);
    });

    test('renders different packs differently', () => {
      const a = formatter.encode(copy(smallPack), {});
      const b = formatter.encode(copy(hostilePack), {});
      const c = formatter.encode(copy(emptyPack), {});
      expect(same(a, b)).toBe(false);
      expect(same(a, c)).toBe(false);
    });

    for (const fixture of fixtures) {
      describe(fixture.name, () => {
        test('returns what it declares: text, or bytes when binary', () => {
          const output = formatter.encode(copy(fixture.pack), optionsOf(fixture));
          if (formatter.binary) expect(output, 'binary: true, so encode must return a Uint8Array').toBeInstanceOf(Uint8Array);
          else expect(typeof output, 'binary: false, so encode must return a string').toBe('string');
        });

        test('renders the same pack to the same output', () => {
          const first = formatter.encode(copy(fixture.pack), optionsOf(fixture));
          const second = formatter.encode(copy(fixture.pack), optionsOf(fixture));
          const frozen = formatter.encode(deepFreeze(copy(fixture.pack)), optionsOf(fixture));
          expect(same(first, second), 'two encodes of equal packs differ').toBe(true);
          expect(same(first, frozen), 'a frozen copy of the pack encodes differently').toBe(true);
        });

        test('does not mutate the pack or the options', () => {
          const input = copy(fixture.pack);
          const opts = optionsOf(fixture);
          const before = copy({ input, previous: opts.previous, code: opts.code, task: opts.task });
          formatter.encode(input, opts);
          expect({ input, previous: opts.previous, code: opts.code, task: opts.task }).toEqual(before);
          // Frozen input makes any write attempt throw (modules are strict mode).
          expect(() => formatter.encode(deepFreeze(copy(fixture.pack)), optionsOf(fixture))).not.toThrow();
        });

        test('goes through formatPack from a registry unchanged', () => {
          const registry = createFormatRegistry([]);
          registry.register(formatter);
          const direct = formatter.encode(copy(fixture.pack), optionsOf(fixture));
          const viaRegistry = formatPack(copy(fixture.pack), { ...optionsOf(fixture), format: formatter.name, registry });
          expect(same(direct, viaRegistry)).toBe(true);
        });

        test('writes well-formed text without leaked undefined, NaN or [object Object]', () => {
          const output = formatter.encode(copy(fixture.pack), optionsOf(fixture));
          if (typeof output !== 'string') return;
          expect(LONE_SURROGATE.test(output), 'a surrogate pair was split (cut strings by code point)').toBe(false);
          expect(output.match(LEAKED_VALUE)?.[0], 'a missing or wrong value was printed').toBeUndefined();
        });

        if (options.decode) {
          const decode = options.decode;
          test('reads back the qualified name of every symbol', () => {
            const names = new Set(decode(formatter.encode(copy(fixture.pack), optionsOf(fixture))));
            for (const s of fixture.pack.symbols) expect(names.has(s.node.qualifiedName), JSON.stringify(s.node.qualifiedName)).toBe(true);
          });
        }

        if (formatter.symbolCost) {
          const symbolCost = formatter.symbolCost.bind(formatter);
          test('costs every symbol a finite number ≥ 1, the same each time', () => {
            const counters = [undefined, { count: (text: string) => text.length }, { count: () => 0 }];
            for (const s of fixture.pack.symbols) {
              for (const tokenizer of counters) {
                const opts = { ...optionsOf(fixture), ...(tokenizer ? { tokenizer } : {}) };
                const cost = symbolCost(copy(s), opts);
                expect(typeof cost).toBe('number');
                expect(Number.isFinite(cost) && cost >= 1, `cost ${String(cost)} of ${JSON.stringify(s.node.qualifiedName)}`).toBe(true);
                expect(symbolCost(deepFreeze(copy(s)), { ...optionsOf(fixture), ...(tokenizer ? { tokenizer } : {}) })).toBe(cost);
              }
            }
          });
        }
      });
    }

    test('renders a pack the same with a fresh gcf session each time', () => {
      const first = formatter.encode(copy(smallPack), { session: createGcfSession() });
      const second = formatter.encode(copy(smallPack), { session: createGcfSession() });
      expect(same(first, second)).toBe(true);
    });
  });
}
