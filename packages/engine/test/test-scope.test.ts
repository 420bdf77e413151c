import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeId, qualifiedName } from '@knowing/graph';
import type { GraphNode, LanguageId } from '@knowing/graph';
import { createEngine, testCommands } from '../src/index.js';
import type { TestHit, TestRunner } from '../src/index.js';
import { indexedFixture } from './helpers.js';

describe('testScope names the tests as their runner collects them', () => {
  let fixture: Awaited<ReturnType<typeof indexedFixture>>;

  beforeAll(async () => {
    fixture = await indexedFixture();
  }, 60_000);
  afterAll(async () => fixture?.cleanup());

  it('keeps pytest tests and leaves out the module-level helper, the route nested in it and the fake request', async () => {
    const scope = await createEngine({ store: fixture.store }).testScope(['tinyweb/app.py']);
    expect(scope.tests.length).toBeGreaterThan(0);
    for (const hit of scope.tests) {
      expect(hit.runner).toBe('pytest');
      expect(hit.id).toBe(`tests/test_app.py::${hit.test.name}`);
      expect(hit.test.name).toMatch(/^test_/);
    }
    // Reached only through make_app, the helper it calls.
    expect(scope.tests.map((t) => t.id)).toContain('tests/test_app.py::test_dispatch_request');
  });

  it('counts a changed test as reaching itself', async () => {
    const scope = await createEngine({ store: fixture.store }).testScope(['tests/test_app.py']);
    const hit = scope.tests.find((t) => t.id === 'tests/test_app.py::test_blueprint_routes');
    expect(hit?.reaches[0]).toMatchObject({ symbol: { name: 'test_blueprint_routes' }, depth: 0 });
    expect(scope.tests.map((t) => t.test.name)).not.toContain('make_app');
  });
});

function hit(language: LanguageId, runner: TestRunner, file: string, name: string, id: string): TestHit {
  const qn = qualifiedName(file, [], name);
  const test: GraphNode = {
    id: nodeId('acme', qn, 'function'),
    name,
    qualifiedName: qn,
    kind: 'function',
    language,
    file,
    startLine: 1,
    endLine: 2,
    signature: '',
    doc: '',
    isTest: true,
    external: false,
  };
  return { test, runner, id, reaches: [] };
}

describe('testCommands', () => {
  const tests = [
    hit('go', 'go', 'svc/api/handler_test.go', 'TestServe', 'TestServe'),
    hit('go', 'go', 'svc/store_test.go', 'TestPut', 'TestPut'),
    hit('go', 'go', 'svc/store_test.go', 'TestGet', 'TestGet'),
    hit('go', 'go', 'tools/lint_test.go', 'TestLint', 'TestLint'),
    hit('rust', 'cargo', 'crates/shelf/src/stock.rs', 'reserve', 'stock::tests::reserve'),
    hit('python', 'pytest', 'tests/test_app.py', 'test_index', 'tests/test_app.py::test_index'),
    hit('python', 'pytest', 'plugins/extra/tests/test_extra.py', 'test_extra', 'plugins/extra/tests/test_extra.py::test_extra'),
    hit('typescript', 'file', 'web/cart.test.ts', 'web/cart.test.ts', 'web/cart.test.ts'),
  ];
  const markers: Record<string, string> = { svc: 'go.mod', '': 'go.mod', 'crates/shelf': 'Cargo.toml', 'plugins/extra': 'pyproject.toml' };
  /** Projects as a file system would answer: the nearest directory holding one of the markers. */
  const projectRoot = (file: string, wanted: readonly string[]): string => {
    for (let dir = file.slice(0, Math.max(0, file.lastIndexOf('/'))); ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/')))) {
      if (dir in markers && wanted.includes(markers[dir]!)) return dir;
      if (dir === '') return '';
    }
  };

  it('runs each project inside its own configuration, from the repository root', () => {
    expect(testCommands(tests, { projectRoot })).toEqual([
      "cargo test --manifest-path crates/shelf/Cargo.toml -- stock::tests::reserve",
      'web/cart.test.ts',
      "go test ./tools -run '^(TestLint)$'",
      "go test -C svc . -run '^(TestGet|TestPut)$'",
      "go test -C svc ./api -run '^(TestServe)$'",
      'pytest tests/test_app.py::test_index',
      'pytest plugins/extra/tests/test_extra.py::test_extra',
    ]);
  });

  it('puts everything in the root project without a project lookup', () => {
    expect(testCommands(tests.filter((t) => t.runner === 'cargo' || t.runner === 'pytest'))).toEqual([
      'cargo test -- stock::tests::reserve',
      'pytest plugins/extra/tests/test_extra.py::test_extra tests/test_app.py::test_index',
    ]);
  });

  it('quotes what the shell would split', () => {
    const odd = hit('python', 'pytest', 'tests/test it.py', 'test_x', "tests/test it.py::test_x");
    expect(testCommands([odd])).toEqual(["pytest 'tests/test it.py::test_x'"]);
  });
});
