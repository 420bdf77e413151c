export type {
  NodeId,
  NodeKind,
  LanguageId,
  Provenance,
  EdgeType,
  EdgeTypeInfo,
  GraphNode,
  GraphEdge,
  FileRecord,
  RepoInfo,
  NameMatch,
  FindByNameOptions,
  EdgeQueryOptions,
  GraphCounts,
  NodeCounts,
  GraphOutline,
  GraphReader,
  FileWrite,
  OwnedEdges,
  WriteBatch,
  WriteResult,
  GraphWriter,
  TextColumn,
  TextSearchOptions,
  TextHit,
  TextSearch,
  LexicalField,
  LexicalDocument,
  LexicalSearchOptions,
  LexicalSearch,
  Note,
  NoteStore,
  FeedbackRecord,
  FeedbackTally,
  FeedbackStore,
  VocabAssociation,
  VocabStore,
  Snapshot,
  SnapshotStore,
  GraphStore,
  RankedSymbol,
  ContextPack,
} from './types.js';
export { LEXICAL_FIELDS } from './types.js';
export { EDGE_TYPES, DEFAULT_EDGE_WEIGHT, edgeTypeInfo, edgeWeight, isStructuralEdge } from './edge-types.js';
export { ErrorCode, KnowingError, isKnowingError } from './errors.js';
export type { KnowingErrorOptions } from './errors.js';
export { sha256Hex, nodeId, edgeKey, merkleRoot, snapshotId } from './identity.js';
export { TYPE_LIKE_KINDS, CALLABLE_KINDS, isTypeLike, qualifiedName, symbolPath, packageOf } from './names.js';
export {
  NodeFlag,
  PROVENANCES,
  ADJACENCY_FORMAT_VERSION,
  buildAdjacency,
  serializeAdjacency,
  deserializeAdjacency,
} from './adjacency.js';
export type { Adjacency, AdjacencyNode, AdjacencyEdge } from './adjacency.js';
