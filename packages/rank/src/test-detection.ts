/** Directory segments that hold tests in every language we index. */
const TEST_DIRECTORIES = new Set(['tests', '__tests__', 'unittests', 'integrationtests', 'acceptancetests']);

/**
 * Directories of code that is run, not shipped: benchmarks and examples (`benches/` in Rust,
 * `docs_src/` where documentation keeps its example programs). Ranked like test code.
 */
const SUPPORT_DIRECTORIES = new Set(['benchmarks', 'benchmark', 'benches', 'bench', 'examples', 'example', '_examples', 'docs_src']);

/** Test-support packages and crates: `test-support`, `cargo-test-support`, `testutil`, `testutils`, `test_helpers`. */
const TEST_SUPPORT = /(^|[-_])test[-_]?(support|utils?|helpers?)$/;

/**
 * Whether a repo-relative path is a test file, by the naming conventions of the indexed
 * languages: `_test.go`; `test_*.py`, `*_test.py`, `conftest.py`; `*.test.*`, `*.spec.*`;
 * `_spec.rb`, `spec/` and `test/` for Ruby outside `lib/`; `test/` elsewhere; `tests/`,
 * `__tests__/`, `src/test/` (Maven/Gradle), and .NET `*.Tests/`, `UnitTests/`,
 * `IntegrationTests/`, `AcceptanceTests/` directories; and benchmark and example code
 * (`benches/`, `benchmarks/`, `examples/`, `docs_src/`), which is ranked like tests.
 *
 * @example
 * ```ts
 * isTestFilePath('pkg/server/server_test.go'); // true
 * isTestFilePath('src/flask/testing.py');       // false: a library module about testing
 * ```
 */
export function isTestFilePath(path: string): boolean {
  if (!path) return false;
  const normalized = path.replace(/\\/g, '/').toLowerCase();
  const segments = normalized.split('/').filter((segment) => segment.length > 0);
  const base = segments.pop() ?? '';
  if (base.endsWith('_test.go')) return true;
  if (base.includes('.test.') || base.includes('.spec.')) return true;
  if (base.endsWith('.py') && (base.startsWith('test_') || base.endsWith('_test.py') || base === 'conftest.py')) return true;
  const ruby = base.endsWith('.rb');
  if (ruby && base.endsWith('_spec.rb')) return true;
  // A top-level `testing/` holds a project's test harness (Ocelot, Terraform); nested under a
  // library (`lib/rails/testing/`) it is usually shipped API, so only the root one counts.
  if (segments[0] === 'testing') return true;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (TEST_DIRECTORIES.has(segment) || segment.endsWith('.tests') || TEST_SUPPORT.test(segment)) return true;
    if (SUPPORT_DIRECTORIES.has(segment)) return true;
    if (segment === 'test') {
      // Ruby gems keep helpers called `test` under lib/ (e.g. lib/rack/test/); those are library code.
      if (!(ruby && segments.slice(0, i).includes('lib'))) return true;
    }
    if (ruby && segment === 'spec' && !segments.slice(0, i).includes('lib')) return true;
  }
  return false;
}

/**
 * Lower-case words of a text, with camelCase, PascalCase, snake_case and kebab-case split:
 * `"Fix TestClient's unit_test"` → `fix test client s unit test`.
 *
 * @example
 * ```ts
 * splitWords('HTTPServer before_request'); // ['http', 'server', 'before', 'request']
 * ```
 */
export function splitWords(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  return spaced
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** Tasks up to this many words are requests short enough that one test word says what they are about. */
const SHORT_TASK_WORDS = 12;
/** `test_login`, `LoginTest`, `login_spec`, `tests/…`, `…_test.go`, `spec/…`: names of test code. */
const TEST_IDENTIFIER = /(?:^|[^A-Za-z0-9])(?:test_[A-Za-z0-9_]+|[A-Za-z0-9_]+_(?:test|spec)s?\b|[A-Z][A-Za-z0-9]*Tests?\b|Test[A-Z][A-Za-z0-9]*|tests?\/|spec\/)/;

/**
 * Whether a task is about tests. One mention is not enough in a long report ("this breaks our
 * test suite" is about the code under test): the task must be a short request naming a test
 * word ("add a unit test for redirects"), name test words twice or more, or name test code
 * itself (`test_login`, `LoginTest`, `tests/…`). Words are whole words, case-insensitive,
 * camelCase and snake_case split; `keywords` count when the task's text names none.
 *
 * @example
 * ```ts
 * isTestTask('add a unit test for redirects', [], ['test']);  // true
 * isTestTask('show the latest release notes', [], ['test']);  // false
 * isTestTask('the redirect loses its query string when the target has a fragment; found while running our test suite against a proxy', [], ['test']); // false
 * ```
 */
export function isTestTask(task: string, keywords: readonly string[] | undefined, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const wanted = new Set(words.map((word) => word.toLowerCase()));
  if (TEST_IDENTIFIER.test(task)) return true;
  const taskWords = task.split(/\s+/).filter((word) => /[A-Za-z0-9]/.test(word)).length;
  let mentions = 0;
  for (const word of splitWords(task)) if (wanted.has(word)) mentions++;
  // Keywords usually come from the task itself: they count only where the task's text has none.
  if (mentions === 0) for (const keyword of keywords ?? []) for (const word of splitWords(keyword)) if (wanted.has(word)) mentions++;
  return mentions >= 2 || (mentions === 1 && taskWords <= SHORT_TASK_WORDS);
}
