/**
 * Row shapes of the tables, for kysely's typed cold queries. The hot paths use prepared
 * better-sqlite3 statements over the same tables.
 */
export interface ReposTable {
  slot: number;
  id: string;
  root: string;
  commit_sha: string | null;
  indexed_at: number | null;
}

export interface FilesTable {
  path: string;
  language: string;
  content_hash: string;
  size_bytes: number;
  indexed_at: number;
  syntax_errors: number;
  package: string;
}

export interface NodesTable {
  seq: number;
  id: string;
  name: string;
  name_lower: string;
  qualified_name: string;
  kind: string;
  language: string;
  file: string;
  package: string;
  start_line: number;
  end_line: number;
  signature: string;
  doc: string;
  is_test: number;
  external: number;
}

export interface OwnersTable {
  id: number;
  name: string;
}

export interface EdgesTable {
  src: number;
  type: string;
  dst: number;
  confidence: number;
  provenance: string;
  line: number;
  owner: number;
}

export interface SnapshotsTable {
  generation: number;
  id: string;
  root: string;
  created_at: number;
  node_count: number;
  edge_count: number;
}

export interface MerkleTypesTable {
  package: string;
  type: string;
  root: string;
  leaves: number;
}

export interface MerklePackagesTable {
  package: string;
  root: string;
}

export interface NotesTable {
  key: string;
  kind: string;
  value: Uint8Array;
  snapshot: string | null;
  updated_at: number;
}

export interface FeedbackTable {
  id: number;
  symbol: string;
  useful: number;
  session: string;
  neighborhood_root: string | null;
  keyword_cluster: string | null;
  at: number;
}

export interface VocabTable {
  keyword: string;
  symbol: string;
  symbol_name: string;
  count: number;
  cluster: string | null;
  package_root: string | null;
  last_seen: number;
}

export interface StoreSchema {
  repos: ReposTable;
  files: FilesTable;
  nodes: NodesTable;
  owners: OwnersTable;
  edges: EdgesTable;
  snapshots: SnapshotsTable;
  merkle_types: MerkleTypesTable;
  merkle_packages: MerklePackagesTable;
  notes: NotesTable;
  feedback: FeedbackTable;
  vocab: VocabTable;
}
