/**
 * The exported in-memory store: the conformance kit, and what it adds beyond the kit (the FTS5
 * query subset of `search`, the SQLite store's result orders, a closed store refusing work).
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode, isKnowingError, nodeId, qualifiedName } from '../src/index.js';
import type { FileWrite, GraphEdge, GraphNode, NodeKind } from '../src/index.js';
import { createMemoryStore } from '../src/memory.js';
import { testGraphStore } from '../src/testing.js';

testGraphStore('createMemoryStore()', async () => createMemoryStore());

const REPO = 'github.com/acme/tiny';

function node(file: string, scopes: string[], name: string, kind: NodeKind, start: number, extra: Partial<GraphNode> = {}): GraphNode {
  const qn = qualifiedName(file, scopes, name);
  return {
    id: nodeId(REPO, qn, kind),
    name,
    qualifiedName: qn,
    kind,
    language: 'typescript',
    file,
    startLine: start,
    endLine: start + 5,
    signature: `function ${name}()`,
    doc: '',
    isTest: false,
    external: false,
    ...extra,
  };
}

function write(file: string, nodes: GraphNode[], edges: GraphEdge[] = []): FileWrite {
  return { file: { path: file, language: 'typescript', contentHash: `h:${file}`, sizeBytes: 10, indexedAt: 0, syntaxErrors: 0 }, nodes, edges };
}

const rateLimiter = node('src/http/RateLimiter.ts', [], 'RateLimiter', 'class', 1, { doc: 'Limits requests per client.' });
const allow = node('src/http/RateLimiter.ts', ['RateLimiter'], 'allowRequest', 'method', 3);
const beforeRequest = node('src/http/hooks.ts', [], 'before_request', 'function', 1, { doc: 'Runs before every request handler.' });
const parseHTTPHeader = node('src/http/headers.ts', [], 'parseHTTPHeader', 'function', 1);

async function sample() {
  const store = createMemoryStore();
  await store.applyBatch({
    files: [
      write(rateLimiter.file, [rateLimiter, allow], [{ source: rateLimiter.id, target: allow.id, type: 'contains', confidence: 1, provenance: 'ast_resolved' }]),
      write(beforeRequest.file, [beforeRequest]),
      write(parseHTTPHeader.file, [parseHTTPHeader]),
    ],
  });
  return store;
}

const names = (hits: { node: GraphNode }[]): string[] => hits.map((h) => h.node.name);

describe('createMemoryStore search', () => {
  it('finds identifiers by their snake_case and CamelCase parts, and phrases across them', async () => {
    const store = await sample();
    // The class by its name; its method through its qualified name and path, which score less.
    expect(names(await store.search('limiter'))).toEqual(['RateLimiter', 'allowRequest']);
    expect(names(await store.search('"before request"'))).toEqual(['before_request']);
    expect(names(await store.search('name:http'))).toEqual(['parseHTTPHeader']);
  });

  it('reads OR, AND, NOT, prefixes, column filters and parentheses', async () => {
    const store = await sample();
    expect(names(await store.search('before_request OR allowRequest')).sort()).toEqual(['allowRequest', 'before_request']);
    expect(names(await store.search('request AND handler'))).toEqual(['before_request']);
    // No stemming, as in FTS5: RateLimiter's doc says "requests".
    expect(names(await store.search('request NOT handler'))).toEqual(['allowRequest']);
    expect(names(await store.search('name:allow*'))).toEqual(['allowRequest']);
    expect(names(await store.search('path:(hooks OR headers)')).sort()).toEqual(['before_request', 'parseHTTPHeader']);
    expect(await store.search('   ')).toEqual([]);
  });

  it('rejects malformed queries and unknown columns with INVALID_ARGUMENT', async () => {
    const store = await sample();
    for (const query of ['"open', 'body:request', '(request', 'a.b']) {
      const error = await store.search(query).catch((e: unknown) => e);
      expect(isKnowingError(error, ErrorCode.InvalidArgument), query).toBe(true);
    }
  });
});

describe('createMemoryStore orders', () => {
  it('lists exact name matches in source order and partial ones shortest name first', async () => {
    const store = await sample();
    expect((await store.findNodesByName('r', { match: 'substring' })).map((n) => n.name)).toEqual(['RateLimiter', 'allowRequest', 'before_request', 'parseHTTPHeader']);
    expect((await store.listFiles()).map((f) => f.path)).toEqual(['src/http/RateLimiter.ts', 'src/http/headers.ts', 'src/http/hooks.ts']);
  });

  it('keeps the snapshot of a batch that changes nothing', async () => {
    const store = await sample();
    const before = await store.currentSnapshot();
    const result = await store.applyBatch({ files: [write(parseHTTPHeader.file, [parseHTTPHeader])] });
    expect(result).toMatchObject({ nodesWritten: 0, edgesWritten: 0, nodesDeleted: 0, edgesDeleted: 0 });
    expect(result.snapshot).toEqual(before);
  });
});

describe('createMemoryStore lifecycle', () => {
  it('refuses work once closed, with STORE_CLOSED', async () => {
    const store = await sample();
    await store.close();
    const error = await store.getNode(rateLimiter.id).catch((e: unknown) => e);
    expect(isKnowingError(error, ErrorCode.StoreClosed)).toBe(true);
  });

  it('rejects a malformed batch before changing anything', async () => {
    const store = await sample();
    const before = await store.counts();
    const bad = { deleteFiles: [rateLimiter.file], files: [{ file: { path: 'src/x.ts' }, nodes: [{}], edges: [] }] } as never;
    const error = await store.applyBatch(bad).catch((e: unknown) => e);
    expect(isKnowingError(error, ErrorCode.InvalidArgument)).toBe(true);
    expect(await store.counts()).toEqual(before);
  });

  it('rejects bad column weights when created', () => {
    expect(() => createMemoryStore({ columnWeights: { name: -1 } })).toThrow(/weight of 'name'/);
  });
});
