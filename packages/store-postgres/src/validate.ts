import { ErrorCode, type GraphEdge, type GraphNode, type WriteBatch } from '@knowing/graph';
import { storeError } from './errors.js';

/**
 * Boundary checks of a WriteBatch, so a producer bug fails with a message naming the item
 * instead of a constraint violation from inside the transaction. Cheap typeof checks only.
 */
export function validateBatch(batch: WriteBatch, where: string): void {
  const fail = (item: string, problem: string): never => {
    throw storeError(ErrorCode.InvalidArgument, `${where}: ${item} ${problem}`, 'fix the batch producer (usually the indexer)');
  };
  if (typeof batch !== 'object' || batch === null) fail('batch', 'is not an object');
  const list = (value: unknown, item: string): readonly unknown[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value)) fail(item, 'is not an array');
    return value as readonly unknown[];
  };
  const text = (value: unknown): boolean => typeof value === 'string' && !value.includes('\0');
  const count = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value >= 0;
  const path = (value: unknown, item: string): void => {
    if (!text(value) || (value as string).length === 0) fail(item, 'is not a non-empty path');
    if ((value as string).startsWith('/')) fail(item, `('${value as string}') is not a repo-relative path`);
  };
  const node = (n: GraphNode, item: string): void => {
    if (typeof n !== 'object' || n === null) fail(item, 'is not a node');
    if (!text(n.id) || n.id.length === 0) fail(`${item}.id`, 'is not a non-empty string');
    for (const key of ['name', 'qualifiedName', 'language', 'file', 'signature', 'doc'] as const) {
      // PostgreSQL text cannot hold NUL characters.
      if (!text(n[key])) fail(`${item}.${key}`, 'is not a string without NUL characters');
    }
    if (!text(n.kind) || n.kind.length === 0) fail(`${item}.kind`, 'is not a non-empty string');
    if (!count(n.startLine) || !count(n.endLine)) fail(`${item} (${n.qualifiedName})`, 'has lines that are not non-negative integers');
    if (n.startLine > 2147483647 || n.endLine > 2147483647) fail(`${item} (${n.qualifiedName})`, 'has a line number beyond 2^31');
    if (typeof n.isTest !== 'boolean' || typeof n.external !== 'boolean') fail(`${item} (${n.qualifiedName})`, 'has non-boolean isTest or external');
  };
  const edge = (e: GraphEdge, item: string): void => {
    if (typeof e !== 'object' || e === null) fail(item, 'is not an edge');
    if (!text(e.source) || !text(e.target)) fail(item, 'has a non-string source or target');
    if (!text(e.type) || e.type.length === 0) fail(`${item}.type`, 'is not a non-empty string');
    if (typeof e.confidence !== 'number' || !(e.confidence >= 0 && e.confidence <= 1)) fail(`${item}.confidence`, `(${String(e.confidence)}) is not a number in 0..1`);
    if (!text(e.provenance)) fail(`${item}.provenance`, 'is not a string');
    if (e.line !== undefined && (!count(e.line) || e.line > 2147483647)) fail(`${item}.line`, 'is not a non-negative 32-bit integer');
  };

  list(batch.deleteFiles, 'batch.deleteFiles').forEach((p, i) => path(p, `batch.deleteFiles[${i}]`));
  list(batch.files, 'batch.files').forEach((w, i) => {
    const at = `batch.files[${i}]`;
    const write = w as { file?: unknown; nodes?: unknown; edges?: unknown; lexical?: unknown };
    if (typeof write?.file !== 'object' || write.file === null) fail(at, 'has no file record');
    const file = write.file as Record<string, unknown>;
    path(file.path, `${at}.file.path`);
    if (!text(file.language) || !text(file.contentHash)) fail(`${at}.file`, 'has a non-string language or contentHash');
    if (!count(file.sizeBytes) || !count(file.syntaxErrors)) fail(`${at}.file`, 'has a sizeBytes or syntaxErrors that is not a non-negative integer');
    if (!Number.isFinite(file.indexedAt)) fail(`${at}.file.indexedAt`, 'is not a finite number');
    list(write.nodes, `${at}.nodes`).forEach((n, j) => {
      const item = `${at}.nodes[${j}]`;
      node(n as GraphNode, item);
      const g = n as GraphNode;
      if (g.external) fail(item, `(${g.qualifiedName}) is external; send external placeholders in batch.externalNodes`);
      if (g.file !== file.path) fail(item, `(${g.qualifiedName}) has file '${g.file}' but is written with file '${String(file.path)}'`);
    });
    list(write.edges, `${at}.edges`).forEach((e, j) => edge(e as GraphEdge, `${at}.edges[${j}]`));
    if (write.lexical !== undefined && !(write.lexical instanceof Map)) fail(`${at}.lexical`, 'is not a Map of node id → lexical document');
  });
  list(batch.ownedEdges, 'batch.ownedEdges').forEach((o, i) => {
    const owned = o as { owner?: unknown; edges?: unknown };
    if (!text(owned?.owner) || (owned.owner as string).length === 0) fail(`batch.ownedEdges[${i}].owner`, 'is not a non-empty string');
    list(owned.edges, `batch.ownedEdges[${i}].edges`).forEach((e, j) => edge(e as GraphEdge, `batch.ownedEdges[${i}].edges[${j}]`));
  });
  list(batch.externalNodes, 'batch.externalNodes').forEach((n, i) => {
    node(n as GraphNode, `batch.externalNodes[${i}]`);
    if (!(n as GraphNode).external) fail(`batch.externalNodes[${i}]`, 'is not marked external; send it in the FileWrite of its file');
  });
  if (batch.repo !== undefined) {
    const repo = batch.repo;
    if (typeof repo !== 'object' || repo === null || !text(repo.id) || repo.id.length === 0) fail('batch.repo.id', 'is not a non-empty string');
    if (!text(repo.root)) fail('batch.repo.root', 'is not a string');
    if (repo.commit !== null && !text(repo.commit)) fail('batch.repo.commit', 'is neither a string nor null');
    if (repo.indexedAt !== null && !Number.isFinite(repo.indexedAt)) fail('batch.repo.indexedAt', 'is neither a number nor null');
  }
}
