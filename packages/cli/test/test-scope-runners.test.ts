/**
 * `knowing test-scope --format run` prints commands the test runners accept: each printed
 * command goes to the real runner's collection (`pytest --collect-only`, `cargo test -- --list`,
 * `go test -list`), which must know every test knowing named. A runner missing from the
 * machine skips its test with a note naming it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDir, git, knowing, removeScratch } from './helpers.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const TESTKINDS = join(HERE, 'fixtures', 'testkinds');
/** The flask checkout of the benchmark corpus. */
const FLASK = join(process.env.KNOWING_CORPUS ?? '/work/corpus', 'flask');

afterAll(removeScratch);
// Finding pytest may install it (apt-get): a hook's timeout, not a test's.
beforeAll(() => void pytestCommand(), 300_000);

/** A scratch copy of a repository without its index or build output, committed to a fresh git repository. */
function scratchRepo(source: string, prefix: string): string {
  const dir = emptyDir(prefix);
  cpSync(source, dir, { recursive: true, filter: (path) => !/[\\/](\.knowing|\.git|target|__pycache__|\.pytest_cache)$/.test(path) });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  return dir;
}

function succeeds(command: string, args: readonly string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

let pytestFound: string | null | undefined;
/**
 * How to start pytest here: on PATH, as a module, or Debian's package installed for the tests
 * when they run as root on a machine without it. Null when none of these works.
 */
function pytestCommand(): string | null {
  if (pytestFound !== undefined) return pytestFound;
  pytestFound = null;
  if (succeeds('pytest', ['--version'])) pytestFound = 'pytest';
  else if (succeeds('python3', ['-m', 'pytest', '--version'])) pytestFound = 'python3 -m pytest';
  else if (process.getuid?.() === 0 && succeeds('apt-get', ['--version'])) {
    spawnSync('apt-get', ['install', '-y', '-q', 'python3-pytest'], { stdio: 'ignore', timeout: 240_000 });
    if (succeeds('pytest', ['--version'])) pytestFound = 'pytest';
    else if (succeeds('pytest-3', ['--version'])) pytestFound = 'pytest-3';
  }
  return pytestFound;
}

interface Run {
  readonly code: number;
  readonly output: string;
}

/** Runs a printed command line in the repository through the shell, as a user pasting it would. */
function shell(line: string, cwd: string, env: NodeJS.ProcessEnv = {}): Run {
  const result = spawnSync('sh', ['-c', line], { cwd, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 240_000 });
  return { code: result.status ?? -1, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/** The arguments of a printed command after its leading words: `pytest a b` → `['a', 'b']`. */
function argumentsAfter(line: string, leading: string): string[] {
  expect(line.startsWith(`${leading} `), line).toBe(true);
  const args = line.slice(leading.length + 1).split(' ');
  // knowing quotes only what the shell would split; these ids need no quoting.
  for (const arg of args) expect(arg, line).not.toMatch(/['"\\]/);
  return args;
}

interface Collection {
  readonly code: number;
  readonly output: string;
  /** Node ids as pytest prints them (relative to its rootdir), without parameters. */
  readonly collected: string[];
  /** Modules pytest skipped as a whole, relative to its rootdir. */
  readonly skippedModules: string[];
  readonly errors: string[];
}

function pytestCollect(ids: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Collection {
  const { code, output } = shell(`${pytestCommand()!} ${ids.join(' ')} --collect-only -q -rs -p no:cacheprovider`, cwd, env);
  return {
    code,
    output,
    collected: output.split('\n').filter((l) => /^\S+\.py::\S/.test(l)).map((l) => l.trim().replace(/\[.*\]$/, '')),
    skippedModules: [...output.matchAll(/^SKIPPED \[\d+\] (\S+\.py):\d+: /gm)].map((m) => m[1]!),
    errors: output.split('\n').filter((l) => l.startsWith('ERROR')),
  };
}

/**
 * Runs a printed `pytest …` line with `--collect-only` and checks pytest collected every node
 * id on it. pytest prints ids relative to the project's rootdir, so an id on the line matches
 * a collected one it ends with (parametrized tests collect as `id[params]`). A module pytest
 * skips as a whole (`importorskip` of an optional dependency the machine lacks) has no
 * collectors for its ids and fails the run: those ids are accepted when pytest says why it
 * skipped the module, and the rest must then collect on their own.
 */
function expectPytestCollects(line: string, cwd: string, env: NodeJS.ProcessEnv): Collection {
  const ids = argumentsAfter(line, 'pytest');
  let run = pytestCollect(ids, cwd, env);
  const inSkippedModule = (id: string): boolean => run.skippedModules.some((module) => id.split('::')[0]!.endsWith(module));
  let kept = ids;
  if (run.code !== 0 && run.skippedModules.length > 0) {
    const unexpected = run.errors.filter((l) => !(l.startsWith('ERROR: found no collectors for ') && inSkippedModule(l.slice(l.lastIndexOf(' ') + 1))));
    expect(unexpected, run.output).toEqual([]);
    kept = ids.filter((id) => !inSkippedModule(id));
    run = { ...pytestCollect(kept, cwd, env), skippedModules: run.skippedModules };
  }
  expect(run.code, `pytest exited ${run.code}\n${run.output}`).toBe(0);
  for (const id of kept) {
    const found = run.collected.some((c) => id === c || id.endsWith(`/${c}`));
    expect(found, `${id} was not collected:\n${run.output}`).toBe(true);
  }
  return run;
}

/** The test file and the scopes of a pytest node id: `a/test_x.py::T::test_y` → `['a/test_x.py', 'T', 'test_y']`. */
const idParts = (id: string): string[] => id.split('::');

describe('test-scope --format run on flask, after an edit of src/flask/ctx.py', () => {
  let repo: string;
  let lines: string[] = [];

  beforeAll(async () => {
    if (!existsSync(join(FLASK, 'src', 'flask', 'ctx.py'))) return;
    repo = scratchRepo(FLASK, 'knowing-flask-');
    const indexed = await knowing(['index', '--quiet'], { cwd: repo });
    expect(indexed.code, indexed.stderr).toBe(0);
    const ctxPy = join(repo, 'src', 'flask', 'ctx.py');
    const source = readFileSync(ctxPy, 'utf8');
    const edited = source.replace('return _cv_request.get(None) is not None', 'return None is not _cv_request.get(None)');
    expect(edited).not.toBe(source);
    writeFileSync(ctxPy, edited);
    const scope = await knowing(['test-scope', '--format', 'run'], { cwd: repo });
    expect(scope.code, scope.stderr).toBe(0);
    lines = scope.stdout.trim().split('\n');
  }, 120_000);

  it('prints pytest node ids of real tests only: no fixtures, nested helpers or library methods', (ctx) => {
    ctx.skip(lines.length === 0, `the flask checkout is missing at ${FLASK} (set KNOWING_CORPUS)`);
    expect(lines.every((l) => l.startsWith('pytest '))).toBe(true);
    const ids = lines.flatMap((l) => argumentsAfter(l, 'pytest'));
    expect(ids.length).toBeGreaterThan(20);
    for (const id of ids) {
      const [file, ...scopes] = idParts(id);
      expect(file, id).toMatch(/(^|\/)test_[^/]*\.py$/);
      expect(scopes.at(-1), id).toMatch(/^test/);
      for (const outer of scopes.slice(0, -1)) expect(outer, id).toMatch(/^Test/);
    }
    // Reached only through functions nested in them (before_request callbacks, a view).
    expect(ids).toContain('tests/test_blueprints.py::test_nested_callback_order');
    expect(ids).toContain('tests/test_reqctx.py::TestGreenletContextCopying::test_greenlet_context_copying');
    // The tutorial is a project of its own (examples/tutorial/pyproject.toml): a command of its own.
    const tutorial = lines.filter((l) => l.includes('examples/tutorial/'));
    expect(tutorial).toHaveLength(1);
    expect(tutorial[0]).not.toContain(' tests/');
  });

  it('every printed command collects under pytest', (ctx) => {
    ctx.skip(lines.length === 0, `the flask checkout is missing at ${FLASK} (set KNOWING_CORPUS)`);
    ctx.skip(pytestCommand() === null, 'pytest is not installed (and could not be installed with apt-get)');
    // As `pip install -e . examples/tutorial` would: flask from the checkout, the tutorial's flaskr.
    const env = { PYTHONPATH: ['src', 'examples/tutorial', process.env.PYTHONPATH].filter(Boolean).join(':') };
    const probe = shell(`${pytestCommand()!} --collect-only -q -p no:cacheprovider tests/test_appctx.py`, repo, env);
    const missing = /No module named '([\w.]+)'/.exec(probe.output);
    ctx.skip(probe.code !== 0 && missing !== null, `flask's test dependencies are not importable here (no module ${missing?.[1]})`);
    let collected = 0;
    for (const line of lines) collected += expectPytestCollects(line, repo, env).collected.length;
    expect(collected).toBeGreaterThan(20);
  }, 120_000);
});

describe('test-scope on a repository of test kinds (pytest, cargo, go, JavaScript)', () => {
  const CHANGED = 'shop/cart.py,shelf/src/lib.rs,shelf/src/stock.rs,inventory/stock.go,web/price.js';
  let repo: string;
  let lines: string[];
  let ids: Map<string, string[]>;

  beforeAll(async () => {
    repo = scratchRepo(TESTKINDS, 'knowing-testkinds-');
    const indexed = await knowing(['index', '--quiet'], { cwd: repo });
    expect(indexed.code, indexed.stderr).toBe(0);
    const run = await knowing(['test-scope', '--files', CHANGED, '--format', 'run'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    lines = run.stdout.trim().split('\n');
    const json = await knowing(['test-scope', '--files', CHANGED, '--json'], { cwd: repo });
    ids = new Map();
    for (const test of (JSON.parse(json.stdout) as { tests: { runner: string; id: string }[] }).tests) {
      ids.set(test.runner, [...(ids.get(test.runner) ?? []), test.id].sort());
    }
  }, 120_000);

  it('names only what each runner collects', () => {
    expect(ids.get('pytest')).toEqual([
      'plugins/discounts/tests/test_discounts.py::test_discounted_total',
      'tests/test_cart.py::CartCase::test_case_total',
      'tests/test_cart.py::TestCart::test_subtotal',
      'tests/test_cart.py::test_total',
      // Through the function nested in it.
      'tests/test_cart.py::test_total_in_a_nested_callback',
      'tests/test_cart.py::test_total_is_positive',
      // Through the module-level helper it calls.
      'tests/test_cart.py::test_total_through_a_helper',
    ]);
    // Not the helpers, TestMain or the helper `stocked`; the example runs under -run too.
    expect(ids.get('go')).toEqual(['ExampleStock_Reserve', 'TestReserveFailsWhenEmpty', 'TestReserveTakesCopies']);
    // Paths inside the crate; the #[cfg(test)] helpers are no tests.
    expect(ids.get('cargo')).toEqual(['stock::tests::reserve_all_leaves_none', 'stock::tests::reserve_takes_copies', 'tests::total_adds_prices']);
    // The test file, not the helper under test/.
    expect(ids.get('file')).toEqual(['web/price.spec.js']);
  });

  it('prints one command per runner and project, from the repository root', () => {
    expect(lines).toEqual([
      'cargo test --manifest-path shelf/Cargo.toml -- stock::tests::reserve_all_leaves_none stock::tests::reserve_takes_copies tests::total_adds_prices',
      'web/price.spec.js',
      "go test -C inventory . -run '^(ExampleStock_Reserve|TestReserveFailsWhenEmpty|TestReserveTakesCopies)$'",
      'pytest tests/test_cart.py::CartCase::test_case_total tests/test_cart.py::TestCart::test_subtotal tests/test_cart.py::test_total tests/test_cart.py::test_total_in_a_nested_callback tests/test_cart.py::test_total_is_positive tests/test_cart.py::test_total_through_a_helper',
      'pytest plugins/discounts/tests/test_discounts.py::test_discounted_total',
    ]);
  });

  it('the pytest commands collect every test they name', (ctx) => {
    ctx.skip(pytestCommand() === null, 'pytest is not installed (and could not be installed with apt-get)');
    const pytestLines = lines.filter((l) => l.startsWith('pytest '));
    expect(pytestLines).toHaveLength(2);
    for (const line of pytestLines) {
      const { collected, skippedModules } = expectPytestCollects(line, repo, {});
      expect(skippedModules).toEqual([]);
      expect(collected.length).toBeGreaterThan(0);
    }
  }, 60_000);

  it('the cargo command lists every test it names', (ctx) => {
    ctx.skip(!succeeds('cargo', ['--version']), 'cargo is not installed');
    const line = lines.find((l) => l.startsWith('cargo test '))!;
    const names = argumentsAfter(line, 'cargo test --manifest-path shelf/Cargo.toml --');
    const { code, output } = shell(`${line} --list`, repo, { CARGO_NET_OFFLINE: 'true' });
    expect(code, output).toBe(0);
    const listed = [...output.matchAll(/^(\S+): test$/gm)].map((m) => m[1]);
    expect([...new Set(listed)].sort()).toEqual(names);
  }, 120_000);

  it('the go command lists every test it names', (ctx) => {
    ctx.skip(!succeeds('go', ['version']), 'go is not installed');
    const line = lines.find((l) => l.startsWith('go test '))!;
    const pattern = /-run '\^\((.*)\)\$'$/.exec(line)![1]!;
    const { code, output } = shell(line.replace(' -run ', ' -list '), repo, { GOTOOLCHAIN: 'local' });
    expect(code, output).toBe(0);
    for (const name of pattern.split('|')) expect(output.split('\n'), output).toContain(name);
  }, 120_000);
});
