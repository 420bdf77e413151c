import { ErrorCode, type FileWrite, type GraphEdge, type GraphNode, type WriteBatch } from '@knowing/graph';
import { storeError } from './errors.js';

/**
 * Boundary checks of a WriteBatch, so a producer bug fails with a message naming the item
 * instead of a constraint error from deep inside a transaction (or silently bad rows).
 * Kept to cheap typeof checks: the batch may hold a million rows, so an item's place
 * (`batch.files[3].edges[17]`) is spelled out only when it fails.
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
    const nodes = list(write.nodes, `${at}.nodes`);
    for (let j = 0; j < nodes.length; j++) {
      const node = nodes[j] as GraphNode;
      checkNode(node, `${at}.nodes`, j, fail);
      if (node.external) fail(`${at}.nodes[${j}]`, `(${node.qualifiedName}) is external; send external placeholders in batch.externalNodes`);
      if (node.file !== file.path) {
        fail(`${at}.nodes[${j}]`, `(${node.qualifiedName}) has file '${node.file}' but is written with file '${file.path}'; a FileWrite's nodes must belong to its file`);
      }
    }
    checkEdges(list(write.edges, `${at}.edges`), `${at}.edges`, fail);
  });

  list(batch.ownedEdges, 'batch.ownedEdges').forEach((o, i) => {
    const owned = o as { owner?: unknown; edges?: unknown };
    const at = `batch.ownedEdges[${i}]`;
    if (typeof owned?.owner !== 'string' || owned.owner.length === 0) fail(`${at}.owner`, 'is not a non-empty string');
    checkEdges(list(owned.edges, `${at}.edges`), `${at}.edges`, fail);
  });

  list(batch.externalNodes, 'batch.externalNodes').forEach((n, i) => {
    const node = n as GraphNode;
    checkNode(node, 'batch.externalNodes', i, fail);
    if (!node.external) fail(`batch.externalNodes[${i}]`, `(${node.qualifiedName}) is not marked external; send it in the FileWrite of its file`);
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

/** What is wrong with an item: what to append to its place, and the problem. */
type Problem = readonly [field: string, problem: string];

/** Checks of the node at `list[index]`. */
function checkNode(node: GraphNode, list: string, index: number, fail: Fail): void {
  const problem = nodeProblem(node);
  if (problem !== undefined) fail(`${list}[${index}]${problem[0]}`, problem[1]);
}

function nodeProblem(node: GraphNode): Problem | undefined {
  if (typeof node !== 'object' || node === null) return ['', 'is not a node'];
  if (typeof node.id !== 'string' || node.id.length === 0) return ['.id', 'is not a non-empty string'];
  if (typeof node.name !== 'string') return ['.name', 'is not a string'];
  if (typeof node.qualifiedName !== 'string') return ['.qualifiedName', 'is not a string'];
  if (typeof node.kind !== 'string' || node.kind.length === 0) return ['.kind', 'is not a non-empty string'];
  if (typeof node.language !== 'string') return ['.language', 'is not a string'];
  if (typeof node.file !== 'string') return ['.file', 'is not a string'];
  if (!isCount(node.startLine) || !isCount(node.endLine)) return [` (${node.qualifiedName})`, 'has lines that are not non-negative integers'];
  if (typeof node.signature !== 'string' || typeof node.doc !== 'string') return [` (${node.qualifiedName})`, 'has a non-string signature or doc'];
  if (typeof node.isTest !== 'boolean' || typeof node.external !== 'boolean') return [` (${node.qualifiedName})`, 'has non-boolean isTest or external'];
  return undefined;
}

/** Checks of the edges of `list`. */
function checkEdges(edges: readonly unknown[], list: string, fail: Fail): void {
  for (let j = 0; j < edges.length; j++) {
    const problem = edgeProblem(edges[j] as GraphEdge);
    if (problem !== undefined) fail(`${list}[${j}]${problem[0]}`, problem[1]);
  }
}

function edgeProblem(edge: GraphEdge): Problem | undefined {
  if (typeof edge !== 'object' || edge === null) return ['', 'is not an edge'];
  if (typeof edge.source !== 'string' || typeof edge.target !== 'string') return ['', 'has a non-string source or target'];
  if (typeof edge.type !== 'string' || edge.type.length === 0) return ['.type', 'is not a non-empty string'];
  if (typeof edge.confidence !== 'number' || !(edge.confidence >= 0 && edge.confidence <= 1)) {
    return ['.confidence', `(${String(edge.confidence)}) is not a number in 0..1`];
  }
  if (typeof edge.provenance !== 'string') return ['.provenance', 'is not a string'];
  if (edge.line !== undefined && !isCount(edge.line)) return ['.line', 'is not a non-negative integer'];
  return undefined;
}
