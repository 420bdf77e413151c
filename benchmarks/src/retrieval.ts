/**
 * Retrieval benchmark: index each repository, answer each of its tasks with one or more
 * systems, score the top 10 with the corpus's matching rules, and (with --explain-misses) say
 * where each missed ground-truth symbol was lost.
 *
 *   pnpm bench:retrieval --corpus <dir> [--repos flask,caddy] [--budget 4000] [--out file] [--explain-misses]
 *                        [--system knowing,bm25,lexical] [--options JSON] [--lexical JSON] [--model model.json]
 *   pnpm bench:retrieval --tasks benchmarks/history --split heldout --corpus <work dir> [--mirrors <dir>] …
 *
 * Tasks come from the original corpus (`--bench`, checkouts under `--corpus/<repo>`) or, with
 * `--tasks`, from a history benchmark (benchmarks/history): each task's parent commit is checked
 * out from the repository's mirror into `--corpus/history-<repo>` and indexed incrementally.
 *
 * Systems, all over the same store and answered in the same pass:
 * - knowing: the engine's answer (`forTask`) with its defaults, in pack order;
 * - hybrid: the engine with the formula ranker (`rankingModel: 'formula'`), lexical evidence included;
 * - learned: the engine with the learned ranker (`rankingModel: 'learned'`);
 * - bm25: the plain baseline — Okapi BM25 over each non-test symbol's qualified name, signature,
 *   doc comment and body lines, identifiers split and Porter2-stemmed, top 10 by score;
 * - lexical: the engine's lexical channel alone (BM25F with its default field weights).
 * The first system named is the report's `overall`; every system has its own section.
 * `--model FILE` makes the knowing system rank with that learned model (as `knowing train --out`
 * or `bench:train --out` write it); the learned system keeps the shipped one, so
 * `--system knowing,learned` compares the two on the same pass.
 */
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createSqliteStore } from '@knowing/store-sqlite';
import { indexRepository } from '@knowing/indexer';
import { createEngine, createLexicalChannel } from '@knowing/engine';
import type { Engine, EngineOptionsInput, LexicalChannelInput } from '@knowing/engine';
import { extractKeywordSet } from '@knowing/keywords';
import { lexicalQueryTerms } from '@knowing/keywords/lexical';
import { carriedEvidence, extractPastedEvidence } from '@knowing/keywords/pasted';
import type { GraphNode, GraphStore } from '@knowing/graph';
import type { LearnedModel } from '@knowing/rank';
import type { BenchTask } from './corpus.js';
import { corpusJobs, historyJobs } from './jobs.js';
import { normalizeSymbol, scoreTask, symbolsMatch } from './matching.js';
import { withoutNamespaceCredit } from './namespace-credit.js';
import type { TaskMetrics } from './matching.js';
import { DEFAULT_MIRRORS_DIR } from './history/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = resolve(here, '../..');

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    repos: { type: 'string' },
    budget: { type: 'string', default: '4000' },
    out: { type: 'string' },
    bench: { type: 'string', default: resolve(projectRoot, '../shared/bench/knowing-corpus') },
    tasks: { type: 'string' },
    split: { type: 'string', default: 'all' },
    mirrors: { type: 'string', default: DEFAULT_MIRRORS_DIR },
    'db-dir': { type: 'string' },
    'explain-misses': { type: 'boolean', default: false },
    'full-index': { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    options: { type: 'string' },
    model: { type: 'string' },
    /** Settings of the lexical channel as JSON, for sweeps: --lexical '{"fieldWeights":{"members":0.5}}'. */
    lexical: { type: 'string' },
    system: { type: 'string', default: 'knowing' },
    /** Only the tasks whose description carries code, a message, a trace, or any of them (`pasted`: what the pasted channel may read). */
    carrying: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

const USAGE =
  'usage: retrieval --corpus <dir> [--repos a,b] [--budget 4000] [--out file] [--explain-misses] [--system knowing,bm25,lexical]\n' +
  '       retrieval --tasks benchmarks/history [--split tuning|heldout|all] --corpus <work dir> [--mirrors <dir>] …\n';
if (values.help || !values.corpus) {
  (values.help ? process.stdout : process.stderr).write(
    USAGE +
      '\nsystems (--system, comma-separated; the first is the report\'s overall): knowing, hybrid, learned, bm25, lexical\n' +
      '--explain-misses says where each missed truth was lost; --carrying code|message|trace|pasted keeps the tasks that carry it;\n' +
      '--options JSON and --lexical JSON set engine and lexical-channel options; --model FILE ranks with a trained model.\n',
  );
  process.exit(values.help ? 0 : 2);
}

const SYSTEMS = ['knowing', 'hybrid', 'learned', 'bm25', 'lexical'] as const;
type System = (typeof SYSTEMS)[number];
const systems = values.system!.split(',').map((s) => s.trim()) as System[];
for (const system of systems) {
  if (!SYSTEMS.includes(system)) {
    process.stderr.write(`unknown --system ${system}: use one or more of ${SYSTEMS.join(', ')}\n`);
    process.exit(2);
  }
}
if (!['tuning', 'heldout', 'all'].includes(values.split!)) {
  process.stderr.write(`unknown --split ${values.split}: use tuning, heldout or all\n`);
  process.exit(2);
}

// pnpm runs scripts in the package folder; resolve user paths against where the command was typed.
const invokedFrom = process.env.INIT_CWD ?? process.cwd();
const corpus = resolve(invokedFrom, values.corpus);
const budget = Number(values.budget);
const dbDir = resolve(invokedFrom, values['db-dir'] ?? join(corpus, '.knowing-bench'));
mkdirSync(dbDir, { recursive: true });
/** Engine options as JSON, for sweeps: --options '{"walk":{"alpha":0.15}}'. */
const engineOptions = values.options ? (JSON.parse(values.options) as EngineOptionsInput) : undefined;
const wanted = values.repos ? new Set(values.repos.split(',').map((s) => s.trim())) : undefined;
const learnedModel = values.model ? (JSON.parse(readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), values.model), 'utf8')) as LearnedModel) : undefined;
const lexicalSettings = values.lexical ? (JSON.parse(values.lexical) as LexicalChannelInput) : undefined;
const lexicalChannel = createLexicalChannel(lexicalSettings);
/** The baseline's document is qualified name, signature, doc and body: the name field adds nothing. */
const BASELINE_WEIGHTS = { name: 0, path: 1, signature: 1, doc: 1, body: 1, members: 1 } as const;

type MissStage = 'not in graph' | 'not reached' | 'reached, below walk cutoff' | 'ranked below 10' | 'cut by budget';

interface TaskResult {
  readonly id: string;
  readonly repo: string;
  readonly tier: string;
  readonly language: string;
  readonly metrics: TaskMetrics;
  /** The metrics with namespace wrappers among the returned symbols credited for nothing. */
  readonly namespaceless: TaskMetrics;
  readonly returned: readonly string[];
  readonly failed?: string;
  readonly ms: number;
  readonly misses?: readonly { truth: string; stage: MissStage; rank: number | null }[];
}

const zero: TaskMetrics = { precisionAt10: 0, dedupPrecisionAt10: 0, recallAt10: 0, ndcgAt10: 0, dedupNdcgAt10: 0, mrr: 0, hits: [] };

async function explainMisses(engine: Engine, task: BenchTask, returned: readonly string[]): Promise<TaskResult['misses']> {
  const top = returned.slice(0, 10).map(normalizeSymbol);
  const misses: { truth: string; stage: MissStage; rank: number | null }[] = [];
  for (const truth of task.groundTruth) {
    const g = normalizeSymbol(truth);
    if (top.some((r) => symbolsMatch(r, g))) continue;
    const e = await engine.explainSymbol(task.description, truth, { budget });
    let stage: MissStage;
    if (e.stage === 'not_in_graph') stage = 'not in graph';
    else if (e.stage === 'not_reached') stage = 'not reached';
    else if (e.stage === 'below_cutoff') stage = 'reached, below walk cutoff';
    else if (e.stage === 'ranked' && e.rank !== null && e.rank <= 10) stage = 'cut by budget';
    else stage = 'ranked below 10';
    misses.push({ truth, stage, rank: e.rank });
  }
  return misses;
}

/** The ranked symbols a system returns for a task. */
async function answer(system: System, engines: ReadonlyMap<System, Engine>, store: GraphStore, task: string): Promise<GraphNode[]> {
  if (system === 'bm25') {
    const hits = await store.lexicalSearch(lexicalQueryTerms(task), { limit: 10, fieldWeights: BASELINE_WEIGHTS });
    return hits.map((h) => h.node);
  }
  if (system === 'lexical') {
    const hits = await lexicalChannel.run({ store, task, keywords: extractKeywordSet(task), aboutTests: false });
    return hits.map((h) => h.node);
  }
  const result = await engines.get(system)!.forTask(task, { budget, fresh: true });
  return result.pack.symbols.map((s) => s.node);
}


function mean(results: readonly TaskResult[], pick: (m: TaskMetrics) => number): number {
  return results.length === 0 ? 0 : results.reduce((s, r) => s + pick(r.metrics), 0) / results.length;
}

function summarize(results: readonly TaskResult[]) {
  const namespaceless = (pick: (m: TaskMetrics) => number): number =>
    results.length === 0 ? 0 : results.reduce((s, r) => s + pick(r.namespaceless), 0) / results.length;
  return {
    tasks: results.length,
    p10: mean(results, (m) => m.precisionAt10),
    p10dedup: mean(results, (m) => m.dedupPrecisionAt10),
    r10: mean(results, (m) => m.recallAt10),
    ndcg10: mean(results, (m) => m.ndcgAt10),
    ndcg10dedup: mean(results, (m) => m.dedupNdcgAt10),
    mrr: mean(results, (m) => m.mrr),
    failures: results.filter((r) => r.failed).length,
    /** The same with namespace wrappers credited for nothing (see namespace-credit.ts). */
    namespaceless: {
      p10: namespaceless((m) => m.precisionAt10),
      p10dedup: namespaceless((m) => m.dedupPrecisionAt10),
      r10: namespaceless((m) => m.recallAt10),
      mrr: namespaceless((m) => m.mrr),
    },
  };
}
type Summary = ReturnType<typeof summarize>;

const line = (label: string, s: Summary, extra = ''): string =>
  `${label.padEnd(20)} tasks ${String(s.tasks).padStart(3)}  P@10 ${s.p10.toFixed(3)}  dedup ${s.p10dedup.toFixed(3)}  R@10 ${s.r10.toFixed(3)}  NDCG ${s.ndcg10.toFixed(3)}  NDCGu ${s.ndcg10dedup.toFixed(3)}  MRR ${s.mrr.toFixed(3)}  fail ${s.failures}${extra}\n`;
/** The figures that change when namespace wrappers are credited for nothing. */
const namespacelessLine = (s: Summary): string =>
  `${'  no namespace credit'.padEnd(22)}P@10 ${s.namespaceless.p10.toFixed(3)}  dedup ${s.namespaceless.p10dedup.toFixed(3)}  R@10 ${s.namespaceless.r10.toFixed(3)}  MRR ${s.namespaceless.mrr.toFixed(3)}\n`;

const warn = (message: string): void => {
  if (!values.quiet) process.stderr.write(`${message}\n`);
};
const CARRYING = ['code', 'message', 'trace', 'pasted'] as const;
type Carrying = (typeof CARRYING)[number];
if (values.carrying !== undefined && !(CARRYING as readonly string[]).includes(values.carrying)) {
  process.stderr.write(`unknown --carrying ${values.carrying}: use one of ${CARRYING.join(', ')}\n`);
  process.exit(2);
}
/** What a task's description carries, by the extractors the engine's channels use. */
function carries(description: string): Record<Carrying, boolean> {
  const carried = carriedEvidence(description);
  const pasted = extractPastedEvidence(description);
  return { ...carried, pasted: carried.trace || pasted.code.length > 0 || pasted.messages.length > 0 };
}
const carriesById = new Map<string, Record<Carrying, boolean>>();
const carriesOf = (task: BenchTask): Record<Carrying, boolean> => {
  let found = carriesById.get(task.id);
  if (!found) carriesById.set(task.id, (found = carries(task.description)));
  return found;
};
const allJobs = values.tasks
  ? historyJobs(resolve(invokedFrom, values.tasks), { split: values.split as 'tuning' | 'heldout' | 'all', mirrors: resolve(invokedFrom, values.mirrors!), workDir: corpus, ...(wanted ? { wanted } : {}) }, warn)
  : corpusJobs(values.bench!, corpus, wanted, warn);
for (const job of allJobs) for (const task of job.tasks) carriesOf(task);
const jobs = values.carrying
  ? allJobs.map((job) => ({ ...job, prepare: job.prepare.bind(job), tasks: job.tasks.filter((t) => carriesOf(t)[values.carrying as Carrying]) })).filter((job) => job.tasks.length > 0)
  : allJobs;
const results = new Map<System, TaskResult[]>(systems.map((s) => [s, []]));
const perRepo = new Map<System, Record<string, Summary & { indexMs: number; nodes: number; edges: number; medianMs: number }>>(systems.map((s) => [s, {}]));

for (const job of jobs) {
  const store = await createSqliteStore({ path: join(dbDir, `${job.repo}.db`) });
  let indexMs = 0;
  let indexedRoot: string | undefined;
  const repoResults = new Map<System, TaskResult[]>(systems.map((s) => [s, []]));
  // Which returned modules wrap a type, until the next index.
  const wrappers = new Map<string, boolean>();
  for (const task of job.tasks) {
    let root: string;
    try {
      root = job.prepare(task);
    } catch (error) {
      // A commit that cannot be checked out (a snapshot without its large files) fails its task, not the run.
      const reason = `checkout failed: ${((error as { stderr?: string }).stderr ?? (error as Error).message).split('\n')[0]}`;
      warn(`${task.id}: ${reason}`);
      for (const system of systems) {
        repoResults.get(system)!.push({ id: task.id, repo: job.repo, tier: task.tier, language: job.language, metrics: zero, namespaceless: zero, returned: [], failed: reason, ms: 0 });
      }
      continue;
    }
    // Corpus tasks share one tree: index it once. History tasks each move the tree.
    if (job.perTask || indexedRoot !== root) {
      const t0 = performance.now();
      await indexRepository({ root, store, repoId: job.repo, full: values['full-index'] && indexedRoot === undefined });
      indexMs += performance.now() - t0;
      indexedRoot = root;
      wrappers.clear();
    }
    const engineFor = (rankingModel?: 'learned' | 'formula', model?: LearnedModel): Engine =>
      createEngine({
        store,
        options: { ...engineOptions, ...(rankingModel ? { rankingModel } : {}) },
        ...(lexicalSettings ? { channels: [lexicalChannel] } : {}),
        ...(model ? { learnedModel: model } : {}),
      });
    // Only the engines of the systems asked for (a model for another feature list fails to load).
    const makers: Partial<Record<System, () => Engine>> = {
      knowing: () => engineFor(undefined, learnedModel),
      hybrid: () => engineFor('formula'),
      learned: () => engineFor('learned'),
    };
    const engines = new Map<System, Engine>(systems.flatMap((s) => (makers[s] ? [[s, makers[s]()] as const] : [])));
    const engine = engines.get('knowing');
    for (const system of systems) {
      const start = performance.now();
      try {
        const nodes = await answer(system, engines, store, task.description);
        const ms = performance.now() - start;
        const returned = nodes.map((node) => node.qualifiedName);
        const metrics = scoreTask(returned, task.groundTruth);
        const namespaceless = scoreTask(await withoutNamespaceCredit(store, nodes, task.groundTruth, wrappers), task.groundTruth);
        const misses = values['explain-misses'] && engine && system === 'knowing' ? await explainMisses(engine, task, returned) : undefined;
        repoResults.get(system)!.push({ id: task.id, repo: job.repo, tier: task.tier, language: job.language, metrics, namespaceless, returned: returned.slice(0, 10), ms, ...(misses ? { misses } : {}) });
      } catch (error) {
        repoResults.get(system)!.push({ id: task.id, repo: job.repo, tier: task.tier, language: job.language, metrics: zero, namespaceless: zero, returned: [], failed: String(error), ms: performance.now() - start });
      }
    }
  }
  const counts = await store.counts();
  await store.close();
  for (const system of systems) {
    const list = repoResults.get(system)!;
    const times = list.map((r) => r.ms).sort((a, b) => a - b);
    const summary = { ...summarize(list), indexMs, nodes: counts.nodes, edges: counts.edges, medianMs: times[Math.floor(times.length / 2)] ?? 0 };
    perRepo.get(system)![job.repo] = summary;
    results.get(system)!.push(...list);
    if (!values.quiet) {
      process.stdout.write(
        line(`${job.repo}${systems.length > 1 ? ` ${system}` : ''}`, summary, `  median ${summary.medianMs.toFixed(0)} ms  (${summary.nodes} nodes, ${summary.edges} edges, index ${(indexMs / 1000).toFixed(1)} s)`) + namespacelessLine(summary),
      );
    }
  }
}

function groupBy(list: readonly TaskResult[], key: (r: TaskResult) => string): Record<string, Summary> {
  const out: Record<string, Summary> = {};
  for (const value of [...new Set(list.map(key))].sort()) out[value] = summarize(list.filter((r) => key(r) === value));
  return out;
}

let commit = 'unknown';
try {
  commit = execSync('git rev-parse --short HEAD', { cwd: projectRoot }).toString().trim();
  // A run from a working tree with uncommitted changes to the code is not the commit's: say so.
  try {
    execSync('git diff --quiet HEAD -- packages benchmarks/src', { cwd: projectRoot, stdio: 'ignore' });
  } catch {
    commit += '+uncommitted';
  }
} catch {
  // not a git checkout
}
const sections = Object.fromEntries(
  systems.map((system) => {
    const list = results.get(system)!;
    const missStages: Record<string, number> = {};
    for (const r of list) for (const m of r.misses ?? []) missStages[m.stage] = (missStages[m.stage] ?? 0) + 1;
    return [
      system,
      {
        overall: summarize(list),
        tiers: groupBy(list, (r) => r.tier),
        // Figures on the tasks whose description carries code, a message, a trace, or any of them.
        carrying: Object.fromEntries(CARRYING.map((kind) => [kind, summarize(list.filter((r) => carriesById.get(r.id)?.[kind]))])),
        languages: groupBy(list, (r) => r.language),
        perRepo: perRepo.get(system)!,
        ...(values['explain-misses'] && system === 'knowing' ? { missStages } : {}),
        tasks: list,
      },
    ];
  }),
);
const first = sections[systems[0]!]!;
const report = {
  date: new Date().toISOString(),
  commit,
  machine: { cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
  command:
    `pnpm bench:retrieval --system ${systems.join(',')} --corpus ${values.corpus}` +
    `${values.tasks ? ` --tasks ${values.tasks} --split ${values.split}` : ''}${values.repos ? ` --repos ${values.repos}` : ''} --budget ${budget}` +
    `${values.carrying ? ` --carrying ${values.carrying}` : ''}${values['explain-misses'] ? ' --explain-misses' : ''}${values.options ? ` --options '${values.options}'` : ''}${values.lexical ? ` --lexical '${values.lexical}'` : ''}${values.model ? ` --model ${values.model}` : ''}`,
  system: systems[0],
  budget,
  ...first,
  // Every system's figures; the first one's tasks are the top-level `tasks` and are not repeated.
  systems: Object.fromEntries(Object.entries(sections).map(([name, section], i) => [name, i === 0 ? { ...section, tasks: undefined } : section])),
};
for (const system of systems) {
  const section = sections[system]!;
  process.stdout.write(`\n${line(`overall ${system}`, section.overall)}${namespacelessLine(section.overall)}`);
  const groups = values.tasks ? section.languages : section.tiers;
  for (const [name, s] of Object.entries(groups)) process.stdout.write(`  ${line(name, s)}  ${namespacelessLine(s)}`);
  for (const [kind, s] of Object.entries(section.carrying)) if (s.tasks > 0) process.stdout.write(`  ${line(`carrying ${kind}`, s)}`);
  if ('missStages' in section) process.stdout.write(`misses by stage: ${JSON.stringify(section.missStages)}\n`);
}
const out = values.out ? resolve(invokedFrom, values.out) : join(projectRoot, 'benchmarks/results', `retrieval-${commit}.json`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
process.stdout.write(`wrote ${out}\n`);
