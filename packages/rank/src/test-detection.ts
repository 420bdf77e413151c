import type { GraphNode } from '@knowing/graph';

/*
 * Test code is what the language module says it is: `GraphNode.isTest`, set by the indexer from
 * each language's test-file conventions and test markers (`#[test]`, `@Test`, `def test_…`,
 * `mod tests`). Seeds, channels and rankers all read that flag; nothing here guesses it again
 * from paths.
 */

/**
 * Directories of code that is run, not shipped: benchmarks and examples (`benches/` in Rust),
 * and the example programs documentation keeps (`docs/`, `docs_src/`, `samples/`, `demos/`,
 * `playground/`). Not `doc/`: Go names a product package so (`go/doc`).
 */
const AUXILIARY_DIRECTORIES = new Set([
  'benchmarks',
  'benchmark',
  'benches',
  'bench',
  'examples',
  'example',
  '_examples',
  'docs_src',
  'docs',
  'documentation',
  'samples',
  'sample',
  'demos',
  'demo',
  'playground',
]);

/**
 * Whether a symbol is auxiliary code: it lives under a benchmark, example or documentation
 * directory (`benches/`, `benchmarks/`, `examples/`, `docs/`, `samples/`, at any depth). Not
 * test code — the language module does not flag it — but a ranking feature of its own: like
 * test code, an agent rarely needs it, so rankers demote it (`auxiliaryPenalty`, the learned
 * `auxiliary_code` feature) and the engine seeds it last, unless the task is about tests.
 *
 * @example
 * ```ts
 * isAuxiliaryCode({ ...node, file: 'crates/core/benches/parse.rs' }); // true
 * isAuxiliaryCode({ ...node, file: 'src/exampleparser/parse.py' });   // false
 * ```
 */
export function isAuxiliaryCode(node: Pick<GraphNode, 'file'>): boolean {
  if (!node.file) return false;
  const segments = node.file.replace(/\\/g, '/').toLowerCase().split('/');
  segments.pop();
  return segments.some((segment) => AUXILIARY_DIRECTORIES.has(segment));
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
 * The line that states what a task is for: its first line holding a word, when more lines
 * follow (a report's title, a commit's subject); undefined for a task of one line.
 */
function subjectLine(task: string): string | undefined {
  const lines = task.split(/\r?\n/);
  const first = lines.findIndex((line) => /[A-Za-z0-9]/.test(line));
  if (first < 0 || !lines.slice(first + 1).some((line) => /[A-Za-z0-9]/.test(line))) return undefined;
  return lines[first]!;
}

/**
 * Whether a task is about tests. One mention is not enough in a long report ("this breaks our
 * test suite" is about the code under test): the task must be a short request naming a test
 * word ("add a unit test for redirects"), name test words twice or more, or name test code
 * itself (`test_login`, `LoginTest`, `tests/…`). Words are whole words, case-insensitive,
 * camelCase and snake_case split; `keywords` count when the task's text names none.
 *
 * A task of several lines is judged by its first (the title of a report, the subject of a
 * commit message): that line says what the task is for, and the lines below it list the
 * steps, tests among them ("Fix the retry delay … - add a regression test"), without making
 * the task one about tests.
 *
 * @example
 * ```ts
 * isTestTask('add a unit test for redirects', [], ['test']);  // true
 * isTestTask('show the latest release notes', [], ['test']);  // false
 * isTestTask('the redirect loses its query string when the target has a fragment; found while running our test suite against a proxy', [], ['test']); // false
 * isTestTask('Fix negative retry delays\n\n- add tests for large attempts\n- test the cap', [], ['test']); // false
 * ```
 */
export function isTestTask(task: string, keywords: readonly string[] | undefined, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const wanted = new Set(words.map((word) => word.toLowerCase()));
  const subject = subjectLine(task);
  if (subject === undefined) return mentionsTests(task, keywords, wanted);
  // Keywords are drawn from the whole task: where its lower lines name tests, so may they.
  return mentionsTests(subject, testMentions(task, wanted) === 0 ? keywords : undefined, wanted);
}

function testMentions(text: string, wanted: ReadonlySet<string>): number {
  let mentions = 0;
  for (const word of splitWords(text)) if (wanted.has(word)) mentions++;
  return mentions;
}

function mentionsTests(task: string, keywords: readonly string[] | undefined, wanted: ReadonlySet<string>): boolean {
  if (TEST_IDENTIFIER.test(task)) return true;
  const taskWords = task.split(/\s+/).filter((word) => /[A-Za-z0-9]/.test(word)).length;
  let mentions = testMentions(task, wanted);
  // Keywords usually come from the task itself: they count only where the task's text has none.
  if (mentions === 0) for (const keyword of keywords ?? []) mentions += testMentions(keyword, wanted);
  return mentions >= 2 || (mentions === 1 && taskWords <= SHORT_TASK_WORDS);
}
