/**
 * Store parity: the same repository indexed into SQLite and into PostgreSQL by the CLI, then every
 * corpus task of that repository answered by an engine over each store. Prints, per repository,
 * how many tasks ranked the same symbols in the same order (top 10 and the whole packed answer)
 * and the largest score difference.
 *
 *   pnpm bench:parity --corpus <dir> [--repos flask,caddy] [--store postgres://…|temp] [--budget 5000] [--bench <task corpus>]
 *
 * `--store temp` (the default) starts a throw-away PostgreSQL from Debian's postgresql package, as
 * the store's tests do. The corpus is never written: each index goes to a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '@knowing/engine';
import type { ContextResult } from '@knowing/engine';
import { createPostgresStore } from '@knowing/store-postgres';
import { createSqliteStore } from '@knowing/store-sqlite';
import { readTasks } from './corpus.js';

const HERE = import.meta.dirname ?? '.';
const BIN = resolve(HERE, '../../packages/cli/dist/bin.cjs');
const USAGE = 'usage: pnpm bench:parity --corpus <dir> [--repos flask,caddy] [--store postgres://…|temp] [--budget 5000] [--bench <task corpus>]\n';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    repos: { type: 'string', default: 'flask,caddy' },
    store: { type: 'string', default: 'temp' },
    budget: { type: 'string', default: '5000' },
    // The tasks sit next to the main checkout; a worktree elsewhere has to name them.
    bench: { type: 'string', default: resolve(HERE, '../../../shared/bench/knowing-corpus') },
  },
});
if (!values.corpus) {
  process.stderr.write(USAGE);
  process.exit(2);
}
const corpus = resolve(process.env.INIT_CWD ?? process.cwd(), values.corpus);
const budget = Number(values.budget);
const log = (line: string): void => void process.stderr.write(`${line}\n`);

let url = values.store!;
let stop: (() => void) | undefined;
if (url === 'temp') {
  const { startPostgres } = await import('../../packages/store-postgres/test/support/postgres.js');
  const server = await startPostgres({ log, database: 'knowing_parity' });
  url = server.url;
  stop = server.stop;
}

function indexInto(repo: string, target: readonly string[]): void {
  const run = spawnSync(process.execPath, [BIN, 'index', repo, '--full', '-q', ...target], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  if (run.status !== 0) throw new Error(`knowing index ${target.join(' ')} failed: ${run.stderr.trim()}`);
}

/** The ids of a ranking's first n symbols, in order. */
const ids = (symbols: ContextResult['ranked'], n = Infinity): string[] => symbols.slice(0, n).map((s) => s.node.id);

/** The first channel (or the walk) whose output differs between two traced answers to one task. */
function firstDifference(a: ContextResult, b: ContextResult): string {
  const ta = a.trace!;
  const tb = b.trace!;
  const show = (hits: readonly { node: { id: string }; score?: number }[] | undefined): string => (hits ?? []).map((h) => `${h.node.id.slice(0, 6)}:${h.score?.toFixed(6) ?? ''}`).join(' ');
  for (const name of Object.keys(ta.channels)) {
    if (show(ta.channels[name]) !== show(tb.channels[name])) return `channel ${name}\n    sqlite   ${show(ta.channels[name]).slice(0, 300)}\n    postgres ${show(tb.channels[name]).slice(0, 300)}`;
  }
  if (ta.seeds.map((s) => s.node.id).join() !== tb.seeds.map((s) => s.node.id).join()) return 'seeds';
  return 'after the seeds (walk, HITS or ranking)';
}

const tasks = readTasks(resolve(process.env.INIT_CWD ?? process.cwd(), values.bench!));
const work = mkdtempSync(join(tmpdir(), 'knowing-parity-'));
const lines: string[] = [];
try {
  for (const name of values.repos!.split(',').map((r) => r.trim()).filter(Boolean)) {
    const repo = join(corpus, name);
    const dbPath = join(work, `${name}.db`);
    const repository = `parity-${name}`;
    log(`${name}: indexing into SQLite and PostgreSQL`);
    indexInto(repo, ['--db', dbPath]);
    indexInto(repo, ['--store', `${url}${url.includes('?') ? '&' : '?'}repository=${repository}`]);
    const sqlite = await createSqliteStore({ path: dbPath, readonly: true });
    const postgres = await createPostgresStore({ connectionString: url, repository, readonly: true });
    try {
      const engines = [createEngine({ store: sqlite }), createEngine({ store: postgres })] as const;
      let sameTop = 0;
      let samePack = 0;
      let maxScoreDiff = 0;
      let onlyOne = 0;
      const own = tasks.get(name) ?? [];
      for (const task of own) {
        // Traced answers are worked out afresh (no answer or walk cache), and say where they part.
        const [a, b] = (await Promise.all(engines.map((engine) => engine.forTask(task.description, { budget, trace: true })))) as [ContextResult, ContextResult];
        const sameTen = ids(a.ranked, 10).join() === ids(b.ranked, 10).join();
        const sameAnswer = ids(a.pack.symbols).join() === ids(b.pack.symbols).join();
        if (sameTen) sameTop++;
        if (sameAnswer) samePack++;
        if (!sameTen || !sameAnswer) log(`  ${task.id}: ${sameTen ? 'packed answers' : 'top 10'} differ; first differing stage: ${firstDifference(a, b)}`);
        const scores = new Map(a.ranked.map((s) => [s.node.id, s.score]));
        const inB = new Set(b.ranked.map((s) => s.node.id));
        for (const s of b.ranked) {
          const other = scores.get(s.node.id);
          if (other !== undefined) maxScoreDiff = Math.max(maxScoreDiff, Math.abs(other - s.score));
        }
        onlyOne += b.ranked.filter((s) => !scores.has(s.node.id)).length + a.ranked.filter((s) => !inB.has(s.node.id)).length;
      }
      lines.push(`${name.padEnd(12)} tasks ${String(own.length).padStart(3)}  same top 10 ${sameTop}/${own.length}  same packed answer ${samePack}/${own.length}  largest score difference ${maxScoreDiff.toExponential(2)}  ranked by one store only ${onlyOne}`);
    } finally {
      await sqlite.close();
      await postgres.close();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
  stop?.();
}
process.stdout.write(`store parity — SQLite against PostgreSQL, budget ${budget}, corpus tasks\n${lines.join('\n')}\n`);
