import { existsSync } from 'node:fs';
import type { ContextResult, Engine } from '@knowing/engine';
import { createSqliteStore } from '@knowing/store-sqlite';
import { fitPack } from '@knowing/wire';
import type { FittedPack } from '@knowing/wire';
import { createExactTokenizer, createHeuristicTokenizer, preloadExactTokenizer, startExactTokenizer } from '@knowing/pack';
import type { Tokenizer } from '@knowing/pack';
import { readSourceFile } from '../source.js';
import { booleanValue, listValue, positiveInteger, stringValue, withTaskText } from '../args.js';
import type { CommandContext } from '../command.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import { createProgress } from '../progress.js';
import { changedFiles, ignoreIndexDirectory, refuseBroadRoot, toRepoPath } from '../repo.js';
import { checkFormat, isBinaryFormat } from '../formats.js';
import { locate, openIndex } from '../session.js';
import { freshen, openFreshIndex } from '../freshen.js';
import { activeWarmPool } from '../warm.js';
import type { OpenIndex } from '../session.js';
import { formatInt } from '../text.js';
import { markLightRun } from '../run-weight.js';

type Query =
  | { readonly kind: 'task'; readonly task: string }
  | { readonly kind: 'files'; readonly files: readonly string[] }
  | { readonly kind: 'pr'; readonly base: string };

/** Exactly one of --task, --files, --pr. */
function queryOf(ctx: CommandContext): Query {
  const task = stringValue(ctx.values, 'task');
  const files = listValue(ctx.values, 'files');
  const base = stringValue(ctx.values, 'pr');
  const given = [task !== undefined && '--task', files !== undefined && '--files', base !== undefined && '--pr'].filter(Boolean);
  if (given.length === 0) {
    throw usageError('say what the context is for: --task, --files or --pr', 'e.g. knowing context --task "add a discount code to the cart"');
  }
  if (given.length > 1) throw usageError(`${given.join(' and ')} cannot be combined`, 'pass exactly one of --task, --files, --pr');
  if (task !== undefined) return { kind: 'task', task: requireTask(task) };
  if (files !== undefined) {
    if (files.length === 0) throw usageError('--files is empty', 'name at least one file, e.g. --files src/cart.py');
    return { kind: 'files', files };
  }
  return { kind: 'pr', base: base!.trim() || 'HEAD' };
}

/** A task with words in it, or a usage error. */
export function requireTask(task: string | undefined, flag = '--task'): string {
  if (task === undefined) throw usageError(`${flag} is required`, `describe the change in words, e.g. ${flag} "add a discount code to the cart"`);
  if (task.trim() === '') throw usageError('the task is empty', `describe the change in words, e.g. ${flag} "add a discount code to the cart"`);
  return task.trim();
}

/** The output format: --json means json; otherwise --format, the config's default, or xml. */
export function resolveFormat(ctx: CommandContext, configured: string | undefined): string {
  const flag = stringValue(ctx.values, 'format');
  if (ctx.out.json) {
    if (flag !== undefined && flag.trim().toLowerCase() !== 'json') throw usageError(`--json and --format ${flag} disagree`, 'use one of them; --json is the same as --format json');
    return 'json';
  }
  if (flag !== undefined) return checkFormat(flag);
  if (configured !== undefined) return checkFormat(configured, 'defaults.format in the config');
  return 'xml';
}

/** Bring the index up to date before answering (--reindex). */
export async function reindex(ctx: CommandContext): Promise<void> {
  const location = await locate(ctx);
  if (location.postgres) throw usageError('--reindex does not write to a PostgreSQL store', 'index it with `knowing index --store …` (in CI, on every push)');
  refuseBroadRoot(location.root, false);
  const defaults = location.loaded.config.defaults ?? {};
  const progress = createProgress(ctx.out.stderr, { enabled: !ctx.out.quiet && !ctx.out.json, now: ctx.now });
  // Loaded here: only --reindex needs the indexer (parsers, grammars), and it is costly to load.
  const { indexRepository } = await import('@knowing/indexer');
  const store = await createSqliteStore({ path: location.dbPath });
  ignoreIndexDirectory(location.root, location.dbPath);
  try {
    const summary = await indexRepository({
      root: location.root,
      store,
      ...(defaults.languages ? { languages: defaults.languages } : {}),
      ...(defaults.workers !== undefined ? { workers: defaults.workers } : {}),
      onProgress: progress.onProgress,
      ...(ctx.io.signal ? { signal: ctx.io.signal } : {}),
    });
    progress.finish();
    ctx.out.note(`re-indexed: ${formatInt(summary.files.parsed)} files parsed, ${formatInt(summary.files.unchanged)} unchanged`);
  } finally {
    progress.finish();
    await store.close();
  }
}

/** Files from the command line as the index names them; warns about ones it does not know. */
export async function indexedFiles(ctx: CommandContext, index: OpenIndex, files: readonly string[]): Promise<string[]> {
  const paths = [...new Set(files.map((f) => toRepoPath(f, index.root, ctx.cwd)))];
  for (const path of paths) {
    if ((await index.store.getFile(path)) === undefined) {
      const onDisk = existsSync(`${index.root}/${path}`);
      ctx.out.warn(
        onDisk
          ? `${path} is not in the index (not a supported source file, ignored, or new since indexing: try --reindex)`
          : `${path} does not exist in ${index.root}`,
      );
    }
  }
  return paths;
}

export async function runContext(ctx: CommandContext): Promise<ExitCode> {
  const query = queryOf(await withTaskText(ctx));
  const budgetFlag = positiveInteger(stringValue(ctx.values, 'budget'), '--budget');
  const location = await locate(ctx);
  const defaults = location.loaded.config.defaults ?? {};
  const format = resolveFormat(ctx, defaults.format);
  if (isBinaryFormat(format) && ctx.out.stdout.isTTY) {
    throw usageError(`${format} is a binary format and stdout is a terminal`, `redirect it to a file: knowing context … --format ${format} > pack.${format}`);
  }
  const budget = budgetFlag ?? defaults.budget;
  // Answering for a watcher's clients, the index, engine and tokenizer stay open between commands.
  const warm = activeWarmPool();
  const tokenizerName = stringValue(ctx.values, 'tokenizer');
  // The exact tokenizer's table is read on the thread pool while this thread opens the index and answers.
  const tokenizerReady = warm || !isExact(tokenizerName) ? undefined : preloadExactTokenizer();
  const tokenizer = warm ? await warm.tokenizer(tokenizerKey(tokenizerName), () => tokenizerFor(tokenizerName, { inThread: true })) : await tokenizerFor(tokenizerName);

  // Loaded after the tokenizer started: its tables load in a worker meanwhile, and the engine
  // (with the vocabulary, the walk and the rankers) is the slowest part of this command to load.
  const { engineFor, engineInputs, modelWarning } = await import('../engine.js');

  if (booleanValue(ctx.values, 'reindex')) await reindex(ctx);
  const index = warm ? await warm.index(location, () => openIndex(ctx)) : await openFreshIndex(ctx);
  try {
    if (warm) await warm.refresh(location, () => freshen(ctx, index));
    const engine = warm ? await warm.engine(index, engineInputs(index), () => engineFor(index, modelWarning(ctx))) : await engineFor(index, modelWarning(ctx));
    const options = { format, ...(budget !== undefined ? { budget } : {}), ...(booleanValue(ctx.values, 'fresh') ? { fresh: true } : {}) };
    const { result, title } = await answer(ctx, engine, index, query, options);
    await tokenizerReady;
    const fitted = fitPack(result.pack, {
      format,
      budget: result.pack.tokenBudget,
      tokenizer,
      task: title,
      tool: 'knowing context',
      ...(booleanValue(ctx.values, 'code') ? { source: readSourceFile(index.root) } : {}),
      ...(format === 'json' && ctx.out.json ? { pretty: true } : {}),
    });
    writeOutput(ctx, fitted);
    if (result.cached) markLightRun();
    const { pack } = fitted;
    if (pack.symbols.length === 0) {
      ctx.out.note(
        query.kind === 'task'
          ? 'no symbols matched; try other words (names of functions or files help), or check `knowing stats`'
          : 'none of these files has indexed symbols',
      );
    } else {
      ctx.out.note(
        `${formatInt(pack.symbols.length)} of ${formatInt(result.ranked.length)} ranked symbols${fitted.code.size > 0 ? ` (${formatInt(fitted.code.size)} with code)` : ''}, ${formatInt(fitted.tokens)} of ${formatInt(pack.tokenBudget)} tokens (${format}, ${tokenizer.name ?? 'custom tokenizer'})${result.cached ? ', from cache' : ''}`,
      );
    }
    return ExitCode.Ok;
  } finally {
    if (!warm) await index.close();
  }
}

/**
 * The tokenizer a budget is counted in: cl100k_base unless --tokenizer heuristic. Its tables
 * load in a worker while the command opens the index and answers — or, for a process that
 * keeps the tokenizer for many answers (`inThread`), once in this thread, which then counts
 * without a round trip to a worker.
 */
export async function tokenizerFor(name: string | undefined, options: { readonly inThread?: boolean } = {}): Promise<Tokenizer> {
  if (isExact(name)) return options.inThread ? createExactTokenizer() : startExactTokenizer();
  const choice = tokenizerKey(name);
  if (choice === 'heuristic' || choice === 'chars/4') return createHeuristicTokenizer();
  throw usageError(`unknown tokenizer "${name}"`, 'use cl100k (exact) or heuristic (characters / 4)');
}

/** Whether --tokenizer names cl100k_base (the default). */
function isExact(name: string | undefined): boolean {
  const choice = tokenizerKey(name);
  return choice === 'cl100k' || choice === 'cl100k_base';
}

function tokenizerKey(name: string | undefined): string {
  return (name ?? 'cl100k').trim().toLowerCase();
}

function writeOutput(ctx: CommandContext, fitted: FittedPack): void {
  const { output } = fitted;
  // No newline is added: the budget counts exactly what is printed (every text format ends with one).
  ctx.out.stdout.write(output);
}

async function answer(
  ctx: CommandContext,
  engine: Engine,
  index: OpenIndex,
  query: Query,
  options: { readonly format: string; readonly budget?: number; readonly fresh?: boolean },
): Promise<{ result: ContextResult; title: string }> {
  switch (query.kind) {
    case 'task':
      return { result: await engine.forTask(query.task, options), title: query.task };
    case 'files': {
      const files = await indexedFiles(ctx, index, query.files);
      return { result: await engine.forFiles(files, options), title: `files: ${files.join(', ')}` };
    }
    case 'pr': {
      const files = await changedFiles(index.root, query.base);
      if (files.length === 0) {
        throw new CliError(ExitCode.Usage, 'USAGE', `no files changed against ${query.base}`, 'commit nothing yet? compare with a branch: --pr main; or name files with --files');
      }
      ctx.out.note(`${files.length} changed ${files.length === 1 ? 'file' : 'files'} against ${query.base}`);
      return { result: await engine.forPR(files, options), title: `changes against ${query.base}: ${files.join(', ')}` };
    }
  }
}
