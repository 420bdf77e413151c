import type { GraphNode, GraphReader, LanguageId, NodeId } from '@knowing/graph';
import type { TestHit, TestRunner } from './types.js';

/*
 * Each language's test-runner conventions, in one place: which graph nodes its runner collects
 * as tests, the id the runner selects one by, and the command line that runs a set of them.
 *
 * The indexer's `isTest` flag is broader on purpose (everything in a test file, anything named
 * like a test: fixtures, helpers, `Flask.test_client`), because ranking wants to know what is
 * test code. A runner only accepts what it collects, so the rules here read the graph the
 * indexer wrote (kinds, names, `member_of` parents, `decorates` edges, `extends` edges).
 */

/** What a convention may ask the graph about a node. */
export interface TestGraph {
  /** The enclosing definition (`member_of`), the file node at the top level, undefined for a file. */
  parent(node: GraphNode): Promise<GraphNode | undefined>;
  /** Terminal names of the decorators, annotations or attributes applied to the node (`fixture`, `test`, `Test`). */
  decorators(node: GraphNode): Promise<ReadonlySet<string>>;
  /** Terminal names of the node's members. */
  members(node: GraphNode): Promise<ReadonlySet<string>>;
  /** Terminal names of the node's supertypes, transitively (`TestCase` for `class T(unittest.TestCase)`). */
  supertypes(node: GraphNode): Promise<ReadonlySet<string>>;
}

/** One language's runner: what it collects and how it names a test. */
interface TestConvention {
  readonly runner: TestRunner;
  /** True when the runner collects `node` as a test of its own. */
  isTest(node: GraphNode, graph: TestGraph): Promise<boolean>;
  /** What the runner selects the test by. */
  id(node: GraphNode): string;
}

/** The qualified name without its file prefix, split into scopes: `['Cart', 'total']`. */
function localPath(node: GraphNode): string[] {
  const { qualifiedName, file } = node;
  const local = file && qualifiedName.startsWith(`${file}.`) ? qualifiedName.slice(file.length + 1) : qualifiedName;
  return local.split('.');
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

// ---------------------------------------------------------------------------------------------
// Python: pytest's default collection rules (python_files, python_classes, python_functions).

const PYTEST_FILE = /^test_.*\.py$|_test\.py$/;
/** Decorators that make a function a fixture, which pytest injects but never runs as a test. */
const PYTEST_FIXTURE_DECORATORS = new Set(['fixture', 'yield_fixture']);
/** Bases whose subclasses pytest collects through unittest, whatever the class is called. */
const UNITTEST_BASES = new Set(['TestCase', 'IsolatedAsyncioTestCase', 'AsyncTestCase']);

async function isPytestClass(node: GraphNode, graph: TestGraph): Promise<boolean> {
  if (node.kind !== 'class') return false;
  const parent = await graph.parent(node);
  if (!parent || !(parent.kind === 'file' || (await isPytestClass(parent, graph)))) return false;
  const supertypes = await graph.supertypes(node);
  if ([...supertypes].some((name) => UNITTEST_BASES.has(name))) return true;
  // pytest skips a Test* class with a constructor, with a warning.
  return node.name.startsWith('Test') && !(await graph.members(node)).has('__init__');
}

const pytest: TestConvention = {
  runner: 'pytest',
  async isTest(node, graph) {
    if (!PYTEST_FILE.test(baseName(node.file)) || !node.name.startsWith('test')) return false;
    if (node.kind !== 'function' && node.kind !== 'method') return false;
    const decorators = await graph.decorators(node);
    if ([...decorators].some((name) => PYTEST_FIXTURE_DECORATORS.has(name))) return false;
    const parent = await graph.parent(node);
    // A function nested in another function is a helper: pytest never sees it.
    return parent?.kind === 'file' || (parent !== undefined && (await isPytestClass(parent, graph)));
  },
  id: (node) => [node.file, ...localPath(node)].join('::'),
};

// ---------------------------------------------------------------------------------------------
// Go: `go test` runs Test/Fuzz/Example functions of *_test.go files, selected by -run.

const GO_TEST = /^(Test|Fuzz|Example)(?![a-z])/;
/** The parameter each kind of test function takes (`TestMain(m *testing.M)` is not a test). */
const GO_TEST_PARAMETER: Readonly<Record<string, RegExp>> = {
  Test: /\*\s*testing\.T\b/,
  Fuzz: /\*\s*testing\.F\b/,
  Example: /\(\s*\)/,
};

const goTest: TestConvention = {
  runner: 'go',
  async isTest(node, graph) {
    if (node.kind !== 'function' || !node.file.endsWith('_test.go')) return false;
    const prefix = GO_TEST.exec(node.name)?.[1];
    if (prefix === undefined || !GO_TEST_PARAMETER[prefix]!.test(node.signature)) return false;
    return (await graph.parent(node))?.kind === 'file';
  },
  id: (node) => node.name,
};

// ---------------------------------------------------------------------------------------------
// Rust: libtest runs `#[test]` functions (and the test macros of tokio, rstest, test-case…),
// named by their module path inside the crate target.

/** `#[test]`, and `#[tokio::test]` or `#[async_std::test]` by their terminal name. */
const RUST_TEST_ATTRIBUTES = new Set(['test', 'rstest', 'test_case']);
/** Directories whose files are crate targets or their modules. */
const RUST_TARGET_DIRS = new Set(['src', 'tests', 'benches', 'examples']);

/**
 * The module path of a file inside its crate target: `src/a/b.rs` → `['a', 'b']`, `src/a/mod.rs`
 * → `['a']`; a target's root file (`src/lib.rs`, `src/main.rs`, `src/bin/x.rs`, `tests/x.rs`,
 * `tests/x/main.rs`) → `[]`.
 */
function rustFileModules(file: string): string[] {
  const parts = file.split('/');
  const stem = (parts.pop() ?? '').replace(/\.rs$/, '');
  let anchor = parts.lastIndexOf('src');
  if (anchor < 0) anchor = parts.findIndex((part) => RUST_TARGET_DIRS.has(part));
  const isRootName = stem === 'lib' || stem === 'main' || stem === 'mod';
  if (anchor < 0) return isRootName ? [] : [stem];
  let modules = parts.slice(anchor + 1);
  if (parts[anchor] !== 'src' || modules[0] === 'bin') {
    // Each file in tests/ (and src/bin/) is a target of its own; a directory there is one target.
    if (parts[anchor] === 'src') modules = modules.slice(1);
    if (modules.length === 0) return [];
    modules = modules.slice(1);
  }
  return stem === 'mod' || (modules.length === 0 && isRootName) ? modules : [...modules, stem];
}

const cargoTest: TestConvention = {
  runner: 'cargo',
  async isTest(node, graph) {
    if (node.kind !== 'function') return false;
    const decorators = await graph.decorators(node);
    return [...decorators].some((name) => RUST_TEST_ATTRIBUTES.has(name));
  },
  id: (node) => [...rustFileModules(node.file), ...localPath(node)].join('::'),
};

// ---------------------------------------------------------------------------------------------
// Languages whose runner is picked per project (Maven or Gradle, xUnit or NUnit, Jest or Vitest,
// RSpec or Minitest): the command lists the test files. Java and C# tests are the annotated
// methods; in JS/TS and Ruby the tests are blocks (`it`, `test`, `describe`) that are no symbols
// of their own, so the test is the test file itself.

/** JUnit 4/5 and TestNG annotations of a test method. */
const JAVA_TEST_ANNOTATIONS = new Set(['Test', 'ParameterizedTest', 'RepeatedTest', 'TestFactory', 'TestTemplate']);
/** xUnit, NUnit and MSTest attributes of a test method. */
const CSHARP_TEST_ATTRIBUTES = new Set(['Fact', 'Theory', 'Test', 'TestMethod', 'TestCase', 'TestCaseSource', 'DataTestMethod', 'SkippableFact', 'SkippableTheory']);

function annotatedMethods(annotations: ReadonlySet<string>): TestConvention {
  return {
    runner: 'file',
    async isTest(node, graph) {
      if (node.kind !== 'method') return false;
      const decorators = await graph.decorators(node);
      return [...decorators].some((name) => annotations.has(name));
    },
    id: (node) => localPath(node).join('.'),
  };
}

/** A runner that takes whole files, collecting those whose name matches its default pattern. */
function testFiles(pattern: RegExp): TestConvention {
  return {
    runner: 'file',
    isTest: async (node) => node.kind === 'file' && node.isTest && pattern.test(node.file),
    id: (node) => node.file,
  };
}

/** Jest's and Vitest's default test files; a helper under test/ is no test file of its own. */
const SCRIPT_TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)__tests__\/.*\.[cm]?[jt]sx?$/;
/** RSpec's and Minitest's test files. */
const RUBY_TEST_FILE = /(_spec|_test)\.rb$|(^|\/)test_[^/]*\.rb$/;

const CONVENTIONS: Readonly<Partial<Record<LanguageId, TestConvention>>> = {
  python: pytest,
  go: goTest,
  rust: cargoTest,
  java: annotatedMethods(JAVA_TEST_ANNOTATIONS),
  csharp: annotatedMethods(CSHARP_TEST_ATTRIBUTES),
  typescript: testFiles(SCRIPT_TEST_FILE),
  tsx: testFiles(SCRIPT_TEST_FILE),
  javascript: testFiles(SCRIPT_TEST_FILE),
  ruby: testFiles(RUBY_TEST_FILE),
};

/** A test its runner collects, with the id the runner selects it by. */
export interface RunnableTest {
  readonly test: GraphNode;
  readonly runner: TestRunner;
  readonly id: string;
}

/**
 * The test a reached node stands for: the node when its runner collects it, else the nearest
 * enclosing test (a helper or class nested in a test function runs when that test runs), else
 * undefined (fixtures, module-level helpers, non-test code named like a test).
 */
export async function runnableTest(node: GraphNode, graph: TestGraph): Promise<RunnableTest | undefined> {
  // The indexer flags every test and everything defined in a test file or test module, so an
  // unflagged node is neither a test nor inside one.
  const convention = node.language === '' || !node.isTest ? undefined : CONVENTIONS[node.language];
  if (!convention) return undefined;
  for (let current: GraphNode | undefined = node; current; current = await graph.parent(current)) {
    if (await convention.isTest(current, graph)) return { test: current, runner: convention.runner, id: convention.id(current) };
  }
  return undefined;
}

/** A {@link TestGraph} over a store, caching each answer for one test-scope run. */
export function storeTestGraph(store: GraphReader): TestGraph {
  const parents = new Map<NodeId, Promise<GraphNode | undefined>>();
  const decorators = new Map<NodeId, Promise<ReadonlySet<string>>>();
  const members = new Map<NodeId, Promise<ReadonlySet<string>>>();
  const supertypes = new Map<NodeId, Promise<ReadonlySet<string>>>();
  const cached = <T>(cache: Map<NodeId, Promise<T>>, id: NodeId, load: () => Promise<T>): Promise<T> => {
    let hit = cache.get(id);
    if (!hit) cache.set(id, (hit = load()));
    return hit;
  };
  const names = (nodes: readonly GraphNode[]): ReadonlySet<string> => new Set(nodes.map((n) => terminalName(n.name)));

  const graph: TestGraph = {
    parent: (node) =>
      cached(parents, node.id, async () => {
        if (node.kind === 'file') return undefined;
        const edges = await store.edgesFrom(node.id, { types: ['member_of'] });
        const candidates = await store.getNodes(edges.map((e) => e.target));
        // A node may be a member of more than one (its type and its file): the enclosing one is
        // the longest qualified-name prefix.
        const enclosing = candidates
          .filter((c) => (c.kind === 'file' ? c.qualifiedName === node.file : node.qualifiedName.startsWith(`${c.qualifiedName}.`)))
          .sort((a, b) => b.qualifiedName.length - a.qualifiedName.length);
        return enclosing[0] ?? candidates[0];
      }),
    decorators: (node) =>
      cached(decorators, node.id, async () => {
        const edges = await store.edgesTo(node.id, { types: ['decorates'] });
        return names(await store.getNodes(edges.map((e) => e.source)));
      }),
    members: (node) =>
      cached(members, node.id, async () => {
        const edges = await store.edgesFrom(node.id, { types: ['contains'] });
        return names(await store.getNodes(edges.map((e) => e.target)));
      }),
    supertypes: (node) =>
      cached(supertypes, node.id, async () => {
        const found = new Set<string>();
        const seen = new Set<NodeId>([node.id]);
        let frontier = [node.id];
        while (frontier.length > 0) {
          const edges = (await Promise.all(frontier.map((id) => store.edgesFrom(id, { types: ['extends', 'implements'] })))).flat();
          const next = [...new Set(edges.map((e) => e.target))].filter((id) => !seen.has(id));
          for (const id of next) seen.add(id);
          for (const parent of await store.getNodes(next)) found.add(terminalName(parent.name));
          frontier = next;
        }
        return found;
      }),
  };
  return graph;
}

/** `TestCase` for a placeholder named `unittest.TestCase`, `test` for `tokio::test`. */
function terminalName(name: string): string {
  return name.slice(Math.max(name.lastIndexOf('.'), name.lastIndexOf(':')) + 1);
}

// ---------------------------------------------------------------------------------------------
// Commands.

/** Options of {@link testCommands}. */
export interface TestCommandOptions {
  /**
   * The project a test file belongs to: the repo-relative directory (`''` for the root) of its
   * nearest ancestor holding one of `markers` (`pyproject.toml`, `go.mod`, `Cargo.toml`). Each
   * project gets commands of its own, since a runner reads one project's configuration.
   * @default every file belongs to the root project
   */
  readonly projectRoot?: (file: string, markers: readonly string[]) => string;
}

/** Files that mark the root of a project, per runner. */
const PROJECT_MARKERS: Readonly<Record<Exclude<TestRunner, 'file'>, readonly string[]>> = {
  pytest: ['pyproject.toml', 'pytest.ini', 'tox.ini', 'setup.cfg', 'setup.py'],
  go: ['go.mod'],
  cargo: ['Cargo.toml'],
};

function shellQuote(text: string): string {
  return /^[\w./:@=+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function dirName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Groups `items` by `key`, the groups sorted by key ('' first). */
function groupBy<T>(items: readonly T[], key: (item: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return [...groups.entries()].sort((a, b) => a[0].localeCompare(b[0]));
}

const sortedUnique = (values: readonly string[]): string[] => [...new Set(values)].sort();

/**
 * Shell commands, to run from the repository root, that run exactly the given tests: `pytest`
 * with node ids, `go test -run '^(…)$'` per package, `cargo test` with test paths, each per
 * project; for runners knowing cannot pick (JS/TS, Java, C#, Ruby), the test files one per line.
 *
 * @example
 * ```ts
 * const scope = await engine.testScope(['src/flask/ctx.py']);
 * testCommands(scope.tests); // ['pytest tests/test_appctx.py::test_clean_pop …']
 * ```
 */
export function testCommands(tests: readonly TestHit[], options: TestCommandOptions = {}): string[] {
  const projectRoot = options.projectRoot ?? (() => '');
  const commands: string[] = [];
  for (const [runner, hits] of groupBy(tests, (hit) => hit.runner)) {
    if (runner === 'file') {
      commands.push(...sortedUnique(hits.map((hit) => hit.test.file)));
      continue;
    }
    const markers = PROJECT_MARKERS[runner as Exclude<TestRunner, 'file'>];
    for (const [project, inProject] of groupBy(hits, (hit) => projectRoot(hit.test.file, markers))) {
      if (runner === 'pytest') {
        // pytest finds the project's configuration from the paths it is given, so ids stay repo-relative.
        commands.push(`pytest ${sortedUnique(inProject.map((hit) => hit.id)).map(shellQuote).join(' ')}`);
      } else if (runner === 'cargo') {
        const manifest = project === '' ? '' : ` --manifest-path ${shellQuote(`${project}/Cargo.toml`)}`;
        commands.push(`cargo test${manifest} -- ${sortedUnique(inProject.map((hit) => hit.id)).map(shellQuote).join(' ')}`);
      } else {
        // `go test` must run inside the module; -C (Go 1.20+) enters it without a shell `cd`.
        const module = project === '' ? '' : ` -C ${shellQuote(project)}`;
        for (const [dir, inPackage] of groupBy(inProject, (hit) => dirName(hit.test.file))) {
          const relative = project === '' ? dir : dir.slice(project.length + 1);
          const pattern = `^(${sortedUnique(inPackage.map((hit) => hit.id)).map(escapeRegExp).join('|')})$`;
          commands.push(`go test${module} ${relative === '' ? '.' : shellQuote(`./${relative}`)} -run ${shellQuote(pattern)}`);
        }
      }
    }
  }
  return commands;
}
