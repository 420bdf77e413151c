/** Directory segments that hold tests in every language we index. */
const TEST_DIRECTORIES = new Set(['tests', '__tests__', 'unittests', 'integrationtests', 'acceptancetests']);

/** Test-support packages and crates: `test-support`, `cargo-test-support`, `testutil`, `testutils`, `test_helpers`. */
const TEST_SUPPORT = /(^|[-_])test[-_]?(support|utils?|helpers?)$/;

/**
 * Whether a repo-relative path is a test file, by the naming conventions of the indexed
 * languages: `_test.go`; `test_*.py`, `*_test.py`, `conftest.py`; `*.test.*`, `*.spec.*`;
 * `_spec.rb`, `spec/` and `test/` for Ruby outside `lib/`; `test/` elsewhere; `tests/`,
 * `__tests__/`, `src/test/` (Maven/Gradle), and .NET `*.Tests/`, `UnitTests/`,
 * `IntegrationTests/`, `AcceptanceTests/` directories.
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

/**
 * Whether a task is about tests: any word of the task or of its keywords is one of `words`
 * (whole words, case-insensitive; camelCase and snake_case are split first).
 *
 * @example
 * ```ts
 * isTestTask('add a unit test for redirects', [], ['test']);  // true
 * isTestTask('show the latest release notes', [], ['test']);  // false
 * ```
 */
export function isTestTask(task: string, keywords: readonly string[] | undefined, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const wanted = new Set(words.map((word) => word.toLowerCase()));
  const texts = keywords ? [task, ...keywords] : [task];
  for (const text of texts) {
    for (const word of splitWords(text)) if (wanted.has(word)) return true;
  }
  return false;
}
