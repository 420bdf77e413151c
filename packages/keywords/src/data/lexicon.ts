import { frozenList } from './freeze.js';

/**
 * Dotted prose abbreviations (compared lower-case, trailing dot trimmed). Dotted tokens
 * made only of single letters (`U.S`) are treated as prose as well.
 *
 * @example
 * ```ts
 * PROSE_ABBREVIATIONS.includes('e.g'); // true
 * ```
 */
export const PROSE_ABBREVIATIONS: readonly string[] = frozenList([
  'e.g', 'i.e', 'a.k.a', 'n.b', 'p.s', 'et.al', 'etc', 'vs', 'eg', 'ie', 'cf', 'approx',
]);

/**
 * Extensions that make a dotted token a file name (`settings.py`, `Node.js`): the stem is
 * kept as a word, the extension dropped, and it is not a code pattern.
 *
 * @example
 * ```ts
 * extractKeywordSet('settings.py').components; // ['settings']
 * ```
 */
export const FILE_EXTENSIONS: readonly string[] = frozenList([
  'go', 'py', 'pyi', 'ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs', 'rs', 'java', 'kt',
  'kts', 'scala', 'cs', 'fs', 'rb', 'erb', 'php', 'swift', 'c', 'h', 'cc', 'cpp', 'cxx', 'hpp',
  'hh', 'm', 'mm', 'sql', 'proto', 'graphql', 'gql', 'sh', 'bash', 'zsh', 'ps1', 'lua', 'ex',
  'exs', 'erl', 'hs', 'ml', 'dart', 'vue', 'svelte', 'html', 'htm', 'css', 'scss', 'sass',
  'less', 'json', 'jsonc', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'xml', 'md', 'mdx', 'rst',
  'txt', 'csv', 'lock', 'mod', 'sum', 'tf', 'tfvars', 'hcl', 'gradle', 'dockerfile', 'env',
  'log', 'tmpl', 'tpl', 'j2', 'jinja', 'liquid', 'haml', 'slim',
]);

/**
 * Mixed-case words the CamelCase splitter keeps whole (matched case-sensitively at a word
 * boundary): the usual rules would cut `SQLite` into `SQ Lite` and `OAuth` into `O Auth`.
 * Kept short on purpose: words the usual rules split sensibly (`WebSocket` → `Web Socket`)
 * are not listed, so keywords stay aligned with how a CamelCase-splitting index tokenises.
 *
 * @example
 * ```ts
 * splitIdentifier('SQLiteStore'); // ['SQLite', 'Store']
 * ```
 */
export const IDENTIFIER_ATOMS: readonly string[] = frozenList([
  'SQLite', 'OAuth', 'GraphQL', 'MySQL', 'PostgreSQL', 'NoSQL', 'iOS', 'macOS', 'IPv4', 'IPv6',
  'gRPC', 'PyPI',
]);
