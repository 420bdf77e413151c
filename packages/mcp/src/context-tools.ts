import { isKnowingError } from '@knowing/graph';
import type { KnowingError } from '@knowing/graph';
import type { ContextResult, QueryOptions } from '@knowing/engine';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answer, freshen, registerTool, textResult } from './connection.js';
import type { AnswerArgs, Connection } from './connection.js';
import { notFound } from './errors.js';
import { changedFiles } from './git.js';
import { contextForFilesInput, contextForPrInput, contextForTaskInput } from './schemas.js';
import type { McpFormat } from './types.js';

const MAX_OBSERVED_FILES = 200;
/** How the task line of a file-seeded answer names its files. */
const FILES_TASK_LABEL = { context_for_files: 'files', context_for_pr: 'changes' } as const;

/** The engine's options for one call of a connection: its session, the format and budget asked for. */
export function queryOptions(connection: Connection, format: McpFormat, tokenBudget: number | undefined): QueryOptions {
  return {
    format,
    session: connection.sessionId,
    ...(tokenBudget !== undefined ? { budget: tokenBudget } : {}),
  };
}

/** Check path arguments; repo-relative paths with links resolved. */
async function guarded(connection: Connection, paths: readonly string[], label: string): Promise<string[]> {
  const relatives: string[] = [];
  for (const [i, file] of paths.entries()) relatives.push((await connection.host.guard.check(file, `${label}[${i}]`)).relative);
  return relatives;
}

/**
 * Files the agent asks about or changed are files it works on: their symbols, if an earlier
 * answer returned them, count as used for implicit feedback (an MCP server sees no other
 * sign of use than the tool calls themselves).
 */
async function observeFiles(connection: Connection, files: readonly string[]): Promise<void> {
  const { store, engine } = connection.host;
  const names = new Set<string>();
  for (const file of files.slice(0, MAX_OBSERVED_FILES)) for (const node of await store.nodesInFile(file)) if (node.kind !== 'file') names.add(node.name);
  if (names.size > 0) engine.observe(connection.sessionId, [...names].join('\n'));
}

/** Expand directories to the indexed files under them, and split off files the index does not know. */
async function splitIndexed(connection: Connection, relatives: readonly string[]): Promise<{ files: string[]; unknown: string[] }> {
  const { store } = connection.host;
  const files = new Set<string>();
  const unknown: string[] = [];
  let listed: string[] | undefined;
  for (const relative of relatives) {
    if (await store.getFile(relative)) {
      files.add(relative);
      continue;
    }
    listed ??= (await store.listFiles()).map((record) => record.path);
    const inside = listed.filter((file) => file.startsWith(`${relative}/`));
    if (inside.length > 0) for (const file of inside) files.add(file);
    else unknown.push(relative);
  }
  return { files: [...files], unknown };
}

function unknownFilesError(unknown: readonly string[]): KnowingError {
  return notFound(
    `none of the files is in the index: ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', …' : ''}`,
    'they may be of an unsupported language, ignored (.gitignore, .knowingignore), generated, or missing; index_status shows what is indexed',
  );
}

const unknownNote = (unknown: readonly string[]): string =>
  `note: not in the index (unsupported language, ignored, or missing): ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', …' : ''}`;

/**
 * The answer of a file-seeded tool: the indexed files among `relatives` (an error when there
 * are none, a note for the others), observed as worked on, asked of the engine through `ask`.
 */
async function answerForFiles(
  connection: Connection,
  tool: keyof typeof FILES_TASK_LABEL,
  args: AnswerArgs & { token_budget?: number | undefined },
  relatives: readonly string[],
  notes: string[],
  ask: (files: readonly string[], options: QueryOptions) => Promise<ContextResult>,
): Promise<CallToolResult> {
  const { files, unknown } = await splitIndexed(connection, relatives);
  if (files.length === 0) throw unknownFilesError(unknown);
  if (unknown.length > 0) notes.push(unknownNote(unknown));
  await observeFiles(connection, files);
  const format = args.format ?? connection.host.defaultFormat;
  const result = await ask(files, queryOptions(connection, format, args.token_budget));
  return answer(connection, tool, result, args, `${FILES_TASK_LABEL[tool]}: ${files.join(', ')}`, notes);
}

/**
 * The working tree's changed files (git diff HEAD plus untracked), repo-relative; a file the
 * path guard refuses is left out with a note.
 */
async function workingTreeChanges(connection: Connection, notes: string[]): Promise<string[]> {
  const { root, indexFiles, guard } = connection.host;
  const relatives: string[] = [];
  for (const file of await changedFiles(root, indexFiles)) {
    try {
      relatives.push((await guard.check(file, 'changed file')).relative);
    } catch (error) {
      if (!isKnowingError(error)) throw error;
      notes.push(`note: skipped ${file}: ${error.message}`);
    }
  }
  return relatives;
}

/** The tools that answer with a context pack: for a task, for files, for a change set. */
export function registerContextTools(connection: Connection): void {
  const { engine, defaultFormat, maxTaskChars } = connection.host;

  registerTool(
    connection,
    'context_for_task',
    {
      title: 'Context for a task',
      description:
        'The symbols of this repository worth reading for a task, ranked, within a token budget. Call it before exploring code. Pass pack_root from an earlier answer to receive "unchanged" or a delta.',
      inputSchema: contextForTaskInput(maxTaskChars),
    },
    async (args, extra) => {
      engine.observe(connection.sessionId, args.task_description);
      const { notes, pending } = await freshen(connection.host, extra);
      if (pending) return pending;
      const format = args.format ?? defaultFormat;
      const result = await engine.forTask(args.task_description, queryOptions(connection, format, args.token_budget));
      return answer(connection, 'context_for_task', result, args, args.task_description, notes);
    },
  );

  registerTool(
    connection,
    'context_for_files',
    {
      title: 'Context for files',
      description:
        'The symbols defined in the given files (directories expand to their indexed files) and their direct callers, within a token budget. Use it for files you are about to edit.',
      inputSchema: contextForFilesInput,
    },
    async (args, extra) => {
      const relatives = await guarded(connection, args.files, 'files');
      const { notes, pending } = await freshen(connection.host, extra);
      if (pending) return pending;
      return answerForFiles(connection, 'context_for_files', args, relatives, notes, (files, options) => engine.forFiles(files, options));
    },
  );

  registerTool(
    connection,
    'context_for_pr',
    {
      title: 'Context for a change set',
      description:
        'The impact neighbourhood of changed files: their symbols and what the graph walk reaches from them, within a token budget (default 8000). Without files, uses the working tree changes (git diff HEAD plus untracked files).',
      inputSchema: contextForPrInput,
    },
    async (args, extra) => {
      const notes: string[] = [];
      const relatives = args.files ? await guarded(connection, args.files, 'files') : await workingTreeChanges(connection, notes);
      if (!args.files && relatives.length === 0) {
        return textResult('No changed files: `git diff HEAD` is empty and there are no untracked files. Pass `files` to ask about specific files.\n');
      }
      const fresh = await freshen(connection.host, extra);
      if (fresh.pending) return fresh.pending;
      notes.unshift(...fresh.notes);
      return answerForFiles(connection, 'context_for_pr', args, relatives, notes, (files, options) => engine.forPR(files, options));
    },
  );
}
