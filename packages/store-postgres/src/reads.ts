import { ErrorCode, type EdgeQueryOptions, type FindByNameOptions, type GraphCounts, type GraphEdge, type NodeCounts, type NodeId, type RepoInfo } from '@knowing/graph';
import { asciiLower, checkLimit, edgeFromRow, fileFromRow, nodeFromRow, type EdgeRow, type FileRow, type NodeRow } from '@knowing/graph/store-kit';
import { sql, type RawBuilder } from 'kysely';
import { streamRows, type StoreCore } from './core.js';
import { SOURCE, storeError } from './errors.js';
import { listParam } from './options.js';
import { EDGE_COLUMNS, FILE_COLUMNS, NODE_COLUMNS } from './rows.js';
import type { PostgresGraphStore } from './types.js';

const DEFAULT_NAME_LIMIT = 100;
/** Upper bound of a prefix range under the "C" collation. */
const MAX_CHAR = '\u{10FFFF}';

/** The condition and order of each `match` of findNodesByName; `where` names the store in errors. */
function nameMatch(match: string, name: string, lower: string, where: string): { where: RawBuilder<unknown>; order: RawBuilder<unknown> } {
  switch (match) {
    case 'exact':
      return { where: sql`n.name_lower = ${lower} AND n.name = ${name}`, order: sql`n.external, n.file, n.start_line, n.seq` };
    case 'exact_ci':
      return { where: sql`n.name_lower = ${lower}`, order: sql`n.external, n.file, n.start_line, n.seq` };
    case 'prefix':
      return { where: sql`n.name_lower >= ${lower} AND n.name_lower < ${lower + MAX_CHAR}`, order: sql`length(n.name), n.name_lower, n.file, n.start_line, n.seq` };
    case 'substring':
      return { where: sql`strpos(n.name_lower, ${lower}) > 0`, order: sql`length(n.name), n.name_lower, n.file, n.start_line, n.seq` };
    default:
      throw storeError(ErrorCode.InvalidArgument, `${where}: findNodesByName: unknown match '${String(match)}'`, 'use exact, exact_ci, prefix or substring');
  }
}

/** The repository, nodes by id, name, qualified name, file and path, and file records. */
export function nodeReads({ t, target, run, rows }: StoreCore): Pick<
  PostgresGraphStore,
  'repo' | 'getNode' | 'getNodes' | 'findNodesByName' | 'findNodesByQualifiedName' | 'nodesInFile' | 'nodesUnderPath' | 'getFile' | 'listFiles'
> {
  return {
    repo: () =>
      run('repo', async (): Promise<RepoInfo | null> => {
        const [row] = await rows<{ id: string; root: string; commit_sha: string | null; indexed_at: number | null }>(
          sql`SELECT id, root, commit_sha, indexed_at::float8 AS indexed_at FROM ${t.repo} WHERE slot = 1`,
        );
        return row === undefined ? null : { id: row.id, root: row.root, commit: row.commit_sha, indexedAt: row.indexed_at };
      }),

    getNode: (id) =>
      run('getNode', async () => {
        const [row] = await rows<NodeRow>(sql`SELECT ${NODE_COLUMNS} FROM ${t.nodes} n WHERE n.id = ${id}`);
        return row === undefined ? undefined : nodeFromRow(row);
      }),

    getNodes: (ids) =>
      run('getNodes', async () => {
        if (ids.length === 0) return [];
        const found = await rows<NodeRow>(sql`SELECT ${NODE_COLUMNS} FROM ${t.nodes} n WHERE n.id = ANY(${[...ids]}::text[])`);
        const byId = new Map(found.map((row) => [row.id, nodeFromRow(row)]));
        return ids.flatMap((id) => byId.get(id) ?? []);
      }),

    findNodesByName: (name, options?: FindByNameOptions) =>
      run('findNodesByName', async () => {
        const { where, order } = nameMatch(options?.match ?? 'exact', name, asciiLower(name), target.where);
        const kinds = listParam(options?.kinds);
        const limit = checkLimit(options?.limit, DEFAULT_NAME_LIMIT, 'findNodesByName', SOURCE);
        const found = await rows<NodeRow>(sql`
          SELECT ${NODE_COLUMNS} FROM ${t.nodes} n
          WHERE ${where} AND (${options?.includeExternal === true} OR NOT n.external)
            AND (${kinds}::text[] IS NULL OR n.kind = ANY(${kinds}::text[]))
          ORDER BY ${order} LIMIT ${limit}::bigint`);
        return found.map(nodeFromRow);
      }),

    findNodesByQualifiedName: (qualifiedName) =>
      run('findNodesByQualifiedName', async () =>
        (await rows<NodeRow>(sql`SELECT ${NODE_COLUMNS} FROM ${t.nodes} n WHERE n.qualified_name = ${qualifiedName} ORDER BY n.seq`)).map(nodeFromRow),
      ),

    nodesInFile: (file) =>
      run('nodesInFile', async () =>
        file === '' ? [] : (await rows<NodeRow>(sql`SELECT ${NODE_COLUMNS} FROM ${t.nodes} n WHERE n.file = ${file} ORDER BY n.start_line, n.seq`)).map(nodeFromRow),
      ),

    nodesUnderPath: (prefix, options) =>
      run('nodesUnderPath', async () => {
        const kinds = listParam(options?.kinds);
        const limit = checkLimit(options?.limit, null, 'nodesUnderPath', SOURCE);
        const found = await rows<NodeRow>(sql`
          SELECT ${NODE_COLUMNS} FROM ${t.nodes} n
          WHERE n.file >= ${prefix} AND n.file < ${prefix + MAX_CHAR} AND NOT n.external
            AND (${kinds}::text[] IS NULL OR n.kind = ANY(${kinds}::text[]))
          ORDER BY n.file, n.start_line, n.seq LIMIT ${limit}::bigint`);
        return found.map(nodeFromRow);
      }),

    getFile: (path) =>
      run('getFile', async () => {
        const [row] = await rows<FileRow>(sql`SELECT ${FILE_COLUMNS} FROM ${t.files} WHERE path = ${path}`);
        return row === undefined ? undefined : fileFromRow(row);
      }),

    listFiles: () => run('listFiles', async () => (await rows<FileRow>(sql`SELECT ${FILE_COLUMNS} FROM ${t.files} ORDER BY path`)).map(fileFromRow)),
  };
}

/** Counts of what the store holds, edges by type only when asked (they read every edge). */
async function countAll({ t, rows }: StoreCore, withEdges: boolean): Promise<GraphCounts> {
  // One statement: the three counts come from the same snapshot.
  const found = await rows<{ what: string; a: string; b: string; n: number }>(sql`
    SELECT 'node' AS what, kind AS a, language AS b, count(*)::int AS n FROM ${t.nodes} GROUP BY kind, language
    ${withEdges ? sql`UNION ALL SELECT 'edge', type, '', count(*)::int FROM ${t.edges} GROUP BY type` : sql``}
    UNION ALL SELECT 'file', '', '', count(*)::int FROM ${t.files}`);
  const nodesByKind: Record<string, number> = {};
  const nodesByLanguage: Record<string, number> = {};
  const edgesByType: Record<string, number> = {};
  let nodes = 0;
  let edges = 0;
  let files = 0;
  // Own-property reads: a kind named `constructor` must not find Object.prototype's.
  const add = (record: Record<string, number>, key: string, n: number): void => {
    record[key] = (Object.hasOwn(record, key) ? record[key]! : 0) + n;
  };
  for (const row of found) {
    if (row.what === 'node') {
      nodes += row.n;
      add(nodesByKind, row.a, row.n);
      // Placeholders have no language; they count under their kind only.
      if (row.b !== '') add(nodesByLanguage, row.b, row.n);
    } else if (row.what === 'edge') {
      edges += row.n;
      add(edgesByType, row.a, row.n);
    } else {
      files = row.n;
    }
  }
  return { nodes, edges, files, nodesByKind, nodesByLanguage, edgesByType };
}

/** Edges around a node, the counts of what the store holds, and every node and edge. */
export function edgeReads(core: StoreCore): Pick<PostgresGraphStore, 'edgesFrom' | 'edgesTo' | 'nodeCounts' | 'counts' | 'allNodes' | 'allEdges'> {
  const { t, run, rows } = core;
  const edgeQuery = (which: 'from' | 'to', id: NodeId, options: EdgeQueryOptions | undefined): Promise<GraphEdge[]> =>
    run(which === 'from' ? 'edgesFrom' : 'edgesTo', async () => {
      const types = listParam(options?.types);
      const limit = checkLimit(options?.limit, null, which === 'from' ? 'edgesFrom' : 'edgesTo', SOURCE);
      const result =
        which === 'from'
          ? await rows<EdgeRow>(sql`
              SELECT ${EDGE_COLUMNS} FROM ${t.nodes} s JOIN ${t.edges} e ON e.src = s.seq JOIN ${t.nodes} x ON x.seq = e.dst
              WHERE s.id = ${id} AND (${types}::text[] IS NULL OR e.type = ANY(${types}::text[]))
              ORDER BY e.type, e.dst LIMIT ${limit}::bigint`)
          : await rows<EdgeRow>(sql`
              SELECT ${EDGE_COLUMNS} FROM ${t.nodes} x JOIN ${t.edges} e ON e.dst = x.seq JOIN ${t.nodes} s ON s.seq = e.src
              WHERE x.id = ${id} AND (${types}::text[] IS NULL OR e.type = ANY(${types}::text[]))
              ORDER BY e.type, e.src LIMIT ${limit}::bigint`);
      return result.map(edgeFromRow);
    });

  return {
    edgesFrom: (id, options) => edgeQuery('from', id, options),
    edgesTo: (id, options) => edgeQuery('to', id, options),

    nodeCounts: () =>
      run('nodeCounts', async (): Promise<NodeCounts> => {
        const { edges: _edges, edgesByType: _edgesByType, ...nodeSide } = await countAll(core, false);
        return nodeSide;
      }),

    counts: () => run('counts', () => countAll(core, true)),

    // In the order the graph was written (as the SQLite store reads it), never the heap's, which
    // an update reshuffles: an adjacency is built in this order, and what depends on it (the
    // communities) must not change from one read of the same graph to the next.
    allNodes: () => streamRows(core, 'allNodes', sql<NodeRow>`SELECT ${NODE_COLUMNS} FROM ${t.nodes} n ORDER BY n.seq`, nodeFromRow),

    allEdges: () =>
      streamRows(core, 'allEdges', sql<EdgeRow>`SELECT ${EDGE_COLUMNS} FROM ${t.edges} e JOIN ${t.nodes} s ON s.seq = e.src JOIN ${t.nodes} x ON x.seq = e.dst ORDER BY e.src, e.type, e.dst`, edgeFromRow),
  };
}
