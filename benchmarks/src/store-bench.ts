/**
 * Store benchmark: bulk write throughput, FTS query latency, DB size and the cost of an
 * incremental one-file rewrite, on a synthetic graph shaped like a mid-sized repository.
 *
 *   node --conditions=@knowing/source --import tsx src/store-bench.ts [--nodes 200000 --edges 800000]
 *   options: --files 5000  --batch-files 100  --queries 200  --seed 42  --keep
 */
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { nodeId, qualifiedName, type FileWrite, type GraphEdge, type GraphNode, type LanguageId } from '@knowing/graph';
import { createSqliteStore } from '@knowing/store-sqlite';

interface Args {
  nodes: number;
  edges: number;
  files: number;
  batchFiles: number;
  queries: number;
  seed: number;
  keep: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { nodes: 200_000, edges: 800_000, files: 5_000, batchFiles: 100, queries: 200, seed: 42, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = Number(argv[i + 1]);
    switch (flag) {
      case '--nodes': args.nodes = value; i++; break;
      case '--edges': args.edges = value; i++; break;
      case '--files': args.files = value; i++; break;
      case '--batch-files': args.batchFiles = value; i++; break;
      case '--queries': args.queries = value; i++; break;
      case '--seed': args.seed = value; i++; break;
      case '--keep': args.keep = true; break;
      default: throw new Error(`unknown argument ${flag}`);
    }
  }
  return args;
}

/** Log-uniform rank: item k is picked with probability ∝ 1/k (a Zipf-like skew). */
function zipf<T>(list: readonly T[], u: number): T {
  return list[Math.min(list.length - 1, Math.floor(Math.pow(list.length + 1, u)) - 1)]!;
}

/** mulberry32: small, fast, deterministic. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Word lists for identifiers and docs. Picked with a Zipf-like skew (a few words very common,
// most rare), as in real code, so query terms range from hitting half the index to a handful.
const VERBS = ['get', 'set', 'load', 'save', 'parse', 'build', 'handle', 'create', 'update', 'delete', 'validate', 'render', 'fetch', 'compute', 'resolve', 'register', 'dispatch', 'encode', 'decode', 'refresh', 'open', 'close', 'flush', 'apply', 'merge', 'split', 'format', 'check', 'index', 'emit', 'init', 'reset', 'start', 'stop', 'run', 'read', 'write', 'send', 'receive', 'publish', 'subscribe', 'serialize', 'deserialize', 'normalize', 'sanitize', 'authorize', 'authenticate', 'schedule', 'retry', 'cancel', 'upload', 'download', 'import', 'export', 'transform', 'filter', 'map', 'reduce', 'sort', 'group'];
const NOUNS = ['user', 'session', 'token', 'request', 'response', 'config', 'cache', 'store', 'route', 'handler', 'query', 'graph', 'node', 'edge', 'file', 'path', 'message', 'event', 'queue', 'worker', 'schema', 'record', 'batch', 'client', 'server', 'socket', 'buffer', 'header', 'cookie', 'template', 'view', 'model', 'account', 'payment', 'order', 'invoice', 'product', 'report', 'metric', 'logger', 'context', 'state', 'option', 'setting', 'policy', 'role', 'permission', 'group', 'team', 'project', 'task', 'job', 'pipeline', 'stage', 'artifact', 'build', 'release', 'version', 'commit', 'branch', 'repository', 'document', 'page', 'section', 'widget', 'layout', 'theme', 'style', 'asset', 'image', 'video', 'upload', 'bucket', 'blob', 'stream', 'channel', 'topic', 'subscription', 'notification', 'email', 'sms', 'webhook', 'endpoint', 'gateway', 'proxy', 'balancer', 'cluster', 'shard', 'replica', 'partition', 'table', 'column', 'row', 'cursor', 'transaction', 'migration', 'seed', 'fixture', 'mock', 'stub', 'spy', 'assertion', 'matcher', 'parser', 'lexer', 'token', 'ast', 'visitor', 'compiler', 'emitter', 'plugin', 'extension', 'module', 'package', 'dependency', 'registry', 'resolver', 'loader', 'bundle', 'chunk', 'manifest', 'catalog', 'inventory', 'warehouse', 'shipment', 'carrier', 'address', 'customer', 'vendor', 'discount', 'coupon', 'cart', 'checkout', 'tax', 'currency', 'ledger', 'balance'];
const ACRONYMS = ['HTTP', 'SQL', 'JSON', 'XML', 'URL', 'API', 'TLS', 'DB', 'JWT', 'CSV', 'RPC', 'SQLite'];
const AREAS = ['auth', 'billing', 'catalog', 'checkout', 'core', 'api', 'storage', 'search', 'notify', 'admin', 'reports', 'sync', 'web', 'cli', 'jobs', 'infra'];
const SUBS = ['models', 'views', 'handlers', 'services', 'utils', 'middleware', 'adapters', 'schemas', 'tasks', 'clients'];
const DOC_WORDS = ['the', 'a', 'to', 'of', 'and', 'is', 'in', 'for', 'returns', 'if', 'when', 'with', 'value', 'this', 'be', 'by', 'or', 'not', 'from', 'it', 'on', 'as', 'an', 'given', 'current', 'called', 'before', 'after', 'each', 'request', 'stores', 'result', 'cache', 'raises', 'error', 'missing', 'uses', 'config', 'timeout', 'retries', 'connection', 'pool', 'parses', 'input', 'into', 'records', 'validates', 'schema', 'fields', 'default', 'optional', 'list', 'map', 'key', 'name', 'id', 'new', 'existing', 'empty', 'valid', 'invalid', 'true', 'false', 'none', 'null', 'string', 'number', 'object', 'array', 'callback', 'promise', 'async', 'lock', 'thread', 'memory', 'disk', 'network', 'retry', 'backoff', 'limit', 'offset', 'page', 'size', 'count', 'total', 'first', 'last', 'next', 'previous', 'parent', 'child', 'root', 'tree', 'recursive', 'lazy', 'eager', 'deprecated', 'internal', 'public', 'private', 'override', 'subclass', 'interface', 'implementation', 'helper', 'wrapper', 'decorator', 'middleware', 'hook', 'signal', 'handler', 'listener', 'observer', 'emits', 'triggers', 'schedules', 'cancels', 'flushes', 'commits', 'rolls', 'back', 'migrates', 'upgrades', 'normalizes', 'escapes', 'quotes', 'encodes', 'decodes', 'hashes', 'signs', 'verifies', 'encrypts', 'decrypts', 'compresses', 'streams', 'buffers', 'batches', 'throttles', 'debounces', 'caches', 'invalidates', 'evicts', 'expires', 'refreshes', 'rotates', 'tenant', 'locale', 'timezone', 'currency', 'permission', 'role', 'audit', 'trail'];
const EXTERNALS = ['requests.get', 'requests.post', 'os.path.join', 'json.dumps', 'json.loads', 'logging.getLogger', 'time.sleep', 'fmt.Sprintf', 'errors.New', 'context.Background', 'Promise.all', 'console.error', 'fs.readFile', 'path.resolve', 're.compile', 'datetime.now'];

const REPO = 'github.com/bench/synthetic';
const FILES_PER_DIR = 8;

interface Generated {
  readonly write: FileWrite;
  readonly externals: GraphNode[];
}

function makeGenerator(args: Args) {
  // Re-seeded per file, so a file regenerates identically (the incremental rewrite needs that).
  let rand = rng(args.seed);
  const pick = <T>(list: readonly T[]): T => zipf(list, rand());
  const cap = (s: string): string => s[0]!.toUpperCase() + s.slice(1);
  const nodesPerFile = Math.max(2, Math.round(args.nodes / args.files));
  const edgesPerFile = Math.max(1, Math.round(args.edges / args.files));
  const fileNodeIds: string[][] = [];
  const externalNodes = new Map<string, GraphNode>();

  const pathOf = (i: number): { path: string; language: LanguageId } => {
    // ~8 files per directory (package), consecutive files side by side.
    const dirIndex = Math.floor(i / FILES_PER_DIR);
    const area = AREAS[dirIndex % AREAS.length]!;
    const sub = SUBS[Math.floor(dirIndex / AREAS.length) % SUBS.length]!;
    const pkg = Math.floor(dirIndex / (AREAS.length * SUBS.length));
    const language: LanguageId = (['python', 'typescript', 'go'] as const)[i % 3]!;
    const ext = language === 'python' ? 'py' : language === 'typescript' ? 'ts' : 'go';
    const stem = language === 'typescript' ? `${cap(pick(NOUNS))}${cap(pick(NOUNS))}` : `${pick(NOUNS)}_${pick(NOUNS)}`;
    return { path: `src/${area}/${sub}${pkg}/${stem}_${i}.${ext}`, language };
  };

  const doc = (): string => {
    const n = 6 + Math.floor(rand() * 14);
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(pick(DOC_WORDS));
    if (rand() < 0.3) words.push(`${pick(VERBS)}_${pick(NOUNS)}`);
    return cap(words.join(' ')) + '.';
  };

  const external = (name: string): GraphNode => {
    let node = externalNodes.get(name);
    if (!node) {
      const qn = `external://${name}`;
      node = {
        id: nodeId(REPO, qn, 'external'), name: name.slice(name.lastIndexOf('.') + 1), qualifiedName: qn, kind: 'external',
        language: '', file: '', startLine: 0, endLine: 0, signature: '', doc: '', isTest: false, external: true,
      };
      externalNodes.set(name, node);
    }
    return node;
  };

  function file(i: number, variant = 0): Generated {
    rand = rng(args.seed * 1_000_003 + i);
    const { path, language } = pathOf(i);
    const nodes: GraphNode[] = [];
    const classes: GraphNode[] = [];
    let line = 1;
    const classCount = Math.max(1, Math.round(nodesPerFile / 8));
    for (let c = 0; c < classCount && nodes.length < nodesPerFile; c++) {
      const name = rand() < 0.25 ? `${pick(ACRONYMS)}${cap(pick(NOUNS))}${cap(pick(NOUNS))}` : `${cap(pick(NOUNS))}${cap(pick(NOUNS))}`;
      const cls: GraphNode = {
        id: nodeId(REPO, qualifiedName(path, [], `${name}${c}`), 'class'), name: `${name}${c}`, qualifiedName: qualifiedName(path, [], `${name}${c}`),
        kind: 'class', language, file: path, startLine: line, endLine: line + 60, signature: `class ${name}${c}:`,
        doc: doc(), isTest: false, external: false,
      };
      nodes.push(cls);
      classes.push(cls);
      line += 2;
    }
    while (nodes.length < nodesPerFile) {
      const k = nodes.length;
      const method = rand() < 0.6;
      const owner = pick(classes);
      const base = language === 'python' || language === 'go' && !method ? `${pick(VERBS)}_${pick(NOUNS)}` : `${pick(VERBS)}${cap(pick(NOUNS))}`;
      const name = `${base}${k}`;
      const scopes = method ? [owner.name] : [];
      const qn = qualifiedName(path, scopes, name);
      const kind = method ? 'method' : 'function';
      nodes.push({
        id: nodeId(REPO, qn, kind), name, qualifiedName: qn, kind, language, file: path, startLine: line, endLine: line + 8,
        signature: language === 'python' ? `def ${name}(self, ${pick(NOUNS)}, ${pick(NOUNS)}=None):` : `${name}(${pick(NOUNS)}: ${cap(pick(NOUNS))}): ${cap(pick(NOUNS))}`,
        doc: variant > 0 && k === nodesPerFile - 1 ? `${doc()} Changed in variant ${variant}.` : doc(),
        isTest: path.includes('test'), external: false,
      });
      line += 10;
    }
    fileNodeIds[i] = nodes.map((n) => n.id);

    const edges: GraphEdge[] = [];
    const seen = new Set<string>();
    const externals: GraphNode[] = [];
    const add = (e: GraphEdge): void => {
      const key = `${e.source}|${e.type}|${e.target}`;
      if (!seen.has(key)) {
        seen.add(key);
        edges.push(e);
      }
    };
    for (const n of nodes) {
      if (n.kind === 'method') {
        const owner = classes.find((c) => n.qualifiedName.startsWith(`${c.qualifiedName}.`)) ?? classes[0]!;
        add({ source: owner.id, target: n.id, type: 'contains', confidence: 1, provenance: 'ast_resolved' });
      }
    }
    let guard = 0;
    while (edges.length < edgesPerFile && guard++ < edgesPerFile * 20) {
      const source = pick(nodes);
      const r = rand();
      if (r < 0.05) {
        const ext = external(pick(EXTERNALS));
        if (!externals.includes(ext)) externals.push(ext);
        add({ source: source.id, target: ext.id, type: 'calls', confidence: 0.6, provenance: 'ast_inferred', line: source.startLine + 1 });
        continue;
      }
      // Targets in this file or an earlier one (so they exist when this batch lands), mostly nearby.
      const j = r < 0.5 ? i : Math.max(0, i - 1 - Math.floor(rand() * (rand() < 0.8 ? 40 : i + 1)));
      const targets = fileNodeIds[j]!;
      const target = targets[Math.floor(rand() * targets.length)]!;
      if (target === source.id) continue;
      const type = r < 0.8 ? 'calls' : r < 0.9 ? 'references' : r < 0.95 ? 'imports' : 'type_hint_of';
      add({ source: source.id, target, type, confidence: type === 'calls' ? 0.9 : 0.8, provenance: 'ast_resolved', line: source.startLine + 2 });
    }
    if (variant > 0) add({ source: nodes[nodes.length - 1]!.id, target: nodes[0]!.id, type: 'depends_on', confidence: 0.5, provenance: 'ast_inferred' });
    const record = { path, language, contentHash: `hash-${i}-${variant}`, sizeBytes: 4000 + nodes.length * 120, indexedAt: Date.now(), syntaxErrors: 0 };
    return { write: { file: record, nodes, edges }, externals };
  }

  return { file, nodesPerFile, edgesPerFile };
}

const QUERY_SHAPES: ((pick: <T>(l: readonly T[]) => T, cap: (s: string) => string) => string)[] = [
  (pick) => pick(NOUNS),
  (pick) => `${pick(VERBS)}_${pick(NOUNS)}`,
  (pick, cap) => `${cap(pick(NOUNS))}${cap(pick(NOUNS))}`,
  (pick) => `name:"${pick(VERBS)}_${pick(NOUNS)}" OR ${pick(NOUNS)}`,
  (pick) => `${pick(NOUNS)} OR ${pick(NOUNS)} OR ${pick(VERBS)}`,
  (pick) => `"${pick(DOC_WORDS)} ${pick(DOC_WORDS)}"`,
  (pick) => `${pick(VERBS).slice(0, 3)}*`,
  (pick) => `concepts:${pick(AREAS)} AND ${pick(NOUNS)}`,
  (pick) => `path:${pick(SUBS)} ${pick(NOUNS)}`,
  (pick) => `${pick(ACRONYMS)} OR ${pick(NOUNS)}`,
];

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function sizeOf(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const gen = makeGenerator(args);
  const dir = mkdtempSync(join(tmpdir(), 'knowing-store-bench-'));
  const dbPath = join(dir, 'graph.db');
  console.log('knowing store benchmark (@knowing/store-sqlite)');
  console.log(
    `data: synthetic repository, seed ${args.seed}: ${args.files} files (python/typescript/go) in ${Math.ceil(args.files / FILES_PER_DIR)} directories, ` +
      `~${gen.nodesPerFile} nodes and ~${gen.edgesPerFile} edges per file (target ${args.nodes} nodes / ${args.edges} edges), ` +
      `CamelCase/snake_case names, 6-20 word docs, ${EXTERNALS.length} external placeholders`,
  );
  console.log(`machine: ${cpus()[0]?.model ?? 'unknown cpu'} x${cpus().length}, node ${process.version}; db: ${dbPath}`);

  const store = await createSqliteStore({ path: dbPath });
  let written = 0;
  let nodes = 0;
  let edges = 0;
  let writeMs = 0;
  let writeCpuMs = 0;
  let genMs = 0;
  let batches = 0;
  for (let start = 0; start < args.files; start += args.batchFiles) {
    const g0 = performance.now();
    const files: FileWrite[] = [];
    const externals = new Map<string, GraphNode>();
    for (let i = start; i < Math.min(args.files, start + args.batchFiles); i++) {
      const f = gen.file(i);
      files.push(f.write);
      for (const e of f.externals) externals.set(e.id, e);
    }
    genMs += performance.now() - g0;
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const result = await store.applyBatch({
      files,
      externalNodes: [...externals.values()],
      repo: start === 0 ? { id: REPO, root: '/bench/synthetic', commit: null, indexedAt: Date.now() } : undefined,
    });
    writeMs += performance.now() - t0;
    const c = process.cpuUsage(c0);
    writeCpuMs += (c.user + c.system) / 1000;
    batches++;
    nodes += result.nodesWritten;
    edges += result.edgesWritten;
    written += result.nodesWritten + result.edgesWritten;
  }
  const snapshot = await store.currentSnapshot();
  console.log('');
  console.log(`bulk write: ${nodes} nodes + ${edges} edges in ${batches} batches of ${args.batchFiles} files`);
  console.log(`  applyBatch wall ${(writeMs / 1000).toFixed(2)} s → ${Math.round(written / (writeMs / 1000)).toLocaleString('en-US')} rows/s (generation ${(genMs / 1000).toFixed(2)} s excluded)`);
  // CPU time of this process during applyBatch: steadier than wall time on a shared machine.
  console.log(`  applyBatch cpu  ${(writeCpuMs / 1000).toFixed(2)} s → ${Math.round(written / (writeCpuMs / 1000)).toLocaleString('en-US')} rows/s per busy core`);
  console.log(`  snapshot generation ${snapshot?.generation}, ${snapshot?.nodeCount} nodes, ${snapshot?.edgeCount} edges, root ${snapshot?.root.slice(0, 12)}…`);

  // FTS query latency.
  const rand = rng(args.seed + 1);
  const pick = <T>(list: readonly T[]): T => zipf(list, rand());
  const cap = (s: string): string => s[0]!.toUpperCase() + s.slice(1);
  const queries: string[] = [];
  for (let i = 0; i < args.queries; i++) queries.push(QUERY_SHAPES[i % QUERY_SHAPES.length]!(pick, cap));
  for (const q of queries.slice(0, 10)) await store.search(q, { limit: 30 });
  const latencies: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const t0 = performance.now();
    const result = await store.search(q, { limit: 30 });
    latencies.push(performance.now() - t0);
    hits += result.length;
  }
  latencies.sort((a, b) => a - b);
  console.log('');
  console.log(`FTS search: ${queries.length} queries, ${QUERY_SHAPES.length} shapes (identifiers, snake/Camel names, column filters, OR lists, phrases, prefixes), limit 30`);
  console.log(`  p50 ${percentile(latencies, 50).toFixed(2)} ms, p95 ${percentile(latencies, 95).toFixed(2)} ms, max ${latencies[latencies.length - 1]!.toFixed(2)} ms; mean hits ${(hits / queries.length).toFixed(1)}`);
  console.log(`  e.g. ${queries.slice(0, 5).map((q) => JSON.stringify(q)).join(', ')}`);

  // Incremental: rewrite one file (one doc changed, one edge more), as a re-index of an edited file would.
  const fileIndex = Math.floor(args.files / 2);
  const edited = gen.file(fileIndex, 1);
  const oneFileTimes: number[] = [];
  for (let round = 0; round < 5; round++) {
    const w = round % 2 === 0 ? edited.write : gen.file(fileIndex, 0).write;
    const t0 = performance.now();
    const r = await store.applyBatch({ files: [w], externalNodes: edited.externals });
    oneFileTimes.push(performance.now() - t0);
    if (round === 0) {
      console.log('');
      console.log(`one-file rewrite (${w.nodes.length} nodes, ${w.edges.length} edges; diffed: ${r.nodesWritten} nodes / ${r.edgesWritten} edges written, ${r.nodesDeleted} / ${r.edgesDeleted} deleted)`);
    }
  }
  oneFileTimes.sort((a, b) => a - b);
  console.log(`  median ${percentile(oneFileTimes, 50).toFixed(2)} ms over ${oneFileTimes.length} rewrites (min ${oneFileTimes[0]!.toFixed(2)} ms)`);

  const counts = await store.counts();
  await store.close();
  console.log('');
  console.log(`database: ${mb(sizeOf(dbPath) + sizeOf(`${dbPath}-wal`))} on disk after close (${counts.nodes} nodes, ${counts.edges} edges, ${counts.files} files)`);
  if (args.keep) console.log(`kept ${dbPath}`);
  else rmSync(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
