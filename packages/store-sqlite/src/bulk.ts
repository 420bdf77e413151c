import { packageOf, type FileWrite, type GraphEdge, type GraphNode, type GraphOutline, type LexicalDocument, type NodeKind, type OwnedEdges, type Provenance } from '@knowing/graph';
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
  /**
   * What graphOutline() reads back once these rows are the whole graph: nodes by seq, edges by
   * (src, type, dst) as the primary key orders them. Built when called, from the plan.
   */
  outline(): GraphOutline;
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
    outline: outlineFrom(kept, edges),
    dirty,
    nodesWritten,
    nodesInserted,
    nodesDeleted,
    edgesWritten,
    edgesInserted: edges.length / EDGE_WIDTH,
  };
}

/**
 * How to build the outline of a graph made of `kept` (ascending seq) and the edge rows `edges`
 * alone. It keeps only what the outline reads of the nodes (their ids and kinds, and two flags):
 * not the planned nodes, which hold every document's text until the store lets it go.
 */
function outlineFrom(kept: readonly PlannedNode[], edges: readonly unknown[]): () => GraphOutline {
  const seqs = kept.map((planned) => planned.seq);
  const ids = kept.map((planned) => planned.node.id);
  const kinds = kept.map((planned) => planned.node.kind);
  const flags = Uint8Array.from(kept, ({ node }) => (node.isTest === true ? 1 : 0) | (node.external === true ? 2 : 0));
  return () => outlineOf(seqs, ids, kinds, flags, edges);
}

function outlineOf(
  seqs: readonly number[],
  ids: readonly string[],
  kinds: readonly NodeKind[],
  flags: Uint8Array,
  edges: readonly unknown[],
): GraphOutline {
  const idOf = new Map<number, string>();
  const place = new Map<number, number>();
  const nodes = seqs.map((seq, i) => {
    idOf.set(seq, ids[i]!);
    place.set(seq, i);
    return { id: ids[i]!, kind: kinds[i]!, isTest: (flags[i]! & 1) !== 0, external: (flags[i]! & 2) !== 0 };
  });
  // Rows by source (a pass per source bucket), then by type and target within each source: the
  // order of the edges primary key. Types compare as SQLite's BINARY collation does, by UTF-8 bytes.
  const count = edges.length / EDGE_WIDTH;
  const typeNames = [...new Set(Array.from({ length: count }, (_, i) => edges[i * EDGE_WIDTH + 1] as string))];
  typeNames.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const typeRank = new Map(typeNames.map((type, rank) => [type, rank]));
  const start = new Int32Array(nodes.length + 1);
  const sourceOf = new Int32Array(count);
  for (let i = 0; i < count; i++) start[(sourceOf[i] = place.get(edges[i * EDGE_WIDTH] as number)!) + 1]!++;
  for (let n = 0; n < nodes.length; n++) start[n + 1]! += start[n]!;
  const order = new Int32Array(count);
  const next = start.slice(0, nodes.length);
  for (let i = 0; i < count; i++) order[next[sourceOf[i]!]!++] = i;
  const byTypeThenTarget = (i: number, j: number): number =>
    typeRank.get(edges[i * EDGE_WIDTH + 1] as string)! - typeRank.get(edges[j * EDGE_WIDTH + 1] as string)! ||
    (edges[i * EDGE_WIDTH + 2] as number) - (edges[j * EDGE_WIDTH + 2] as number);
  for (let n = 0; n < nodes.length; n++) if (start[n + 1]! - start[n]! > 1) order.subarray(start[n]!, start[n + 1]!).sort(byTypeThenTarget);
  const outlineEdges = Array.from(order, (i) => {
    const at = i * EDGE_WIDTH;
    return {
      source: idOf.get(edges[at] as number)!,
      target: idOf.get(edges[at + 2] as number)!,
      type: edges[at + 1] as string,
      provenance: edges[at + 4] as Provenance,
      confidence: edges[at + 3] as number,
    };
  });
  return { nodes, edges: outlineEdges };
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
