/**
 * Native or WASM parsing: the `tree-sitter` Node bindings against web-tree-sitter, with the same
 * grammars, on the files an index of each repository would parse.
 *
 *   pnpm bench:native --corpus <dir> [--repos flask,caddy] [--runs 3] [--passes 3] [--scratch <dir>] [--json]
 *
 * The bindings and the grammar packages are installed into <scratch>/native-tree-sitter-<version>
 * (never a dependency of a package; `--scratch` defaults to <tmpdir>/knowing-native). First it
 * asks npm whether a plain install of the set resolves (`--dry-run`), and prints what npm says;
 * the install itself passes `--legacy-peer-deps`, which leaves the grammars' peer ranges unmet.
 *
 * Per repository: the files an index parses (`discoverFiles`, the built-in languages), compared
 * tree by tree once (S-expressions: the same grammar on both sides gives the same trees), then
 * `--runs` processes per side, alternating (native, WASM, native, …). Each process loads its
 * runtime and grammars and parses every file `--passes` times: "first" is the load and the first
 * pass, "warm" the median of the later passes, each tree built and freed. Then passes that parse
 * and walk every node with a cursor (its type and span, the least an extractor reads), and for
 * WASM the indexer's whole extraction (native-parse.ts), which reads the WASM heap directly
 * rather than through a cursor. Medians over the runs are printed, with native ÷ WASM.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createLanguageRegistry, discoverFiles } from '@knowing/indexer';
import { formatTable, median } from './perf-lib.js';
import { corpusReposOrExit } from './perf-measure.js';
import { NATIVE_GRAMMARS, NATIVE_RUNTIME, nativePackageSpecs, peerConflict } from './native-lib.js';
import type { ListedFile } from './native-lib.js';

const USAGE = 'usage: pnpm bench:native --corpus <dir> [--repos flask,caddy] [--runs 3] [--passes 3] [--scratch <dir>] [--json]';
const CHILD = fileURLToPath(new URL('./native-parse.ts', import.meta.url));

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    repos: { type: 'string' },
    runs: { type: 'string', default: '3' },
    passes: { type: 'string', default: '3' },
    scratch: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help || !values.corpus) {
  (values.help ? process.stdout : process.stderr).write(`${USAGE}\n`);
  process.exit(values.help ? 0 : 2);
}
const runs = Number(values.runs);
const passes = Number(values.passes);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(passes) || passes < 2) {
  process.stderr.write(`--runs must be a whole number ≥ 1 and --passes one ≥ 2 (the first pass is not warm)\n${USAGE}\n`);
  process.exit(2);
}
const { corpus, repos } = corpusReposOrExit(values.corpus, values.repos, USAGE);
const scratch = values.scratch === undefined ? join(tmpdir(), 'knowing-native') : resolve(process.env.INIT_CWD ?? process.cwd(), values.scratch);

/** npm without the npm_config_* pnpm sets for its scripts (npm warns about each). */
function npm(args: readonly string[]): { status: number | null; output: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_config_')));
  const run = spawnSync('npm', [...args], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: run.status, output: `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? `\n${run.error.message}` : ''}` };
}

interface Install {
  readonly prefix: string;
  /** What a plain `npm install` of the set says (its dry run). */
  readonly plainInstall: string;
  /** Whether the bindings were compiled at install (no prebuilt binary loaded for this platform). */
  readonly builtFromSource: boolean;
}

function ensureNative(): Install {
  const prefix = join(scratch, `native-tree-sitter-${NATIVE_RUNTIME.version}`);
  const specs = nativePackageSpecs();
  const modules = join(prefix, 'node_modules');
  const installedVersion = (name: string): string | undefined => {
    const manifest = join(modules, name, 'package.json');
    return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version : undefined;
  };
  mkdirSync(prefix, { recursive: true });
  // In an empty folder: npm's dry run next to an install made with --legacy-peer-deps says little.
  const fresh = mkdtempSync(join(scratch, 'dry-run-'));
  const dry = npm(['install', '--prefix', fresh, '--dry-run', '--no-save', '--no-audit', '--no-fund', ...specs]);
  rmSync(fresh, { recursive: true, force: true });
  const conflict = peerConflict(dry.output);
  const plainInstall = conflict ? `fails: ERESOLVE while resolving ${conflict}` : dry.status === 0 ? 'resolves' : `fails (exit ${dry.status})`;
  const wanted = [[NATIVE_RUNTIME.name, NATIVE_RUNTIME.version], ...NATIVE_GRAMMARS.map((g) => [g.packageName, g.version])] as const;
  if (wanted.some(([name, version]) => installedVersion(name) !== version)) {
    process.stderr.write(`installing ${specs.join(' ')} into ${prefix} (--legacy-peer-deps)\n`);
    const install = npm(['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--legacy-peer-deps', ...specs]);
    if (install.status !== 0) throw new Error(`npm install into ${prefix} failed (exit ${install.status}):\n${install.output.slice(-2000)}`);
  }
  return { prefix, plainInstall, builtFromSource: existsSync(join(modules, NATIVE_RUNTIME.name, 'build', 'Release')) };
}

/** One measuring process; its JSON line. */
function child<T>(side: 'native' | 'wasm' | 'compare', prefix: string, list: string): T {
  const run = spawnSync(process.execPath, ['--conditions=@knowing/source', '--import', 'tsx', CHILD, side, prefix, list, String(passes)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`the ${side} parse failed (exit ${run.status}):\n${(run.stderr ?? '').slice(-2000)}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as T;
}

interface Timed {
  readonly loadMs: number;
  readonly passMs: readonly number[];
  /** Passes that parse and walk every node with a cursor. */
  readonly walkMs: readonly number[];
  /** WASM only: passes of the indexer's extraction. */
  readonly extractMs: readonly number[];
}

/** Medians over one side's processes. */
interface Side {
  /** Loading the runtime and grammars, and the first parse of every file. */
  readonly firstMs: number;
  /** A warm parse of every file. */
  readonly warmMs: number;
  /** A warm parse and a cursor walk of every node. */
  readonly walkMs: number;
  /** WASM only: the indexer's extraction of every file, warm. */
  readonly extractMs: number | null;
}

interface RepoRow {
  readonly repo: string;
  readonly files: number;
  readonly megabytes: number;
  readonly sameTrees: number;
  readonly differing: readonly string[];
  readonly native: Side;
  readonly wasm: Side;
}

const side = (timed: readonly Timed[]): Side => ({
  firstMs: median(timed.map((run) => run.loadMs + run.passMs[0]!)),
  warmMs: median(timed.map((run) => median(run.passMs.slice(1)))),
  walkMs: median(timed.map((run) => median(run.walkMs))),
  extractMs: timed.every((run) => run.extractMs.length > 0) ? median(timed.map((run) => median(run.extractMs))) : null,
});

const install = ensureNative();
process.stderr.write(`plain npm install of the set: ${install.plainInstall}; bindings ${install.builtFromSource ? 'compiled at install (no prebuilt binary for this platform)' : 'from a prebuilt binary'}\n`);
const work = mkdtempSync(join(tmpdir(), 'knowing-native-'));
const rows: RepoRow[] = [];
const registry = createLanguageRegistry();
try {
  for (const repo of repos) {
    const root = join(corpus, repo);
    const discovery = await discoverFiles({ root });
    const files: (ListedFile & { bytes: number })[] = discovery.files.flatMap((file) => {
      const module = registry.forPath(file.path);
      return module ? [{ path: file.path, absolutePath: file.absolutePath, language: module.id, grammar: module.grammarFor(file.path), bytes: file.sizeBytes }] : [];
    });
    if (files.length === 0) {
      process.stderr.write(`${repo}: no file of a built-in language — skipped\n`);
      continue;
    }
    const list = join(work, `${repo}.json`);
    writeFileSync(list, JSON.stringify(files.map(({ bytes: _bytes, ...file }) => file)));
    process.stderr.write(`${repo}: ${files.length} files, comparing trees, then ${runs} runs a side\n`);
    const compared = child<{ files: number; same: number; differing: string[] }>('compare', install.prefix, list);
    const native: Timed[] = [];
    const wasm: Timed[] = [];
    for (let i = 0; i < runs; i++) {
      native.push(child<Timed>('native', install.prefix, list));
      wasm.push(child<Timed>('wasm', install.prefix, list));
    }
    rows.push({
      repo,
      files: files.length,
      megabytes: files.reduce((sum, file) => sum + file.bytes, 0) / 1e6,
      sameTrees: compared.same,
      differing: compared.differing,
      native: side(native),
      wasm: side(wasm),
    });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (values.json) {
  process.stdout.write(`${JSON.stringify({ runtime: NATIVE_RUNTIME, plainInstall: install.plainInstall, builtFromSource: install.builtFromSource, runs, passes, rows }, null, 2)}\n`);
} else {
  const ms = (value: number): string => `${Math.round(value)} ms`;
  const table = formatTable(
    ['repo', 'files', 'MB', 'same trees', 'native first', 'WASM first', 'native warm', 'WASM warm', 'native ÷ WASM', 'native parse + walk', 'WASM parse + walk', 'native ÷ WASM', "WASM: the indexer's extraction"],
    rows.map((row) => [
      row.repo,
      String(row.files),
      row.megabytes.toFixed(2),
      `${row.sameTrees}/${row.files}`,
      ms(row.native.firstMs),
      ms(row.wasm.firstMs),
      ms(row.native.warmMs),
      ms(row.wasm.warmMs),
      `${(row.native.warmMs / row.wasm.warmMs).toFixed(2)}×`,
      ms(row.native.walkMs),
      ms(row.wasm.walkMs),
      `${(row.native.walkMs / row.wasm.walkMs).toFixed(2)}×`,
      row.wasm.extractMs === null ? '-' : ms(row.wasm.extractMs),
    ]),
    ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  );
  process.stdout.write(
    `tree-sitter ${NATIVE_RUNTIME.version} bindings (native) against web-tree-sitter (WASM), same grammars; medians of ${runs} processes a side, ${passes} passes each\n` +
      `plain npm install of the set: ${install.plainInstall}\n` +
      `bindings: ${install.builtFromSource ? 'compiled at install (no prebuilt binary for this platform)' : 'a prebuilt binary'}\n\n` +
      `${table.join('\n')}\n`,
  );
  for (const row of rows) if (row.differing.length > 0) process.stdout.write(`${row.repo}: trees differ, e.g. ${row.differing.join(', ')}\n`);
}
