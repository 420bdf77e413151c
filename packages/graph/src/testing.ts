/**
 * Conformance kit for {@link GraphStore} implementations. It checks the contract written in
 * `types.ts` and nothing about how a store keeps its data, so every store (SQLite, Postgres,
 * in-memory) runs the same suite in its own tests.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { edgeKey, merkleRoot, nodeId, snapshotId } from './identity.js';
import { packageOf, qualifiedName } from './names.js';
import type { FileRecord, FileWrite, GraphEdge, GraphNode, GraphStore, LexicalDocument, NodeId, NodeKind, WriteBatch } from './types.js';
import { LEXICAL_FIELDS } from './types.js';

/** Options of {@link testGraphStore}. */
export interface TestGraphStoreOptions {
  /**
   * Names of tests to skip (as printed by vitest, without the suite prefix), for a store
   * that knowingly does not meet one part of the contract yet. Say why next to the list.
   */
  readonly skip?: readonly string[];
  /** Per-test timeout in milliseconds. @default 20000 */
  readonly timeoutMs?: number;
}

const REPO = 'github.com/acme/shop';

interface NodeSpec {
  readonly file: string;
  readonly scopes?: readonly string[];
  readonly name: string;
  readonly kind: NodeKind;
  readonly start: number;
  readonly end: number;
  readonly doc?: string;
  readonly signature?: string;
  readonly isTest?: boolean;
}

function makeNode(spec: NodeSpec): GraphNode {
  const qn = qualifiedName(spec.file, spec.scopes ?? [], spec.name);
  return {
    id: nodeId(REPO, qn, spec.kind),
    name: spec.name,
    qualifiedName: qn,
    kind: spec.kind,
    language: 'python',
    file: spec.file,
    startLine: spec.start,
    endLine: spec.end,
    signature: spec.signature ?? `def ${spec.name}():`,
    doc: spec.doc ?? '',
    isTest: spec.isTest ?? false,
    external: false,
  };
}

function makeExternal(name: string): GraphNode {
  const qn = `external://${name}`;
  return {
    id: nodeId(REPO, qn, 'external'),
    name: name.slice(name.lastIndexOf('.') + 1),
    qualifiedName: qn,
    kind: 'external',
    language: '',
    file: '',
    startLine: 0,
    endLine: 0,
    signature: '',
    doc: '',
    isTest: false,
    external: true,
  };
}

function edge(source: GraphNode, target: GraphNode, type: string, line = 0): GraphEdge {
  return { source: source.id, target: target.id, type, confidence: 0.9, provenance: 'ast_resolved', line };
}

function fileRecord(path: string, hash = 'h0'): FileRecord {
  return { path, language: 'python', contentHash: `${hash}:${path}`, sizeBytes: 100, indexedAt: 1_700_000_000_000, syntaxErrors: 0 };
}

/** A small imaginary web shop: three files in two packages, a test file, two externals. */
function fixture() {
  const server = 'src/shop/server.py';
  const routes = 'src/shop/routes.py';
  const session = 'src/auth/session.py';
  const tests = 'tests/test_session.py';
  const n = {
    Server: makeNode({ file: server, name: 'Server', kind: 'class', start: 3, end: 40, doc: 'The HTTP server of the shop.' }),
    start: makeNode({ file: server, scopes: ['Server'], name: 'start', kind: 'method', start: 10, end: 20, doc: 'Start listening.' }),
    create_app: makeNode({
      file: server,
      name: 'create_app',
      kind: 'function',
      start: 42,
      end: 50,
      doc: 'Build the application and register every before_request hook.',
    }),
    before_request: makeNode({ file: routes, name: 'before_request', kind: 'function', start: 5, end: 9, doc: 'Runs before each request.' }),
    handle_login: makeNode({ file: routes, name: 'handle_login', kind: 'function', start: 12, end: 30, doc: 'Log a user in.' }),
    refresh_token: makeNode({ file: session, name: 'refresh_token', kind: 'function', start: 1, end: 8, doc: 'Issue a new access token.' }),
    SessionStore: makeNode({ file: session, name: 'SessionStore', kind: 'class', start: 10, end: 60, doc: 'Keeps sessions in memory.' }),
    load: makeNode({
      file: session,
      scopes: ['SessionStore'],
      name: 'load',
      kind: 'method',
      start: 20,
      end: 35,
      doc: 'Load a session; calls refresh_token when the token expired.',
    }),
    test_load: makeNode({ file: tests, name: 'test_load', kind: 'function', start: 4, end: 12, isTest: true }),
  };
  const ext = { requests_get: makeExternal('requests.get'), json_dumps: makeExternal('json.dumps') };
  const files: Record<string, FileWrite> = {
    [server]: {
      file: fileRecord(server),
      nodes: [n.Server, n.start, n.create_app],
      edges: [edge(n.create_app, n.Server, 'calls', 44), edge(n.Server, n.start, 'contains'), edge(n.create_app, n.before_request, 'references', 46)],
    },
    [routes]: {
      file: fileRecord(routes),
      nodes: [n.before_request, n.handle_login],
      edges: [
        edge(n.handle_login, n.load, 'calls', 14),
        edge(n.handle_login, n.start, 'calls', 15),
        edge(n.handle_login, ext.requests_get, 'calls', 20),
        edge(n.before_request, ext.json_dumps, 'calls', 7),
      ],
    },
    [session]: {
      file: fileRecord(session),
      nodes: [n.refresh_token, n.SessionStore, n.load],
      edges: [edge(n.load, n.refresh_token, 'calls', 30), edge(n.SessionStore, n.load, 'contains')],
    },
    [tests]: { file: fileRecord(tests), nodes: [n.test_load], edges: [edge(n.test_load, n.load, 'tests', 6)] },
  };
  const batch: WriteBatch = {
    repo: { id: REPO, root: '/home/dev/shop', commit: 'abc123', indexedAt: 1_700_000_000_000 },
    files: Object.values(files),
    externalNodes: [ext.requests_get, ext.json_dumps],
  };
  const allNodes = [...Object.values(n), ...Object.values(ext)];
  const allEdges = Object.values(files).flatMap((f) => f.edges);
  return { paths: { server, routes, session, tests }, n, ext, files, batch, allNodes, allEdges };
}

/** Edges compare with `line` defaulted, since it is optional on input. */
function norm(e: GraphEdge): GraphEdge {
  return { ...e, line: e.line ?? 0 };
}

function edgeSort(a: GraphEdge, b: GraphEdge): number {
  return `${a.source}${a.type}${a.target}`.localeCompare(`${b.source}${b.type}${b.target}`);
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

function ids(nodes: readonly GraphNode[]): string[] {
  return nodes.map((x) => x.id);
}

/** The Merkle layout the contract documents, computed from scratch. */
function expectedPackageRoots(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): Map<string, string> {
  const byId = new Map(nodes.map((x) => [x.id, x]));
  const groups = new Map<string, Map<string, string[]>>();
  for (const e of edges) {
    const src = byId.get(e.source)!;
    const pkg = src.external ? '' : packageOf(src.file);
    let types = groups.get(pkg);
    if (!types) groups.set(pkg, (types = new Map()));
    const leaves = types.get(e.type) ?? [];
    leaves.push(edgeKey(e.source, e.target, e.type));
    types.set(e.type, leaves);
  }
  const roots = new Map<string, string>();
  for (const [pkg, types] of groups) roots.set(pkg, merkleRoot([...types.values()].map((leaves) => merkleRoot(leaves))));
  return roots;
}

type Fixture = ReturnType<typeof fixture>;

/** What each contract test gets: a new, empty store (closed after the test) and a new fixture. */
interface ContractCase {
  readonly store: GraphStore;
  readonly f: Fixture;
}

/** The hooks and test registration the groups of cases share, inside one store's describe. */
interface ContractSuite {
  /** Registers a test that the store's options may skip by title. */
  test(title: string, fn: (c: ContractCase) => Promise<void>): void;
  /** Runs before each test of the enclosing describe, after the store was made. */
  beforeEach(fn: (c: ContractCase) => Promise<void>): void;
}

function contractSuite(makeStore: () => Promise<GraphStore>, options: TestGraphStoreOptions): ContractSuite {
  const skip = new Set(options.skip ?? []);
  const timeout = options.timeoutMs ?? 20_000;
  let store: GraphStore;
  let f: Fixture;

  beforeEach(async () => {
    store = await makeStore();
    f = fixture();
  });
  afterEach(async () => {
    await store.close();
  });

  return {
    test(title, fn) {
      const body = (): Promise<void> => fn({ store, f });
      if (skip.has(title)) it.skip(title, body);
      else it(title, body, timeout);
    },
    beforeEach(fn) {
      beforeEach(() => fn({ store, f }));
    },
  };
}

/**
 * Register the conformance tests of the {@link GraphStore} contract. Call it once from a
 * store's test file; `makeStore` must return a new, empty store each time (the kit closes it).
 *
 * @example
 * ```ts
 * import { testGraphStore } from '@knowing/graph/testing';
 * import { createSqliteStore } from '@knowing/store-sqlite';
 *
 * testGraphStore('sqlite (:memory:)', () => createSqliteStore({ path: ':memory:' }));
 * ```
 */
export function testGraphStore(name: string, makeStore: () => Promise<GraphStore>, options: TestGraphStoreOptions = {}): void {
  describe(`GraphStore contract: ${name}`, () => {
    const suite = contractSuite(makeStore, options);
    describeRoundTrips(suite);
    describeWriteBatches(suite);
    describeGraphOrder(suite);
    describeLookups(suite);
    describeTextSearch(suite);
    describeLexicalSearch(suite);
    describeNotes(suite);
    describeFeedbackAndVocabulary(suite);
    describeSnapshots(suite);
  });
}

/** Writes that read back as written, and the totals over them. */
function describeRoundTrips(suite: ContractSuite): void {
  describe('round trips', () => {
    suite.test('a new store is empty', async ({ store }) => {
      expect(await store.repo()).toBeNull();
      expect(await store.currentSnapshot()).toBeNull();
      const counts = await store.counts();
      expect([counts.nodes, counts.edges, counts.files]).toEqual([0, 0, 0]);
      expect(await store.listFiles()).toEqual([]);
    });

    suite.test('nodes, edges, files and repo come back exactly as written', async ({ store, f }) => {
      const result = await store.applyBatch(f.batch);
      expect(result.nodesWritten).toBe(f.allNodes.length);
      expect(result.edgesWritten).toBe(f.allEdges.length);
      expect(result.nodesDeleted).toBe(0);
      expect(result.edgesDeleted).toBe(0);
      for (const node of f.allNodes) expect(await store.getNode(node.id)).toEqual(node);
      expect(await store.getNode('0'.repeat(32))).toBeUndefined();
      expect(await store.repo()).toEqual(f.batch.repo);
      for (const fw of Object.values(f.files)) expect(await store.getFile(fw.file.path)).toEqual(fw.file);
      expect(await store.getFile('nope.py')).toBeUndefined();
      const listed = (await store.listFiles()).sort((a, b) => a.path.localeCompare(b.path));
      expect(listed).toEqual(Object.values(f.files).map((w) => w.file).sort((a, b) => a.path.localeCompare(b.path)));
      const stored = (await collect(store.allEdges())).sort(edgeSort);
      expect(stored).toEqual(f.allEdges.map(norm).sort(edgeSort));
    });

    suite.test('getNodes keeps the order of the ids and skips unknown ones', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      const wanted = [f.n.load.id, 'f'.repeat(32), f.n.Server.id, f.ext.json_dumps.id];
      expect(ids(await store.getNodes(wanted))).toEqual([f.n.load.id, f.n.Server.id, f.ext.json_dumps.id]);
      expect(await store.getNodes([])).toEqual([]);
    });

    suite.test('allNodes and allEdges stream every node and edge once', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      const nodes = await collect(store.allNodes());
      expect(ids(nodes).sort()).toEqual(ids(f.allNodes).sort());
      const edges = await collect(store.allEdges());
      expect(edges).toHaveLength(f.allEdges.length);
      expect(new Set(edges.map((e) => `${e.source}${e.type}${e.target}`)).size).toBe(f.allEdges.length);
    });

    suite.test('counts add up by kind, language and edge type', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      const c = await store.counts();
      expect(c.nodes).toBe(f.allNodes.length);
      expect(c.edges).toBe(f.allEdges.length);
      expect(c.files).toBe(4);
      expect(c.nodesByKind).toMatchObject({ class: 2, method: 2, function: 5, external: 2 });
      expect(c.nodesByLanguage['python']).toBe(9);
      expect(c.edgesByType).toEqual({ calls: 6, contains: 2, references: 1, tests: 1 });
    });

    suite.test('the graph outline, when the store has one, is every node and edge in the order allNodes and allEdges give', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      if (!store.graphOutline) return;
      const outline = await store.graphOutline();
      const nodes = await collect(store.allNodes());
      const edges = await collect(store.allEdges());
      expect(outline.nodes).toEqual(nodes.map(({ id, kind, external, isTest }) => ({ id, kind, external, isTest })));
      expect(outline.edges).toEqual(edges.map(({ source, target, type, provenance, confidence }) => ({ source, target, type, provenance, confidence })));
      expect(outline.edges).toHaveLength(f.allEdges.length);
    });

    suite.test('node counts, when the store has them, are the node side of the counts', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      if (!store.nodeCounts) return;
      const { edges: _edges, edgesByType: _edgesByType, ...nodeSide } = await store.counts();
      expect(await store.nodeCounts()).toEqual(nodeSide);
      expect(nodeSide.nodesByLanguage['python']).toBe(9);
    });

    suite.test('counts kinds whose names are Object.prototype members like any other', async ({ store }) => {
      const file = 'shop/ctor.py';
      const ctor = makeNode({ file, scopes: ['Cart'], name: '__init__', kind: 'constructor', start: 2, end: 4 });
      await store.applyBatch({ files: [{ file: fileRecord(file, 'c1'), nodes: [ctor], edges: [] }] });
      const c = await store.counts();
      expect(c.nodesByKind['constructor']).toBe(1);
      expect(c.nodesByLanguage['python']).toBe(1);
    });
  });
}

/** How a batch replaces, cascades and prunes. */
function describeWriteBatches(suite: ContractSuite): void {
  describe('write batches', () => {
    suite.test('rewriting a file updates kept nodes and removes absent ones', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      const changedStart = { ...f.n.start, startLine: 11, endLine: 22, doc: 'Start listening on a port.' };
      const result = await store.applyBatch({
        files: [{ file: fileRecord(f.paths.server, 'h1'), nodes: [f.n.Server, changedStart], edges: [edge(f.n.Server, f.n.start, 'contains')] }],
      });
      expect(await store.getNode(f.n.create_app.id)).toBeUndefined();
      expect(await store.getNode(f.n.start.id)).toEqual(changedStart);
      expect(ids(await store.nodesInFile(f.paths.server))).toEqual([f.n.Server.id, f.n.start.id]);
      expect((await store.getFile(f.paths.server))?.contentHash).toBe(`h1:${f.paths.server}`);
      expect(result.nodesDeleted).toBe(1);
      expect((await store.counts()).nodes).toBe(f.allNodes.length - 1);
    });

    suite.test("removing a node cascades its edges, in and out, including other files' edges to it", async ({ store, f }) => {
      await store.applyBatch(f.batch);
      // session.py without `load`: handle_login→load (routes.py), test_load→load (tests),
      // SessionStore→load and load→refresh_token all lose an endpoint.
      await store.applyBatch({
        files: [{ file: fileRecord(f.paths.session, 'h1'), nodes: [f.n.refresh_token, f.n.SessionStore], edges: [] }],
      });
      expect(await store.getNode(f.n.load.id)).toBeUndefined();
      expect(await store.edgesTo(f.n.load.id)).toEqual([]);
      expect(await store.edgesFrom(f.n.load.id)).toEqual([]);
      expect((await store.edgesFrom(f.n.handle_login.id)).map((e) => e.target).sort()).toEqual(
        [f.n.start.id, f.ext.requests_get.id].sort(),
      );
      expect(await store.edgesFrom(f.n.test_load.id)).toEqual([]);
      const all = await collect(store.allEdges());
      const present = new Set(ids(await collect(store.allNodes())));
      for (const e of all) {
        expect(present.has(e.source)).toBe(true);
        expect(present.has(e.target)).toBe(true);
      }
    });

    suite.test("other files' edges to surviving nodes are kept when a file is rewritten", async ({ store, f }) => {
      await store.applyBatch(f.batch);
      await store.applyBatch({
        files: [{ file: fileRecord(f.paths.session, 'h1'), nodes: [f.n.refresh_token, f.n.SessionStore, f.n.load], edges: [] }],
      });
      const into = await store.edgesTo(f.n.load.id);
      expect(into.map((e) => e.source).sort()).toEqual([f.n.handle_login.id, f.n.test_load.id].sort());
      expect(await store.edgesFrom(f.n.load.id)).toEqual([]);
    });

    suite.test("a file's owned edges are replaced by its next write", async ({ store, f }) => {
      await store.applyBatch(f.batch);
      const newEdge = edge(f.n.handle_login, f.n.refresh_token, 'calls', 16);
      const w = f.files[f.paths.routes]!;
      await store.applyBatch({ files: [{ ...w, edges: [w.edges[0]!, newEdge] }] });
      const from = (await store.edgesFrom(f.n.handle_login.id)).sort(edgeSort);
      expect(from).toEqual([w.edges[0]!, newEdge].map(norm).sort(edgeSort));
      expect(await store.edgesFrom(f.n.before_request.id)).toEqual([]);
      expect((await store.counts()).edges).toBe(f.allEdges.length - 2);
    });

    suite.test('ownedEdges replace all edges of their owner and leave other owners alone', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      const a = edge(f.n.load, f.n.Server, 'depends_on');
      const b = edge(f.n.start, f.n.SessionStore, 'depends_on');
      await store.applyBatch({ ownedEdges: [{ owner: 'derived:deps', edges: [a, b] }] });
      expect((await store.edgesFrom(f.n.load.id, { types: ['depends_on'] })).map(norm)).toEqual([norm(a)]);
      const c = edge(f.n.refresh_token, f.n.Server, 'depends_on');
      await store.applyBatch({ ownedEdges: [{ owner: 'derived:deps', edges: [c] }] });
      expect(await store.edgesFrom(f.n.load.id, { types: ['depends_on'] })).toEqual([]);
      expect(await store.edgesFrom(f.n.start.id, { types: ['depends_on'] })).toEqual([]);
      expect((await store.edgesFrom(f.n.refresh_token.id, { types: ['depends_on'] })).map(norm)).toEqual([norm(c)]);
      // The file-owned edges are untouched.
      expect((await store.counts()).edges).toBe(f.allEdges.length + 1);
      await store.applyBatch({ ownedEdges: [{ owner: 'derived:deps', edges: [] }] });
      expect((await store.counts()).edges).toBe(f.allEdges.length);
    });

    suite.test('deleteFiles removes the record, the nodes and every edge touching them', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      const result = await store.applyBatch({ deleteFiles: [f.paths.session] });
      expect(await store.getFile(f.paths.session)).toBeUndefined();
      expect(await store.nodesInFile(f.paths.session)).toEqual([]);
      expect(await store.getNode(f.n.SessionStore.id)).toBeUndefined();
      expect(await store.edgesFrom(f.n.test_load.id)).toEqual([]);
      expect(result.nodesDeleted).toBe(3);
      // load→refresh_token, SessionStore→load, handle_login→load, test_load→load.
      expect(result.edgesDeleted).toBe(4);
      expect((await store.counts()).edges).toBe(f.allEdges.length - 4);
    });

    suite.test('external nodes no edge touches any more are pruned', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      const w = f.files[f.paths.routes]!;
      // Drop before_request→json.dumps; handle_login→requests.get stays.
      await store.applyBatch({ files: [{ ...w, edges: w.edges.filter((e) => e.target !== f.ext.json_dumps.id) }] });
      expect(await store.getNode(f.ext.json_dumps.id)).toBeUndefined();
      expect(await store.getNode(f.ext.requests_get.id)).toEqual(f.ext.requests_get);
    });

    suite.test('edges whose endpoint does not exist are not kept', async ({ store, f }) => {
      const ghost = makeNode({ file: 'src/ghost.py', name: 'ghost', kind: 'function', start: 1, end: 2 });
      const w = f.files[f.paths.server]!;
      await store.applyBatch({ files: [{ ...w, edges: [...w.edges, edge(f.n.create_app, ghost, 'calls')] }] });
      const present = new Set(ids(await collect(store.allNodes())));
      for (const e of await collect(store.allEdges())) {
        expect(present.has(e.source) && present.has(e.target)).toBe(true);
      }
      expect((await store.edgesFrom(f.n.create_app.id)).some((e) => e.target === ghost.id)).toBe(false);
    });

    suite.test('a batch written twice changes nothing the second time', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      const before = await collect(store.allEdges());
      const result = await store.applyBatch(f.batch);
      expect(result.nodesDeleted).toBe(0);
      expect(result.edgesDeleted).toBe(0);
      expect((await collect(store.allEdges())).sort(edgeSort)).toEqual(before.sort(edgeSort));
      expect((await store.counts()).nodes).toBe(f.allNodes.length);
    });
  });
}

/**
 * A repository-sized first batch: files of functions whose docs differ in length (so a
 * database's rows differ in size and fill many pages unevenly), each calling the next and
 * referencing the previous, every third calling a placeholder only its own file uses.
 * `externalNodes` names the placeholders in reverse order of use, after one no edge touches.
 */
function sizeableBatch(fileCount: number, perFile: number) {
  const files: FileWrite[] = [];
  const used: GraphNode[] = [];
  for (let f = 0; f < fileCount; f++) {
    const path = `src/pkg${f % 3}/module_${f}.py`;
    const nodes: GraphNode[] = [];
    for (let i = 0; i < perFile; i++) {
      const doc = Array.from({ length: (i * 37 + f * 11) % 120 }, (_, k) => `term${(i * k + f) % 211}`).join(' ');
      nodes.push(makeNode({ file: path, name: `step_${f}_${i}`, kind: 'function', start: i * 10 + 1, end: i * 10 + 8, doc }));
    }
    const edges: GraphEdge[] = [];
    nodes.forEach((node, i) => {
      if (i + 1 < perFile) edges.push(edge(node, nodes[i + 1]!, 'calls', node.startLine + 1));
      if (i > 0) edges.push(edge(node, nodes[i - 1]!, 'references', node.startLine + 2));
      if (i % 3 === 0) {
        const placeholder = makeExternal(`vendor${f}.helper${i}`);
        used.push(placeholder);
        edges.push(edge(node, placeholder, 'calls', node.startLine + 3));
      }
    });
    files.push({ file: fileRecord(path), nodes, edges });
  }
  const placeholders = [...used].reverse();
  const batch: WriteBatch = { files, externalNodes: [makeExternal('vendor.unused'), ...placeholders] };
  return { files, placeholders, batch };
}

/** `edges` as `source type target` lines, in the contract's order over `order` (node ids in allNodes() order). */
function edgesInGraphOrder(edges: readonly GraphEdge[], order: readonly NodeId[]): string[] {
  const place = new Map(order.map((id, i) => [id, i]));
  const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...edges]
    .sort((a, b) => place.get(a.source)! - place.get(b.source)! || byCodeUnits(a.type, b.type) || place.get(a.target)! - place.get(b.target)!)
    .map((e) => `${e.source} ${e.type} ${e.target}`);
}

/**
 * The order allNodes() and allEdges() give (see GraphReader.allNodes): consumers build
 * adjacencies and communities in it, so two stores holding the same graph in different orders
 * rank differently.
 */
function describeGraphOrder(suite: ContractSuite): void {
  describe('graph order', () => {
    const nodeOrder = async (store: GraphStore): Promise<NodeId[]> => ids(await collect(store.allNodes()));

    suite.test('a first batch is numbered in write order: file by file, then its placeholders; edges by source, type and target', async ({ store }) => {
      const big = sizeableBatch(12, 40);
      await store.applyBatch(big.batch);
      const order = await nodeOrder(store);
      expect(order).toEqual([...big.files.flatMap((w) => ids(w.nodes)), ...ids(big.placeholders)]);
      const edges = await collect(store.allEdges());
      expect(edges.map((e) => `${e.source} ${e.type} ${e.target}`)).toEqual(edgesInGraphOrder(big.files.flatMap((w) => w.edges), order));
    });

    suite.test('a later batch keeps every surviving node in place and appends new ones in write order', async ({ store }) => {
      const big = sizeableBatch(12, 40);
      await store.applyBatch(big.batch);
      const first = await nodeOrder(store);
      const rewritten = big.files[2]!;
      const dropped = rewritten.nodes[6]!;
      const fresh = makeNode({ file: rewritten.file.path, name: 'fresh_step', kind: 'function', start: 1000, end: 1004 });
      const late = [0, 1].map((i) => makeNode({ file: 'src/pkg9/late.py', name: `late_${i}`, kind: 'function', start: i * 5 + 1, end: i * 5 + 3 }));
      const [lateA, lateB] = [makeExternal('vendor.late_a'), makeExternal('vendor.late_b')];
      const reused = big.placeholders.at(-1)!;
      const kept = rewritten.nodes.filter((n) => n !== dropped);
      const keptEdges = rewritten.edges.filter((e) => e.source !== dropped.id && e.target !== dropped.id);
      const lateEdges = [edge(late[0]!, lateB, 'calls'), edge(late[1]!, lateA, 'calls'), edge(late[1]!, reused, 'calls')];
      // Kept nodes written in another order, the new one among them: places do not follow the write.
      await store.applyBatch({
        deleteFiles: [big.files[7]!.file.path],
        files: [
          { ...rewritten, nodes: [...kept.slice(0, 10).reverse(), fresh, ...kept.slice(10)], edges: keptEdges },
          { file: fileRecord('src/pkg9/late.py'), nodes: late, edges: lateEdges },
        ],
        externalNodes: [lateA, reused, lateB],
      });
      // File 7's nodes go, and with them the placeholders only they used; so does the dropped node's.
      const droppedPlaceholder = makeExternal('vendor2.helper6');
      const onlyFile7 = big.placeholders.filter((p) => p.qualifiedName.startsWith('external://vendor7.'));
      const gone = new Set([dropped.id, droppedPlaceholder.id, ...ids(big.files[7]!.nodes), ...ids(onlyFile7)]);
      const second = [...first.filter((id) => !gone.has(id)), fresh.id, ...ids(late), lateA.id, lateB.id];
      expect(await nodeOrder(store)).toEqual(second);

      // Written again, the dropped node and its placeholder are new: appended, not put back.
      await store.applyBatch({ files: [{ ...rewritten, nodes: [...rewritten.nodes, fresh] }], externalNodes: big.placeholders });
      expect(await nodeOrder(store)).toEqual([...second, dropped.id, droppedPlaceholder.id]);
    });

    suite.test('a node keeps its place when rewritten, moved to a file the batch writes first, or a placeholder written as a symbol', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      const before = await nodeOrder(store);
      const server = f.files[f.paths.server]!;
      const session = f.files[f.paths.session]!;
      // refresh_token moves from session.py into server.py, written before session.py.
      const moved = { ...f.n.refresh_token, file: f.paths.server, startLine: 60, endLine: 66 };
      const resolved = { ...f.ext.json_dumps, kind: 'function' as const, language: 'python' as const, file: f.paths.server, startLine: 70, endLine: 72, external: false };
      await store.applyBatch({
        files: [
          { ...server, nodes: [resolved, ...server.nodes, moved] },
          { ...session, nodes: session.nodes.filter((n) => n.id !== f.n.refresh_token.id) },
        ],
      });
      expect(await nodeOrder(store)).toEqual(before);
      expect((await store.getNode(f.n.refresh_token.id))?.file).toBe(f.paths.server);
      expect((await store.getNode(f.ext.json_dumps.id))?.external).toBe(false);
    });

    suite.test('an id two files of a batch write takes the place of the first; one a later file takes from an earlier one is new', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      const before = await nodeOrder(store);
      const one = makeNode({ file: 'src/x/one.py', name: 'one', kind: 'function', start: 1, end: 3 });
      const two = makeNode({ file: 'src/x/two.py', name: 'two', kind: 'function', start: 1, end: 3 });
      const shared = makeNode({ file: 'src/x/one.py', name: 'shared', kind: 'function', start: 5, end: 9 });
      const routes = f.files[f.paths.routes]!;
      const tests = f.files[f.paths.tests]!;
      // routes.py comes first and no longer declares handle_login; tests.py, after it, does.
      const taken = { ...f.n.handle_login, file: f.paths.tests, startLine: 40, endLine: 50 };
      await store.applyBatch({
        files: [
          { file: fileRecord(one.file), nodes: [one, shared], edges: [] },
          { ...routes, nodes: [f.n.before_request], edges: routes.edges.filter((e) => e.source === f.n.before_request.id) },
          { file: fileRecord(two.file), nodes: [two, { ...shared, file: two.file, startLine: 11, endLine: 15 }], edges: [] },
          { ...tests, nodes: [...tests.nodes, taken] },
        ],
        externalNodes: [f.ext.json_dumps],
      });
      const removed = new Set([f.n.handle_login.id, f.ext.requests_get.id]);
      expect(await nodeOrder(store)).toEqual([...before.filter((id) => !removed.has(id)), one.id, shared.id, two.id, taken.id]);
      expect((await store.getNode(shared.id))?.file).toBe(two.file);
    });
  });
}

/** Name, path and edge lookups over the fixture. */
function describeLookups(suite: ContractSuite): void {
  describe('lookups', () => {
    suite.beforeEach(async ({ store, f }) => {
      await store.applyBatch(f.batch);
    });

    suite.test('findNodesByName exact is case-sensitive', async ({ store, f }) => {
      expect(ids(await store.findNodesByName('SessionStore'))).toEqual([f.n.SessionStore.id]);
      expect(await store.findNodesByName('sessionstore')).toEqual([]);
      expect(ids(await store.findNodesByName('sessionstore', { match: 'exact_ci' }))).toEqual([f.n.SessionStore.id]);
    });

    suite.test('findNodesByName prefix and substring ignore ASCII case', async ({ store, f }) => {
      expect(ids(await store.findNodesByName('SESSION', { match: 'prefix' }))).toEqual([f.n.SessionStore.id]);
      expect(ids(await store.findNodesByName('ssionst', { match: 'substring' }))).toEqual([f.n.SessionStore.id]);
      expect(ids(await store.findNodesByName('_', { match: 'substring' })).sort()).toEqual(
        [f.n.create_app.id, f.n.before_request.id, f.n.handle_login.id, f.n.refresh_token.id, f.n.test_load.id].sort(),
      );
      expect(await store.findNodesByName('Sessionz', { match: 'prefix' })).toEqual([]);
    });

    suite.test('findNodesByName filters kinds, honours limit and hides externals unless asked', async ({ store, f }) => {
      expect(ids(await store.findNodesByName('s', { match: 'prefix', kinds: ['class'] })).sort()).toEqual(
        [f.n.Server.id, f.n.SessionStore.id].sort(),
      );
      expect(await store.findNodesByName('s', { match: 'prefix', limit: 1 })).toHaveLength(1);
      expect(await store.findNodesByName('get')).toEqual([]);
      expect(ids(await store.findNodesByName('get', { includeExternal: true }))).toEqual([f.ext.requests_get.id]);
      expect(await store.findNodesByName('load', { kinds: ['function'] })).toEqual([]);
      expect(ids(await store.findNodesByName('load', { kinds: ['method'] }))).toEqual([f.n.load.id]);
    });

    suite.test('findNodesByQualifiedName matches the full qualified name only', async ({ store, f }) => {
      expect(ids(await store.findNodesByQualifiedName(f.n.load.qualifiedName))).toEqual([f.n.load.id]);
      expect(await store.findNodesByQualifiedName('load')).toEqual([]);
    });

    suite.test('nodesInFile orders by start line', async ({ store, f }) => {
      expect(ids(await store.nodesInFile(f.paths.session))).toEqual([f.n.refresh_token.id, f.n.SessionStore.id, f.n.load.id]);
      expect(await store.nodesInFile('src/none.py')).toEqual([]);
    });

    suite.test('nodesUnderPath takes a path prefix, with kinds and limit', async ({ store, f }) => {
      expect(ids(await store.nodesUnderPath('src/shop/')).sort()).toEqual(
        [f.n.Server.id, f.n.start.id, f.n.create_app.id, f.n.before_request.id, f.n.handle_login.id].sort(),
      );
      expect(ids(await store.nodesUnderPath('src/', { kinds: ['class'] })).sort()).toEqual([f.n.Server.id, f.n.SessionStore.id].sort());
      expect(await store.nodesUnderPath('src/', { limit: 2 })).toHaveLength(2);
      expect(await store.nodesUnderPath('lib/')).toEqual([]);
    });

    suite.test('edgesFrom and edgesTo filter by type and honour limit', async ({ store, f }) => {
      const out = await store.edgesFrom(f.n.handle_login.id);
      expect(out).toHaveLength(3);
      expect((await store.edgesFrom(f.n.create_app.id, { types: ['references'] })).map(norm)).toEqual([
        norm(f.files[f.paths.server]!.edges[2]!),
      ]);
      expect(await store.edgesFrom(f.n.create_app.id, { types: ['tests'] })).toEqual([]);
      expect(await store.edgesFrom(f.n.handle_login.id, { limit: 2 })).toHaveLength(2);
      const into = await store.edgesTo(f.n.load.id);
      expect(into.map((e) => e.source).sort()).toEqual([f.n.handle_login.id, f.n.SessionStore.id, f.n.test_load.id].sort());
      expect((await store.edgesTo(f.n.load.id, { types: ['tests', 'contains'] })).map((e) => e.type).sort()).toEqual([
        'contains',
        'tests',
      ]);
    });
  });
}

/** Full-text search over names, paths and docs. */
function describeTextSearch(suite: ContractSuite): void {
  describe('text search', () => {
    suite.beforeEach(async ({ store, f }) => {
      await store.applyBatch(f.batch);
    });

    suite.test('a symbol-name hit outranks a doc-only hit', async ({ store, f }) => {
      // refresh_token is the name of one function and only mentioned in load's doc.
      const hits = await store.search('refresh_token');
      expect(hits.length).toBeGreaterThanOrEqual(2);
      expect(hits[0]!.node.id).toBe(f.n.refresh_token.id);
      expect(ids(hits.map((h) => h.node))).toContain(f.n.load.id);
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
      for (const h of hits) expect(Number.isFinite(h.score)).toBe(true);
    });

    suite.test('search filters kinds, honours limit and never returns externals', async ({ store, f }) => {
      const hits = await store.search('refresh_token', { kinds: ['method'] });
      expect(ids(hits.map((h) => h.node))).toEqual([f.n.load.id]);
      expect(await store.search('refresh_token', { limit: 1 })).toHaveLength(1);
      expect(await store.search('requests')).toEqual([]);
    });

    suite.test('column filters restrict where a term may match', async ({ store, f }) => {
      const hits = await store.search('name:refresh_token');
      expect(ids(hits.map((h) => h.node))).toEqual([f.n.refresh_token.id]);
    });

    suite.test('search sees rewrites and deletions', async ({ store, f }) => {
      await store.applyBatch({ deleteFiles: [f.paths.session] });
      expect(await store.search('refresh_token')).toEqual([]);
    });

    suite.test('tied hits come in source order, whatever order they were written in', async ({ store }) => {
      // Same doc, names of one token each: the same score for all four. Written out of order.
      const spec = (file: string, name: string, start: number) => makeNode({ file, name, kind: 'function', start, end: start + 1, doc: 'Flushes the quasar buffer.' });
      const tied = [spec('src/tie_b.py', 'alpha', 1), spec('src/tie_a.py', 'mu', 7), spec('src/tie_a.py', 'zeta', 1), spec('src/tie_a.py', 'beta', 4)];
      await store.applyBatch({
        files: [
          { file: fileRecord('src/tie_b.py', 'tie'), nodes: tied.slice(0, 1), edges: [] },
          { file: fileRecord('src/tie_a.py', 'tie'), nodes: tied.slice(1), edges: [] },
        ],
      });
      const hits = await store.search('doc:quasar');
      expect(hits.map((h) => h.node.name)).toEqual(['zeta', 'beta', 'mu', 'alpha']);
      expect(new Set(hits.map((h) => h.score)).size).toBe(1);
      expect((await store.search('doc:quasar', { limit: 2 })).map((h) => h.node.name)).toEqual(['zeta', 'beta']);
    });
  });
}

function lexicalDoc(fields: Partial<LexicalDocument>): LexicalDocument {
  return { name: '', path: '', signature: '', doc: '', body: '', members: '', ...fields };
}

/** The fixture's lexical documents by file; terms as a producer normalised them: `token` is common, `expir` rare. */
function lexicalDocs(f: Fixture): Map<string, Map<NodeId, LexicalDocument>> {
  return new Map([
    [f.paths.session, new Map([
      [f.n.refresh_token.id, lexicalDoc({ name: 'refresh token', body: 'refresh token token expir issu access' })],
      [f.n.SessionStore.id, lexicalDoc({ name: 'session store', body: 'session store keep memori load token refresh' })],
      [f.n.load.id, lexicalDoc({ name: 'load', body: 'load session call refresh token when token expir' })],
    ])],
    [f.paths.routes, new Map([
      [f.n.before_request.id, lexicalDoc({ name: 'request', doc: 'run request', body: 'request header check' })],
      [f.n.handle_login.id, lexicalDoc({ name: 'handl login', body: 'login user session load start request' })],
    ])],
    [f.paths.tests, new Map([[f.n.test_load.id, lexicalDoc({ name: 'test load', body: 'test load session expir' })]])],
  ]);
}

function withLexical(f: Fixture, batch: WriteBatch): WriteBatch {
  const docs = lexicalDocs(f);
  return { ...batch, files: (batch.files ?? []).map((w) => (docs.has(w.file.path) ? { ...w, lexical: docs.get(w.file.path)! } : w)) };
}

/** BM25 over the lexical documents producers attach to file writes. */
function describeLexicalSearch(suite: ContractSuite): void {
  describe('lexical search', () => {
    suite.beforeEach(async ({ store, f }) => {
      await store.applyBatch(withLexical(f, f.batch));
    });

    suite.test('lexicalSearch ranks by BM25: more occurrences of a rarer term rank higher', async ({ store, f }) => {
      const hits = await store.lexicalSearch(['expir']);
      expect(ids(hits.map((h) => h.node))).toEqual(ids([f.n.refresh_token, f.n.load]));
      const ranked = await store.lexicalSearch(['token']);
      expect(ranked[0]!.node.id).toBe(f.n.refresh_token.id);
      for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1]!.score).toBeGreaterThanOrEqual(ranked[i]!.score);
      for (const h of ranked) expect(h.score).toBeGreaterThan(0);
      expect(await store.lexicalSearch(['nowher'])).toEqual([]);
      expect(await store.lexicalSearch([])).toEqual([]);
    });

    suite.test('lexicalSearch counts each distinct term once and any term matches', async ({ store, f }) => {
      const once = await store.lexicalSearch(['login', 'header']);
      const twice = await store.lexicalSearch(['login', 'header', 'login']);
      expect(ids(once.map((h) => h.node))).toEqual(ids([f.n.handle_login, f.n.before_request]));
      expect(twice.map((h) => [h.node.id, h.score.toFixed(6)])).toEqual(once.map((h) => [h.node.id, h.score.toFixed(6)]));
    });

    suite.test('lexicalSearch leaves tests out unless asked, filters kinds and honours limit', async ({ store, f }) => {
      expect(ids((await store.lexicalSearch(['expir'])).map((h) => h.node))).not.toContain(f.n.test_load.id);
      expect(ids((await store.lexicalSearch(['expir'], { includeTests: true })).map((h) => h.node))).toContain(f.n.test_load.id);
      expect(ids((await store.lexicalSearch(['token'], { kinds: ['method'] })).map((h) => h.node))).toEqual([f.n.load.id]);
      expect(await store.lexicalSearch(['token'], { limit: 1 })).toHaveLength(1);
    });

    suite.test('lexicalSearch with ids scores only those symbols, each as an unrestricted search does', async ({ store, f }) => {
      const all = await store.lexicalSearch(['token', 'expir'], { includeTests: true, limit: 100 });
      expect(all.length).toBeGreaterThan(2);
      const wanted = [all[all.length - 1]!.node.id, all[0]!.node.id, f.n.before_request.id];
      const some = await store.lexicalSearch(['token', 'expir'], { includeTests: true, ids: wanted });
      // before_request holds neither term: restricting never makes a symbol match.
      expect(some.map((h) => [h.node.id, h.score])).toEqual([all[0]!, all[all.length - 1]!].map((h) => [h.node.id, h.score]));
      // Per field too: the restriction changes which symbols are scored, never their scores.
      const allFields = await store.lexicalSearch(['token', 'expir'], { includeTests: true, limit: 100, perField: true });
      const someFields = await store.lexicalSearch(['token', 'expir'], { includeTests: true, ids: wanted, perField: true });
      expect(someFields.map((h) => [h.node.id, h.fields])).toEqual(allFields.filter((h) => wanted.includes(h.node.id)).map((h) => [h.node.id, h.fields]));
      expect(await store.lexicalSearch(['token'], { ids: [] })).toEqual([]);
      await expect(store.lexicalSearch(['token'], { ids: 'nope' as unknown as string[] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    suite.test('lexicalSearch perField scores each field alone, as a search weighting only that field does', async ({ store }) => {
      const terms = ['token', 'request', 'expir', 'login'];
      const hits = await store.lexicalSearch(terms, { perField: true, includeTests: true, limit: 100 });
      expect(hits.length).toBeGreaterThan(2);
      expect((await store.lexicalSearch(terms, { includeTests: true, limit: 100 })).map((h) => [h.node.id, h.score])).toEqual(hits.map((h) => [h.node.id, h.score]));
      for (const field of LEXICAL_FIELDS) {
        const alone = Object.fromEntries(LEXICAL_FIELDS.map((other) => [other, other === field ? 1 : 0]));
        const byField = new Map((await store.lexicalSearch(terms, { fieldWeights: alone, includeTests: true, limit: 100 })).map((h) => [h.node.id, h.score]));
        for (const hit of hits) expect(hit.fields![field]).toBeCloseTo(byField.get(hit.node.id) ?? 0, 6);
      }
      expect(hits.some((h) => h.fields!.name > 0) && hits.some((h) => h.fields!.body > 0)).toBe(true);
    });

    suite.test('field weights decide between a name match and a body match', async ({ store, f }) => {
      // `request` is before_request's name; handle_login only uses it in its body.
      const byName = await store.lexicalSearch(['request'], { fieldWeights: { name: 10 } });
      expect(byName[0]!.node.id).toBe(f.n.before_request.id);
      const byBody = await store.lexicalSearch(['request'], { fieldWeights: { name: 0, doc: 0, body: 10 } });
      expect(byBody.map((h) => h.node.id)).toContain(f.n.handle_login.id);
      const scores = new Map(byBody.map((h) => [h.node.id, h.score]));
      const nameScores = new Map(byName.map((h) => [h.node.id, h.score]));
      expect(scores.get(f.n.handle_login.id)! / scores.get(f.n.before_request.id)!).toBeGreaterThan(
        nameScores.get(f.n.handle_login.id)! / nameScores.get(f.n.before_request.id)!,
      );
    });

    suite.test('a file rewrite replaces its lexical documents; deleting the file removes them', async ({ store, f }) => {
      const session = f.files[f.paths.session]!;
      await store.applyBatch({ files: [{ ...session, lexical: new Map([[f.n.load.id, lexicalDoc({ body: 'renew' })]]) }] });
      expect(ids((await store.lexicalSearch(['renew'])).map((h) => h.node))).toEqual([f.n.load.id]);
      expect(ids((await store.lexicalSearch(['expir'])).map((h) => h.node))).toEqual([]);
      await store.applyBatch({ deleteFiles: [f.paths.session] });
      expect(await store.lexicalSearch(['renew'])).toEqual([]);
    });
  });
}

/** Opaque notes by key, kind and prefix. */
function describeNotes(suite: ContractSuite): void {
  describe('notes', () => {
    suite.test('put, get, overwrite and delete a note', async ({ store }) => {
      expect(await store.getNote('k1')).toBeUndefined();
      await store.putNote('k1', 'adjacency', new Uint8Array([1, 2, 3]), 'snap1');
      const note = await store.getNote('k1');
      expect(note?.kind).toBe('adjacency');
      expect(Array.from(note!.value)).toEqual([1, 2, 3]);
      expect(note?.snapshot).toBe('snap1');
      expect(typeof note?.updatedAt).toBe('number');
      await store.putNote('k1', 'adjacency', new Uint8Array([9]));
      const again = await store.getNote('k1');
      expect(Array.from(again!.value)).toEqual([9]);
      expect(again?.snapshot).toBeNull();
      expect(await store.deleteNote('k1')).toBe(true);
      expect(await store.deleteNote('k1')).toBe(false);
      expect(await store.getNote('k1')).toBeUndefined();
    });

    suite.test('deleteNotes filters by kind and key prefix', async ({ store }) => {
      const bytes = new Uint8Array([0]);
      await store.putNote('pack:a', 'context_pack', bytes);
      await store.putNote('pack:b', 'context_pack', bytes);
      await store.putNote('rwr:a', 'rwr_cache', bytes);
      await store.putNote('rwr:b', 'rwr_cache', bytes);
      await store.putNote('adj', 'adjacency', bytes);
      expect(await store.deleteNotes({ kind: 'context_pack' })).toBe(2);
      expect(await store.getNote('pack:a')).toBeUndefined();
      expect(await store.deleteNotes({ keyPrefix: 'rwr:a' })).toBe(1);
      expect(await store.deleteNotes({ kind: 'rwr_cache', keyPrefix: 'zzz' })).toBe(0);
      expect(await store.getNote('rwr:b')).toBeDefined();
      expect(await store.getNote('adj')).toBeDefined();
    });

    suite.test('putNotes (when offered) writes each note as putNote would, a later one of a key winning', async ({ store }) => {
      if (!store.putNotes) return;
      await store.putNote('n:kept', 'extraction', new Uint8Array([1]));
      await store.putNotes([
        { key: 'n:a', kind: 'extraction', value: new Uint8Array([1, 2]) },
        { key: 'n:b', kind: 'adjacency', value: new Uint8Array([3]), snapshot: 'snap1' },
        { key: 'n:a', kind: 'extraction', value: new Uint8Array([4]), snapshot: null },
      ]);
      await store.putNotes([]);
      const a = await store.getNote('n:a');
      expect(a && { kind: a.kind, value: Array.from(a.value), snapshot: a.snapshot }).toEqual({ kind: 'extraction', value: [4], snapshot: null });
      const b = await store.getNote('n:b');
      expect(b && { kind: b.kind, value: Array.from(b.value), snapshot: b.snapshot }).toEqual({ kind: 'adjacency', value: [3], snapshot: 'snap1' });
      expect(typeof b?.updatedAt).toBe('number');
      expect(Array.from((await store.getNote('n:kept'))!.value)).toEqual([1]);
      expect(await store.deleteNotes({ keyPrefix: 'n:' })).toBe(3);
    });
  });
}

/** Feedback tallies and learned keyword–symbol pairs. */
function describeFeedbackAndVocabulary(suite: ContractSuite): void {
  describe('feedback and vocabulary', () => {
    suite.test('feedback tallies per symbol, with cluster and neighbourhood-root filters', async ({ store, f }) => {
      const a = f.n.load.id;
      const b = f.n.start.id;
      await store.recordFeedback([
        { symbol: a, useful: true, session: 's1', keywordCluster: 'auth', neighborhoodRoot: 'r1' },
        { symbol: a, useful: true, session: 's1', keywordCluster: 'auth' },
        { symbol: a, useful: false, session: 's2', keywordCluster: 'db', neighborhoodRoot: 'r0' },
        { symbol: b, useful: false, session: 's2' },
      ]);
      const all = await store.feedbackFor([a, b, f.n.Server.id]);
      expect(all.get(a)).toEqual({ useful: 2, notUseful: 1 });
      expect(all.get(b)).toEqual({ useful: 0, notUseful: 1 });
      expect(all.get(f.n.Server.id)?.useful ?? 0).toBe(0);
      const auth = await store.feedbackFor([a, b], { keywordCluster: 'auth' });
      expect(auth.get(a)).toEqual({ useful: 2, notUseful: 0 });
      expect(auth.get(b)?.notUseful ?? 0).toBe(0);
      // Rows stamped r0 expire once a's neighbourhood is r1; unstamped rows always count.
      const current = await store.feedbackFor([a], { currentRoots: new Map([[a, 'r1']]) });
      expect(current.get(a)).toEqual({ useful: 2, notUseful: 0 });
      const moved = await store.feedbackFor([a], { currentRoots: new Map([[a, 'r2']]) });
      expect(moved.get(a)).toEqual({ useful: 1, notUseful: 0 });
    });

    suite.test('vocabulary counts repeated pairs and returns the frequent ones first', async ({ store, f }) => {
      const a = { keyword: 'login', symbol: f.n.handle_login.id, symbolName: 'handle_login' };
      const b = { keyword: 'login', symbol: f.n.load.id, symbolName: 'load' };
      const c = { keyword: 'session', symbol: f.n.SessionStore.id, symbolName: 'SessionStore', cluster: 'auth' };
      await store.recordVocab([a, a, b, c]);
      await store.recordVocab([a, c]);
      const frequent = await store.vocabFor(['login', 'session']);
      expect(frequent.map((v) => [v.keyword, v.symbol, v.count])).toEqual([
        ['login', a.symbol, 3],
        ['session', c.symbol, 2],
      ]);
      expect(frequent[0]!.symbolName).toBe('handle_login');
      const once = await store.vocabFor(['login'], { minCount: 1 });
      expect(once.map((v) => v.count)).toEqual([3, 1]);
      const auth = await store.vocabFor(['login', 'session'], { cluster: 'auth' });
      expect(auth.map((v) => v.symbol)).toEqual([c.symbol]);
      expect(auth[0]!.cluster).toBe('auth');
      expect(await store.vocabFor(['missing'])).toEqual([]);
    });
  });
}

/** Snapshots and the Merkle roots they are built from. */
function describeSnapshots(suite: ContractSuite): void {
  describe('snapshots', () => {
    suite.test('the snapshot follows the documented Merkle layout and counts', async ({ store, f }) => {
      const result = await store.applyBatch(f.batch);
      const snap = await store.currentSnapshot();
      expect(snap).toEqual(result.snapshot);
      expect(snap!.nodeCount).toBe(f.allNodes.length);
      expect(snap!.edgeCount).toBe(f.allEdges.length);
      const expected = expectedPackageRoots(f.allNodes, f.allEdges);
      expect(await store.packageRoots()).toEqual(expected);
      expect(snap!.root).toBe(merkleRoot([...expected.values()]));
      expect(snap!.id).toBe(snapshotId(snap!.root));
    });

    suite.test('a no-op batch leaves the snapshot unchanged; an edge change does not', async ({ store, f }) => {
      const first = (await store.applyBatch(f.batch)).snapshot;
      const same = (await store.applyBatch(f.batch)).snapshot;
      expect(same.id).toBe(first.id);
      expect(same.root).toBe(first.root);
      expect(same.edgeCount).toBe(first.edgeCount);
      const w = f.files[f.paths.session]!;
      const changed = (await store.applyBatch({ files: [{ ...w, edges: w.edges.slice(1) }] })).snapshot;
      expect(changed.root).not.toBe(first.root);
      expect(changed.id).not.toBe(first.id);
      expect(changed.generation).toBeGreaterThan(first.generation);
      expect(changed.edgeCount).toBe(first.edgeCount - 1);
      expect((await store.currentSnapshot())?.id).toBe(changed.id);
    });

    suite.test('only the touched package changes its root', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      const before = await store.packageRoots();
      expect([...before.keys()].sort()).toEqual(['src/auth', 'src/shop', 'tests']);
      const w = f.files[f.paths.session]!;
      await store.applyBatch({ files: [{ ...w, edges: [...w.edges, edge(f.n.refresh_token, f.n.Server, 'references')] }] });
      const after = await store.packageRoots();
      expect(after.get('src/auth')).not.toBe(before.get('src/auth'));
      expect(after.get('src/shop')).toBe(before.get('src/shop'));
      expect(after.get('tests')).toBe(before.get('tests'));
      // Back to the original edges: back to the original root.
      await store.applyBatch({ files: [w] });
      expect(await store.packageRoots()).toEqual(before);
    });

    suite.test('a package with no edges left has no root', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      await store.applyBatch({ deleteFiles: [f.paths.tests] });
      expect((await store.packageRoots()).has('tests')).toBe(false);
    });

    suite.test('subgraphRoot is independent of order and skips unknown packages', async ({ store, f }) => {
      await store.applyBatch(f.batch);
      const roots = await store.packageRoots();
      const ab = await store.subgraphRoot(['src/auth', 'src/shop']);
      expect(await store.subgraphRoot(['src/shop', 'src/auth'])).toBe(ab);
      expect(await store.subgraphRoot(['src/shop', 'nowhere', 'src/auth'])).toBe(ab);
      expect(ab).toBe(merkleRoot([roots.get('src/auth')!, roots.get('src/shop')!]));
      expect(await store.subgraphRoot(['src/auth'])).not.toBe(ab);
    });
  });
}
