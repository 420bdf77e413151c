// Schema per repository (what the store does) against one set of tables with a repository
// column, on the same data: a large repository and a small one in one database, synthetic
// graphs from a seeded generator (Zipf-distributed words, 3 edges and ~40 lexical terms per
// symbol). Prints what each layout costs to create, to query the small repository while the
// large one is there, and to remove a repository.
//
//   pnpm --filter @knowing/store-postgres exec tsx benchmarks/layout.ts [largeSymbols] [smallSymbols]
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { nodeId, type FileWrite, type GraphNode, type LexicalDocument } from '@knowing/graph';
import { createPostgresStore, type PostgresGraphStore } from '../src/index.js';
import { startPostgres } from '../test/support/postgres.js';

const LARGE = Number(process.argv[2] ?? 40_000);
const SMALL = Number(process.argv[3] ?? 1_000);
const RUNS = 40;

let seed = 42;
const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const WORDS = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);
/** Zipf-like: word i with weight 1/(i+1). */
const word = (): string => WORDS[Math.min(WORDS.length - 1, Math.floor(Math.exp(random() * Math.log(WORDS.length + 1))) - 1)]!;
const words = (n: number): string => Array.from({ length: n }, word).join(' ');

function graph(label: string, symbols: number): FileWrite[] {
  const perFile = 20;
  const files: FileWrite[] = [];
  const ids: string[] = [];
  for (let f = 0; f * perFile < symbols; f++) {
    const path = `src/${label}/pkg${f % 50}/mod${f}.py`;
    const nodes: GraphNode[] = [];
    const lexical = new Map<string, LexicalDocument>();
    for (let i = 0; i < perFile && f * perFile + i < symbols; i++) {
      const name = `${word()}_${word()}_${f}_${i}`;
      const qualifiedName = `${path}.${name}`;
      const id = nodeId(label, qualifiedName, 'function');
      nodes.push({ id, name, qualifiedName, kind: 'function', language: 'python', file: path, startLine: i * 10 + 1, endLine: i * 10 + 9, signature: `def ${name}(${word()}, ${word()}):`, doc: words(12), isTest: false, external: false });
      lexical.set(id, { name: name.replace(/_/g, ' '), path: path.replace(/[/.]/g, ' '), signature: words(3), doc: words(8), body: words(30), members: '' });
      ids.push(id);
    }
    files.push({ file: { path, language: 'python', contentHash: path, sizeBytes: 1000, indexedAt: 0, syntaxErrors: 0 }, nodes, edges: [], lexical });
  }
  // Edges: each symbol calls three others.
  for (const w of files) {
    const edges = w.nodes.flatMap((n) =>
      [0, 1, 2].map(() => ({ source: n.id, target: ids[Math.floor(random() * ids.length)]!, type: 'calls', confidence: 0.9, provenance: 'ast_resolved' as const, line: 1 })),
    );
    (w as { edges: FileWrite['edges'] }).edges = edges;
  }
  return files;
}


async function median(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const ms = (x: number): string => `${x.toFixed(2)} ms`;

const server = await startPostgres({ log: (line) => console.error(line), database: 'knowing_bench' });
try {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  console.log(`data: synthetic graphs, large ${LARGE} symbols / ${LARGE * 3} edges, small ${SMALL} symbols / ${SMALL * 3} edges; PostgreSQL ${(await client.query('SHOW server_version')).rows[0].server_version}; ${RUNS} runs per query, median`);

  // --- Schema per repository (the store) ---
  const createTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const s = await createPostgresStore({ connectionString: server.url, repository: `empty-${i}` });
    createTimes.push(performance.now() - start);
    await s.close();
  }
  createTimes.sort((a, b) => a - b);
  const relations = Number((await client.query(`SELECT count(*) AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = 'knowing_empty_0_' || substr(encode(sha256('empty-0'), 'hex'), 1, 8)`)).rows[0].n);

  const large: PostgresGraphStore = await createPostgresStore({ connectionString: server.url, repository: 'large' });
  const small: PostgresGraphStore = await createPostgresStore({ connectionString: server.url, repository: 'small' });
  let start = performance.now();
  await large.applyBatch({ files: graph('large', LARGE) });
  const loadLarge = performance.now() - start;
  const smallFiles = graph('small', SMALL);
  start = performance.now();
  await small.applyBatch({ files: smallFiles });
  const loadSmall = performance.now() - start;
  await client.query(`ANALYZE`);

  console.log('\nschema per repository (the store)');
  console.log(`  create a repository (schema + migrations): median ${ms(createTimes[2]!)}; ${relations} relations in the catalog per repository`);
  console.log(`  first index: large ${(loadLarge / 1000).toFixed(1)} s, small ${ms(loadSmall)}`);

  const probe = smallFiles[7]!.nodes[3]!;
  const common = WORDS[0]!;
  const rare = WORDS[400]!;
  const sa = small.schema;
  const q = (sql: string, params: unknown[] = []) => client.query(sql, params);
  const perSchema = {
    getNode: await median(() => small.getNode(probe.id)),
    edgesFrom: await median(() => small.edgesFrom(probe.id)),
    prefix: await median(() => small.findNodesByName(common, { match: 'prefix', limit: 20 })),
    matchCommon: await median(() => q(`SELECT count(*) FROM "${sa}".search_docs WHERE tsv @@ $1::tsquery`, [`'d:${common}'`])),
    matchRare: await median(() => q(`SELECT count(*) FROM "${sa}".search_docs WHERE tsv @@ $1::tsquery`, [`'d:${rare}'`])),
    search: await median(() => small.search(`${common} OR ${rare}`)),
    lexical: await median(() => small.lexicalSearch([common, rare])),
  };

  // --- One set of tables with a repository column, filled with the same rows ---
  const la = large.schema;
  await q(`CREATE SCHEMA col`);
  await q(`CREATE TABLE col.nodes (repo int, seq bigint, id text COLLATE "C", name_lower text COLLATE "C", file text COLLATE "C", start_line int, PRIMARY KEY (repo, seq), UNIQUE (repo, id))`);
  await q(`CREATE INDEX ON col.nodes (repo, name_lower)`);
  await q(`CREATE TABLE col.edges (repo int, src bigint, type text COLLATE "C", dst bigint, PRIMARY KEY (repo, src, type, dst))`);
  await q(`CREATE TABLE col.search_docs (repo int, seq bigint, tsv tsvector, len int, PRIMARY KEY (repo, seq))`);
  await q(`CREATE INDEX ON col.search_docs USING gin (tsv)`);
  await q(`CREATE TABLE col.lexical_terms (repo int, term text COLLATE "C", seq bigint, tf int, PRIMARY KEY (repo, term, seq))`);
  start = performance.now();
  for (const [repo, schema] of [[1, la], [2, sa]] as const) {
    await q(`INSERT INTO col.nodes SELECT ${repo}, seq, id, name_lower, file, start_line FROM "${schema}".nodes`);
    await q(`INSERT INTO col.edges SELECT ${repo}, src, type, dst FROM "${schema}".edges`);
    await q(`INSERT INTO col.search_docs SELECT ${repo}, seq, tsv, len FROM "${schema}".search_docs`);
    await q(`INSERT INTO col.lexical_terms SELECT ${repo}, term, seq, tf_body FROM "${schema}".lexical_terms`);
  }
  await q(`ANALYZE`);
  const perColumn = {
    getNode: await median(() => q(`SELECT * FROM col.nodes WHERE repo = 2 AND id = $1`, [probe.id])),
    edgesFrom: await median(() => q(`SELECT x.id FROM col.nodes s JOIN col.edges e ON e.repo = s.repo AND e.src = s.seq JOIN col.nodes x ON x.repo = e.repo AND x.seq = e.dst WHERE s.repo = 2 AND s.id = $1`, [probe.id])),
    prefix: await median(() => q(`SELECT * FROM col.nodes WHERE repo = 2 AND name_lower >= $1 AND name_lower < $1 || chr(1114111) ORDER BY length(name_lower) LIMIT 20`, [common])),
    matchCommon: await median(() => q(`SELECT count(*) FROM col.search_docs WHERE repo = 2 AND tsv @@ $1::tsquery`, [`'d:${common}'`])),
    matchRare: await median(() => q(`SELECT count(*) FROM col.search_docs WHERE repo = 2 AND tsv @@ $1::tsquery`, [`'d:${rare}'`])),
    lexicalDf: await median(() => q(`SELECT term, count(*) FROM col.lexical_terms WHERE repo = 2 AND term = ANY($1) GROUP BY term`, [[common, rare]])),
  };
  const perSchemaDf = await median(() => q(`SELECT term, count(*) FROM "${sa}".lexical_terms WHERE term = ANY($1) GROUP BY term`, [[common, rare]]));

  console.log('\nqueries on the small repository while the large one shares the database (median)');
  console.log('  query                          schema/repo   repo column');
  const line = (name: string, a: number, b: number | string) => console.log(`  ${name.padEnd(30)} ${ms(a).padStart(11)}   ${typeof b === 'number' ? ms(b).padStart(11) : b}`);
  line('getNode', perSchema.getNode, perColumn.getNode);
  line('edgesFrom', perSchema.edgesFrom, perColumn.edgesFrom);
  line('findNodesByName prefix', perSchema.prefix, perColumn.prefix);
  line('tsquery match, common word', perSchema.matchCommon, perColumn.matchCommon);
  line('tsquery match, rare word', perSchema.matchRare, perColumn.matchRare);
  line('lexical document frequencies', perSchemaDf, perColumn.lexicalDf);
  line('search() (whole, store)', perSchema.search, '—');
  line('lexicalSearch() (whole, store)', perSchema.lexical, '—');

  start = performance.now();
  for (const table of ['lexical_terms', 'search_docs', 'edges', 'nodes']) await q(`DELETE FROM col.${table} WHERE repo = 1`);
  const deleteColumn = performance.now() - start;
  await large.close();
  start = performance.now();
  await q(`DROP SCHEMA "${la}" CASCADE`);
  const dropSchema = performance.now() - start;
  console.log(`\nremove the large repository: DROP SCHEMA … CASCADE ${ms(dropSchema)}; DELETE … WHERE repo = 1 over 4 tables ${ms(deleteColumn)} (plus the VACUUM it leaves to do)`);
  await small.close();
  await client.end();
} finally {
  server.stop();
}
