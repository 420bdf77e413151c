import type Database from 'better-sqlite3';
import {
  ErrorCode,
  type EdgeQueryOptions,
  type FindByNameOptions,
  type GraphCounts,
  type GraphEdge,
  type GraphNode,
  type GraphOutline,
  type NodeCounts,
  type NodeId,
  type NodeKind,
  type Provenance,
  type RepoInfo,
} from '@knowing/graph';
import { asciiLower, checkLimit, edgeFromRow, fileFromRow, nodeFromRow, type EdgeRow, type FileRow } from '@knowing/graph/store-kit';
import type { StoreCore } from './core.js';
import { SOURCE, storeError } from './errors.js';
import { NO_LIMIT, jsonList } from './options.js';
import { EDGE_COLUMNS, NODE_COLUMNS, prefixUpperBound, type NodeRow } from './rows.js';
import type { SqliteGraphStore } from './types.js';

/** Rows fetched per step by allNodes/allEdges. */
const PAGE_SIZE = 2000;
const DEFAULT_NAME_LIMIT = 100;

function nodes(rows: unknown[]): GraphNode[] {
  return (rows as NodeRow[]).map(nodeFromRow);
}

/** One statement per `match` of findNodesByName, each ordered as the contract orders it. */
function prepareNameLookups(db: Database.Database): Record<string, Database.Statement | undefined> {
  return {
    exact: db.prepare(
      `SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.name_lower = @lower AND n.name = @name
         AND (@external = 1 OR n.external = 0) AND (@kinds IS NULL OR n.kind IN (SELECT value FROM json_each(@kinds)))
       ORDER BY n.external, n.file, n.start_line, n.seq LIMIT @limit`,
    ),
    exact_ci: db.prepare(
      `SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.name_lower = @lower
         AND (@external = 1 OR n.external = 0) AND (@kinds IS NULL OR n.kind IN (SELECT value FROM json_each(@kinds)))
       ORDER BY n.external, n.file, n.start_line, n.seq LIMIT @limit`,
    ),
    prefix: db.prepare(
      `SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.name_lower >= @lower AND n.name_lower < @upper
         AND (@external = 1 OR n.external = 0) AND (@kinds IS NULL OR n.kind IN (SELECT value FROM json_each(@kinds)))
       ORDER BY length(n.name), n.name_lower, n.file, n.start_line, n.seq LIMIT @limit`,
    ),
    // No index can serve a substring; the planner scans the small name_lower index
    // (covering) rather than the table.
    substring: db.prepare(
      `SELECT ${NODE_COLUMNS} FROM nodes n WHERE instr(n.name_lower, @lower) > 0
         AND (@external = 1 OR n.external = 0) AND (@kinds IS NULL OR n.kind IN (SELECT value FROM json_each(@kinds)))
       ORDER BY length(n.name), n.name_lower, n.file, n.start_line, n.seq LIMIT @limit`,
    ),
  };
}

/** The repository, nodes by id, name, qualified name, file and path, and file records. */
export function nodeReads({ db, path, run }: StoreCore): Pick<
  SqliteGraphStore,
  'repo' | 'getNode' | 'getNodes' | 'findNodesByName' | 'findNodesByQualifiedName' | 'nodesInFile' | 'nodesUnderPath' | 'getFile' | 'listFiles'
> {
  const st = {
    repo: db.prepare('SELECT id, root, commit_sha, indexed_at FROM repos WHERE slot = 1'),
    nodeById: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.id = ?`),
    nodesByIds: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.id IN (SELECT value FROM json_each(?))`),
    byName: prepareNameLookups(db),
    byQualifiedName: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.qualified_name = ? ORDER BY n.seq`),
    inFile: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.file = ? ORDER BY n.start_line, n.seq`),
    underPath: db.prepare(
      `SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.file >= @lower AND n.file < @upper AND n.external = 0
         AND (@kinds IS NULL OR n.kind IN (SELECT value FROM json_each(@kinds)))
       ORDER BY n.file, n.start_line, n.seq LIMIT @limit`,
    ),
    file: db.prepare('SELECT path, language, content_hash, size_bytes, indexed_at, syntax_errors FROM files WHERE path = ?'),
    files: db.prepare('SELECT path, language, content_hash, size_bytes, indexed_at, syntax_errors FROM files ORDER BY path'),
  };
  return {
    repo: () =>
      run('repo', (): RepoInfo | null => {
        const row = st.repo.get() as { id: string; root: string; commit_sha: string | null; indexed_at: number | null } | undefined;
        return row === undefined ? null : { id: row.id, root: row.root, commit: row.commit_sha, indexedAt: row.indexed_at };
      }),

    getNode: (id) =>
      run('getNode', () => {
        const row = st.nodeById.get(id) as NodeRow | undefined;
        return row === undefined ? undefined : nodeFromRow(row);
      }),

    getNodes: (ids) =>
      run('getNodes', () => {
        if (ids.length === 0) return [];
        const byId = new Map<string, GraphNode>();
        for (const node of nodes(st.nodesByIds.all(JSON.stringify(ids)))) byId.set(node.id, node);
        const out: GraphNode[] = [];
        for (const id of ids) {
          const node = byId.get(id);
          if (node !== undefined) out.push(node);
        }
        return out;
      }),

    findNodesByName: (name, options?: FindByNameOptions) =>
      run('findNodesByName', () => {
        const match = options?.match ?? 'exact';
        const statement = st.byName[match];
        if (statement === undefined) {
          throw storeError(ErrorCode.InvalidArgument, `${path}: findNodesByName: unknown match '${String(match)}'`, 'use exact, exact_ci, prefix or substring');
        }
        const lower = asciiLower(name);
        return nodes(
          statement.all({
            name,
            lower,
            ...(match === 'prefix' ? { upper: prefixUpperBound(lower) } : {}),
            external: options?.includeExternal === true ? 1 : 0,
            kinds: jsonList(options?.kinds),
            limit: checkLimit(options?.limit, DEFAULT_NAME_LIMIT, 'findNodesByName', SOURCE),
          }),
        );
      }),

    findNodesByQualifiedName: (qualifiedName) => run('findNodesByQualifiedName', () => nodes(st.byQualifiedName.all(qualifiedName))),

    nodesInFile: (file) => run('nodesInFile', () => (file === '' ? [] : nodes(st.inFile.all(file)))),

    nodesUnderPath: (prefix, options?: { readonly kinds?: readonly NodeKind[]; readonly limit?: number }) =>
      run('nodesUnderPath', () =>
        nodes(
          st.underPath.all({
            lower: prefix,
            upper: prefixUpperBound(prefix),
            kinds: jsonList(options?.kinds),
            limit: checkLimit(options?.limit, NO_LIMIT, 'nodesUnderPath', SOURCE),
          }),
        ),
      ),

    getFile: (file) =>
      run('getFile', () => {
        const row = st.file.get(file) as FileRow | undefined;
        return row === undefined ? undefined : fileFromRow(row);
      }),

    listFiles: () => run('listFiles', () => (st.files.all() as FileRow[]).map(fileFromRow)),
  };
}

/** Edges around a node and the counts of what the store holds. */
export function edgeReads({ db, run }: StoreCore): Pick<SqliteGraphStore, 'edgesFrom' | 'edgesTo' | 'nodeCounts' | 'counts'> {
  const st = {
    edgesFrom: db.prepare(
      `SELECT ${EDGE_COLUMNS} FROM nodes s JOIN edges e ON e.src = s.seq JOIN nodes t ON t.seq = e.dst
       WHERE s.id = @id AND (@types IS NULL OR e.type IN (SELECT value FROM json_each(@types)))
       ORDER BY e.type, e.dst LIMIT @limit`,
    ),
    edgesTo: db.prepare(
      `SELECT ${EDGE_COLUMNS} FROM nodes t JOIN edges e ON e.dst = t.seq JOIN nodes s ON s.seq = e.src
       WHERE t.id = @id AND (@types IS NULL OR e.type IN (SELECT value FROM json_each(@types)))
       ORDER BY e.type, e.src LIMIT @limit`,
    ),
    countNodes: db.prepare('SELECT kind, language, count(*) AS n FROM nodes GROUP BY kind, language'),
    countEdges: db.prepare('SELECT type, count(*) AS n FROM edges GROUP BY type'),
    countFiles: db.prepare('SELECT count(*) FROM files').pluck(),
  };

  function edgeQuery(which: 'edgesFrom' | 'edgesTo', id: NodeId, options: EdgeQueryOptions | undefined): GraphEdge[] {
    const rows = st[which].all({
      id,
      types: jsonList(options?.types),
      limit: checkLimit(options?.limit, NO_LIMIT, which, SOURCE),
    });
    return (rows as EdgeRow[]).map(edgeFromRow);
  }

  function countNodes(): NodeCounts {
    const byKind = st.countNodes.all() as { kind: string; language: string; n: number }[];
    const nodesByKind: Record<string, number> = {};
    const nodesByLanguage: Record<string, number> = {};
    let nodes = 0;
    for (const row of byKind) {
      const n = Number(row.n);
      nodes += n;
      // Own-property reads: a kind named `constructor` must not find Object.prototype's.
      nodesByKind[row.kind] = (Object.hasOwn(nodesByKind, row.kind) ? nodesByKind[row.kind]! : 0) + n;
      // Placeholders have no language; they are counted under their kind only.
      if (row.language !== '') {
        nodesByLanguage[row.language] = (Object.hasOwn(nodesByLanguage, row.language) ? nodesByLanguage[row.language]! : 0) + n;
      }
    }
    return { nodes, files: Number(st.countFiles.get()), nodesByKind, nodesByLanguage };
  }

  return {
    edgesFrom: (id, options) => run('edgesFrom', () => edgeQuery('edgesFrom', id, options)),
    edgesTo: (id, options) => run('edgesTo', () => edgeQuery('edgesTo', id, options)),

    nodeCounts: () => run('nodeCounts', countNodes),

    counts: () =>
      run('counts', (): GraphCounts => {
        const { nodes, files, nodesByKind, nodesByLanguage } = countNodes();
        const byType = st.countEdges.all() as { type: string; n: number }[];
        const edgesByType: Record<string, number> = {};
        let edgeTotal = 0;
        for (const row of byType) {
          edgesByType[row.type] = Number(row.n);
          edgeTotal += Number(row.n);
        }
        return { nodes, edges: edgeTotal, files, nodesByKind, nodesByLanguage, edgesByType };
      }),
  };
}

/** Every node and every edge: paged streams and the compact outline. */
export function graphScans({ db, run, writer }: StoreCore): Pick<SqliteGraphStore, 'allNodes' | 'allEdges' | 'graphOutline'> {
  const st = {
    nodesPage: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.seq > ? ORDER BY n.seq LIMIT ?`),
    outlineNodes: db.prepare('SELECT seq, id, kind, is_test, external FROM nodes ORDER BY seq').raw(),
    // The primary key's order, as allEdges pages them; no join: endpoints map through the nodes.
    outlineEdges: db.prepare('SELECT src, dst, type, provenance, confidence FROM edges ORDER BY src, type, dst').raw(),
    // CROSS JOIN pins edges as the outer loop: the keyset cursor must seek the primary key.
    // Left to the planner, some statistics drive the join from nodes and sort every
    // remaining edge per page (quadratic: 92 s instead of ~4 s over rails' 1.2M edges).
    edgesPage: db.prepare(
      `SELECT e.src, e.dst, ${EDGE_COLUMNS} FROM edges e CROSS JOIN nodes s ON s.seq = e.src CROSS JOIN nodes t ON t.seq = e.dst
       WHERE (e.src, e.type, e.dst) > (?, ?, ?) ORDER BY e.src, e.type, e.dst LIMIT ?`,
    ),
  };
  return {
    allNodes: () => ({
      // Pages by primary key instead of holding one statement open: better-sqlite3 refuses
      // writes on a connection while an iterator is open, and a consumer may well await a
      // write (a note, a batch) between two nodes. Memory stays bounded by the page size.
      async *[Symbol.asyncIterator]() {
        let after = 0;
        for (;;) {
          const page = await run('allNodes', () => st.nodesPage.all(after, PAGE_SIZE) as NodeRow[]);
          for (const row of page) yield nodeFromRow(row);
          if (page.length < PAGE_SIZE) return;
          after = page[page.length - 1]!.seq;
        }
      },
    }),

    graphOutline: () =>
      run('graphOutline', (): GraphOutline => {
        // Right after a first index, the rows this connection just wrote, without reading them back.
        const loaded = writer?.takeLoadedOutline();
        if (loaded !== undefined) return loaded;
        const idOf = new Map<number, NodeId>();
        const nodes = (st.outlineNodes.all() as [number, NodeId, NodeKind, number, number][]).map(([seq, id, kind, isTest, external]) => {
          idOf.set(seq, id);
          return { id, kind, isTest: isTest === 1, external: external === 1 };
        });
        const edges = (st.outlineEdges.all() as [number, number, string, Provenance, number][]).map(([src, dst, type, provenance, confidence]) => ({
          source: idOf.get(src)!,
          target: idOf.get(dst)!,
          type,
          provenance,
          confidence,
        }));
        return { nodes, edges };
      }),

    allEdges: () => ({
      async *[Symbol.asyncIterator]() {
        let cursor: [number, string, number] = [0, '', 0];
        for (;;) {
          const page = await run(
            'allEdges',
            () => st.edgesPage.all(cursor[0], cursor[1], cursor[2], PAGE_SIZE) as (EdgeRow & { src: number; dst: number })[],
          );
          for (const row of page) yield edgeFromRow(row);
          if (page.length < PAGE_SIZE) return;
          const last = page[page.length - 1]!;
          cursor = [last.src, last.type, last.dst];
        }
      },
    }),
  };
}
