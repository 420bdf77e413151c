import { z } from 'zod';

/** Formats the context tools accept, the default first. */
export const FORMATS = ['gcf', 'xml', 'markdown', 'json', 'gcb'] as const;

/** Largest token budget a call may ask for. */
export const MAX_BUDGET = 2_000_000;
/** Most files one call may name. */
export const MAX_FILES = 500;
/** Most symbols one feedback call may name. */
export const MAX_FEEDBACK_SYMBOLS = 200;
/** Longest symbol name a call may pass (qualified names are a path and a few names: far shorter). */
export const MAX_NAME_CHARS = 1_000;
/** Longest file path a call may pass (Linux's PATH_MAX). */
export const MAX_PATH_CHARS = 4_096;

/** How a rejected value is shown in an error message. */
export function shown(input: unknown): string {
  if (input === undefined) return 'nothing';
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  if (typeof input === 'string') return input.length > 60 ? `${JSON.stringify(input.slice(0, 60))}…` : JSON.stringify(input);
  if (typeof input === 'object') return 'an object';
  return `${typeof input} ${String(input)}`;
}

/** A non-empty string of at most `max` characters (after trimming). */
const text = (what: string, max: number, advice: string) =>
  z
    .string({ error: (issue) => `expected ${what}, got ${shown(issue.input)}` })
    .trim()
    .min(1, { error: `expected ${what}, got an empty string` })
    .max(max, { error: (issue) => `expected ${what} of at most ${max} characters, got ${typeof issue.input === 'string' ? issue.input.length : 'more'}; ${advice}` });

const name = (what: string) => text(what, MAX_NAME_CHARS, 'pass the name as an answer shows it');
const filePath = text('a file path', MAX_PATH_CHARS, 'pass a path relative to the repository root');
const taskText = (what: string, maxTaskChars: number) =>
  text(what, maxTaskChars, 'describe the task in a few sentences and paste only the lines that matter (the error message, the top stack frames)');

const budget = z
  .number({ error: (issue) => `expected a token budget (a whole number ≥ 1), got ${shown(issue.input)}` })
  .int({ error: (issue) => `expected a token budget (a whole number ≥ 1), got ${shown(issue.input)}` })
  .min(1, { error: (issue) => `expected a token budget (a whole number ≥ 1), got ${shown(issue.input)}` })
  .max(MAX_BUDGET, { error: `a token budget is at most ${MAX_BUDGET}` })
  .optional()
  .describe(
    "Tokens the whole answer may use (everything printed: header, symbols, code, edges), counted in cl100k_base tokens; the header states the true count. Default: the engine's (50000; 8000 for context_for_pr).",
  );

const format = z
  .enum(FORMATS, { error: (issue) => `expected one of ${FORMATS.join(', ')}, got ${shown(issue.input)}` })
  .optional()
  .describe('Output format. gcf (default) is the compact one for agents; gcb is binary and comes back as a base64 blob resource.');

const includeCode = z
  .boolean({ error: (issue) => `expected include_code as true or false, got ${shown(issue.input)}` })
  .optional()
  .describe(
    'Bring the source of the best-ranked symbols (whole bodies while they fit, then cut at a line), within the same token budget. Default true: you can act on the answer without opening files.',
  );

const packRoot = z
  .string({ error: (issue) => `expected a pack root (the pack_root of an earlier answer), got ${shown(issue.input)}` })
  .trim()
  .regex(/^[0-9a-f]{64}$/, { error: 'expected a pack root: 64 lowercase hex characters, as in the pack_root of an earlier answer' })
  .optional()
  .describe(
    'pack_root of an answer you already have. The same pack again is answered with one "unchanged" line; in gcf, a pack this server sent recently is answered with a delta when that is smaller.',
  );

const files = (what: string) =>
  z
    .array(filePath, { error: (issue) => `expected ${what} (an array of paths relative to the repository root), got ${shown(issue.input)}` })
    .min(1, { error: `expected at least one path in ${what}` })
    .max(MAX_FILES, { error: `at most ${MAX_FILES} files per call` });

/** Rejects unknown arguments by name, listing the ones the tool takes. */
function strict<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}; this tool takes ${known.length > 0 ? known.join(', ') : 'no arguments'}`
        : issue.code === 'invalid_type'
          ? `expected the arguments as an object, got ${shown(issue.input)}`
          : undefined,
  });
}

/**
 * The arguments of `context_for_task`. Task descriptions are capped: keyword extraction and
 * the queries it drives grow with the text (a 1.9 MB task took seconds of one thread), while
 * the search uses a few dozen terms of it.
 */
export const contextForTaskInput = (maxTaskChars: number) =>
  strict({
    task_description: taskText('a task description (what you are about to do, in a sentence)', maxTaskChars).describe(
      `What you are about to do, e.g. "add a before_request hook that checks API keys" (at most ${maxTaskChars} characters). Back-ticked identifiers are matched exactly.`,
    ),
    token_budget: budget,
    format,
    include_code: includeCode,
    pack_root: packRoot,
  });

export const contextForFilesInput = strict({
  files: files('files').describe('Files (or directories) to explain, relative to the repository root.'),
  token_budget: budget,
  format,
  include_code: includeCode,
  pack_root: packRoot,
});

export const contextForPrInput = strict({
  files: files('files')
    .optional()
    .describe('Changed files, relative to the repository root. Default: what `git diff HEAD` and untracked files show.'),
  token_budget: budget,
  format,
  include_code: includeCode,
  pack_root: packRoot,
});

export const explainSymbolInput = (maxTaskChars: number) =>
  strict({
    task_description: taskText('a task description', maxTaskChars).describe(
      `The task the symbol was (or was not) chosen for (at most ${maxTaskChars} characters).`,
    ),
    symbol: name('a symbol name').describe('A name (`run`), a member (`Flask.run`) or a qualified name (`src/flask/app.py.Flask.run`).'),
    token_budget: budget,
  });

export const feedbackInput = strict({
  symbols: z
    .array(name('a symbol id or name'), { error: (issue) => `expected symbols as an array of ids or names, got ${shown(issue.input)}` })
    .min(1, { error: 'expected at least one symbol' })
    .max(MAX_FEEDBACK_SYMBOLS, { error: `at most ${MAX_FEEDBACK_SYMBOLS} symbols per call` })
    .describe('Symbols from an answer: node ids, qualified names (as in gcf lines) or plain names.'),
  useful: z
    .boolean({ error: (issue) => `expected useful to be true or false, got ${shown(issue.input)}` })
    .describe('Whether these symbols helped with the task.'),
});

export const indexStatusInput = strict({});

export const reindexInput = strict({
  full: z
    .boolean({ error: (issue) => `expected full to be true or false, got ${shown(issue.input)}` })
    .optional()
    .describe('Re-parse every file instead of only the changed ones. Default false.'),
});

export const indexStatusOutput = z.object({
  repo_root: z.string(),
  db_path: z.string().nullable(),
  indexed: z.boolean(),
  repo_id: z.string().nullable(),
  commit: z.string().nullable(),
  last_indexed: z.string().nullable(),
  snapshot: z.string().nullable(),
  files: z.number(),
  nodes: z.number(),
  edges: z.number(),
  edges_by_type: z.record(z.string(), z.number()),
  nodes_by_kind: z.record(z.string(), z.number()),
  stale_files: z.number(),
  stale: z.object({ changed: z.array(z.string()), added: z.array(z.string()), deleted: z.array(z.string()) }),
  check_ms: z.number(),
  indexing: z.object({ kind: z.string(), phase: z.string().nullable(), done: z.number(), total: z.number() }).nullable(),
  session: z.string(),
});

export type IndexStatus = z.infer<typeof indexStatusOutput>;
