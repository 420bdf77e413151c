import {
  ErrorCode,
  edgeKey,
  merkleRoot,
  packageOf,
  snapshotId,
  type FileRecord,
  type FileWrite,
  type GraphEdge,
  type GraphNode,
  type LexicalDocument,
  type RepoInfo,
  type Snapshot,
  type WriteBatch,
  type WriteResult,
} from '@knowing/graph';
import { LEXICAL_FIELDS, asciiLower, snapshotFromRow, type SnapshotRow } from '@knowing/graph/store-kit';
import { sql, type RawBuilder, type Transaction } from 'kysely';
import { storeError } from './errors.js';
import { STAGE, type Tables } from './tables.js';
import { columnTexts, fileColumns, searchDocument } from './text.js';

/*
 * One batch is one transaction. The batch is copied into temporary staging tables, then
 * applied with a fixed number of set-based statements whatever its size: remove what goes,
 * upsert nodes, replace each owner's edges, prune placeholders, recompute the Merkle roots of
 * the groups touched, record the snapshot. Edges are always removed explicitly (never left to
 * the foreign keys' cascades), so every removal is seen: it dirties its Merkle group, counts
 * as deleted and makes its placeholder endpoints candidates for pruning.
 */

/** Owner names of a file's edges and of an OwnedEdges entry. */
const FILE_OWNER = 'file:';
const PASS_OWNER = 'pass:';

/** Rows per staging INSERT (each column is one array parameter). */
const STAGE_CHUNK = 20_000;

/**
 * Last entry per key wins, in first-seen order — as the SQLite store takes a batch, so that
 * both number a graph's rows alike (the walk reads nodes in that order).
 */
function lastWins<T>(items: readonly T[] | undefined, key: (item: T) => string): T[] {
  const map = new Map<string, T>();
  for (const item of items ?? []) map.set(key(item), item);
  return [...map.values()];
}

/** Term frequencies of a lexical document: per term, its count in each field; and the token count. */
function termFrequencies(doc: LexicalDocument): { readonly terms: Map<string, number[]>; readonly length: number } {
  const terms = new Map<string, number[]>();
  let length = 0;
  LEXICAL_FIELDS.forEach((field, f) => {
    const text = doc[field];
    if (typeof text !== 'string' || text === '') return;
    for (const raw of text.split(/\s+/)) {
      if (raw === '') continue;
      const term = asciiLower(raw);
      length++;
      let tf = terms.get(term);
      if (tf === undefined) terms.set(term, (tf = [0, 0, 0, 0, 0, 0]));
      tf[f]!++;
    }
  });
  return { terms, length };
}

/** Columns of the staged node rows, as parallel arrays. */
class StagedNodes {
  readonly columns = {
    id: [] as string[], name: [] as string[], name_lower: [] as string[], qualified_name: [] as string[], kind: [] as string[],
    language: [] as string[], file: [] as string[], package: [] as string[], start_line: [] as number[], end_line: [] as number[],
    signature: [] as string[], doc: [] as string[], is_test: [] as boolean[], external: [] as boolean[],
    tsv: [] as (string | null)[], tsv_len: [] as (number | null)[], lexical_len: [] as (number | null)[],
    first_file: [] as (number | null)[], ord: [] as number[],
  };
  readonly lexical = { id: [] as string[], term: [] as string[], tf: LEXICAL_FIELDS.map(() => [] as number[]) };

  get size(): number {
    return this.columns.id.length;
  }

  /**
   * Stage `node` after the nodes staged so far. `firstFile` is the 1-based place in the batch's
   * files of the first file that writes it (null for a placeholder).
   */
  add(node: GraphNode, pkg: string, file: { readonly concepts: string; readonly path: string } | null, doc: LexicalDocument | undefined, firstFile: number | null): void {
    const c = this.columns;
    c.ord.push(c.id.length);
    c.first_file.push(firstFile);
    c.id.push(node.id);
    c.name.push(node.name);
    c.name_lower.push(asciiLower(node.name));
    c.qualified_name.push(node.qualifiedName);
    c.kind.push(node.kind);
    c.language.push(node.language);
    c.file.push(node.file);
    c.package.push(pkg);
    c.start_line.push(node.startLine);
    c.end_line.push(node.endLine);
    c.signature.push(node.signature);
    c.doc.push(node.doc);
    c.is_test.push(node.isTest);
    c.external.push(node.external);
    if (node.external || file === null) {
      c.tsv.push(null);
      c.tsv_len.push(null);
      c.lexical_len.push(null);
      return;
    }
    const search = searchDocument(columnTexts(node, file));
    c.tsv.push(search.tsv);
    c.tsv_len.push(search.length);
    if (doc === undefined) {
      c.lexical_len.push(null);
      return;
    }
    const { terms, length } = termFrequencies(doc);
    c.lexical_len.push(length);
    for (const [term, tf] of terms) {
      this.lexical.id.push(node.id);
      this.lexical.term.push(term);
      tf.forEach((n, f) => this.lexical.tf[f]!.push(n));
    }
  }
}

/**
 * The nodes the batch's files write, one per id, in the order the other stores number new
 * nodes: file by file, each file's nodes in their order, an id written by several files in
 * the place of the first (`first`) with the values of the last (`at`, the file they come from).
 */
function fileNodesInWriteOrder(writes: readonly FileWrite[]): Map<string, { readonly node: GraphNode; readonly at: number; readonly first: number }> {
  const out = new Map<string, { readonly node: GraphNode; readonly at: number; readonly first: number }>();
  writes.forEach((w, at) => {
    // Map.set on a known id keeps the id where it was first set.
    for (const node of lastWins(w.nodes, (n) => n.id)) out.set(node.id, { node, at, first: out.get(node.id)?.first ?? at });
  });
  return out;
}

/** Staged edges: the final owner and values of each (source, type, target) the batch writes. */
function stageEdges(batch: WriteBatch, files: readonly { readonly file: { readonly path: string }; readonly edges: readonly GraphEdge[] }[]) {
  const byIdentity = new Map<string, { owner: string; edge: GraphEdge }>();
  const put = (owner: string, edges: readonly GraphEdge[]): void => {
    for (const edge of edges) {
      const key = `${edge.source}\0${edge.type}\0${edge.target}`;
      // The last writer in batch order owns an edge and sets its values.
      byIdentity.delete(key);
      byIdentity.set(key, { owner, edge });
    }
  };
  const owners: string[] = [];
  for (const w of files) {
    owners.push(FILE_OWNER + w.file.path);
    put(FILE_OWNER + w.file.path, w.edges);
  }
  for (const o of lastWins(batch.ownedEdges, (x) => x.owner)) {
    owners.push(PASS_OWNER + o.owner);
    put(PASS_OWNER + o.owner, o.edges);
  }
  const columns = {
    owner: [] as string[], source: [] as string[], type: [] as string[], target: [] as string[],
    confidence: [] as number[], provenance: [] as string[], line: [] as number[],
  };
  for (const { owner, edge } of byIdentity.values()) {
    columns.owner.push(owner);
    columns.source.push(edge.source);
    columns.type.push(edge.type);
    columns.target.push(edge.target);
    columns.confidence.push(edge.confidence);
    columns.provenance.push(edge.provenance);
    columns.line.push(edge.line ?? 0);
  }
  return { owners, columns };
}

function slice<T>(values: readonly T[], at: number): T[] {
  return values.slice(at, at + STAGE_CHUNK);
}

const countOf = (rows: readonly { n?: unknown }[]): number => Number(rows[0]?.n ?? 0);

type Run = <R = Record<string, unknown>>(query: ReturnType<typeof sql<R>>) => Promise<R[]>;

/** One batch's transaction, and the counts of its write result that each step adds to. */
interface BatchWrite {
  readonly trx: Transaction<unknown>;
  readonly t: Tables;
  readonly run: Run;
  readonly tally: { nodesWritten: number; nodesDeleted: number; edgesWritten: number; edgesDeleted: number };
}

/**
 * Apply one batch inside `trx` (the caller opened the transaction and took the repository's
 * write lock). `where` names the repository in error messages.
 */
export async function writeBatch(trx: Transaction<unknown>, t: Tables, batch: WriteBatch, where: string): Promise<WriteResult> {
  const run: Run = async (query) => (await query.execute(trx)).rows;
  const w: BatchWrite = { trx, t, run, tally: { nodesWritten: 0, nodesDeleted: 0, edgesWritten: 0, edgesDeleted: 0 } };

  const deleted = [...new Set(batch.deleteFiles ?? [])];
  if (batch.repo !== undefined) await putRepo(w, batch.repo, deleted, where);
  const writes = lastWins(batch.files, (f) => f.file.path);
  const staged = await stageBatch(w, batch, writes);
  await removeGone(w, deleted, writes.map((f) => f.file.path));
  await putFiles(w, writes.map((f) => f.file));
  if (staged.nodes.size > 0) await writeNodes(w, staged.nodes);
  if (staged.edges.owners.length > 0) await replaceOwnedEdges(w, staged.edges.owners);
  await prunePlaceholders(w);
  return commitSnapshot(w);
}

/** 0. Repository facts: a batch for another repository is refused unless it replaces every file. */
async function putRepo({ t, run }: BatchWrite, repo: RepoInfo, deleted: readonly string[], where: string): Promise<void> {
  const stored = await run<{ id: string }>(sql`SELECT id FROM ${t.repo} WHERE slot = 1`);
  if (stored[0] !== undefined && stored[0].id !== repo.id) {
    const kept = await run<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${t.files} WHERE NOT (path = ANY(${deleted}::text[]))`);
    if (countOf(kept) > 0) {
      throw storeError(
        ErrorCode.InvalidArgument,
        `${where} holds repository '${stored[0].id}' but the batch is for '${repo.id}'`,
        're-index in full to rebuild it under the new identity, or open another repository of the database',
      );
    }
  }
  await run(sql`
    INSERT INTO ${t.repo} (slot, id, root, commit_sha, indexed_at) VALUES (1, ${repo.id}, ${repo.root}, ${repo.commit}, ${repo.indexedAt})
    ON CONFLICT (slot) DO UPDATE SET id = excluded.id, root = excluded.root, commit_sha = excluded.commit_sha, indexed_at = excluded.indexed_at`);
}

/** 1. Copy the batch into the staging tables. */
async function stageBatch({ trx, run }: BatchWrite, batch: WriteBatch, writes: readonly FileWrite[]) {
  await sql
    .raw(
      `CREATE TEMP TABLE knowing_stage_nodes (
         id text COLLATE "C", name text, name_lower text, qualified_name text, kind text, language text, file text COLLATE "C",
         package text COLLATE "C", start_line int, end_line int, signature text, doc text, is_test boolean, external boolean,
         tsv text, tsv_len int, lexical_len int, first_file int, ord int) ON COMMIT DROP;
       CREATE TEMP TABLE knowing_stage_lexical (id text COLLATE "C", term text COLLATE "C", tf_name int, tf_path int, tf_signature int,
         tf_doc int, tf_body int, tf_members int) ON COMMIT DROP;
       CREATE TEMP TABLE knowing_stage_edges (owner text COLLATE "C", source text COLLATE "C", type text COLLATE "C", target text COLLATE "C",
         confidence float8, provenance text, line int) ON COMMIT DROP;
       CREATE TEMP TABLE knowing_stage_doomed (seq bigint PRIMARY KEY) ON COMMIT DROP;
       CREATE TEMP TABLE knowing_stage_dirty (package text COLLATE "C", type text COLLATE "C", PRIMARY KEY (package, type)) ON COMMIT DROP;
       CREATE TEMP TABLE knowing_stage_prune (seq bigint PRIMARY KEY) ON COMMIT DROP;`,
    )
    .execute(trx);

  const staged = new StagedNodes();
  const fileNodes = fileNodesInWriteOrder(writes);
  const columnsOf = writes.map((w) => ({ pkg: packageOf(w.file.path), file: fileColumns(w.file.path) }));
  for (const { node, at, first } of fileNodes.values()) {
    const { pkg, file } = columnsOf[at]!;
    staged.add(node, pkg, file, writes[at]!.lexical?.get(node.id), first + 1);
  }
  // A real symbol is never downgraded to a placeholder.
  for (const node of lastWins(batch.externalNodes, (n) => n.id)) if (!fileNodes.has(node.id)) staged.add(node, '', null, undefined, null);

  const c = staged.columns;
  for (let at = 0; at < staged.size; at += STAGE_CHUNK) {
    await run(sql`
      INSERT INTO ${STAGE.nodes}
      SELECT * FROM unnest(${slice(c.id, at)}::text[], ${slice(c.name, at)}::text[], ${slice(c.name_lower, at)}::text[],
        ${slice(c.qualified_name, at)}::text[], ${slice(c.kind, at)}::text[], ${slice(c.language, at)}::text[], ${slice(c.file, at)}::text[],
        ${slice(c.package, at)}::text[], ${slice(c.start_line, at)}::int[], ${slice(c.end_line, at)}::int[], ${slice(c.signature, at)}::text[],
        ${slice(c.doc, at)}::text[], ${slice(c.is_test, at)}::boolean[], ${slice(c.external, at)}::boolean[], ${slice(c.tsv, at)}::text[],
        ${slice(c.tsv_len, at)}::int[], ${slice(c.lexical_len, at)}::int[], ${slice(c.first_file, at)}::int[], ${slice(c.ord, at)}::int[])`);
  }
  const lx = staged.lexical;
  for (let at = 0; at < lx.id.length; at += STAGE_CHUNK) {
    const [tf0, tf1, tf2, tf3, tf4, tf5] = lx.tf.map((column) => slice(column, at));
    await run(sql`
      INSERT INTO ${STAGE.lexical}
      SELECT * FROM unnest(${slice(lx.id, at)}::text[], ${slice(lx.term, at)}::text[], ${tf0}::int[], ${tf1}::int[], ${tf2}::int[],
        ${tf3}::int[], ${tf4}::int[], ${tf5}::int[])`);
  }
  const edges = stageEdges(batch, writes);
  const e = edges.columns;
  for (let at = 0; at < e.owner.length; at += STAGE_CHUNK) {
    await run(sql`
      INSERT INTO ${STAGE.edges}
      SELECT * FROM unnest(${slice(e.owner, at)}::text[], ${slice(e.source, at)}::text[], ${slice(e.type, at)}::text[],
        ${slice(e.target, at)}::text[], ${slice(e.confidence, at)}::float8[], ${slice(e.provenance, at)}::text[], ${slice(e.line, at)}::int[])`);
  }
  // Fresh temporary tables have no statistics; the joins below plan better with them.
  if (staged.size > 0) await sql.raw('ANALYZE pg_temp.knowing_stage_nodes, pg_temp.knowing_stage_lexical, pg_temp.knowing_stage_edges').execute(trx);
  return { nodes: staged, edges };
}

/** Remove the edges `from` selects (a `FROM … WHERE` over `edges e`), accounting for each. */
async function removeEdges({ t, run, tally }: BatchWrite, from: RawBuilder<unknown>): Promise<void> {
  const rows = await run<{ n: number }>(sql`
    WITH gone AS (DELETE FROM ${t.edges} e ${from} RETURNING e.src, e.type, e.dst),
    dirty AS (
      INSERT INTO ${STAGE.dirty} (package, type) SELECT DISTINCT s.package, g.type FROM gone g JOIN ${t.nodes} s ON s.seq = g.src
      ON CONFLICT DO NOTHING),
    prune AS (
      INSERT INTO ${STAGE.prune} (seq)
      SELECT n.seq FROM (SELECT src AS seq FROM gone UNION SELECT dst FROM gone) g JOIN ${t.nodes} n ON n.seq = g.seq
      WHERE n.external ON CONFLICT DO NOTHING)
    SELECT count(*)::int AS n FROM gone`);
  tally.edgesDeleted += countOf(rows);
}

/**
 * 2. What goes: the nodes of deleted files, the nodes of written files absent from their
 * file's write, the edges of both and the edges the deleted files owned. Files are applied
 * in batch order, so a node that an earlier file of the batch writes has moved there before
 * its old file is rewritten and stays; one that only a later file writes is removed first and
 * written anew (a new place at the end, see GraphReader.allNodes), as in every store.
 */
async function removeGone(w: BatchWrite, deleted: readonly string[], written: readonly string[]): Promise<void> {
  const { t, run, tally } = w;
  if (deleted.length > 0) {
    await run(sql`INSERT INTO ${STAGE.doomed} SELECT seq FROM ${t.nodes} WHERE file = ANY(${deleted}::text[])`);
  }
  if (written.length > 0) {
    await run(sql`
      INSERT INTO ${STAGE.doomed}
      SELECT n.seq FROM ${t.nodes} n JOIN unnest(${written}::text[]) WITH ORDINALITY AS w(path, place) ON n.file = w.path
      WHERE NOT EXISTS (SELECT 1 FROM ${STAGE.nodes} s WHERE s.id = n.id AND s.first_file <= w.place)
      ON CONFLICT DO NOTHING`);
  }
  await removeEdges(w, sql`USING ${STAGE.doomed} d WHERE e.src = d.seq`);
  await removeEdges(w, sql`USING ${STAGE.doomed} d WHERE e.dst = d.seq`);
  if (deleted.length > 0) {
    const owners = deleted.map((p) => FILE_OWNER + p);
    await removeEdges(w, sql`USING ${t.owners} o WHERE e.owner = o.id AND o.name = ANY(${owners}::text[])`);
    await run(sql`DELETE FROM ${t.owners} WHERE name = ANY(${owners}::text[])`);
  }
  await run(sql`DELETE FROM ${t.lexical_terms} l USING ${STAGE.doomed} d WHERE l.seq = d.seq`);
  tally.nodesDeleted += countOf(
    await run<{ n: number }>(sql`
      WITH gone AS (DELETE FROM ${t.nodes} n USING ${STAGE.doomed} d WHERE n.seq = d.seq RETURNING 1)
      SELECT count(*)::int AS n FROM gone`),
  );
  if (deleted.length > 0) await run(sql`DELETE FROM ${t.files} WHERE path = ANY(${deleted}::text[])`);
}

/** 3. File records. */
async function putFiles({ t, run }: BatchWrite, f: readonly FileRecord[]): Promise<void> {
  if (f.length === 0) return;
  await run(sql`
    INSERT INTO ${t.files} (path, language, content_hash, size_bytes, indexed_at, syntax_errors, package)
    SELECT * FROM unnest(${f.map((x) => x.path)}::text[], ${f.map((x) => x.language)}::text[], ${f.map((x) => x.contentHash)}::text[],
      ${f.map((x) => x.sizeBytes)}::bigint[], ${f.map((x) => x.indexedAt)}::bigint[], ${f.map((x) => x.syntaxErrors)}::int[],
      ${f.map((x) => packageOf(x.path))}::text[])
    ON CONFLICT (path) DO UPDATE SET language = excluded.language, content_hash = excluded.content_hash, size_bytes = excluded.size_bytes,
      indexed_at = excluded.indexed_at, syntax_errors = excluded.syntax_errors, package = excluded.package`);
}

/** 4–7. The staged nodes, their Merkle moves, search documents and lexical documents. */
async function writeNodes({ t, run, tally }: BatchWrite, staged: StagedNodes): Promise<void> {
  // 4. A node moving to another package moves its out-edges to other Merkle groups.
  await run(sql`
    INSERT INTO ${STAGE.dirty} (package, type)
    SELECT DISTINCT p.package, e.type
    FROM ${STAGE.nodes} s JOIN ${t.nodes} n ON n.id = s.id AND n.package <> s.package AND (NOT s.external OR n.external)
    JOIN ${t.edges} e ON e.src = n.seq
    CROSS JOIN LATERAL (VALUES (n.package), (s.package)) AS p(package)
    ON CONFLICT DO NOTHING`);

  // 5. Nodes: inserted, or updated when something changed (placeholders only update placeholders).
  // New rows take their seq in staging order, which is explicit: a scan of the staging table
  // returns its heap order, and small rows (placeholders, fields) fill the space larger ones
  // left on earlier pages, so placeholders were numbered among a repository's file symbols.
  tally.nodesWritten += countOf(
    await run<{ n: number }>(sql`
      WITH up AS (
        INSERT INTO ${t.nodes} AS n (id, name, name_lower, qualified_name, kind, language, file, package, start_line, end_line, signature, doc, is_test, external)
        SELECT id, name, name_lower, qualified_name, kind, language, file, package, start_line, end_line, signature, doc, is_test, external
        FROM ${STAGE.nodes} ORDER BY ord
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_lower = excluded.name_lower, qualified_name = excluded.qualified_name,
          kind = excluded.kind, language = excluded.language, file = excluded.file, package = excluded.package,
          start_line = excluded.start_line, end_line = excluded.end_line, signature = excluded.signature, doc = excluded.doc,
          is_test = excluded.is_test, external = excluded.external
        WHERE (NOT excluded.external OR n.external)
          AND (n.name, n.qualified_name, n.kind, n.language, n.file, n.start_line, n.end_line, n.signature, n.doc, n.is_test, n.external)
            IS DISTINCT FROM (excluded.name, excluded.qualified_name, excluded.kind, excluded.language, excluded.file, excluded.start_line,
              excluded.end_line, excluded.signature, excluded.doc, excluded.is_test, excluded.external)
        RETURNING 1)
      SELECT count(*)::int AS n FROM up`),
  );
  // A placeholder nothing points at is pruned below.
  await run(sql`
    INSERT INTO ${STAGE.prune} (seq) SELECT n.seq FROM ${STAGE.nodes} s JOIN ${t.nodes} n ON n.id = s.id
    WHERE s.external AND n.external ON CONFLICT DO NOTHING`);

  // 6. Search documents of the written symbols, rewritten only when their text changed.
  await run(sql`
    INSERT INTO ${t.search_docs} AS d (seq, tsv, len)
    SELECT n.seq, s.tsv::tsvector, s.tsv_len FROM ${STAGE.nodes} s JOIN ${t.nodes} n ON n.id = s.id WHERE NOT s.external
    ON CONFLICT (seq) DO UPDATE SET tsv = excluded.tsv, len = excluded.len
    WHERE d.tsv IS DISTINCT FROM excluded.tsv OR d.len <> excluded.len`);

  // 7. A file write replaces the lexical documents of all its nodes.
  await run(sql`
    DELETE FROM ${t.lexical_terms} l USING ${STAGE.nodes} s JOIN ${t.nodes} n ON n.id = s.id
    WHERE l.seq = n.seq AND NOT s.external`);
  await run(sql`
    DELETE FROM ${t.lexical_docs} l USING ${STAGE.nodes} s JOIN ${t.nodes} n ON n.id = s.id
    WHERE l.seq = n.seq AND NOT s.external`);
  await run(sql`
    INSERT INTO ${t.lexical_docs} (seq, len)
    SELECT n.seq, s.lexical_len FROM ${STAGE.nodes} s JOIN ${t.nodes} n ON n.id = s.id WHERE NOT s.external AND s.lexical_len IS NOT NULL`);
  if (staged.lexical.id.length > 0) {
    await run(sql`
      INSERT INTO ${t.lexical_terms} (term, seq, tf_name, tf_path, tf_signature, tf_doc, tf_body, tf_members)
      SELECT l.term, n.seq, l.tf_name, l.tf_path, l.tf_signature, l.tf_doc, l.tf_body, l.tf_members
      FROM ${STAGE.lexical} l JOIN ${t.nodes} n ON n.id = l.id
      ORDER BY l.term, n.seq`);
  }
}

/** 8. Edges: each written owner's set is replaced; edges whose endpoint does not exist are dropped. */
async function replaceOwnedEdges(w: BatchWrite, owners: readonly string[]): Promise<void> {
  const { trx, t, run, tally } = w;
  await run(sql`
    INSERT INTO ${t.owners} (name) SELECT DISTINCT unnest(${owners}::text[]) ON CONFLICT (name) DO NOTHING`);
  await sql
    .raw(
      `CREATE TEMP TABLE knowing_stage_resolved (src bigint, type text COLLATE "C", dst bigint, confidence float8, provenance text, line int, owner int,
         PRIMARY KEY (src, type, dst)) ON COMMIT DROP`,
    )
    .execute(trx);
  await run(sql`
    INSERT INTO ${STAGE.resolved}
    SELECT s.seq, e.type, t.seq, e.confidence, e.provenance, e.line, o.id
    FROM ${STAGE.edges} e JOIN ${t.nodes} s ON s.id = e.source JOIN ${t.nodes} t ON t.id = e.target JOIN ${t.owners} o ON o.name = e.owner`);
  await removeEdges(w, sql`
    USING ${t.owners} o WHERE e.owner = o.id AND o.name = ANY(${owners}::text[])
      AND NOT EXISTS (SELECT 1 FROM ${STAGE.resolved} r WHERE r.src = e.src AND r.type = e.type AND r.dst = e.dst)`);
  tally.edgesWritten += countOf(
    await run<{ n: number }>(sql`
      WITH up AS (
        INSERT INTO ${t.edges} AS e (src, type, dst, confidence, provenance, line, owner)
        SELECT src, type, dst, confidence, provenance, line, owner FROM ${STAGE.resolved}
        ON CONFLICT (src, type, dst) DO UPDATE SET confidence = excluded.confidence, provenance = excluded.provenance,
          line = excluded.line, owner = excluded.owner
        WHERE (e.confidence, e.provenance, e.line, e.owner) IS DISTINCT FROM (excluded.confidence, excluded.provenance, excluded.line, excluded.owner)
        RETURNING e.src, e.type, (xmax = 0) AS inserted),
      dirty AS (
        INSERT INTO ${STAGE.dirty} (package, type) SELECT DISTINCT n.package, up.type FROM up JOIN ${t.nodes} n ON n.seq = up.src
        WHERE up.inserted ON CONFLICT DO NOTHING)
      SELECT count(*)::int AS n FROM up`),
  );
}

/** 9. Placeholders no edge touches any more. */
async function prunePlaceholders({ t, run, tally }: BatchWrite): Promise<void> {
  tally.nodesDeleted += countOf(
    await run<{ n: number }>(sql`
      WITH gone AS (
        DELETE FROM ${t.nodes} n USING ${STAGE.prune} p
        WHERE n.seq = p.seq AND n.external
          AND NOT EXISTS (SELECT 1 FROM ${t.edges} e WHERE e.src = n.seq)
          AND NOT EXISTS (SELECT 1 FROM ${t.edges} e WHERE e.dst = n.seq)
        RETURNING 1)
      SELECT count(*)::int AS n FROM gone`),
  );
}

/** 10. Merkle roots of the touched groups, then the snapshot. */
async function commitSnapshot({ t, run, tally }: BatchWrite): Promise<WriteResult> {
  const { nodesWritten, edgesWritten, nodesDeleted, edgesDeleted } = tally;
  const dirty = await run<{ package: string; type: string }>(sql`SELECT package, type FROM ${STAGE.dirty}`);
  const changed = nodesWritten + nodesDeleted + edgesWritten + edgesDeleted > 0 || dirty.length > 0;
  const previous = (
    await run<SnapshotRow>(sql`
      SELECT generation, id, root, created_at::float8 AS created_at, node_count, edge_count FROM ${t.snapshots}
      ORDER BY generation DESC LIMIT 1`)
  )[0];
  if (!changed && previous !== undefined) return { nodesWritten, edgesWritten, nodesDeleted, edgesDeleted, snapshot: snapshotFromRow(previous) };
  if (dirty.length > 0) await recomputeRoots(run, t);
  await run(sql`
    UPDATE ${t.stats} SET
      search_docs = (SELECT count(*) FROM ${t.search_docs}), search_tokens = (SELECT coalesce(sum(len), 0) FROM ${t.search_docs}),
      lexical_docs = (SELECT count(*) FROM ${t.lexical_docs}), lexical_tokens = (SELECT coalesce(sum(len), 0) FROM ${t.lexical_docs})
    WHERE slot = 1`);
  const [totals] = await run<{ root: string | null; nodes: number; edges: number }>(sql`
    SELECT (SELECT count(*) FROM ${t.nodes})::int AS nodes, (SELECT count(*) FROM ${t.edges})::int AS edges,
      (SELECT array_agg(root) FROM ${t.merkle_packages})::text AS root`);
  const packageRoots = parseTextArray(totals?.root ?? null);
  const root = dirty.length === 0 && previous !== undefined ? previous.root : merkleRoot(packageRoots);
  const row: SnapshotRow = {
    generation: (previous === undefined ? 0 : Number(previous.generation)) + 1,
    id: snapshotId(root),
    root,
    created_at: Date.now(),
    node_count: Number(totals?.nodes ?? 0),
    edge_count: Number(totals?.edges ?? 0),
  };
  await run(sql`
    INSERT INTO ${t.snapshots} (generation, id, root, created_at, node_count, edge_count)
    VALUES (${row.generation}, ${row.id}, ${row.root}, ${row.created_at}, ${row.node_count}, ${row.edge_count})`);
  return { nodesWritten, edgesWritten, nodesDeleted, edgesDeleted, snapshot: snapshotFromRow(row) };
}

/** `{a,b}` as PostgreSQL prints a text[] of hex digests (no quoting needed). */
function parseTextArray(text: string | null): string[] {
  if (text === null || text === '{}') return [];
  return text.slice(1, -1).split(',');
}

/**
 * Level 1: the root of each dirty (package, edge type) group over its edges' keys, read back
 * in full; level 2: the root of each package touched over its type roots.
 */
async function recomputeRoots(run: Run, t: Tables): Promise<void> {
  const rows = await run<{ package: string; type: string; source: string; target: string }>(sql`
    SELECT d.package, d.type, s.id AS source, x.id AS target
    FROM ${STAGE.dirty} d
    JOIN ${t.nodes} s ON s.package = d.package
    JOIN ${t.edges} e ON e.src = s.seq AND e.type = d.type
    JOIN ${t.nodes} x ON x.seq = e.dst`);
  const leaves = new Map<string, { pkg: string; type: string; keys: string[] }>();
  for (const row of rows) {
    const key = `${row.package}\0${row.type}`;
    let group = leaves.get(key);
    if (group === undefined) leaves.set(key, (group = { pkg: row.package, type: row.type, keys: [] }));
    group.keys.push(edgeKey(row.source, row.target, row.type));
  }
  const present = { pkg: [] as string[], type: [] as string[], root: [] as string[], count: [] as number[] };
  for (const group of leaves.values()) {
    present.pkg.push(group.pkg);
    present.type.push(group.type);
    present.root.push(merkleRoot(group.keys));
    present.count.push(group.keys.length);
  }
  await run(sql`
    DELETE FROM ${t.merkle_types} m USING ${STAGE.dirty} d WHERE m.package = d.package AND m.type = d.type`);
  if (present.pkg.length > 0) {
    await run(sql`
      INSERT INTO ${t.merkle_types} (package, type, root, leaves)
      SELECT * FROM unnest(${present.pkg}::text[], ${present.type}::text[], ${present.root}::text[], ${present.count}::int[])`);
  }
  const typeRoots = await run<{ package: string; root: string }>(sql`
    SELECT m.package, m.root FROM ${t.merkle_types} m WHERE m.package IN (SELECT DISTINCT package FROM ${STAGE.dirty})`);
  const byPackage = new Map<string, string[]>();
  for (const row of typeRoots) {
    const list = byPackage.get(row.package) ?? [];
    list.push(row.root);
    byPackage.set(row.package, list);
  }
  await run(sql`DELETE FROM ${t.merkle_packages} WHERE package IN (SELECT DISTINCT package FROM ${STAGE.dirty})`);
  if (byPackage.size > 0) {
    const packages = [...byPackage.keys()];
    await run(sql`
      INSERT INTO ${t.merkle_packages} (package, root)
      SELECT * FROM unnest(${packages}::text[], ${packages.map((p) => merkleRoot(byPackage.get(p)!))}::text[])`);
  }
}
