/**
 * How soon `knowing watch` sees an edit: the time from writing a new function into a file to
 * that function being in the index, while the built CLI's `watch` runs on a copy of a checkout.
 *
 *   pnpm bench:watch --repo <checkout> [--runs 10] [--file <repo-relative path>]
 *
 * Copies the checkout to a temporary directory (never writing the checkout), indexes the copy
 * with the built CLI, starts `knowing watch` on it and waits for its first line on stderr, then,
 * run after run, appends a function with a fresh name to the file (default: a mid-sized source
 * file of the index, as the other benchmarks pick it) and polls the index read-only every 20 ms
 * until a symbol of that name is there. Prints the median, p95 and worst latency. The issue's
 * target: within 2 s on flask.
 *
 * Needs the built CLI: `pnpm --filter knowing... build` in the repository root.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteStore } from '@knowing/store-sqlite';
import { builtCliBin, pickFile } from './perf-measure.js';

const { values } = parseArgs({
  options: {
    repo: { type: 'string' },
    runs: { type: 'string', default: '10' },
    file: { type: 'string' },
    timeout: { type: 'string', default: '20000' },
  },
});
if (!values.repo) {
  process.stderr.write('usage: pnpm bench:watch --repo <checkout> [--runs 10] [--file <path>]\n');
  process.exit(2);
}
const checkout = resolve(process.env.INIT_CWD ?? process.cwd(), values.repo);
const runs = Number(values.runs);
const timeoutMs = Number(values.timeout);
const bin = builtCliBin();

const scratch = mkdtempSync(join(tmpdir(), 'knowing-watch-bench-'));
const root = join(scratch, basename(checkout));
cpSync(checkout, root, { recursive: true, filter: (source) => !source.includes(`${join(checkout, '.knowing')}`) });
const db = join(root, '.knowing', 'graph.db');

function runCli(args: readonly string[]): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', fail);
    child.on('close', (code) => done(code ?? -1));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

try {
  if ((await runCli(['index', '--quiet'])) !== 0) throw new Error('knowing index failed on the copy');
  const picked = await (async () => {
    const store = await createSqliteStore({ path: db, readonly: true });
    try {
      return await pickFile(store);
    } finally {
      await store.close();
    }
  })();
  const file = values.file ?? picked;
  if (!file) throw new Error('the index holds no source file to edit');
  const language = file.endsWith('.py') ? 'python' : file.endsWith('.go') ? 'go' : file.endsWith('.rs') ? 'rust' : file.endsWith('.rb') ? 'ruby' : 'script';
  const watcher = spawn(process.execPath, [bin, 'watch'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  await new Promise<void>((ready) => {
    watcher.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('\n')) ready();
    });
  });
  await sleep(500);
  const latencies: number[] = [];
  for (let run = 0; run < runs; run++) {
    const name = `watch_bench_probe_${run}_${Date.now().toString(36)}`;
    const source =
      language === 'python'
        ? `\n\ndef ${name}():\n    return ${run}\n`
        : language === 'go'
          ? `\n\nfunc ${name}() int { return ${run} }\n`
          : language === 'rust'
            ? `\n\npub fn ${name}() -> u32 { ${run} }\n`
            : language === 'ruby'
              ? `\n\ndef ${name}\n  ${run}\nend\n`
              : `\n\nexport function ${name}(): number { return ${run}; }\n`;
    const started = performance.now();
    appendFileSync(join(root, file), source);
    let seen = false;
    while (!seen && performance.now() - started < timeoutMs) {
      await sleep(20);
      const store = await createSqliteStore({ path: db, readonly: true });
      try {
        seen = (await store.findNodesByName(name, { match: 'exact' })).length > 0;
      } finally {
        await store.close();
      }
    }
    const elapsed = performance.now() - started;
    latencies.push(seen ? elapsed : Number.POSITIVE_INFINITY);
    process.stdout.write(`run ${run + 1}: ${seen ? `${Math.round(elapsed)} ms` : `not seen within ${timeoutMs} ms`}\n`);
    await sleep(300);
  }
  watcher.kill('SIGINT');
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  process.stdout.write(`${basename(checkout)} (${file}): new function in the index after median ${Math.round(at(0.5))} ms, p95 ${Math.round(at(0.95))} ms, worst ${Math.round(latencies.at(-1)!)} ms over ${runs} edits\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
