import { ErrorCode, type FileWrite, type GraphEdge, type GraphNode, type WriteBatch } from '@knowing/graph';
import { storeError } from './errors.js';

/**
 * Boundary checks of a WriteBatch, so a producer bug fails with a message naming the item
 * instead of a constraint error from deep inside a transaction (or silently bad rows).
 * Kept to cheap typeof checks: the batch may hold a million rows.
 */
export function validateBatch(batch: WriteBatch, path: string): void {
  const fail = (where: string, problem: string): never => {
    throw storeError(ErrorCode.InvalidArgument, `${path}: ${where} ${problem}`, 'fix the batch producer (usually the indexer)');
  };
  if (typeof batch !== 'object' || batch === null) fail('batch', 'is not an object');
  const list = (value: unknown, where: string): readonly unknown[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value)) fail(where, 'is not an array');
    return value as readonly unknown[];
  };

  list(batch.deleteFiles, 'batch.deleteFiles').forEach((p, i) => {
    if (typeof p !== 'string' || p.length === 0) fail(`batch.deleteFiles[${i}]`, 'is not a non-empty path');
  });

  list(batch.files, 'batch.files').forEach((w, i) => {
    const write = w as FileWrite;
    const at = `batch.files[${i}]`;
    const file = write?.file;
    if (typeof file !== 'object' || file === null) fail(at, 'has no file record');
    checkPath(file.path, `${at}.file.path`, fail);
    if (typeof file.language !== 'string') fail(`${at}.file.language`, 'is not a string');
    if (typeof file.contentHash !== 'string') fail(`${at}.file.contentHash`, 'is not a string');
    if (!isCount(file.sizeBytes)) fail(`${at}.file.sizeBytes`, 'is not a non-negative integer');
    if (!Number.isFinite(file.indexedAt)) fail(`${at}.file.indexedAt`, 'is not a finite number');
    if (!isCount(file.syntaxErrors)) fail(`${at}.file.syntaxErrors`, 'is not a non-negative integer');
    list(write.nodes, `${at}.nodes`).forEach((n, j) => {
      const node = n as GraphNode;
      const where = `${at}.nodes[${j}]`;
      checkNode(node, where, fail);
      if (node.external) fail(where, `(${node.qualifiedName}) is external; send external placeholders in batch.externalNodes`);
      if (node.file !== file.path) {
        fail(where, `(${node.qualifiedName}) has file '${node.file}' but is written with file '${file.path}'; a FileWrite's nodes must belong to its file`);
      }
    });
    list(write.edges, `${at}.edges`).forEach((e, j) => checkEdge(e as GraphEdge, `${at}.edges[${j}]`, fail));
  });

  list(batch.ownedEdges, 'batch.ownedEdges').forEach((o, i) => {
    const owned = o as { owner?: unknown; edges?: unknown };
    const at = `batch.ownedEdges[${i}]`;
    if (typeof owned?.owner !== 'string' || owned.owner.length === 0) fail(`${at}.owner`, 'is not a non-empty string');
    list(owned.edges, `${at}.edges`).forEach((e, j) => checkEdge(e as GraphEdge, `${at}.edges[${j}]`, fail));
  });

  list(batch.externalNodes, 'batch.externalNodes').forEach((n, i) => {
    const node = n as GraphNode;
    const where = `batch.externalNodes[${i}]`;
    checkNode(node, where, fail);
    if (!node.external) fail(where, `(${node.qualifiedName}) is not marked external; send it in the FileWrite of its file`);
  });

  if (batch.repo !== undefined) {
    const repo = batch.repo;
    if (typeof repo !== 'object' || repo === null || typeof repo.id !== 'string' || repo.id.length === 0) {
      fail('batch.repo.id', 'is not a non-empty string');
    }
    if (typeof repo.root !== 'string') fail('batch.repo.root', 'is not a string');
    if (repo.commit !== null && typeof repo.commit !== 'string') fail('batch.repo.commit', 'is neither a string nor null');
    if (repo.indexedAt !== null && !Number.isFinite(repo.indexedAt)) fail('batch.repo.indexedAt', 'is neither a number nor null');
  }
}

type Fail = (where: string, problem: string) => never;

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * On Windows a backslash or a drive prefix in a path means a producer forgot to convert
 * separators; elsewhere both are ordinary characters of a file name (`a\b.py`, `c:notes.py`),
 * and refusing them would fail every write of a repository holding one such file.
 */
const WINDOWS_PATHS = process.platform === 'win32';

function checkPath(path: unknown, where: string, fail: Fail): void {
  if (typeof path !== 'string' || path.length === 0) fail(where, 'is not a non-empty path');
  const p = path as string;
  if (p.startsWith('/') || (WINDOWS_PATHS && (p.includes('\\') || /^[A-Za-z]:/.test(p)))) {
    fail(where, `('${p}') is not a repo-relative path with '/' separators`);
  }
}

function checkNode(node: GraphNode, where: string, fail: Fail): void {
  if (typeof node !== 'object' || node === null) fail(where, 'is not a node');
  if (typeof node.id !== 'string' || node.id.length === 0) fail(`${where}.id`, 'is not a non-empty string');
  if (typeof node.name !== 'string') fail(`${where}.name`, 'is not a string');
  if (typeof node.qualifiedName !== 'string') fail(`${where}.qualifiedName`, 'is not a string');
  if (typeof node.kind !== 'string' || node.kind.length === 0) fail(`${where}.kind`, 'is not a non-empty string');
  if (typeof node.language !== 'string') fail(`${where}.language`, 'is not a string');
  if (typeof node.file !== 'string') fail(`${where}.file`, 'is not a string');
  if (!isCount(node.startLine) || !isCount(node.endLine)) fail(`${where} (${node.qualifiedName})`, 'has lines that are not non-negative integers');
  if (typeof node.signature !== 'string' || typeof node.doc !== 'string') fail(`${where} (${node.qualifiedName})`, 'has a non-string signature or doc');
  if (typeof node.isTest !== 'boolean' || typeof node.external !== 'boolean') fail(`${where} (${node.qualifiedName})`, 'has non-boolean isTest or external');
}

function checkEdge(edge: GraphEdge, where: string, fail: Fail): void {
  if (typeof edge !== 'object' || edge === null) fail(where, 'is not an edge');
  if (typeof edge.source !== 'string' || typeof edge.target !== 'string') fail(where, 'has a non-string source or target');
  if (typeof edge.type !== 'string' || edge.type.length === 0) fail(`${where}.type`, 'is not a non-empty string');
  if (typeof edge.confidence !== 'number' || !(edge.confidence >= 0 && edge.confidence <= 1)) {
    fail(`${where}.confidence`, `(${String(edge.confidence)}) is not a number in 0..1`);
  }
  if (typeof edge.provenance !== 'string') fail(`${where}.provenance`, 'is not a string');
  if (edge.line !== undefined && !isCount(edge.line)) fail(`${where}.line`, 'is not a non-negative integer');
}
