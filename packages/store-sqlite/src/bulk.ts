import { packageOf, type FileWrite, type GraphEdge, type GraphNode, type LexicalDocument, type OwnedEdges } from '@knowing/graph';
import { DirtyGroups, EDGE_WIDTH, FILE_OWNER, PASS_OWNER } from './batch.js';
import { asciiLower } from '@knowing/graph/store-kit';
import { fileTextOf, ftsRowOf, type FileText } from './text.js';

/**
 * A batch for an empty graph, worked out in memory: the rows to insert and the counts and
 * Merkle leaves the row-by-row writer would report for the same batch. With nothing stored
 * there is nothing to diff against, so every lookup the writer would send to SQLite (a
 * file's nodes, ids elsewhere, an owner's edges, edges already taken, placeholders nothing
 * touches) is answered from the batch itself, and the rows go in as bulk inserts.
 */
export interface BulkLoad {
  /** Rows of `nodes` to insert. */
  readonly nodeCount: number;
  /**
   * The `nodes` rows (seq first, NODE_WIDTH values each, ascending seq) and the `nodes_fts`
   * rows (rowid first, FTS_WIDTH values each) of up to `size` nodes at a time. Built chunk by
   * chunk, so the expanded text of a whole repository is never held at once.
   */
  chunks(size: number): Generator<{ readonly nodes: unknown[]; readonly text: unknown[]; readonly lexical: unknown[] }>;
  /** `edges` rows (EDGE_WIDTH values each), one per (src, type, dst). */
  readonly edges: unknown[];
  readonly dirty: DirtyGroups;
  readonly nodesWritten: number;
  readonly nodesInserted: number;
  readonly nodesDeleted: number;
  readonly edgesWritten: number;
  readonly edgesInserted: number;
}

interface PlannedNode {
  readonly seq: number;
  node: GraphNode;
  pkg: string;
  text: FileText | null;
  lexical: LexicalDocument | undefined;
  /** An external placeholder some edge touches (placeholders no edge touches are pruned). */
  touched: boolean;
}

/**
 * Plan the load of `writes` (one per path), `externals` (one per id) and `owned` (one per
 * owner) into a graph without nodes. Seqs start at `firstSeq` and owners are created through
 * `ownerId` in the same order as the row-by-row writer, so both produce identical rows.
 */
export function planBulkLoad(
  writes: readonly FileWrite[],
  externals: readonly GraphNode[],
  owned: readonly OwnedEdges[],
  firstSeq: number,
  ownerId: (name: string) => number,
): BulkLoad {
  let nodesWritten = 0;
  let nodesInserted = 0;
  let nodesDeleted = 0;
  let edgesWritten = 0;
  let next = firstSeq;
  const byId = new Map<string, PlannedNode>();
  const inOrder: PlannedNode[] = [];

  for (const w of writes) {
    const pkg = packageOf(w.file.path);
    const text = fileTextOf(w.file.path);
    // The last write of an id within the file wins, in first-seen order (as lastWins()).
    const latest = new Map<string, GraphNode>();
    for (const node of w.nodes) latest.set(node.id, node);
    for (const [id, node] of latest) {
      nodesWritten++;
      const earlier = byId.get(id);
      if (earlier !== undefined) {
        // An id an earlier file of this batch declared moves here (the writer updates the row
        // in place: same seq, this file's values and text).
        earlier.node = node;
        earlier.pkg = pkg;
        earlier.text = text;
        earlier.lexical = w.lexical?.get(id);
        continue;
      }
      const planned: PlannedNode = { seq: next++, node, pkg, text, lexical: w.lexical?.get(id), touched: false };
      byId.set(id, planned);
      inOrder.push(planned);
      nodesInserted++;
    }
  }

  for (const node of externals) {
    // A real symbol is never downgraded to a placeholder.
    if (byId.has(node.id)) continue;
    const planned: PlannedNode = { seq: next++, node, pkg: '', text: null, lexical: undefined, touched: false };
    byId.set(node.id, planned);
    inOrder.push(planned);
    nodesWritten++;
    nodesInserted++;
  }

  const dirty = new DirtyGroups();
  const edges: unknown[] = [];
  let edgeCount = 0;
  for (const w of writes) edgeCount += w.edges.length;
  for (const o of owned) edgeCount += o.edges.length;
  const taken = new EdgeSlots(edgeCount);
  const typeIndex = new Map<string, number>();
  const addEdges = (owner: number, list: readonly GraphEdge[]): void => {
    for (const edge of list) {
      const src = byId.get(edge.source);
      const dst = byId.get(edge.target);
      // An edge whose endpoint does not exist would dangle; the contract removes those.
      if (src === undefined || dst === undefined) continue;
      const line = edge.line ?? 0;
      let type = typeIndex.get(edge.type);
      if (type === undefined) typeIndex.set(edge.type, (type = typeIndex.size));
      const at = taken.offsetOf(src.seq, dst.seq, type, edges.length);
      if (at === edges.length) {
        edges.push(src.seq, edge.type, dst.seq, edge.confidence, edge.provenance, line, owner);
        dirty.added(src.pkg, edge.type, edge.source, edge.target);
        src.touched = true;
        dst.touched = true;
        edgesWritten++;
        continue;
      }
      // Written again: by the same owner the later values replace the earlier ones (one
      // edge written); by another owner the last writer takes the edge over (one more).
      if (edges[at + 6] !== owner) edgesWritten++;
      edges[at + 3] = edge.confidence;
      edges[at + 4] = edge.provenance;
      edges[at + 5] = line;
      edges[at + 6] = owner;
    }
  };
  for (const w of writes) addEdges(ownerId(FILE_OWNER + w.file.path), w.edges);
  for (const o of owned) addEdges(ownerId(PASS_OWNER + o.owner), o.edges);

  // The writer inserts every placeholder, then prunes the ones no edge touches.
  const kept = inOrder.filter((planned) => !planned.node.external || planned.touched);
  nodesDeleted += inOrder.length - kept.length;
  function* chunks(size: number): Generator<{ readonly nodes: unknown[]; readonly text: unknown[]; readonly lexical: unknown[] }> {
    for (let at = 0; at < kept.length; at += size) {
      const nodes: unknown[] = [];
      const text: unknown[] = [];
      const lexical: unknown[] = [];
      for (const { seq, node, pkg, text: fileText, lexical: doc } of kept.slice(at, at + size)) {
        const external = node.external ? 1 : 0;
        nodes.push(seq, node.id, node.name, asciiLower(node.name), node.qualifiedName, node.kind, node.language, node.file, pkg,
          node.startLine, node.endLine, node.signature, node.doc, node.isTest ? 1 : 0, external);
        if (external) continue;
        const row = ftsRowOf(node, fileText ?? undefined);
        text.push(seq, row.name, row.concepts, row.path, row.qualified_name, row.doc, row.signature);
        if (doc !== undefined) lexical.push(seq, doc.name, doc.path, doc.signature, doc.doc, doc.body, doc.members);
      }
      yield { nodes, text, lexical };
    }
  }
  return {
    nodeCount: kept.length,
    chunks,
    edges,
    dirty,
    nodesWritten,
    nodesInserted,
    nodesDeleted,
    edgesWritten,
    edgesInserted: edges.length / EDGE_WIDTH,
  };
}

/**
 * Where each (src, dst, type) sits in the edge rows: open addressing over typed arrays. A
 * Map keyed by a number per edge costs a heap number (src * span + dst outgrows small
 * integers past 46K nodes) and a Map entry each; at a million edges that was seconds of a
 * first index, most of it garbage collection.
 */
class EdgeSlots {
  private readonly src: Int32Array;
  private readonly dst: Int32Array;
  private readonly type: Int32Array;
  /** Row offset + 1; 0 marks a free slot. */
  private readonly offset: Float64Array;
  private readonly mask: number;

  constructor(expected: number) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.src = new Int32Array(capacity);
    this.dst = new Int32Array(capacity);
    this.type = new Int32Array(capacity);
    this.offset = new Float64Array(capacity);
    this.mask = capacity - 1;
  }

  /** The row offset of (src, dst, type); when absent, records `next` for it and returns it. */
  offsetOf(src: number, dst: number, type: number, next: number): number {
    let hash = Math.imul(src, 0x9e3779b1) ^ Math.imul(dst, 0x85ebca6b) ^ Math.imul(type + 1, 0xc2b2ae35);
    // Mix the high bits down: the low bits of a product depend only on the low bits of its factors.
    hash = Math.imul(hash ^ (hash >>> 16), 0x7feb352d);
    let slot = (hash ^ (hash >>> 15)) & this.mask;
    for (;;) {
      const stored = this.offset[slot]!;
      if (stored === 0) {
        this.src[slot] = src;
        this.dst[slot] = dst;
        this.type[slot] = type;
        this.offset[slot] = next + 1;
        return next;
      }
      if (this.src[slot] === src && this.dst[slot] === dst && this.type[slot] === type) return stored - 1;
      slot = (slot + 1) & this.mask;
    }
  }
}
