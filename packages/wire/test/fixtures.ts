import { nodeId } from '@knowing/graph';
import type { ContextPack, GraphEdge, GraphNode, Provenance, RankedSymbol } from '@knowing/graph';
import { packRoot } from '@knowing/pack';

const REPO = 'github.com/acme/shop';

export interface SymbolSpec {
  readonly qualifiedName: string;
  readonly kind?: string;
  readonly file?: string;
  readonly lines?: readonly [number, number];
  readonly signature?: string;
  readonly doc?: string;
  readonly score: number;
  readonly distance: number;
  readonly rwr?: number;
  readonly provenance?: string;
  readonly components?: Readonly<Record<string, number>>;
  readonly external?: boolean;
}

/** A ranked symbol with a real node id (`nodeId(repo, qualifiedName, kind)`). */
export function sym(spec: SymbolSpec): RankedSymbol {
  const kind = (spec.kind ?? 'function') as GraphNode['kind'];
  const file = spec.file ?? (spec.external ? '' : spec.qualifiedName.replace(/(\.(ts|py|go))\..*$/, '$1'));
  const node: GraphNode = {
    id: nodeId(REPO, spec.qualifiedName, kind),
    name: spec.qualifiedName.split('.').at(-1) ?? spec.qualifiedName,
    qualifiedName: spec.qualifiedName,
    kind,
    language: spec.external ? '' : 'typescript',
    file,
    startLine: spec.lines?.[0] ?? 0,
    endLine: spec.lines?.[1] ?? 0,
    signature: spec.signature ?? '',
    doc: spec.doc ?? '',
    isTest: false,
    external: spec.external ?? false,
  };
  return {
    node,
    score: spec.score,
    distance: spec.distance,
    rwr: spec.rwr ?? 0.5,
    components: spec.components ?? {},
    ...(spec.provenance === undefined ? {} : { provenance: spec.provenance as Provenance }),
  };
}

export function edge(source: RankedSymbol, target: RankedSymbol, type = 'calls', provenance: Provenance = 'ast_resolved'): GraphEdge {
  return { source: source.node.id, target: target.node.id, type, confidence: 0.85, provenance };
}

export function makePack(task: string, symbols: RankedSymbol[], edges: GraphEdge[], tokensUsed = 0, tokenBudget = 8000): ContextPack {
  return { symbols, edges, tokensUsed, tokenBudget, packRoot: packRoot(task, symbols.map((s) => s.node.id)) };
}

const components = (relevance: number, blast: number, confidence: number, recency: number, distance: number) => ({
  relevance,
  blast_radius: blast,
  confidence,
  recency,
  distance,
});

export const LOGIN_TASK = 'Fix the login redirect';

export const login = {
  handleLogin: sym({
    qualifiedName: 'src/auth/login.ts.handleLogin',
    lines: [12, 40],
    signature: 'export async function handleLogin(req: Request, res: Response): Promise<void>',
    doc: 'Handles the login form post: checks the credentials,\n  starts a session and redirects to the page the user came from.',
    score: 0.91,
    distance: 0,
    rwr: 1,
    components: components(0.5, 0.2, 0.12, 0.06, 0.15),
  }),
  sessionStore: sym({
    qualifiedName: 'src/auth/session.ts.SessionStore',
    kind: 'class',
    lines: [8, 77],
    signature: 'export class SessionStore',
    doc: 'Keeps sessions in Redis.',
    score: 0.74,
    distance: 0,
    rwr: 0.8,
    components: components(0.4, 0.15, 0.1, 0.04, 0.15),
  }),
  create: sym({
    qualifiedName: 'src/auth/session.ts.SessionStore.create',
    kind: 'method',
    lines: [20, 31],
    signature: 'async create(userId: string, ttl = SESSION_TTL): Promise<Session>',
    score: 0.62,
    distance: 1,
    provenance: 'lsp_resolved',
    components: components(0.3, 0.12, 0.1, 0.05, 0.05),
  }),
  verifyPassword: sym({
    qualifiedName: 'src/auth/password.ts.verifyPassword',
    lines: [5, 5],
    signature: 'export function verifyPassword(plain: string, hash: string): Promise<boolean>',
    score: 0.62,
    distance: 1,
    provenance: 'ast_resolved',
    components: components(0.3, 0.1, 0.12, 0.05, 0.05),
  }),
  post: sym({
    qualifiedName: 'src/http/router.ts.Router.post',
    kind: 'method',
    lines: [51, 60],
    signature: 'post(path: string, ...handlers: Handler[]): this',
    score: 0.4,
    distance: 1,
    provenance: 'ast_inferred',
    components: components(0.2, 0.1, 0.05, 0.0, 0.05),
  }),
  ttl: sym({
    qualifiedName: 'src/config.ts.SESSION_TTL',
    kind: 'constant',
    lines: [3, 3],
    signature: 'export const SESSION_TTL = 60 * 60 * 24',
    score: 0.21,
    distance: 2,
    provenance: 'derived',
    components: components(0.1, 0.05, 0.03, 0.03, 0.0),
  }),
  compare: sym({
    qualifiedName: 'bcrypt.compare',
    kind: 'external',
    external: true,
    score: 0.05,
    distance: 3,
    provenance: 'ast_inferred',
  }),
};

const outsider = sym({ qualifiedName: 'src/metrics.ts.count', score: 0.1, distance: 1 });

export const loginPack: ContextPack = makePack(
  LOGIN_TASK,
  // Given in score order, as packing returns them; the formats re-sort by distance.
  [login.handleLogin, login.sessionStore, login.create, login.verifyPassword, login.post, login.ttl, login.compare],
  [
    edge(login.handleLogin, login.verifyPassword),
    edge(login.handleLogin, login.create),
    edge(login.sessionStore, login.create, 'contains', 'derived'),
    edge(login.post, login.handleLogin, 'references', 'ast_inferred'),
    edge(login.create, login.ttl, 'references'),
    edge(login.verifyPassword, login.compare, 'calls', 'ast_inferred'),
    edge(login.handleLogin, login.verifyPassword), // duplicate: written once
    edge(login.handleLogin, outsider), // endpoint outside the pack: dropped
  ],
  412,
  8000,
);

export const hostile = {
  spaced: sym({
    qualifiedName: 'src/odd file.ts.weird name',
    file: 'src/odd file.ts',
    lines: [1, 2],
    signature: 'function f<T extends "a" & \'b\'>(x: T): T // ]]> </signature> & <doc>',
    doc: 'Line one\r\nline <two> & "three"\u0000 with a NUL, a lone \uD800 surrogate and \u0007 bell.',
    score: 0.5,
    distance: 0,
    provenance: 'custom provenance',
    components: { 'weird key': 1.5, ['__proto__']: 2, constructor: 3 },
  }),
  unicode: sym({
    qualifiedName: 'src/日本.ts.挨拶😀\n%20#x',
    file: 'src/日本.ts',
    kind: 'fn',
    signature: 'const 挨拶 = () => "😀"',
    score: -0.001,
    distance: 0,
  }),
  dash: sym({ qualifiedName: '-', kind: 'widget', file: 'x.ts', score: 0.25, distance: 1, provenance: '-' }),
  hash: sym({ qualifiedName: '#private', kind: '#kind', file: 'x.ts', score: 0.2, distance: 4, signature: 'a\tb\u2028c' }),
};

export const hostilePack: ContextPack = {
  ...makePack('<script>alert("x")</script> & co', [hostile.spaced, hostile.unicode, hostile.dash, hostile.hash], [
    edge(hostile.spaced, hostile.unicode, 'spawns work'),
    edge(hostile.dash, hostile.hash, 'calls'),
  ]),
  tokensUsed: 30,
  tokenBudget: 100,
};

export const emptyPack: ContextPack = { symbols: [], edges: [], tokensUsed: 0, tokenBudget: 8000, packRoot: '' };

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
