/**
 * Load on `knowing serve`: concurrent MCP clients (the SDK's Streamable HTTP client) calling
 * context_for_task on several repositories of one store, while an index run writes to the same
 * store (a CI job after a push):
 *
 *   pnpm bench:serve [--corpus /work/corpus] [--repos flask,caddy,fastapi,jekyll,ripgrep]
 *                    [--clients 32] [--duration 60] [--think-ms 0] [--store postgres://…|temp]
 *                    [--writer caddy] [--writer-pause-ms 0] [--work DIR] [--keep]
 *
 * Each repository of the corpus is copied to a scratch directory (the checkouts are never
 * touched) and indexed there: into its own .knowing/graph.db (SQLite, the default), or into the
 * PostgreSQL database of --store (`temp` starts a throw-away server from Debian's postgresql
 * package, as the store-postgres tests do). `knowing serve` (the built CLI, packages/cli/dist)
 * then serves every copy; client i asks about repository i mod N, looping over that
 * repository's benchmark tasks (knowing-corpus/tasks/<repo>), after one unmeasured call each.
 * Meanwhile the writer edits one file of its copy and runs `knowing index` on it, again and
 * again, writing to the store the server reads. Prints throughput, p50/p95/p99 latency and
 * errors per repository and overall, the writer's runs, the server's peak memory, and how long
 * its graceful shutdown (SIGTERM) took.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readTasks } from './corpus.js';
import { fmt, fmtMs, formatTable, percentile } from './perf-lib.js';

const HERE = import.meta.dirname ?? '.';
const USAGE =
  'usage: serve-load [--corpus DIR] [--repos a,b] [--clients 32] [--duration 60] [--think-ms 0] [--store postgres://…|temp] [--writer NAME] [--writer-pause-ms 0] [--work DIR] [--keep] [--bin FILE]\n';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: '/work/corpus' },
    repos: { type: 'string', default: 'flask,caddy,fastapi,jekyll,ripgrep' },
    clients: { type: 'string', default: '32' },
    /** Seconds of measured load. */
    duration: { type: 'string', default: '60' },
    /**
     * Mean pause of each client between its calls (0: every client calls again at once). Each
     * pause is drawn from 0.5–1.5 times it, and clients start spread over one pause, so that
     * they do not call in step.
     */
    'think-ms': { type: 'string', default: '0' },
    /** A PostgreSQL URL, or `temp` for a throw-away server; SQLite files otherwise. */
    store: { type: 'string' },
    /** The repository the index runs write to during the load ('' for none). */
    writer: { type: 'string', default: 'caddy' },
    /** Pause between the writer's runs (0: back to back, the worst case). */
    'writer-pause-ms': { type: 'string', default: '0' },
    bench: { type: 'string', default: resolve(HERE, '../../../shared/bench/knowing-corpus') },
    /** Where the copies go (default: a new temporary directory, removed afterwards). */
    work: { type: 'string' },
    keep: { type: 'boolean', default: false },
    bin: { type: 'string', default: resolve(HERE, '../../packages/cli/dist/bin.cjs') },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const wholeNumber = (name: string, min: number): number => {
  const value = Number(values[name as keyof typeof values]);
  if (!Number.isInteger(value) || value < min) {
    process.stderr.write(`--${name} must be a whole number ≥ ${min}\n${USAGE}`);
    process.exit(2);
  }
  return value;
};
const clientCount = wholeNumber('clients', 1);
const durationS = wholeNumber('duration', 1);
const thinkMs = wholeNumber('think-ms', 0);
const writerPauseMs = wholeNumber('writer-pause-ms', 0);
const repoNames = values.repos!.split(',').map((r) => r.trim()).filter(Boolean);
const corpus = resolve(process.env.INIT_CWD ?? process.cwd(), values.corpus!);
const bin = resolve(process.env.INIT_CWD ?? process.cwd(), values.bin!);
if (!existsSync(bin)) {
  process.stderr.write(`${bin} is missing: build the CLI first (pnpm --filter knowing build, after its workspace packages)\n`);
  process.exit(2);
}
for (const name of repoNames) {
  if (!existsSync(join(corpus, name))) {
    process.stderr.write(`${join(corpus, name)} does not exist\n${USAGE}`);
    process.exit(2);
  }
}
const writerName = values.writer === '' ? undefined : values.writer;
if (writerName !== undefined && !repoNames.includes(writerName)) {
  process.stderr.write(`--writer ${writerName} is not among --repos\n`);
  process.exit(2);
}

const log = (line: string): void => void process.stderr.write(`[bench:serve] ${line}\n`);
const READ_TOKEN = `load-reader-${process.pid}-0123456789`;
const WRITE_TOKEN = `load-writer-${process.pid}-0123456789`;

// ------------------------------------------------------------------ the store

let stopPostgres: (() => void) | undefined;
let storeUrl: string | undefined = values.store;
if (storeUrl === 'temp') {
  const { startPostgres } = await import('../../packages/store-postgres/test/support/postgres.js');
  const server = await startPostgres({ log, database: 'knowing_load' });
  storeUrl = server.url;
  stopPostgres = server.stop;
  log(`throw-away PostgreSQL at ${storeUrl}`);
}
const storeLabel = storeUrl ? `PostgreSQL (${storeUrl.replace(/:[^:@/]*@/, ':***@')})` : 'SQLite (one .knowing/graph.db per copy)';
const storeArgs = (name: string): string[] => (storeUrl ? ['--store', `${storeUrl}${storeUrl.includes('?') ? '&' : '?'}repository=${encodeURIComponent(name)}`] : []);

function knowing(args: readonly string[]): { code: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

// ------------------------------------------------------------------ copies and indexes

const work = values.work ? resolve(values.work) : mkdtempSync(join(tmpdir(), 'knowing-serve-load-'));
interface Repo {
  readonly name: string;
  readonly copy: string;
  readonly tasks: readonly string[];
  files: number;
  symbols: number;
}
const bench = readTasks(values.bench!);
const repos: Repo[] = [];
for (const name of repoNames) {
  const copy = join(work, name);
  if (!existsSync(copy)) {
    // The index of the corpus checkout is not copied: each copy is indexed afresh.
    cpSync(join(corpus, name), copy, { recursive: true, filter: (source) => basename(source) !== '.knowing' });
  }
  const tasks = (bench.get(name) ?? []).map((task) => task.description);
  if (tasks.length === 0) {
    process.stderr.write(`no benchmark tasks for ${name} under ${values.bench}/tasks\n`);
    process.exit(2);
  }
  const started = performance.now();
  const indexed = knowing(['index', copy, '--json', ...storeArgs(name)]);
  if (indexed.code !== 0) throw new Error(`knowing index ${copy} failed (${indexed.code}): ${indexed.stderr}`);
  const summary = JSON.parse(indexed.stdout) as { files: { discovered: number; parsed: number }; nodes: number };
  log(`${name}: ${summary.files.discovered} files, ${summary.nodes} symbols indexed (${summary.files.parsed} parsed) in ${fmtMs(performance.now() - started)} ms`);
  repos.push({ name, copy, tasks, files: summary.files.discovered, symbols: summary.nodes });
}

// ------------------------------------------------------------------ the server

function startServer(): Promise<{ child: ChildProcess; endpoints: Map<string, string>; url: string }> {
  const args = ['serve', ...repos.flatMap((repo) => ['--checkout', `${repo.name}=${repo.copy}`]), '--port', '0', '--json', '--rate', '0', '--quiet'];
  if (storeUrl) args.push('--store', storeUrl);
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, KNOWING_TOKENS: `${READ_TOKEN},${WRITE_TOKEN} write` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  return new Promise((resolvePromise, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((l) => l.includes('"event":"listening"'));
      if (!line) return;
      const listening = JSON.parse(line) as { url: string; repositories: { name: string; endpoint: string }[] };
      resolvePromise({ child, url: listening.url, endpoints: new Map(listening.repositories.map((r) => [r.name, r.endpoint])) });
    });
    child.once('close', (code) => reject(new Error(`knowing serve exited with ${code}: ${err}`)));
  });
}

/** Peak resident memory of a process (VmHWM), in MB; NaN where /proc is missing. */
function peakMemoryMb(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

const server = await startServer();
log(`knowing serve on ${server.url} (pid ${server.child.pid}), ${storeLabel}`);

// ------------------------------------------------------------------ clients

interface Sample {
  readonly repo: string;
  readonly ms: number;
  readonly error?: string;
}

async function connect(endpoint: string): Promise<Client> {
  const client = new Client({ name: 'bench-serve-load', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { Authorization: `Bearer ${READ_TOKEN}` } } }));
  return client;
}

async function ask(client: Client, task: string): Promise<string | undefined> {
  try {
    const result = (await client.callTool({ name: 'context_for_task', arguments: { task_description: task } }, undefined, { timeout: 120_000 })) as CallToolResult;
    if (result.isError) return result.content.map((item) => (item.type === 'text' ? item.text : item.type)).join(' ').slice(0, 200);
    return undefined;
  } catch (error) {
    return (error as Error).message.slice(0, 200);
  }
}

const clients = await Promise.all(
  Array.from({ length: clientCount }, async (_, i) => {
    const repo = repos[i % repos.length]!;
    return { repo, index: i, client: await connect(server.endpoints.get(repo.name)!) };
  }),
);
// One unmeasured call per session: the engine loads the graph of each repository once, here.
const warmStarted = performance.now();
await Promise.all(clients.map(({ client, repo, index }) => ask(client, repo.tasks[index % repo.tasks.length]!)));
log(`${clientCount} sessions opened and warmed in ${fmtMs(performance.now() - warmStarted)} ms`);

// ------------------------------------------------------------------ the writer

interface WriterRun {
  readonly ms: number;
  readonly ok: boolean;
  readonly parsed: number;
  /** The last line of stderr of a failed run. */
  readonly error?: string;
}
const writerRuns: WriterRun[] = [];
let stopWriter = false;

/** A file of the writer's copy to edit: its largest source file of the language indexed most. */
function fileToEdit(copy: string): string {
  const byExtension = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'vendor') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const extension = /\.(go|py|rb|rs|ts|js|java|cs)$/.exec(entry.name)?.[1];
        if (extension) byExtension.set(extension, [...(byExtension.get(extension) ?? []), path]);
      }
    }
  };
  walk(copy);
  const files = [...byExtension.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
}

const COMMENT: Record<string, string> = { py: '#', rb: '#' };

async function writerLoop(repo: Repo): Promise<void> {
  const file = fileToEdit(repo.copy);
  const original = readFileSync(file);
  const comment = COMMENT[file.slice(file.lastIndexOf('.') + 1)] ?? '//';
  let generation = 0;
  try {
    while (!stopWriter) {
      generation += 1;
      // A comment changes the file's content (so it is re-parsed and written) without changing its symbols.
      appendFileSync(file, `\n${comment} load generation ${generation}\n`);
      const started = performance.now();
      const code = await new Promise<{ code: number; stdout: string; stderr: string }>((resolvePromise) => {
        const child = spawn(process.execPath, [bin, 'index', repo.copy, '--json', ...storeArgs(repo.name)], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        child.on('close', (exit) => resolvePromise({ code: exit ?? -1, stdout, stderr }));
      });
      const parsed = code.code === 0 ? (JSON.parse(code.stdout) as { files: { parsed: number } }).files.parsed : 0;
      const error = code.code === 0 ? undefined : `exit ${code.code}: ${code.stderr.trim().split('\n').filter((line) => line.startsWith('knowing:')).pop() ?? code.stderr.trim().slice(-200)}`;
      writerRuns.push({ ms: performance.now() - started, ok: code.code === 0, parsed, ...(error ? { error } : {}) });
      if (writerPauseMs > 0 && !stopWriter) await new Promise((resolvePromise) => setTimeout(resolvePromise, writerPauseMs));
    }
  } finally {
    writeFileSync(file, original);
  }
}

// ------------------------------------------------------------------ the run

const samples: Sample[] = [];
const loadBefore = loadavg()[0]!;
const deadline = performance.now() + durationS * 1000;
const writer = writerName ? writerLoop(repos.find((repo) => repo.name === writerName)!) : Promise.resolve();
const runStarted = performance.now();
await Promise.all(
  clients.map(async ({ client, repo, index }) => {
    let turn = index;
    if (thinkMs > 0) await new Promise((resolvePromise) => setTimeout(resolvePromise, Math.random() * thinkMs));
    while (performance.now() < deadline) {
      const task = repo.tasks[turn++ % repo.tasks.length]!;
      const started = performance.now();
      const error = await ask(client, task);
      samples.push({ repo: repo.name, ms: performance.now() - started, ...(error ? { error } : {}) });
      if (thinkMs > 0) await new Promise((resolvePromise) => setTimeout(resolvePromise, thinkMs * (0.5 + Math.random())));
    }
  }),
);
const elapsedS = (performance.now() - runStarted) / 1000;
const loadAfter = loadavg()[0]!;
stopWriter = true;
await writer;
const peakMb = peakMemoryMb(server.child.pid);

for (const { client } of clients) await client.close().catch(() => undefined);
const shutdownStarted = performance.now();
server.child.kill('SIGTERM');
const exitCode = await new Promise<number>((resolvePromise) => server.child.once('close', (code) => resolvePromise(code ?? -1)));
const shutdownMs = performance.now() - shutdownStarted;

// ------------------------------------------------------------------ report

const row = (label: string, group: readonly Sample[], symbols: string): string[] => {
  const ms = group.filter((s) => !s.error).map((s) => s.ms);
  return [
    label,
    symbols,
    fmt(group.length),
    fmt(group.length / elapsedS, 1),
    fmtMs(percentile(ms, 0.5)),
    fmtMs(percentile(ms, 0.95)),
    fmtMs(percentile(ms, 0.99)),
    fmtMs(ms.length ? Math.max(...ms) : Number.NaN),
    fmt(group.filter((s) => s.error).length),
  ];
};
const lines = [
  `knowing serve under load: ${clientCount} clients (SDK Streamable HTTP), ${fmt(elapsedS, 1)} s, ${thinkMs > 0 ? `${thinkMs} ms mean pause between a client's calls` : 'no pause between calls'}, context_for_task (gcf, code included)`,
  `store: ${storeLabel}; data: copies of ${repoNames.map((name) => join(corpus, name)).join(', ')}; tasks: ${values.bench}/tasks`,
  `writer: ${writerName ? `knowing index on ${writerName} after a one-line edit${writerPauseMs > 0 ? `, ${writerPauseMs} ms apart` : ', back to back'}, ${writerRuns.length} runs (${writerRuns.filter((r) => !r.ok).length} failed), p50 ${fmtMs(percentile(writerRuns.map((r) => r.ms), 0.5))} ms, ${fmt(writerRuns.filter((r) => r.parsed === 1).length)} parsed exactly 1 file` : 'none'}`,
  '',
  ...formatTable(
    ['repository', 'symbols', 'calls', 'calls/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'errors'],
    [...repos.map((repo) => row(repo.name, samples.filter((s) => s.repo === repo.name), fmt(repo.symbols))), row('all', samples, fmt(repos.reduce((a, r) => a + r.symbols, 0)))],
    ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  ),
  '',
  `server: peak memory ${fmt(peakMb)} MB; SIGTERM → exit ${exitCode} in ${fmtMs(shutdownMs)} ms`,
  `machine: ${availableParallelism()} cores, 1-minute load average ${fmt(loadBefore, 1)} before the run and ${fmt(loadAfter, 1)} after (the server, the clients and the writer share the cores)`,
];
const writerErrors = writerRuns.filter((run) => run.error).map((run) => run.error!);
if (writerErrors.length > 0) lines.push(`writer errors: ${[...new Set(writerErrors)].slice(0, 3).join(' | ')}`);
const errors = samples.filter((s) => s.error);
if (errors.length > 0) lines.push(`first errors: ${[...new Set(errors.map((s) => s.error))].slice(0, 3).join(' | ')}`);
process.stdout.write(`${lines.join('\n')}\n`);

stopPostgres?.();
if (!values.keep && !values.work) rmSync(work, { recursive: true, force: true });
else log(`copies kept in ${work}`);
process.exit(errors.length > 0 || exitCode !== 0 ? 1 : 0);
