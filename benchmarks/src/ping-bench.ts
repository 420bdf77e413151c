/**
 * How long a request waits while the MCP server runs an index: `knowing mcp` (the built CLI)
 * over a copy of a repository, driven by the SDK's stdio client. Each round calls `reindex`
 * (the first round builds the index, the others are `full: true`) and, while it runs, sends
 * pings one after another (the next one `--gap-ms` after the previous answer). Prints, per
 * round, how long the reindex took, how many pings were answered before it, and their slowest
 * and median latency: the longest stretch the server's thread did not read its input.
 *
 *   pnpm bench:ping [--repo DIR] [--rounds 4] [--gap-ms 5] [--bin packages/cli/dist/bin.cjs] [--keep]
 *
 * The default repository is this checkout's `packages/` (TypeScript sources and Python test
 * fixtures; node_modules and dist left out). The copy goes to a temporary directory; the
 * checkout is never written. Needs the built CLI: `pnpm build` in the repository root.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fmtMs, formatTable, percentile } from './perf-lib.js';

const HERE = import.meta.dirname ?? '.';
const USAGE = 'usage: ping-bench [--repo DIR] [--rounds 4] [--gap-ms 5] [--bin FILE] [--keep]\n';

const { values } = parseArgs({
  options: {
    repo: { type: 'string', default: resolve(HERE, '../../packages') },
    rounds: { type: 'string', default: '4' },
    'gap-ms': { type: 'string', default: '5' },
    bin: { type: 'string', default: resolve(HERE, '../../packages/cli/dist/bin.cjs') },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const cwd = process.env.INIT_CWD ?? process.cwd();
const source = resolve(cwd, values.repo!);
const bin = resolve(cwd, values.bin!);
const rounds = Number(values.rounds);
const gapMs = Number(values['gap-ms']);
if (!existsSync(bin)) {
  process.stderr.write(`${bin} is missing: build the CLI first (pnpm build)\n`);
  process.exit(2);
}
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(gapMs) || gapMs < 0) {
  process.stderr.write(USAGE);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'knowing-ping-bench-'));
const root = join(work, basename(source));
// Build output and installed packages are not the repository's code.
cpSync(source, root, { recursive: true, filter: (path) => !/[/\\](node_modules|dist|\.knowing|\.git)$/.test(path) });

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [bin, 'mcp', '--repo', root, '--db', join(work, 'graph.db'), '--quiet'],
  env: getDefaultEnvironment(),
  stderr: 'ignore',
});
const client = new Client({ name: 'knowing-ping-bench', version: '0.0.0' });
await client.connect(transport);

interface Round {
  readonly kind: string;
  readonly reindexMs: number;
  /** Latencies of the pings answered before the reindex was. */
  readonly pings: number[];
}

async function round(full: boolean): Promise<Round> {
  let done = false;
  const started = performance.now();
  const reindex = client.callTool({ name: 'reindex', arguments: { full } }, undefined, { timeout: 600_000 }).then((result) => {
    done = true;
    if (result.isError) throw new Error(`reindex failed: ${JSON.stringify(result.content)}`);
    return performance.now() - started;
  });
  const pings: number[] = [];
  while (!done) {
    const sent = performance.now();
    await client.ping();
    if (!done) pings.push(performance.now() - sent);
    await new Promise((wake) => setTimeout(wake, gapMs));
  }
  return { kind: full ? 'full' : 'first index', reindexMs: await reindex, pings };
}

const results: Round[] = [];
try {
  for (let i = 0; i < rounds; i++) results.push(await round(i > 0));
} finally {
  await client.close();
  if (!values.keep) rmSync(work, { recursive: true, force: true });
}

process.stdout.write(`ping latency during a reindex by \`knowing mcp\` (${bin})\n`);
process.stdout.write(`repository: copy of ${source}; ${availableParallelism()} cores, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n\n`);
const rows = results.map((r, i) => {
  const sorted = [...r.pings].sort((a, b) => a - b);
  return [String(i + 1), r.kind, fmtMs(r.reindexMs), String(r.pings.length), sorted.length ? fmtMs(sorted.at(-1)!) : '-', sorted.length ? fmtMs(percentile(sorted, 0.5)) : '-'];
});
process.stdout.write(`${formatTable(['round', 'run', 'reindex', 'pings answered', 'slowest ping', 'median ping'], rows).join('\n')}\n`);
const fullRounds = results.slice(1).flatMap((r) => r.pings);
if (fullRounds.length > 0) process.stdout.write(`\nslowest ping over the full runs: ${fmtMs(Math.max(...fullRounds))}\n`);
