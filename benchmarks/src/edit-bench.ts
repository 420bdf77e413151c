/**
 * What a one-file edit adds to the next `knowing context` answered by a running `knowing
 * watch`: the watched change and query figures of `bench:peers --watch`, without the peer, with
 * more runs, and alternating two builds of the CLI when `--bin` names another one.
 *
 *   pnpm bench:edit --corpus <dir> [--repos caddy,cargo] [--runs 5] [--bin <other>/packages/cli/dist/bin.cjs]
 *
 * Each repository is copied to a temporary folder (the corpus is never written) and indexed
 * with this tree's built CLI. Then, run by run and build by build (this tree, then `--bin`):
 * a `knowing watch` is started for the copy (quiet time 50 ms, ready, asked one untimed
 * query: as `bench:peers` starts it), a comment line is appended to the mid-sized file
 * `bench:peers` edits and `knowing context --fresh` is timed (change); the file is restored, the
 * index brought up to date (untimed), and `knowing context --no-refresh --fresh` is timed
 * (query); the watcher is stopped. Prints per build the medians of both and their difference,
 * the time the edit adds, with the load average before and after.
 *
 * Needs the built CLI: `pnpm build` in the repository root.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { editFile, journalFor, restoreOnExit } from './edit-journal.js';
import { taskFor } from './peers-lib.js';
import { median } from './perf-lib.js';
import { builtCliBin, editComment, listRepos } from './perf-measure.js';
import { copyCheckout, pickEditTarget, watchSession } from './watch-session.js';

const BUDGET = 5000;

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    repos: { type: 'string' },
    runs: { type: 'string', default: '5' },
    bin: { type: 'string' },
  },
});
if (!values.corpus) {
  process.stderr.write('usage: pnpm bench:edit --corpus <dir> [--repos caddy,cargo] [--runs 5] [--bin <other>/packages/cli/dist/bin.cjs]\n');
  process.exit(2);
}
const cwd = process.env.INIT_CWD ?? process.cwd();
const corpus = resolve(cwd, values.corpus);
const runs = Number(values.runs);
const builds = [builtCliBin(), ...(values.bin ? [resolve(cwd, values.bin)] : [])];
for (const bin of builds) if (!existsSync(bin)) throw new Error(`${bin} is missing — build it first`);
// The benchmark's own --import/--conditions must not reach the CLI.
const env = { ...process.env, NODE_OPTIONS: '' };

/** Wall time of one command; an answer not given by the watcher is an error (the figure would be another one). */
function timed(bin: string, root: string, args: readonly string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: root, env, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (result.status !== 0 || !result.stderr.includes('answered by the running')) {
    throw new Error(`\`knowing ${args.join(' ')}\` exited ${result.status} without the watcher's answer:\n${result.stderr.trim()}`);
  }
  return ms;
}

const work = mkdtempSync(join(tmpdir(), 'knowing-edit-bench-'));
const journal = journalFor(work);
restoreOnExit(journal);
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

const loadBefore = loadavg()[0]!;
const lines: string[] = [];
for (const repo of listRepos(corpus, values.repos?.split(',').map((r) => r.trim()))) {
  const root = join(work, 'copies', repo);
  const dbPath = join(work, 'dbs', repo, 'graph.db');
  mkdirSync(join(work, 'dbs', repo), { recursive: true });
  copyCheckout(join(corpus, repo), root);
  // A directory written in the last 2 s is listed again by every walk: let the copy settle.
  await new Promise((wait) => setTimeout(wait, 2_100));
  spawnSync(process.execPath, [builds[0]!, 'index', root, '--full', '--db', dbPath, '-q'], { env, stdio: 'inherit' });
  const file = await pickEditTarget(root, dbPath);
  if (!file) throw new Error(`${repo}: no file to edit`);
  const task = taskFor(repo);
  const where = ['--task', task, '--repo', root, '--db', dbPath, '--budget', String(BUDGET), '--fresh'];
  const figures = builds.map(() => ({ change: [] as number[], query: [] as number[] }));
  for (let run = 1; run <= runs; run++) {
    for (const [b, bin] of builds.entries()) {
      const session = watchSession(bin, root, dbPath, env, BUDGET);
      await session.open();
      try {
        const edit = editFile(join(root, file), editComment(file, `edit-bench ${run}`), journal);
        try {
          figures[b]!.change.push(timed(bin, root, ['context', ...where]));
        } finally {
          edit.restore();
        }
        spawnSync(process.execPath, [bin, 'index', root, '--db', dbPath, '-q'], { env });
        figures[b]!.query.push(timed(bin, root, ['context', ...where, '--no-refresh']));
      } finally {
        await session.close();
      }
    }
  }
  lines.push(`${repo} — edited ${file}; task "${task}"`);
  for (const [b, bin] of builds.entries()) {
    const change = median(figures[b]!.change);
    const query = median(figures[b]!.query);
    lines.push(`  ${bin}: change + query ${change.toFixed(0)} ms, query ${query.toFixed(0)} ms, the edit adds ${(change - query).toFixed(0)} ms`);
    lines.push(`    change ${figures[b]!.change.map((ms) => ms.toFixed(0)).join(' ')} · query ${figures[b]!.query.map((ms) => ms.toFixed(0)).join(' ')}`);
  }
}
process.stdout.write(`edit benchmark — corpus ${corpus}, ${runs} runs per build, alternating; load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}; medians\n${lines.join('\n')}\n`);
