/**
 * The AI agents `knowing install` registers the MCP server with: where each keeps its MCP
 * servers, in which format, and the entry it expects. One record per agent; the command and
 * docs/agents.md are generated from the same data.
 */
import { join } from 'node:path';
import { tomlString } from './toml-edit.js';

export type Scope = 'project' | 'user';
export const SCOPES: readonly Scope[] = ['project', 'user'];

/** Where the user's configuration lives, so that tests can point it at a scratch home. */
export interface AgentEnvironment {
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
}

export interface Agent {
  readonly id: string;
  readonly name: string;
  readonly aliases: readonly string[];
  readonly format: 'json' | 'toml';
  /** The object (JSON) or table (TOML) holding the servers. */
  readonly key: string;
  readonly defaultScope: Scope;
  /** The configuration file of each scope the agent has. */
  readonly files: Partial<Record<Scope, (root: string, environment: AgentEnvironment) => string>>;
  /**
   * How a project file names the repository: the agent's workspace variable, or nothing when
   * the agent starts its servers in the project (then `knowing mcp` finds the git root itself).
   */
  readonly workspaceVariable?: string;
  /** The server entry, for the arguments of `knowing`. */
  entry(args: readonly string[]): Record<string, unknown>;
  /** What to do after the file is written, to see the server. */
  readonly next: Partial<Record<Scope, string>> & { readonly any: string };
}

/** The command agents run. */
export const SERVER_COMMAND = 'knowing';
/** The name of the entry in every agent's file. */
export const SERVER_NAME = 'knowing';

function xdgConfig(environment: AgentEnvironment): string {
  return environment.env['XDG_CONFIG_HOME'] || join(environment.home, '.config');
}

function appData(environment: AgentEnvironment): string {
  return environment.env['APPDATA'] || join(environment.home, 'AppData', 'Roaming');
}

export const AGENTS: readonly Agent[] = [
  {
    id: 'claude',
    name: 'Claude Code',
    aliases: ['claude-code', 'claudecode'],
    format: 'json',
    key: 'mcpServers',
    defaultScope: 'project',
    files: {
      project: (root) => join(root, '.mcp.json'),
      user: (_root, e) => join(e.home, '.claude.json'),
    },
    entry: (args) => ({ type: 'stdio', command: SERVER_COMMAND, args: [...args] }),
    next: {
      project: 'Claude Code asks once whether to use the servers of .mcp.json; then /mcp lists it',
      user: '`claude mcp list` lists it',
      any: '/mcp in Claude Code lists it',
    },
  },
  {
    id: 'cursor',
    name: 'Cursor',
    aliases: [],
    format: 'json',
    key: 'mcpServers',
    defaultScope: 'project',
    files: {
      project: (root) => join(root, '.cursor', 'mcp.json'),
      user: (_root, e) => join(e.home, '.cursor', 'mcp.json'),
    },
    workspaceVariable: '${workspaceFolder}',
    entry: (args) => ({ command: SERVER_COMMAND, args: [...args] }),
    next: { any: 'Cursor Settings → MCP lists it (switch it on there if it is off)' },
  },
  {
    id: 'vscode',
    name: 'VS Code',
    aliases: ['code', 'vs-code', 'copilot'],
    format: 'json',
    key: 'servers',
    defaultScope: 'project',
    files: {
      project: (root) => join(root, '.vscode', 'mcp.json'),
      user: (_root, e) =>
        e.platform === 'darwin'
          ? join(e.home, 'Library', 'Application Support', 'Code', 'User', 'mcp.json')
          : e.platform === 'win32'
            ? join(appData(e), 'Code', 'User', 'mcp.json')
            : join(xdgConfig(e), 'Code', 'User', 'mcp.json'),
    },
    workspaceVariable: '${workspaceFolder}',
    entry: (args) => ({ type: 'stdio', command: SERVER_COMMAND, args: [...args] }),
    next: { any: 'start it with the Start button above its entry in mcp.json, or with "MCP: List Servers"; use it in Copilot agent mode' },
  },
  {
    id: 'windsurf',
    name: 'Windsurf',
    aliases: ['codeium'],
    format: 'json',
    key: 'mcpServers',
    defaultScope: 'user',
    files: {
      user: (_root, e) => join(e.home, '.codeium', 'windsurf', 'mcp_config.json'),
    },
    entry: (args) => ({ command: SERVER_COMMAND, args: [...args] }),
    next: { any: 'press Refresh in Windsurf\'s MCP settings (Cascade → MCP servers)' },
  },
  {
    id: 'codex',
    name: 'Codex',
    aliases: ['codex-cli', 'openai-codex'],
    format: 'toml',
    key: 'mcp_servers',
    // Codex reads a project's .codex/config.toml only once the project is trusted; the user
    // file works everywhere.
    defaultScope: 'user',
    files: {
      project: (root) => join(root, '.codex', 'config.toml'),
      user: (_root, e) => join(e.env['CODEX_HOME'] || join(e.home, '.codex'), 'config.toml'),
    },
    entry: (args) => ({ command: SERVER_COMMAND, args: [...args], tool_timeout_sec: 120 }),
    next: {
      project: '`codex mcp list` lists it; Codex reads .codex/config.toml only in projects you trust',
      any: '`codex mcp list` lists it',
    },
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    aliases: ['gemini-cli'],
    format: 'json',
    key: 'mcpServers',
    defaultScope: 'project',
    files: {
      project: (root) => join(root, '.gemini', 'settings.json'),
      user: (_root, e) => join(e.home, '.gemini', 'settings.json'),
    },
    entry: (args) => ({ command: SERVER_COMMAND, args: [...args] }),
    next: { any: '/mcp in Gemini CLI lists it' },
  },
  {
    id: 'zed',
    name: 'Zed',
    aliases: [],
    format: 'json',
    key: 'context_servers',
    defaultScope: 'project',
    files: {
      project: (root) => join(root, '.zed', 'settings.json'),
      user: (_root, e) => (e.platform === 'win32' ? join(appData(e), 'Zed', 'settings.json') : join(xdgConfig(e), 'zed', 'settings.json')),
    },
    entry: (args) => ({ source: 'custom', command: SERVER_COMMAND, args: [...args], env: {} }),
    next: { any: 'Zed starts it once the settings are saved; the Agent Panel\'s settings show whether it runs' },
  },
];

export function findAgent(name: string): Agent | undefined {
  const wanted = name.trim().toLowerCase();
  return AGENTS.find((agent) => agent.id === wanted || agent.aliases.includes(wanted));
}

/**
 * The arguments of `knowing` in the entry: `mcp`, then the repository — by absolute path in a
 * user file (it serves this repository wherever the agent starts it), by the agent's workspace
 * variable in a project file, or not at all in a project file of an agent that starts its
 * servers in the project.
 */
export function serverArgs(agent: Agent, scope: Scope, root: string, db?: string): string[] {
  const args = ['mcp'];
  if (scope === 'user') args.push('--repo', root);
  else if (agent.workspaceVariable) args.push('--repo', agent.workspaceVariable);
  if (db !== undefined) args.push('--db', db);
  return args;
}

/** Codex's `[mcp_servers.knowing]` table for an entry. */
export function tomlBlock(agent: Agent, entry: Record<string, unknown>): string {
  const lines = [`[${agent.key}.${SERVER_NAME}]`];
  for (const [key, value] of Object.entries(entry)) {
    const text = Array.isArray(value)
      ? `[${value.map((item) => tomlString(String(item))).join(', ')}]`
      : typeof value === 'number'
        ? String(value)
        : tomlString(String(value));
    if (key === 'tool_timeout_sec') lines.push('# the first call on a large repository waits for the first index');
    lines.push(`${key} = ${text}`);
  }
  return `${lines.join('\n')}\n`;
}
