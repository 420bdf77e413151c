import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CommandContext } from './command.js';
import { usageError } from './errors.js';

/** One flag of a command, as parsed and as documented in its help. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** May be given several times (values are collected). */
  readonly multiple?: boolean;
  /** Placeholder in help, e.g. `N` in `--budget N`. */
  readonly value?: string;
  readonly description: string;
  /** Shown as "(default: …)" in help; the command applies it itself. */
  readonly defaultText?: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** Flags every command accepts. */
export const GLOBAL_OPTIONS: OptionSpecs = {
  repo: { type: 'string', value: 'DIR', description: 'repository root', defaultText: 'the enclosing git root of the current directory, else the current directory' },
  db: { type: 'string', value: 'FILE', description: 'index database', defaultText: '<repo>/.knowing/graph.db' },
  config: { type: 'string', value: 'FILE', description: 'config file', defaultText: '<repo>/knowing.config.{json,mjs,js,ts}' },
  json: { type: 'boolean', description: 'machine-readable JSON on stdout (errors too: {"error": {...}})' },
  quiet: { type: 'boolean', short: 'q', description: 'no progress or notes on stderr' },
  help: { type: 'boolean', short: 'h', description: 'show help' },
  version: { type: 'boolean', short: 'v', description: 'print the version' },
};

/** Global flags that take a value: the command name is looked for after skipping them. */
const GLOBAL_VALUE_FLAGS = new Set(Object.entries(GLOBAL_OPTIONS).filter(([, o]) => o.type === 'string').map(([n]) => `--${n}`));

/** Splits `argv` into the command name (the first positional) and everything else. */
export function splitCommand(argv: readonly string[]): { readonly command: string | undefined; readonly rest: string[] } {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') break;
    if (GLOBAL_VALUE_FLAGS.has(token)) {
      i++;
      continue;
    }
    if (!token.startsWith('-') || token === '-') {
      return { command: token, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
    }
  }
  return { command: undefined, rest: [...argv] };
}

export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | string[] | undefined>>;
  readonly positionals: readonly string[];
}

/**
 * Parse a command's flags strictly: unknown flags, missing values and extra arguments are
 * usage errors that name the flag and point at the command's help.
 */
export function parseCommandArgs(
  command: string,
  args: readonly string[],
  options: OptionSpecs,
  maxPositionals: number,
): ParsedArgs {
  const config: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, spec] of Object.entries({ ...GLOBAL_OPTIONS, ...options })) {
    config[name] = { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) };
  }
  const helpHint = `see \`knowing ${command} --help\``;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options: config, allowPositionals: true, strict: true });
  } catch (error) {
    throw translateParseError(error, command, Object.keys(config), helpHint);
  }
  if (parsed.positionals.length > maxPositionals) {
    const extra = parsed.positionals[maxPositionals]!;
    throw usageError(
      maxPositionals === 0
        ? `\`knowing ${command}\` takes no arguments, but got "${extra}"`
        : `unexpected argument "${extra}" for \`knowing ${command}\``,
      extra.includes(' ') ? `quote the whole text after its flag, e.g. --task "${extra}"; ${helpHint}` : helpHint,
    );
  }
  return { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
}

function translateParseError(error: unknown, command: string, known: readonly string[], helpHint: string): Error {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  // parseArgs names options as '--task', or '-t, --task <value>' when they have a short form.
  const flag = /'(?:-\w, )?(-{1,2}[^' ,]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) {
    const guess = closest(flag.replace(/^-+/, '').split('=')[0]!, known);
    return usageError(
      `unknown option ${flag} for \`knowing ${command}\``,
      guess ? `did you mean --${guess}? ${helpHint}` : helpHint,
    );
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag) {
    if (message.includes('ambiguous')) {
      return usageError(`the value of ${flag} starts with "-"`, `write it as ${flag}=<value> if that is intended; ${helpHint}`);
    }
    if (message.includes('does not take an argument')) return usageError(`${flag} does not take a value`, helpHint);
    return usageError(`${flag} needs a value`, helpHint);
  }
  return usageError(message, helpHint);
}

/** The known name within edit distance 2 of `name`, if any (for "did you mean"). */
export function closest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

// ----------------------------------------------------------------------------- value helpers

export function stringValue(values: ParsedArgs['values'], name: string): string | undefined {
  const value = values[name];
  if (Array.isArray(value)) return value[value.length - 1];
  return typeof value === 'string' ? value : undefined;
}

export function booleanValue(values: ParsedArgs['values'], name: string): boolean {
  return values[name] === true;
}

/** Values of a repeatable flag whose values may also be comma-separated (`--files a,b --files c`). */
export function listValue(values: ParsedArgs['values'], name: string): string[] | undefined {
  const value = values[name];
  if (value === undefined || typeof value === 'boolean') return undefined;
  const raw = Array.isArray(value) ? value : [value];
  return raw.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

/** A positive integer flag, or a usage error naming it. */
export function positiveInteger(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim().replace(/_/g, '');
  if (!/^\d+$/.test(text) || Number(text) <= 0 || !Number.isSafeInteger(Number(text))) {
    throw usageError(`${flag} must be a positive whole number, got "${raw}"`, `for example ${flag} 8000`);
  }
  return Number(text);
}

// ----------------------------------------------------------------------------- long tasks

/**
 * The most a task read from a file or stdin may hold. A task may paste a stack trace or a log
 * excerpt — far beyond the OS limit on one argument (128 KiB on Linux) — but not a whole log.
 */
export const MAX_TASK_BYTES = 1024 * 1024;

/** `--task-file`, for every command that takes `--task`. */
export const TASK_FILE_OPTION: OptionSpec = {
  type: 'string',
  value: 'FILE',
  description: 'read the task from FILE (- for stdin), for a task too long for the command line; `--task -` also reads stdin',
};

const TASK_EXAMPLE = 'e.g. --task "add a discount code to the cart", or --task-file task.txt';

function decodeTask(bytes: Uint8Array, from: string): string {
  if (bytes.length > MAX_TASK_BYTES) {
    throw usageError(`the task in ${from} is larger than ${MAX_TASK_BYTES / 1024} KiB`, 'keep the part that describes the change (a stack trace, the error message, a few log lines)');
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') throw usageError(`the task in ${from} is empty`, TASK_EXAMPLE);
  return text;
}

async function readStdin(ctx: CommandContext): Promise<string> {
  const stdin = ctx.io.stdin ?? process.stdin;
  if (stdin.isTTY) ctx.out.note('reading the task from stdin; end it with Ctrl-D');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    chunks.push(bytes);
    size += bytes.length;
    // Stop reading once over the limit: the rest is not needed to say it is too long.
    if (size > MAX_TASK_BYTES) break;
  }
  return decodeTask(Buffer.concat(chunks), 'stdin');
}

function readTaskFile(ctx: CommandContext, file: string): string {
  const path = resolve(ctx.cwd, file);
  let stats: ReturnType<typeof statSync> | undefined;
  try {
    stats = statSync(path);
  } catch {
    stats = undefined;
  }
  if (stats === undefined) throw usageError(`--task-file ${file}: no such file`, `check the path (relative paths start at ${ctx.cwd}), or pass the task with --task`);
  if (!stats.isFile()) throw usageError(`--task-file ${file} is not a file`, 'name a text file holding the task, or - for stdin');
  if (stats.size > MAX_TASK_BYTES) {
    throw usageError(`the task in ${file} is larger than ${MAX_TASK_BYTES / 1024} KiB`, 'keep the part that describes the change (a stack trace, the error message, a few log lines)');
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw usageError(`--task-file ${file} cannot be read (${(error as { code?: string }).code ?? String(error)})`, 'check its permissions, or pass the task with --task');
  }
  return decodeTask(bytes, file);
}

/**
 * The task text, from `--task TEXT`, `--task -` (stdin) or `--task-file FILE` (`-` for stdin);
 * undefined when neither flag is given. A missing, unreadable or empty file, empty stdin, or
 * both flags at once are usage errors. The text is returned as read; callers trim it.
 *
 * @example
 * ```ts
 * const task = requireTask(await readTask(ctx)); // knowing why --task-file trace.txt --symbol …
 * ```
 */
export async function readTask(ctx: CommandContext): Promise<string | undefined> {
  const task = stringValue(ctx.values, 'task');
  const file = stringValue(ctx.values, 'task-file');
  if (task !== undefined && file !== undefined) throw usageError('--task and --task-file cannot be combined', 'pass the task one way: --task TEXT, --task - (stdin) or --task-file FILE');
  if (file !== undefined) {
    if (file.trim() === '') throw usageError('--task-file is empty', 'name a file holding the task, or - for stdin');
    return file === '-' ? readStdin(ctx) : readTaskFile(ctx, file);
  }
  if (task === '-') return readStdin(ctx);
  return task;
}

/**
 * `ctx` with `--task` holding the task text read from `--task-file` or stdin (and no
 * `--task-file`), for a command that reads `--task` from its values.
 *
 * @example
 * ```ts
 * const query = queryOf(await withTaskText(ctx));
 * ```
 */
export async function withTaskText(ctx: CommandContext): Promise<CommandContext> {
  if (stringValue(ctx.values, 'task-file') === undefined && stringValue(ctx.values, 'task') !== '-') return ctx;
  const task = await readTask(ctx);
  const { 'task-file': _file, ...values } = ctx.values;
  return { ...ctx, values: { ...values, task } };
}
