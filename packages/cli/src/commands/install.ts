import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { AGENTS, SCOPES, SERVER_NAME, findAgent, serverArgs, tomlBlock } from '../agents.js';
import type { Agent, AgentEnvironment, Scope } from '../agents.js';
import { booleanValue, closest, stringValue } from '../args.js';
import type { CommandContext } from '../command.js';
import { ExitCode, usageError } from '../errors.js';
import { JsoncEditError, deleteMember, formatJson, readMember, setMember } from '../jsonc-edit.js';
import { broadRoot, displayPath, resolveRepoRoot } from '../repo.js';
import { TomlEditError, readTable, removeTable, setTable } from '../toml-edit.js';

type Action = 'added' | 'updated' | 'unchanged' | 'removed' | 'absent';

const AGENT_LIST = AGENTS.map((a) => a.id).join(', ');

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

function agentOf(ctx: CommandContext): Agent {
  const name = ctx.positionals[0];
  if (name === undefined) throw usageError('`knowing install` needs the agent to register the server with', `name one of ${AGENT_LIST}, e.g. \`knowing install cursor\``);
  const agent = findAgent(name);
  if (agent) return agent;
  const guess = closest(name.toLowerCase(), AGENTS.flatMap((a) => [a.id, ...a.aliases]));
  throw usageError(`unknown agent "${name}"`, `${guess ? `did you mean ${findAgent(guess)!.id}? ` : ''}knowing installs for ${AGENT_LIST}`);
}

function scopeOf(ctx: CommandContext, agent: Agent): Scope {
  const raw = stringValue(ctx.values, 'scope');
  if (raw === undefined) return agent.defaultScope;
  const scope = raw.trim().toLowerCase();
  if (!(SCOPES as readonly string[]).includes(scope)) throw usageError(`--scope must be project or user, got "${raw}"`, 'project writes a file in the repository; user writes your own configuration');
  if (agent.files[scope as Scope] === undefined) {
    const only = SCOPES.find((s) => agent.files[s] !== undefined)!;
    throw usageError(`${agent.name} has no ${scope} configuration file for MCP servers`, `use --scope ${only} (the default for ${agent.id})`);
  }
  return scope as Scope;
}

function environmentOf(ctx: CommandContext): AgentEnvironment {
  const home = ctx.env['HOME'] || ctx.env['USERPROFILE'] || homedir();
  return { home, env: ctx.env, platform: process.platform };
}

/** Whether `knowing` is a command the agent can start (on the PATH it inherits). */
function onPath(env: Readonly<Record<string, string | undefined>>): boolean {
  const names = process.platform === 'win32' ? ['knowing.cmd', 'knowing.exe', 'knowing.ps1', 'knowing'] : ['knowing'];
  for (const directory of (env['PATH'] ?? '').split(delimiter)) {
    if (directory === '') continue;
    for (const name of names) {
      try {
        if (statSync(join(directory, name)).isFile()) return true;
      } catch {
        // not there
      }
    }
  }
  return false;
}

/** Write `text` to `file` in one step (a temporary file renamed over it), keeping its mode. */
function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  let mode: number | undefined;
  try {
    mode = statSync(file).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  const temporary = join(dirname(file), `.${SERVER_NAME}-${process.pid}-${Date.now()}.tmp`);
  writeFileSync(temporary, text);
  if (mode !== undefined) chmodSync(temporary, mode);
  renameSync(temporary, file);
}

/** The file to edit: where a symbolic link (a dotfiles manager's) points, so the link stays. */
function realFile(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

interface Outcome {
  readonly action: Action;
  /** The file is gone: knowing's entry was all it held. */
  readonly deletedFile: boolean;
  /** The repository the replaced entry served, when it named another one. */
  readonly previousRepo: string | undefined;
}

function repoIn(entry: unknown): string | undefined {
  const args = (entry as { args?: unknown } | undefined)?.args;
  if (!Array.isArray(args)) return undefined;
  const i = args.indexOf('--repo');
  return i >= 0 && typeof args[i + 1] === 'string' ? (args[i + 1] as string) : undefined;
}

function edit(agent: Agent, file: string, entry: Record<string, unknown>, uninstall: boolean): Outcome {
  const target = realFile(file);
  const text = existsSync(target) ? readFileSync(target, 'utf8') : '';
  const shown = file;
  let next: string | null;
  let action: Action;
  let previousRepo: string | undefined;
  try {
    if (agent.format === 'toml') {
      const table = [agent.key, SERVER_NAME];
      const current = readTable(text, table, shown);
      if (uninstall) {
        if (current === undefined) return { action: 'absent', deletedFile: false, previousRepo: undefined };
        next = removeTable(text, table, shown);
        action = 'removed';
      } else {
        const block = tomlBlock(agent, entry);
        if (current?.replace(/\r\n/g, '\n') === block) return { action: 'unchanged', deletedFile: false, previousRepo: undefined };
        previousRepo = current === undefined ? undefined : /"--repo",\s*("(?:[^"\\]|\\.)*")/.exec(current)?.[1];
        if (previousRepo) previousRepo = JSON.parse(previousRepo) as string;
        next = setTable(text, table, block, shown);
        action = current === undefined ? 'added' : 'updated';
      }
    } else {
      const current = readMember(text, agent.key, SERVER_NAME, shown);
      if (uninstall) {
        if (current === undefined) return { action: 'absent', deletedFile: false, previousRepo: undefined };
        next = deleteMember(text, agent.key, SERVER_NAME, shown);
        action = 'removed';
      } else {
        if (deepEqual(current, entry)) return { action: 'unchanged', deletedFile: false, previousRepo: undefined };
        previousRepo = repoIn(current);
        next = setMember(text, agent.key, SERVER_NAME, entry, shown);
        action = current === undefined ? 'added' : 'updated';
      }
    }
  } catch (error) {
    if (error instanceof JsoncEditError || error instanceof TomlEditError) {
      throw usageError(`${error.message}; knowing left it unchanged`, `fix the file, or edit it by hand: \`knowing install ${agent.id} --print\` shows the entry`);
    }
    throw error;
  }
  if (next === null) {
    unlinkSync(target);
    return { action, deletedFile: true, previousRepo };
  }
  writeAtomically(target, next);
  return { action, deletedFile: false, previousRepo };
}

export async function runInstall(ctx: CommandContext): Promise<ExitCode> {
  const { out } = ctx;
  const agent = agentOf(ctx);
  const scope = scopeOf(ctx, agent);
  const uninstall = booleanValue(ctx.values, 'uninstall');
  const print = booleanValue(ctx.values, 'print');
  if (uninstall && print) throw usageError('--print and --uninstall cannot be combined', '--print shows the entry to add; --uninstall removes it');

  const root = resolveRepoRoot(ctx.repo, ctx.cwd);
  const broad = broadRoot(root, environmentOf(ctx).home);
  if (broad !== undefined && !uninstall) {
    throw usageError(
      `${root} is ${broad}, not a repository: the server would index everything below it`,
      `run \`knowing install ${agent.id}\` inside the repository the agent works on, or name it with --repo`,
    );
  }
  const environment = environmentOf(ctx);
  const file = agent.files[scope]!(root, environment);
  const db = ctx.db !== undefined ? resolve(ctx.cwd, ctx.db) : undefined;
  const entry = agent.entry(serverArgs(agent, scope, root, db));
  const shownFile = displayPath(file, ctx.cwd);

  if (print) {
    const snippet = agent.format === 'toml' ? tomlBlock(agent, entry) : `${formatJson({ [agent.key]: { [SERVER_NAME]: entry } })}\n`;
    if (out.json) out.printJson({ agent: agent.id, scope, file, format: agent.format, snippet: agent.format === 'toml' ? snippet : { [agent.key]: { [SERVER_NAME]: entry } } });
    else ctx.io.stdout.write(snippet);
    out.note(`${agent.name} (${scope}) reads it from ${shownFile}; \`knowing install ${agent.id}${scope === agent.defaultScope ? '' : ` --scope ${scope}`}\` merges it there for you`);
    return ExitCode.Ok;
  }

  const outcome = edit(agent, file, entry, uninstall);
  if (out.json) {
    out.printJson({ agent: agent.id, scope, file, action: outcome.action, fileRemoved: outcome.deletedFile, entry: uninstall ? null : entry });
    return ExitCode.Ok;
  }
  const where = `${shownFile} (${agent.name}, ${scope})`;
  switch (outcome.action) {
    case 'added':
      out.line(`added the knowing MCP server to ${where}`);
      break;
    case 'updated':
      out.line(`updated the knowing MCP server in ${where}${outcome.previousRepo && outcome.previousRepo !== repoIn(entry) ? `; it served ${outcome.previousRepo} before` : ''}`);
      break;
    case 'unchanged':
      out.line(`the knowing MCP server is already in ${where}; nothing changed`);
      break;
    case 'removed':
      out.line(`removed the knowing MCP server from ${where}${outcome.deletedFile ? '; the file held nothing else and was deleted' : ''}`);
      break;
    case 'absent':
      out.line(`${where} has no knowing MCP server; nothing to remove`);
      break;
  }
  if (!uninstall) {
    out.note(`next: ${agent.next[scope] ?? agent.next.any}`);
    if (scope === 'project' && db === undefined) out.note(`${shownFile} works for everyone who opens this repository: commit it to share the server`);
    if (!onPath(ctx.env)) out.warn(`\`${entry['command'] as string}\` is not on your PATH, so ${agent.name} cannot start it: install knowing globally (npm install -g knowing)`);
  }
  return ExitCode.Ok;
}
