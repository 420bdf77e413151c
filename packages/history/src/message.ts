/**
 * Commit messages → task descriptions: strip what is addressed to tools (trailers, issue
 * references, URLs, conventional-commit prefixes, bracket tags) and keep what a person wrote
 * about the change; then say whether the commit is the kind of change a task can be made of.
 */

/** Trailer keys (`Key: value` lines) that carry no description of the change. */
const TRAILER_KEYS = new Set(
  [
    'signed-off-by',
    'co-authored-by',
    'co-developed-by',
    'reviewed-by',
    'reviewed-on',
    'acked-by',
    'tested-by',
    'reported-by',
    'suggested-by',
    'helped-by',
    'requested-by',
    'approved-by',
    'cc',
    'change-id',
    'fixes',
    'closes',
    'close',
    'resolves',
    'resolve',
    'refs',
    'ref',
    'references',
    'see',
    'see-also',
    'issue',
    'issues',
    'related',
    'related-to',
    'pr',
    'pr-url',
    'pull-request',
    'backport-of',
    'cherry-picked-from',
    'changelog',
    'release-note',
    'release-notes',
    'bug',
    'jira',
    'ticket',
    'part-of',
    'depends-on',
    'git-svn-id',
  ].map((key) => key.toLowerCase()),
);

/** Conventional-commit types; `type(scope)!:` with one of these is removed from the description. */
const CONVENTIONAL_TYPES = new Set([
  'fix',
  'fixes',
  'fixed',
  'bugfix',
  'hotfix',
  'feat',
  'feature',
  'chore',
  'refactor',
  'perf',
  'docs',
  'doc',
  'style',
  'test',
  'tests',
  'build',
  'ci',
  'revert',
  'deps',
  'dep',
  'release',
  'improvement',
  'improve',
  'enhancement',
  'security',
  'types',
  'typing',
  'misc',
  'internal',
  'cleanup',
  'breaking',
  'wip',
]);

/** Conventional types whose commits are never tasks: documentation, tests, CI, builds, releases, dependencies, formatting. */
const SKIPPED_TYPES = new Set(['docs', 'doc', 'test', 'tests', 'ci', 'build', 'release', 'deps', 'dep', 'style', 'revert', 'wip']);

const URL = /\b(?:https?|ftp):\/\/[^\s)>\]]+/gi;
/** `Fixes #12`, `closes: gh-3`, `refs owner/repo#4` — the verb goes with its reference. */
const VERB_REF = /\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?|refs?|see|related(?:\s+to)?|part\s+of|for|re)\s*:?\s+(?:(?:[\w.-]+\/[\w.-]+)?#\d+|gh-\d+)(?:\s*(?:,|and)\s*(?:(?:[\w.-]+\/[\w.-]+)?#\d+|gh-\d+))*(?=\s*(?:[.,;:)\]]|$))/gi;
/** `See https://…`, `More at: https://…` — the pointer goes with its URL. */
const VERB_URL = /\b(?:see(?:\s+also)?|more\s+(?:at|in)|details\s+(?:at|in)|discussed\s+(?:at|in)|reported\s+(?:at|in)|upstream|ref(?:erence)?s?)\s*:?\s+(?=(?:https?|ftp):\/\/)/gi;
const ISSUE_REF = /(?:[\w.-]+\/[\w.-]+)?#\d+\b|\bgh-\d+\b/gi;
const CHERRY_PICK = /^\(cherry picked from commit [0-9a-f]+\)$/i;
const TRAILER_LINE = /^([A-Za-z][A-Za-z0-9-]*(?: [A-Za-z][A-Za-z0-9-]*)?):\s+\S/;

/** What {@link cleanMessage} makes of a commit message. */
export interface CleanedMessage {
  /** The subject line after cleaning (conventional prefix and bracket tags removed). */
  readonly subject: string;
  /** Subject and body paragraphs, cleaned, joined by blank lines. */
  readonly description: string;
  /** The conventional-commit type of the subject, lower-case, when it had one (`fix`, `feat`, …). */
  readonly type: string | undefined;
  /** Words of the description that describe the change (a leading `area:` prefix not counted). */
  readonly words: number;
}

/** Remove issue references and URLs from one line, then tidy what they leave behind. */
export function stripReferences(line: string): string {
  const stripped = line.replace(VERB_URL, ' ').replace(URL, ' ').replace(VERB_REF, ' ').replace(ISSUE_REF, ' ');
  if (stripped === line) return line.trim();
  // Tidy only what the removal left: empty brackets that held a reference (not a call's `()`), dangling punctuation.
  return stripped
    .replace(/(^|\s)(?:\(\s*(?:[,;]\s*)*\)|\[\s*\])/g, '$1')
    .replace(/\s+([,.;:!?])(?=\s|$)/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/^[\s,;:-]+|[\s,;:-]+$/g, '')
    .trim();
}

/** Remove `[tag]` groups, a conventional `type(scope)!:` prefix and a `WIP`/`[skip ci]`-like marker from a subject. */
export function stripSubjectPrefix(subject: string): { readonly text: string; readonly type: string | undefined } {
  let text = subject.trim();
  let type: string | undefined;
  for (;;) {
    const before = text;
    text = text.replace(/^\[[^\]]{1,40}\]\s*:?\s*/, '').replace(/\s*\[(?:skip ci|ci skip|skip-ci|no ci)\]\s*/gi, ' ').trim();
    const match = /^([A-Za-z]+)(?:\(([^)]{0,60})\))?(!)?:\s*/.exec(text);
    if (match && CONVENTIONAL_TYPES.has(match[1]!.toLowerCase())) {
      type ??= match[1]!.toLowerCase();
      text = text.slice(match[0].length).trim();
    }
    if (text === before) break;
  }
  return { text, type };
}

/** A trailer line of the message's last paragraph, or any `Signed-off-by`-like line. */
function isTrailer(line: string): boolean {
  const match = TRAILER_LINE.exec(line.trim());
  return match !== null && TRAILER_KEYS.has(match[1]!.toLowerCase().replace(/ /g, '-'));
}

/** Lines that are template scaffolding rather than prose: checklists, HTML comments, horizontal rules. */
function isScaffolding(line: string): boolean {
  const t = line.trim();
  return /^Merge (?:pull request|branch)\b/i.test(t) || /^[-*]\s*\[[ xX]\]/.test(t) || /^<!--.*-->$/.test(t) || /^(?:-{3,}|\*{3,}|_{3,}|={3,})$/.test(t) || CHERRY_PICK.test(t);
}

/** Count words that carry meaning: tokens with at least one letter. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((token) => /\p{L}/u.test(token)).length;
}

/** At most this many characters of body are kept; longer bodies are cut at a paragraph boundary. */
const MAX_DESCRIPTION_CHARS = 1500;

/**
 * Clean a raw commit message (`git log --format=%B`) into a task description.
 *
 * @example
 * ```ts
 * cleanMessage('fix(router): keep the query string when redirecting to a trailing slash (#123)\n\nSigned-off-by: A <a@b>');
 * // → { subject: 'keep the query string when redirecting to a trailing slash', type: 'fix', words: 11, … }
 * ```
 */
export function cleanMessage(raw: string): CleanedMessage {
  const text = raw.replace(/\r\n?/g, '\n').replace(/<!--[\s\S]*?-->/g, '');
  const lines = text.split('\n');
  const firstLine = lines.findIndex((line) => line.trim() !== '');
  const subjectLine = firstLine >= 0 ? lines[firstLine]! : '';
  const { text: subjectText, type } = stripSubjectPrefix(stripReferences(subjectLine));
  const subject = stripReferences(subjectText);
  const paragraphs: string[] = [];
  let current: string[] = [];
  const flush = (): void => {
    // Indentation of a paragraph's lines is kept: an indented code example stays one.
    const paragraph = current.join('\n').replace(/\s+$/, '');
    if (paragraph) paragraphs.push(paragraph);
    current = [];
  };
  for (const line of firstLine >= 0 ? lines.slice(firstLine + 1) : []) {
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (isTrailer(line) || isScaffolding(line)) continue;
    const cleaned = stripReferences(line);
    // A line that held only references or a URL goes away entirely; indentation of the rest stays.
    if (cleaned === '') continue;
    const indent = /^\s*/.exec(line)![0];
    current.push(indent + cleaned);
  }
  flush();
  let description = subject;
  for (const paragraph of paragraphs) {
    if (description.length + paragraph.length > MAX_DESCRIPTION_CHARS && description.length > 0) break;
    description = description ? `${description}\n\n${paragraph}` : paragraph;
  }
  // A Go-style `area: ` prefix stays in the description (people write it) but is not a word of it.
  const counted = description.replace(/^[\w./-]+(?:\([^)]*\))?:\s+/, '');
  return { subject, description, type, words: countWords(counted) };
}

/** The commit facts {@link skipReason} looks at. */
export interface CommitFacts {
  /** The raw message. */
  readonly message: string;
  readonly parents: readonly string[];
  readonly authorName?: string;
  readonly authorEmail?: string;
}

/** Options of {@link skipReason}. */
export interface MessageRules {
  /** Descriptions with fewer words than this are too thin to be a task. @default 8 */
  readonly minWords: number;
}

/** Defaults of {@link MessageRules}. */
export const DEFAULT_MESSAGE_RULES: MessageRules = Object.freeze({ minWords: 8 });

const RELEASE = [
  /^(?:release|releasing|released|publish|prepare(?:s|d)?\s+(?:for\s+)?(?:the\s+)?(?:release|v?\d))\b/i,
  /^(?:bump(?:ed|s)?|update[sd]?|set)\s+(?:the\s+)?(?:package\s+|crate\s+|gem\s+)?version\b/i,
  /\bversion\s+bump\b/i,
  /^v?\d+\.\d+(?:\.\d+)?(?:[-.+]\w+)*\s*$/,
  /^(?:bump|update|upgrade)\s+(?:to\s+)?v?\d+\.\d+/i,
  /\brelease\s+v?\d+\.\d+/i,
  /\bchange-?log\b/i,
  /\brelease notes\b/i,
];
const DEPENDENCY = [
  /^(?:bump|update|upgrade|downgrade|pin|unpin)s?\b.*\bfrom\s+v?[\w.-]+\s+to\s+v?[\w.-]+/i,
  /^(?:bump|update|upgrade|downgrade|pin|unpin)(?:s|d|ed)?\s+(?:the\s+|all\s+|some\s+)?(?:dev[- ])?(?:dependenc(?:y|ies)|deps|packages|gems|crates|lock\s*files?|cargo\.lock|go\.(?:mod|sum)|package(?:-lock)?\.json|yarn\.lock|pnpm-lock\.yaml|requirements)\b/i,
  /\b(?:dependabot|renovate)\b/i,
];
const FORMATTING = [
  /^typos?\b|\b(?:fix(?:e[sd])?|correct(?:s|ed)?)\s+(?:an?\s+|some\s+|several\s+|minor\s+|the\s+|small\s+)?typos?\b|\btypos?\s+(?:fix|in)\b/i,
  /\bspelling\b|\bmisspell/i,
  /\bwhitespace\b|\btrailing spaces?\b/i,
  /^(?:re)?format(?:ted|ting)?\b|\breformat|\b(?:code|source|file)\s+formatting\b|\bformatting\s+(?:only|changes|fixes)\b/i,
  /\b(?:run|ran|apply|applied|with)\s+(?:black|ruff|isort|rustfmt|cargo fmt|gofmt|go fmt|goimports|prettier|rubocop|eslint --fix|dotnet format|clang-format)\b/i,
  /^(?:lint|linting|clippy|rubocop|fmt|cargo fmt|gofmt|rustfmt|prettier|style|cs|code style)\b/i,
  /\b(?:fix|fixes|fixed|address|silence|appease|satisfy|resolve|make)\b.{0,40}\b(?:lint|linter|clippy|rubocop|eslint|pylint|flake8|mypy|pyright|golint|golangci-lint|staticcheck|tslint|rustdoc|compiler|build)\s+(?:warnings?|errors?|issues?|complaints?|lints?|failures?|happy)\b/i,
  /\bcode\s+style\b|\bcoding\s+style\b|\bstyle\s+fix/i,
  // A subject naming a linter, formatter or analyzer rule is about satisfying the tool.
  /\b(?:ruff|flake8|pylint|mypy|pyright|eslint|tslint|prettier|rubocop|standardrb|clippy|golangci(?:-lint)?|staticcheck|stylecop|sonar(?:qube|cloud|analyzer|lint)?|codeql)\b/i,
  /\b(?:S|CA|IDE|SA|RCS|SX)\d{3,4}\b/,
];
const RENAME = /^(?:rename[sd]?|renaming|move[sd]?|moving)\b/i;
const MERGE = /^merge\s+(?:branch|pull request|remote-tracking|tag|commit|the\s+\S+\s+branch|[0-9a-f]{7,}|['"])/i;
const REVERT = /^revert\b|^reverts?\s+["'`]/i;

/**
 * Why a commit is not a task by its message and shape, or undefined when it may be one
 * (its diff decides the rest).
 *
 * @example
 * ```ts
 * skipReason({ message: 'Bump version to 2.0.1', parents: ['abc'] }); // 'release or version bump'
 * ```
 */
export function skipReason(commit: CommitFacts, rules: MessageRules = DEFAULT_MESSAGE_RULES): string | undefined {
  if (commit.parents.length !== 1) return commit.parents.length === 0 ? 'root commit' : 'merge';
  const author = `${commit.authorName ?? ''} ${commit.authorEmail ?? ''}`;
  if (/\[bot\]|dependabot|renovate|github-actions|greenkeeper|snyk-bot/i.test(author)) return 'bot author';
  const rawSubject = (commit.message.split('\n').find((line) => line.trim() !== '') ?? '').trim();
  if (MERGE.test(rawSubject)) return 'merge';
  if (REVERT.test(rawSubject) || /^This reverts commit [0-9a-f]{7,}/m.test(commit.message)) return 'revert';
  const cleaned = cleanMessage(commit.message);
  const subject = cleaned.subject;
  if (cleaned.type && SKIPPED_TYPES.has(cleaned.type)) return `conventional type "${cleaned.type}"`;
  if (/^chore\b/.test(cleaned.type ?? '') && /\b(?:deps?|dependenc|release|version)/i.test(rawSubject)) return 'dependency or release chore';
  if (RELEASE.some((pattern) => pattern.test(subject))) return 'release or version bump';
  if (DEPENDENCY.some((pattern) => pattern.test(subject))) return 'dependency bump';
  if (FORMATTING.some((pattern) => pattern.test(subject))) return 'formatting, lint or typo';
  if (RENAME.test(subject)) return 'rename or move';
  if (cleaned.words < rules.minWords) return `short description (${cleaned.words} words)`;
  return undefined;
}
