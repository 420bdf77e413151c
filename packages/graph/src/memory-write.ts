/** The in-memory store's batch writer: the contract's write order over plain maps. */
import { edgeKey, merkleRoot, snapshotId } from './identity.js';
import { invalid, packageRootsOf, type LexicalEntry, type MemoryState } from './memory-state.js';
import { LEXICAL_FIELDS } from './types.js';
import type { FileWrite, GraphEdge, GraphNode, LexicalDocument, LexicalField, NodeId, OwnedEdges, WriteBatch, WriteResult } from './types.js';

const FILE_OWNER = 'file:';
const PASS_OWNER = 'owner:';

function sameNode(a: GraphNode, b: GraphNode): boolean {
  return (
    a.name === b.name &&
    a.qualifiedName === b.qualifiedName &&
    a.kind === b.kind &&
    a.language === b.language &&
    a.file === b.file &&
    a.startLine === b.startLine &&
    a.endLine === b.endLine &&
    a.signature === b.signature &&
    a.doc === b.doc &&
    a.isTest === b.isTest &&
    a.external === b.external
  );
}

function sameEdge(a: GraphEdge, b: GraphEdge): boolean {
  return a.confidence === b.confidence && a.provenance === b.provenance && (a.line ?? 0) === (b.line ?? 0);
}

const edgeKeyOf = (e: GraphEdge): string => `${e.source}\0${e.type}\0${e.target}`;

function indexAdd(index: Map<string, Set<string>>, key: string, value: string): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(value);
}

function indexDelete(index: Map<string, Set<string>>, key: string, value: string): void {
  const set = index.get(key);
  if (set && set.delete(value) && set.size === 0) index.delete(key);
}

/**
 * The row-level edits of one batch over `state`, keeping the indexes in step and counting
 * what changed for the write result and the snapshot.
 */
function batchEditor(state: MemoryState) {
  const { nodes, nodesByFile, edges, outgoing, incoming, owned, lexical } = state;
  const tally = { nodesWritten: 0, nodesDeleted: 0, edgesWritten: 0, edgesDeleted: 0 };

  function deleteEdge(key: string): void {
    const stored = edges.get(key);
    if (!stored) return;
    edges.delete(key);
    indexDelete(outgoing, stored.edge.source, key);
    indexDelete(incoming, stored.edge.target, key);
    indexDelete(owned, stored.owner, key);
    tally.edgesDeleted++;
  }

  function deleteNode(id: NodeId): void {
    const stored = nodes.get(id);
    if (!stored) return;
    for (const key of [...(outgoing.get(id) ?? []), ...(incoming.get(id) ?? [])]) deleteEdge(key);
    nodes.delete(id);
    if (!stored.node.external) indexDelete(nodesByFile, stored.node.file, id);
    lexical.delete(id);
    tally.nodesDeleted++;
  }

  function putNode(node: GraphNode): void {
    const existing = nodes.get(node.id);
    if (existing && sameNode(existing.node, node)) return;
    if (existing && !existing.node.external) indexDelete(nodesByFile, existing.node.file, node.id);
    nodes.set(node.id, { node: Object.freeze({ ...node }), seq: existing?.seq ?? state.nextSeq++ });
    if (!node.external) indexAdd(nodesByFile, node.file, node.id);
    tally.nodesWritten++;
  }

  function replaceOwned(owner: string, list: readonly GraphEdge[]): void {
    const wanted = new Map<string, GraphEdge>();
    for (const e of list) {
      // An edge whose endpoint does not exist is not kept.
      if (nodes.has(e.source) && nodes.has(e.target)) wanted.set(edgeKeyOf(e), e);
    }
    for (const key of [...(owned.get(owner) ?? [])]) if (!wanted.has(key)) deleteEdge(key);
    for (const [key, e] of wanted) {
      const existing = edges.get(key);
      if (existing && existing.owner === owner && sameEdge(existing.edge, e)) continue;
      if (existing) {
        indexDelete(owned, existing.owner, key);
      } else {
        indexAdd(outgoing, e.source, key);
        indexAdd(incoming, e.target, key);
      }
      const edge: GraphEdge = Object.freeze({ source: e.source, target: e.target, type: e.type, confidence: e.confidence, provenance: e.provenance, line: e.line ?? 0 });
      edges.set(key, { edge, owner, leaf: existing?.leaf ?? edgeKey(e.source, e.target, e.type) });
      indexAdd(owned, owner, key);
      tally.edgesWritten++;
    }
  }

  return { tally, deleteNode, putNode, replaceOwned };
}

/** Shape checks before anything changes, so a bad batch leaves the store as it was. */
function checkBatch(batch: WriteBatch): void {
  if (typeof batch !== 'object' || batch === null) throw invalid('applyBatch takes a WriteBatch object');
  const list = (value: unknown, what: string): readonly unknown[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw invalid(`applyBatch: ${what} must be an array`);
    return value;
  };
  const isNode = (n: unknown): boolean => typeof n === 'object' && n !== null && typeof (n as GraphNode).id === 'string' && typeof (n as GraphNode).file === 'string';
  const isEdge = (e: unknown): boolean =>
    typeof e === 'object' && e !== null && typeof (e as GraphEdge).source === 'string' && typeof (e as GraphEdge).target === 'string' && typeof (e as GraphEdge).type === 'string';
  for (const path of list(batch.deleteFiles, 'deleteFiles')) if (typeof path !== 'string') throw invalid('applyBatch: deleteFiles holds a non-string path');
  for (const w of list(batch.files, 'files') as FileWrite[]) {
    if (typeof w?.file?.path !== 'string') throw invalid('applyBatch: a file write needs file.path');
    if (!list(w.nodes, `nodes of ${w.file.path}`).every(isNode)) throw invalid(`applyBatch: ${w.file.path} holds a node without a string id and file`);
    if (!list(w.edges, `edges of ${w.file.path}`).every(isEdge)) throw invalid(`applyBatch: ${w.file.path} holds an edge without source, target and type`);
  }
  for (const o of list(batch.ownedEdges, 'ownedEdges') as OwnedEdges[]) {
    if (typeof o?.owner !== 'string') throw invalid('applyBatch: ownedEdges entries need an owner');
    if (!list(o.edges, `edges of ${o.owner}`).every(isEdge)) throw invalid(`applyBatch: owner ${o.owner} holds an edge without source, target and type`);
  }
  if (!list(batch.externalNodes, 'externalNodes').every(isNode)) throw invalid('applyBatch: externalNodes holds a node without a string id');
}

function lexicalEntry(doc: LexicalDocument): LexicalEntry {
  let length = 0;
  const terms = {} as Record<LexicalField, readonly string[]>;
  for (const field of LEXICAL_FIELDS) {
    const list = (doc[field] ?? '').split(' ').filter((t) => t !== '');
    terms[field] = list;
    length += list.length;
  }
  return { terms, length };
}

/** Apply one batch to `state`; `now` stamps a new snapshot. */
export function applyMemoryBatch(state: MemoryState, batch: WriteBatch, now: () => number): WriteResult {
  checkBatch(batch);
  const { nodes, nodesByFile, files, outgoing, incoming, lexical } = state;
  const edit = batchEditor(state);
  if (batch.repo !== undefined) state.repo = Object.freeze({ ...batch.repo });

  // 1. Deleted files lose their record, nodes (edges cascade) and owned edges.
  for (const path of batch.deleteFiles ?? []) {
    for (const id of [...(nodesByFile.get(path) ?? [])]) edit.deleteNode(id);
    edit.replaceOwned(FILE_OWNER + path, []);
    files.delete(path);
  }
  // 2. Written files: upsert their nodes, remove the ones that are gone, replace lexical documents.
  const writes = new Map((batch.files ?? []).map((w) => [w.file.path, w]));
  for (const [path, w] of writes) {
    files.set(path, Object.freeze({ ...w.file }));
    const keep = new Set(w.nodes.map((n) => n.id));
    for (const id of [...(nodesByFile.get(path) ?? [])]) if (!keep.has(id)) edit.deleteNode(id);
    for (const node of w.nodes) edit.putNode(node);
    for (const node of w.nodes) {
      const doc = w.lexical?.get(node.id);
      if (doc === undefined) lexical.delete(node.id);
      else lexical.set(node.id, lexicalEntry(doc));
    }
  }
  // 3. External placeholders, before the edges so edges to them resolve. A real symbol is
  // never downgraded to a placeholder.
  for (const node of batch.externalNodes ?? []) {
    const existing = nodes.get(node.id);
    if (existing === undefined || existing.node.external) edit.putNode(node);
  }
  // 4. Each owner's edges are replaced.
  for (const [path, w] of writes) edit.replaceOwned(FILE_OWNER + path, w.edges);
  for (const o of batch.ownedEdges ?? []) edit.replaceOwned(PASS_OWNER + o.owner, o.edges);
  // 5. External nodes no edge touches any more.
  for (const [id, stored] of [...nodes]) {
    if (stored.node.external && !outgoing.has(id) && !incoming.has(id)) edit.deleteNode(id);
  }

  const { tally } = edit;
  const changed = tally.nodesWritten + tally.nodesDeleted + tally.edgesWritten + tally.edgesDeleted > 0;
  if (state.snapshot === null || changed) {
    const root = merkleRoot([...packageRootsOf(state).values()]);
    state.snapshot = Object.freeze({
      id: snapshotId(root),
      root,
      generation: (state.snapshot?.generation ?? 0) + 1,
      createdAt: now(),
      nodeCount: nodes.size,
      edgeCount: state.edges.size,
    });
  }
  return { ...tally, snapshot: state.snapshot };
}
