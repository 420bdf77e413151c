import { nodeId, qualifiedName, type FileWrite, type GraphEdge, type GraphNode, type NodeKind, type WriteBatch } from '@knowing/graph';

/** An imaginary web shop, written by hand: what an indexer would produce for four files. */
const REPO = 'github.com/example/tiny-shop';

function symbol(file: string, scopes: string[], name: string, kind: NodeKind, lines: [number, number], doc: string, signature: string): GraphNode {
  const qn = qualifiedName(file, scopes, name);
  return {
    id: nodeId(REPO, qn, kind),
    name,
    qualifiedName: qn,
    kind,
    language: 'python',
    file,
    startLine: lines[0],
    endLine: lines[1],
    signature,
    doc,
    isTest: file.startsWith('tests/'),
    external: false,
  };
}

function edge(source: GraphNode, target: GraphNode, type: string, line: number): GraphEdge {
  return { source: source.id, target: target.id, type, confidence: 0.9, provenance: 'ast_resolved', line };
}

const APP = 'shop/app.py';
const AUTH = 'shop/auth/session.py';
const CART = 'shop/cart/views.py';
const TESTS = 'tests/test_session.py';

export const symbols = {
  App: symbol(APP, [], 'App', 'class', [5, 60], 'The WSGI application: routing and request hooks.', 'class App:'),
  before_request: symbol(APP, ['App'], 'before_request', 'method', [20, 28], 'Register a hook that runs before each request.', 'def before_request(self, hook):'),
  dispatch: symbol(APP, ['App'], 'dispatch_request', 'method', [30, 58], 'Match the URL and call the view; runs before_request hooks first.', 'def dispatch_request(self, environ):'),
  SessionStore: symbol(AUTH, [], 'SessionStore', 'class', [1, 40], 'Keeps signed session cookies.', 'class SessionStore:'),
  load_session: symbol(AUTH, ['SessionStore'], 'load_session', 'method', [10, 25], 'Read and verify the session cookie of a request.', 'def load_session(self, request):'),
  add_to_cart: symbol(CART, [], 'add_to_cart', 'function', [3, 20], 'Add a product to the cart of the current session.', 'def add_to_cart(request, product_id):'),
  test_load_session: symbol(TESTS, [], 'test_load_session', 'function', [4, 15], '', 'def test_load_session():'),
};

function file(path: string, nodes: GraphNode[], edges: GraphEdge[]): FileWrite {
  return {
    file: { path, language: 'python', contentHash: `sha256-of-${path}`, sizeBytes: 1000, indexedAt: Date.now(), syntaxErrors: 0 },
    nodes,
    edges,
  };
}

/** The whole graph as one batch. */
export function shopBatch(root: string): WriteBatch {
  const s = symbols;
  return {
    repo: { id: REPO, root, commit: null, indexedAt: Date.now() },
    files: [
      file(APP, [s.App, s.before_request, s.dispatch], [
        edge(s.App, s.before_request, 'contains', 20),
        edge(s.App, s.dispatch, 'contains', 30),
        edge(s.dispatch, s.before_request, 'calls', 35),
        edge(s.dispatch, s.add_to_cart, 'calls', 50),
      ]),
      file(AUTH, [s.SessionStore, s.load_session], [edge(s.SessionStore, s.load_session, 'contains', 10)]),
      file(CART, [s.add_to_cart], [edge(s.add_to_cart, s.load_session, 'calls', 6)]),
      file(TESTS, [s.test_load_session], [edge(s.test_load_session, s.load_session, 'tests', 8)]),
    ],
  };
}
