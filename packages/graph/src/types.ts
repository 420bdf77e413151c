/** A node id: 32 lowercase hex characters, see `nodeId()`. */
export type NodeId = string;

/**
 * What a node is. Class-like kinds are listed in `TYPE_LIKE_KINDS`.
 * `external` marks an unresolved placeholder (a call into a library, say): kept out of
 * results, but the walk may pass through it.
 */
export type NodeKind =
  | 'function'
  | 'method'
  | 'constructor'
  | 'class'
  | 'struct'
  | 'interface'
  | 'trait'
  | 'enum'
  | 'type_alias'
  | 'field'
  | 'property'
  | 'constant'
  | 'variable'
  | 'module'
  | 'file'
  | 'route'
  | 'external';

/** Languages the indexer understands. */
export type LanguageId = 'go' | 'python' | 'typescript' | 'tsx' | 'javascript' | 'rust' | 'java' | 'csharp' | 'ruby';

/** How an edge's target was established, weakest to strongest evidence varies by producer. */
export type Provenance = 'ast_inferred' | 'ast_resolved' | 'lsp_resolved' | 'runtime' | 'derived';

/** An edge type name. The registry (`EDGE_TYPES`) lists the known ones; others are allowed. */
export type EdgeType =
  | 'calls'
  | 'imports'
  | 'implements'
  | 'implements_rpc'
  | 'overrides'
  | 'contains'
  | 'member_of'
  | 'handles_route'
  | 'extends'
  | 'tests'
  | 'tested_by'
  | 'consumes_rpc'
  | 'accesses_field'
  | 'depends_on'
  | 'consumes_endpoint'
  | 'co_tested_with'
  | 'type_hint_of'
  | 'executes_process'
  | 'references'
  | 'reads_env'
  | 'throws'
  | 'deployed_by'
  | 'inherits'
  | 'gated_by_flag'
  | 'decorates'
  | 'documents'
  | 'similar_to'
  | 'deploys'
  | 'exposes'
  | 'configures'
  | 'publishes'
  | 'subscribes'
  | 'connects_to'
  | 'runtime_calls'
  | 'runtime_rpc'
  | 'runtime_produces'
  | 'runtime_consumes'
  | 'owned_by'
  | 'authored_by'
  | (string & {});

/** One edge type's registry entry. */
export interface EdgeTypeInfo {
  readonly type: EdgeType;
  /** Default random-walk weight; 0 keeps the edge out of the walk. */
  readonly weight: number;
  /** Mirrors containment or inheritance rather than behaviour. */
  readonly structural: boolean;
  readonly description: string;
}

/** A symbol of the indexed repository. */
export interface GraphNode {
  /** Stable identity: `nodeId(repo, qualifiedName, kind)`. */
  readonly id: NodeId;
  /** The terminal name, e.g. `run`. */
  readonly name: string;
  /** `<repo-relative file path>.<Outer>.<name>`, e.g. `src/flask/app.py.Flask.run`. */
  readonly qualifiedName: string;
  readonly kind: NodeKind;
  /** Language of the defining file; empty for external placeholders. */
  readonly language: LanguageId | '';
  /** Repo-relative path with `/` separators; empty for external placeholders. */
  readonly file: string;
  /** 1-based, inclusive. 0 when unknown. */
  readonly startLine: number;
  readonly endLine: number;
  /** The declaration line as written (trimmed), for display. */
  readonly signature: string;
  /** Doc comment or docstring, markers stripped, at most 500 characters. */
  readonly doc: string;
  /** Defined in a test file or named as a test. */
  readonly isTest: boolean;
  /** An unresolved placeholder outside the repository. */
  readonly external: boolean;
}

/** A directed, typed relation between two nodes. */
export interface GraphEdge {
  readonly source: NodeId;
  readonly target: NodeId;
  readonly type: EdgeType;
  /** 0..1: how sure the producer is that the target is right. */
  readonly confidence: number;
  readonly provenance: Provenance;
  /** 1-based line of the use site in the source's file, 0 when not applicable. */
  readonly line?: number;
}

/** A source file as the store records it. */
export interface FileRecord {
  /** Repo-relative path with `/` separators. */
  readonly path: string;
  readonly language: LanguageId;
  /** Hex SHA-256 of the file's bytes. */
  readonly contentHash: string;
  readonly sizeBytes: number;
  /** Milliseconds since the epoch. */
  readonly indexedAt: number;
  /** Number of syntax errors the parser recovered from. */
  readonly syntaxErrors: number;
}

/** The repository a store describes. One store holds one repository. */
export interface RepoInfo {
  /** Stable identity used in node ids (a remote URL or the directory name). */
  readonly id: string;
  /** Absolute path of the working tree when last indexed. */
  readonly root: string;
  /** Commit indexed, when known. */
  readonly commit: string | null;
  /** Milliseconds since the epoch; null before the first index. */
  readonly indexedAt: number | null;
}

/** How `findNodesByName` compares names. All comparisons except `exact` ignore ASCII case. */
export type NameMatch = 'exact' | 'exact_ci' | 'prefix' | 'substring';

/** Options for `GraphReader.findNodesByName`. */
export interface FindByNameOptions {
  /** @default 'exact' */
  readonly match?: NameMatch;
  /** Only these kinds. */
  readonly kinds?: readonly NodeKind[];
  /** Include external placeholders. @default false */
  readonly includeExternal?: boolean;
  /** @default 100 */
  readonly limit?: number;
}

/** Options for edge lookups. */
export interface EdgeQueryOptions {
  /** Only these edge types. */
  readonly types?: readonly EdgeType[];
  /** @default unlimited */
  readonly limit?: number;
}

/** Counts of what a store holds. */
export interface GraphCounts {
  readonly nodes: number;
  readonly edges: number;
  readonly files: number;
  readonly nodesByKind: Readonly<Record<string, number>>;
  readonly nodesByLanguage: Readonly<Record<string, number>>;
  readonly edgesByType: Readonly<Record<string, number>>;
}

/** What {@link GraphReader.graphOutline} returns. */
export interface GraphOutline {
  readonly nodes: readonly Pick<GraphNode, 'id' | 'kind' | 'external' | 'isTest'>[];
  readonly edges: readonly Pick<GraphEdge, 'source' | 'target' | 'type' | 'provenance' | 'confidence'>[];
}

/** What {@link GraphReader.nodeCounts} returns: the node side of {@link GraphCounts}. */
export type NodeCounts = Pick<GraphCounts, 'nodes' | 'files' | 'nodesByKind' | 'nodesByLanguage'>;

/** Read access to the graph. */
export interface GraphReader {
  repo(): Promise<RepoInfo | null>;
  getNode(id: NodeId): Promise<GraphNode | undefined>;
  /** Nodes for the ids that exist, in the order of `ids`. */
  getNodes(ids: readonly NodeId[]): Promise<GraphNode[]>;
  /** Nodes whose terminal `name` matches. */
  findNodesByName(name: string, options?: FindByNameOptions): Promise<GraphNode[]>;
  /** Nodes whose qualified name equals `qualifiedName` (any kind). */
  findNodesByQualifiedName(qualifiedName: string): Promise<GraphNode[]>;
  /** Nodes defined in a file, ordered by start line. */
  nodesInFile(path: string): Promise<GraphNode[]>;
  /** Nodes whose file path starts with `prefix` (a directory prefix such as `src/auth/`). */
  nodesUnderPath(prefix: string, options?: { readonly kinds?: readonly NodeKind[]; readonly limit?: number }): Promise<GraphNode[]>;
  edgesFrom(id: NodeId, options?: EdgeQueryOptions): Promise<GraphEdge[]>;
  edgesTo(id: NodeId, options?: EdgeQueryOptions): Promise<GraphEdge[]>;
  getFile(path: string): Promise<FileRecord | undefined>;
  listFiles(): Promise<FileRecord[]>;
  counts(): Promise<GraphCounts>;
  /**
   * The node side of {@link counts} alone. Optional: counting edges by type reads every edge,
   * most of the time of `counts()` on a large graph, and a query that wants the repository's
   * languages need not pay for it. Callers fall back to `counts()` when a store lacks it.
   */
  nodeCounts?(): Promise<NodeCounts>;
  /**
   * Every node and edge in the lean form an adjacency is built from: nodes in `allNodes()`
   * order with only what their flags need, edges in `allEdges()` order with their endpoints'
   * ids. Optional: a store that can read this without building whole nodes and edges (SQLite
   * reads it several times faster) offers it; the walk falls back to `allNodes()` and
   * `allEdges()`.
   */
  graphOutline?(): Promise<GraphOutline>;
  /**
   * Every node, in graph order — the same in every store, because adjacencies and communities
   * are built in it and it decides their ties. Each batch appends the nodes it creates, after
   * every node already stored, in the order it applies them (see {@link WriteBatch}): the
   * nodes of its files, file by file in the order of `files` and each file's nodes in order
   * (an id several files of the batch write takes the place of the first), then its new
   * external placeholders in the order of `externalNodes`. A node keeps its place while it
   * exists: rewritten, moved to another file, or a placeholder written as a real symbol. A
   * node removed and written again is new, also within one batch (its file, rewritten without
   * it, comes before the file that now declares it). Removing a node closes its gap.
   */
  allNodes(): AsyncIterable<GraphNode>;
  /**
   * Every edge, by source in `allNodes()` order, then type (code-unit order), then target in
   * `allNodes()` order.
   */
  allEdges(): AsyncIterable<GraphEdge>;
}

/** Everything one file contributes: its record, its nodes and the edges it owns. */
export interface FileWrite {
  readonly file: FileRecord;
  readonly nodes: readonly GraphNode[];
  /** Edges owned by this file (normally those whose source it defines). */
  readonly edges: readonly GraphEdge[];
  /**
   * Lexical documents of this file's nodes, by node id. A file write replaces the documents
   * of all its nodes: a node left out of the map (or a write without the map) has none and is
   * not found by `lexicalSearch`.
   */
  readonly lexical?: ReadonlyMap<NodeId, LexicalDocument>;
}

/** Edges owned by something other than a file, e.g. a derived pass (`derived:inherits`). */
export interface OwnedEdges {
  readonly owner: string;
  readonly edges: readonly GraphEdge[];
}

/**
 * One atomic change to the graph. Applying a batch either fully happens or not at all.
 *
 * Semantics, in order: deleted files lose their record, nodes and owned edges; each written
 * file's nodes are upserted (its nodes absent from the write are removed) and its owned
 * edges replaced; each `ownedEdges` entry replaces all edges of its owner; external nodes
 * are upserted. Edges whose endpoint no longer exists are removed, and so are external
 * nodes no edge touches any more.
 */
export interface WriteBatch {
  readonly deleteFiles?: readonly string[];
  readonly files?: readonly FileWrite[];
  readonly ownedEdges?: readonly OwnedEdges[];
  readonly externalNodes?: readonly GraphNode[];
  /** Repository facts to record with the batch. */
  readonly repo?: RepoInfo;
}

/** Write access to the graph. */
export interface GraphWriter {
  applyBatch(batch: WriteBatch): Promise<WriteResult>;
}

/** What `applyBatch` did. */
export interface WriteResult {
  readonly nodesWritten: number;
  readonly edgesWritten: number;
  readonly nodesDeleted: number;
  readonly edgesDeleted: number;
  /** The snapshot after the batch. */
  readonly snapshot: Snapshot;
}

/** Columns of the full-text index, in weight order. */
export type TextColumn = 'name' | 'concepts' | 'path' | 'qualified_name' | 'doc' | 'signature';

/** Options for `TextSearch.search`. */
export interface TextSearchOptions {
  /** @default 30 */
  readonly limit?: number;
  /** Per-column bm25 weights; missing columns use the store's defaults (10/5/4/3/3/1). */
  readonly columnWeights?: Readonly<Partial<Record<TextColumn, number>>>;
  readonly kinds?: readonly NodeKind[];
}

/** A full-text hit; higher `score` is better. */
export interface TextHit {
  readonly node: GraphNode;
  readonly score: number;
  /** A lexical hit's score per field alone (`LexicalSearchOptions.perField`). */
  readonly fields?: Readonly<Record<LexicalField, number>>;
}

/**
 * BM25 search over symbol text. The query uses FTS5 syntax with the column names of
 * {@link TextColumn} (`name:"before_request" OR config`); a store for another engine
 * translates it. Hits come best first, scores rounded to 1e-9, ties in source order (file,
 * then start line), then by qualified name and id, so that stores computing the same BM25
 * return the same hits in the same order.
 */
export interface TextSearch {
  search(query: string, options?: TextSearchOptions): Promise<TextHit[]>;
}

/** Fields of a symbol's lexical document. */
export type LexicalField = 'name' | 'path' | 'signature' | 'doc' | 'body' | 'members';

/** Every lexical field, in document order. */
export const LEXICAL_FIELDS: readonly LexicalField[] = Object.freeze(['name', 'path', 'signature', 'doc', 'body', 'members']);

/**
 * What a symbol says and does, for the lexical index: per field, its terms separated by single
 * spaces (`body`: the symbol's own lines; `members`: the lines of the functions nested in it,
 * a class's methods, so a search can weigh a class by what its methods do less than by what it
 * says itself),
 * spaces, already normalised by the producer (the indexer uses `lexicalTerms` of
 * `@knowing/keywords`: identifiers split, lower-cased, stemmed). A store never tokenises: it
 * counts the terms it is given, and queries bring terms normalised the same way.
 */
export type LexicalDocument = Readonly<Record<LexicalField, string>>;

/** Options for `LexicalSearch.lexicalSearch`. */
export interface LexicalSearchOptions {
  /** @default 50 */
  readonly limit?: number;
  /** Per-field weights of the term frequencies (BM25F); missing fields weigh 1. */
  readonly fieldWeights?: Readonly<Partial<Record<LexicalField, number>>>;
  /** Test code is left out unless asked for. @default false */
  readonly includeTests?: boolean;
  readonly kinds?: readonly NodeKind[];
  /**
   * Score only these symbols (the rarity of each term and the average length stay the whole
   * index's, so a symbol scores as it does in an unrestricted search): how a ranker reads the
   * lexical evidence of candidates that other channels found.
   */
  readonly ids?: readonly NodeId[];
  /**
   * Also score each field alone (it weighs 1, the others 0; same rarity and lengths): hits
   * carry `fields`. Which part of a symbol's text holds a task's words — its name, doc
   * comment, body, members — tells a ranker more than their weighted sum. @default false
   */
  readonly perField?: boolean;
}

/**
 * Okapi BM25 (k1 1.2, b 0.75) over lexical documents: a document matches when it holds any of
 * the terms; each distinct term counts once, weighted by its rarity among the documents; a
 * field's occurrences count `fieldWeights[field]` times; length is normalised over the whole
 * document. Best first, scores > 0.
 */
export interface LexicalSearch {
  lexicalSearch(terms: readonly string[], options?: LexicalSearchOptions): Promise<TextHit[]>;
}

/** A stored note: an opaque blob under a key, stamped with the snapshot it was made for. */
export interface Note {
  readonly key: string;
  readonly kind: string;
  readonly value: Uint8Array;
  /** Snapshot id the note was computed against, or null when it does not depend on one. */
  readonly snapshot: string | null;
  readonly updatedAt: number;
}

/** One note to write with {@link NoteStore.putNotes}: what `putNote` takes. */
export interface NoteWrite {
  readonly key: string;
  readonly kind: string;
  readonly value: Uint8Array;
  /** @default null */
  readonly snapshot?: string | null;
}

/** Key-value blobs: caches, adjacency, communities, per-file extraction state. */
export interface NoteStore {
  getNote(key: string): Promise<Note | undefined>;
  putNote(key: string, kind: string, value: Uint8Array, snapshot?: string | null): Promise<void>;
  /**
   * Write several notes as `putNote` would, one after another (a later note of a key replaces
   * an earlier one). Optional: a store that commits every write on its own offers it to commit
   * many at once (SQLite, where the extraction notes of a first index cost a commit per file);
   * callers fall back to `putNote`.
   *
   * @example
   * ```ts
   * const notes = [{ key: 'extraction:a.py', kind: 'extraction', value: encoded }];
   * if (store.putNotes) await store.putNotes(notes);
   * else for (const note of notes) await store.putNote(note.key, note.kind, note.value, note.snapshot);
   * ```
   */
  putNotes?(notes: readonly NoteWrite[]): Promise<void>;
  deleteNote(key: string): Promise<boolean>;
  /** Delete notes of a kind (and key prefix); returns how many went. */
  deleteNotes(filter: { readonly kind?: string; readonly keyPrefix?: string }): Promise<number>;
}

/** One observation that a symbol was (not) useful. */
export interface FeedbackRecord {
  readonly symbol: NodeId;
  readonly useful: boolean;
  readonly session: string;
  /** Merkle root of the symbol's neighbourhood when recorded, to expire stale feedback. */
  readonly neighborhoodRoot?: string | null;
  readonly keywordCluster?: string | null;
  /** Milliseconds since the epoch. @default now */
  readonly at?: number;
}

/** Aggregated feedback for one symbol. */
export interface FeedbackTally {
  readonly useful: number;
  readonly notUseful: number;
}

export interface FeedbackStore {
  recordFeedback(records: readonly FeedbackRecord[]): Promise<void>;
  /**
   * Tallies per symbol. Rows recorded with a neighbourhood root count only while it equals the
   * supplied current root of that symbol (when given); a cluster filter keeps only rows of
   * that keyword cluster.
   */
  feedbackFor(
    symbols: readonly NodeId[],
    options?: { readonly keywordCluster?: string; readonly currentRoots?: ReadonlyMap<NodeId, string> },
  ): Promise<Map<NodeId, FeedbackTally>>;
}

/** One learned association between a task keyword and a symbol. */
export interface VocabAssociation {
  readonly keyword: string;
  readonly symbol: NodeId;
  readonly symbolName: string;
  readonly count: number;
  readonly cluster: string | null;
  readonly packageRoot: string | null;
}

export interface VocabStore {
  /** Increment the count of each (keyword, symbol) pair. */
  recordVocab(
    entries: readonly { keyword: string; symbol: NodeId; symbolName: string; cluster?: string | null; packageRoot?: string | null }[],
  ): Promise<void>;
  /** Associations for these keywords with at least `minCount` observations, most frequent first. */
  vocabFor(keywords: readonly string[], options?: { readonly minCount?: number; readonly cluster?: string }): Promise<VocabAssociation[]>;
}

/** The state of the graph after a write: a Merkle root over every edge. */
export interface Snapshot {
  /** Hex id of the snapshot: a hash of the repo root. */
  readonly id: string;
  /** Hex Merkle root over package roots. */
  readonly root: string;
  readonly generation: number;
  readonly createdAt: number;
  readonly nodeCount: number;
  readonly edgeCount: number;
}

/**
 * Merkle roots: edges grouped by package (the directory of the source node's file) and
 * edge type → package roots → repo root. Unchanged packages keep their roots.
 */
export interface SnapshotStore {
  currentSnapshot(): Promise<Snapshot | null>;
  /** Package → hex root, for every package with edges. */
  packageRoots(): Promise<Map<string, string>>;
  /** A root over the given packages' roots (missing packages are skipped); stable under reordering. */
  subgraphRoot(packages: readonly string[]): Promise<string>;
}

/** Everything the engine needs from a store. `close()` releases it. */
export interface GraphStore extends GraphReader, GraphWriter, TextSearch, LexicalSearch, NoteStore, FeedbackStore, VocabStore, SnapshotStore {
  close(): Promise<void>;
}

/**
 * A symbol chosen for a task, with the evidence behind its score. Produced by a ranker,
 * consumed by packing and the wire formats.
 */
export interface RankedSymbol {
  readonly node: GraphNode;
  /** Final score; higher is better. */
  readonly score: number;
  /** Hops from the nearest seed: 0 for seeds (targets), 1 related, 2+ extended. */
  readonly distance: number;
  /** Normalised random-walk relevance, 0..1 (1 for the best-connected to the seeds). */
  readonly rwr: number;
  /** Named score components (relevance, blast_radius, confidence, commit_recency, …), for explanations. */
  readonly components: Readonly<Record<string, number>>;
  /** Provenance of the strongest edge that reached this symbol, when known. */
  readonly provenance?: Provenance;
}

/** The packed answer to a task: symbols within a token budget, and the edges among them. */
export interface ContextPack {
  readonly symbols: readonly RankedSymbol[];
  /** Edges whose both endpoints are in `symbols`. */
  readonly edges: readonly GraphEdge[];
  readonly tokensUsed: number;
  readonly tokenBudget: number;
  /** Content address of the pack: hash of the normalised task and the selected node ids. */
  readonly packRoot: string;
}
