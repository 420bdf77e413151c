/**
 * `knowing install <agent>` on scratch homes (HOME points at an empty directory) and scratch
 * repositories: for every agent and scope, the file it writes parses, holds exactly one knowing
 * entry next to everything that was there (comments included), a second run changes nothing,
 * and --uninstall gives back the file as it was. The snippets of docs/agents.md are what
 * --print prints.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseJsonc } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyDir, fixtureRepo, knowing, packagesLoaded, removeScratch } from './helpers.js';

afterAll(removeScratch);

const DOCS = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'agents.md');

type Scope = 'project' | 'user';

interface Case {
  readonly agent: string;
  readonly scope: Scope;
  readonly isDefault: boolean;
  /** The file, from the repository root (project) or the home directory (user). */
  readonly file: string;
  readonly key: string;
  readonly format: 'json' | 'jsonc' | 'toml';
  /** The entry, for the repository's root. */
  entry(root: string): Record<string, unknown>;
}

const stdio = (args: string[]) => ({ type: 'stdio', command: 'knowing', args });
const plain = (args: string[]) => ({ command: 'knowing', args });
const zed = (args: string[]) => ({ source: 'custom', command: 'knowing', args, env: {} });
const codex = (args: string[]) => ({ command: 'knowing', args, tool_timeout_sec: 120 });

const CASES: readonly Case[] = [
  { agent: 'claude', scope: 'project', isDefault: true, file: '.mcp.json', key: 'mcpServers', format: 'json', entry: () => stdio(['mcp']) },
  { agent: 'claude', scope: 'user', isDefault: false, file: '.claude.json', key: 'mcpServers', format: 'json', entry: (root) => stdio(['mcp', '--repo', root]) },
  { agent: 'cursor', scope: 'project', isDefault: true, file: '.cursor/mcp.json', key: 'mcpServers', format: 'json', entry: () => plain(['mcp', '--repo', '${workspaceFolder}']) },
  { agent: 'cursor', scope: 'user', isDefault: false, file: '.cursor/mcp.json', key: 'mcpServers', format: 'json', entry: (root) => plain(['mcp', '--repo', root]) },
  { agent: 'vscode', scope: 'project', isDefault: true, file: '.vscode/mcp.json', key: 'servers', format: 'jsonc', entry: () => stdio(['mcp', '--repo', '${workspaceFolder}']) },
  { agent: 'vscode', scope: 'user', isDefault: false, file: '.config/Code/User/mcp.json', key: 'servers', format: 'jsonc', entry: (root) => stdio(['mcp', '--repo', root]) },
  { agent: 'windsurf', scope: 'user', isDefault: true, file: '.codeium/windsurf/mcp_config.json', key: 'mcpServers', format: 'json', entry: (root) => plain(['mcp', '--repo', root]) },
  { agent: 'codex', scope: 'user', isDefault: true, file: '.codex/config.toml', key: 'mcp_servers', format: 'toml', entry: (root) => codex(['mcp', '--repo', root]) },
  { agent: 'codex', scope: 'project', isDefault: false, file: '.codex/config.toml', key: 'mcp_servers', format: 'toml', entry: () => codex(['mcp']) },
  { agent: 'gemini', scope: 'project', isDefault: true, file: '.gemini/settings.json', key: 'mcpServers', format: 'json', entry: () => plain(['mcp']) },
  { agent: 'gemini', scope: 'user', isDefault: false, file: '.gemini/settings.json', key: 'mcpServers', format: 'json', entry: (root) => plain(['mcp', '--repo', root]) },
  { agent: 'zed', scope: 'project', isDefault: true, file: '.zed/settings.json', key: 'context_servers', format: 'jsonc', entry: () => zed(['mcp']) },
  { agent: 'zed', scope: 'user', isDefault: false, file: '.config/zed/settings.json', key: 'context_servers', format: 'jsonc', entry: (root) => zed(['mcp', '--repo', root]) },
];

/** What a person already has in the file: another server, other settings, and comments where the format allows them. */
function existingConfig(c: Case): string {
  if (c.format === 'toml') {
    return [
      '# my Codex settings',
      'model = "o3"',
      '',
      '[mcp_servers.docs]',
      'command = "npx"',
      'args = [',
      '  "-y",',
      '  "docs-server", # the docs',
      ']',
      '',
      '# a faster profile',
      '[profiles.fast]',
      'model = "o4-mini"',
      '',
    ].join('\n');
  }
  if (c.format === 'jsonc') {
    return [
      '// my settings',
      '{',
      '  "theme": "One Dark", // keep this',
      `  "${c.key}": {`,
      '    /* the docs server */',
      '    "docs": { "command": "npx", "args": ["-y", "docs-server"] },',
      '  },',
      '}',
      '',
    ].join('\n');
  }
  return `${JSON.stringify({ theme: 'dark', [c.key]: { docs: { command: 'npx', args: ['-y', 'docs-server'] } }, numStartups: 3 }, null, 2)}\n`;
}

function parseConfig(c: Case, text: string): Record<string, unknown> {
  if (c.format === 'toml') return JSON.parse(JSON.stringify(parseToml(text))) as Record<string, unknown>;
  if (c.format === 'jsonc') {
    const errors: ParseError[] = [];
    const value = parseJsonc(text, errors, { allowTrailingComma: true }) as Record<string, unknown>;
    expect(errors).toEqual([]);
    return value;
  }
  return JSON.parse(text) as Record<string, unknown>;
}

function knowingEntries(c: Case, text: string): number {
  return c.format === 'toml' ? (text.match(/^\[mcp_servers\.knowing\]/gm) ?? []).length : (text.match(/"knowing"\s*:/g) ?? []).length;
}

/** A scratch home, and the environment that points every agent's user file into it. */
function scratchHome(): { home: string; env: NodeJS.ProcessEnv } {
  const home = emptyDir('knowing-home-');
  return { home, env: { HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: undefined, APPDATA: undefined, CODEX_HOME: undefined } };
}

describe('knowing install <agent>', () => {
  for (const c of CASES) {
    const flags = c.isDefault ? [] : ['--scope', c.scope];
    const title = `${c.agent} ${c.scope}${c.isDefault ? ' (default)' : ''}`;

    // The user files of VS Code and Zed are elsewhere on macOS and Windows.
    const here = process.platform === 'linux' || c.scope === 'project' || !['vscode', 'zed'].includes(c.agent);

    it.runIf(here)(`${title}: merges into ${c.file}, keeps everything else, is idempotent, and --uninstall gives the file back`, async () => {
      const repo = fixtureRepo(`knowing-install-${c.agent}-`);
      const { home, env } = scratchHome();
      const file = join(c.scope === 'project' ? repo : home, c.file);
      const original = existingConfig(c);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, original);

      const added = await knowing(['install', c.agent, ...flags], { cwd: repo, env });
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toMatch(/^added the knowing MCP server to /);
      const text = readFileSync(file, 'utf8');
      const config = parseConfig(c, text);
      const servers = config[c.key] as Record<string, unknown>;
      expect(servers['knowing']).toEqual(c.entry(repo));
      expect(knowingEntries(c, text)).toBe(1);
      expect(servers['docs']).toEqual({ command: 'npx', args: ['-y', 'docs-server'] });
      if (c.format === 'toml') {
        expect(config['model']).toBe('o3');
        expect(config['profiles']).toEqual({ fast: { model: 'o4-mini' } });
        expect(text).toContain('# a faster profile');
      } else if (c.format === 'jsonc') {
        expect(config['theme']).toBe('One Dark');
        for (const comment of ['// my settings', '// keep this', '/* the docs server */']) expect(text).toContain(comment);
      } else {
        expect(config['theme']).toBe('dark');
        expect(config['numStartups']).toBe(3);
      }

      const again = await knowing(['install', c.agent, ...flags], { cwd: repo, env });
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('already in');
      expect(readFileSync(file, 'utf8')).toBe(text);

      const removed = await knowing(['install', c.agent, ...flags, '--uninstall', '--json'], { cwd: repo, env });
      expect(removed.code, removed.stderr).toBe(0);
      expect(JSON.parse(removed.stdout)).toMatchObject({ agent: c.agent, scope: c.scope, file, action: 'removed', fileRemoved: false });
      expect(readFileSync(file, 'utf8')).toBe(original);
      const absent = await knowing(['install', c.agent, ...flags, '--uninstall'], { cwd: repo, env });
      expect(absent.stdout).toContain('nothing to remove');
    });

    it.runIf(here)(`${title}: creates ${c.file} when there is none, and --uninstall deletes it again`, async () => {
      const repo = fixtureRepo(`knowing-install-new-${c.agent}-`);
      const { home, env } = scratchHome();
      const file = join(c.scope === 'project' ? repo : home, c.file);
      const added = await knowing(['install', c.agent, ...flags, '--json'], { cwd: repo, env });
      expect(added.code, added.stderr).toBe(0);
      expect(JSON.parse(added.stdout)).toMatchObject({ action: 'added', file });
      const config = parseConfig(c, readFileSync(file, 'utf8'));
      expect(config).toEqual({ [c.key]: { knowing: c.entry(repo) } });
      expect((await knowing(['install', c.agent, ...flags, '--uninstall'], { cwd: repo, env })).code).toBe(0);
      expect(existsSync(file)).toBe(false);
    });
  }

  it('a user entry written for another repository is replaced, not added twice', async () => {
    const { home, env } = scratchHome();
    const first = fixtureRepo('knowing-install-first-');
    const second = fixtureRepo('knowing-install-second-');
    expect((await knowing(['install', 'windsurf'], { cwd: first, env })).code).toBe(0);
    const replaced = await knowing(['install', 'windsurf'], { cwd: second, env });
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toContain(`it served ${first} before`);
    const text = readFileSync(join(home, '.codeium', 'windsurf', 'mcp_config.json'), 'utf8');
    expect((text.match(/"knowing"\s*:/g) ?? []).length).toBe(1);
    expect((JSON.parse(text) as { mcpServers: { knowing: { args: string[] } } }).mcpServers.knowing.args).toEqual(['mcp', '--repo', second]);
  });

  it('--db is passed on to the server', async () => {
    const repo = fixtureRepo('knowing-install-db-');
    const { env } = scratchHome();
    const printed = await knowing(['install', 'gemini', '--print', '--db', 'index/graph.db'], { cwd: repo, env });
    expect((JSON.parse(printed.stdout) as { mcpServers: { knowing: { args: string[] } } }).mcpServers.knowing.args).toEqual(['mcp', '--db', join(repo, 'index', 'graph.db')]);
  });

  it('leaves a file it cannot read as JSON alone, with exit 2 and what to do', async () => {
    const repo = fixtureRepo('knowing-install-broken-');
    const { env } = scratchHome();
    const file = join(repo, '.cursor', 'mcp.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{ "mcpServers": { "docs": ');
    const result = await knowing(['install', 'cursor'], { cwd: repo, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not valid JSON');
    expect(result.stderr).toContain('knowing install cursor --print');
    expect(readFileSync(file, 'utf8')).toBe('{ "mcpServers": { "docs": ');
  });

  it('names the agents it knows, and the scopes each has', async () => {
    const repo = fixtureRepo('knowing-install-usage-');
    const { env } = scratchHome();
    const unknown = await knowing(['install', 'curser'], { cwd: repo, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean cursor?');
    const none = await knowing(['install'], { cwd: repo, env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('claude, cursor, vscode, windsurf, codex, gemini, zed');
    const scope = await knowing(['install', 'windsurf', '--scope', 'project'], { cwd: repo, env });
    expect(scope.code).toBe(2);
    expect(scope.stderr).toContain('use --scope user');
  });

  it('prints without writing; --print of a project scope names no path of this machine', async () => {
    const repo = fixtureRepo('knowing-install-print-');
    const { env } = scratchHome();
    const printed = await knowing(['install', 'cursor', '--print'], { cwd: repo, env });
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual({ mcpServers: { knowing: { command: 'knowing', args: ['mcp', '--repo', '${workspaceFolder}'] } } });
    expect(printed.stderr).toContain('.cursor/mcp.json');
    expect(existsSync(join(repo, '.cursor'))).toBe(false);
  });
});

describe('knowing install starts quickly', () => {
  it('loads the JSONC reader and nothing of the index, the engine or the server', async () => {
    const repo = fixtureRepo('knowing-install-load-');
    const { packages, result } = await packagesLoaded(['install', 'zed', '--print'], { cwd: repo });
    expect(result.code).toBe(0);
    expect([...packages].sort()).toEqual(['jsonc-parser', 'knowing']);
  });
});

describe('docs/agents.md', () => {
  /** The first fenced block of the section about `agent`. */
  function snippet(agent: string): { lang: string; text: string } {
    const docs = readFileSync(DOCS, 'utf8');
    const section = docs.split(/^## /m).find((s) => new RegExp(`<!-- agent: ${agent} -->`).test(s));
    expect(section, `a section marked <!-- agent: ${agent} --> in docs/agents.md`).toBeDefined();
    const block = /```(\w+)\n([\s\S]*?)```/.exec(section!);
    expect(block, `a code block in the ${agent} section`).not.toBeNull();
    return { lang: block![1]!, text: block![2]! };
  }

  it('shows, for Cursor, exactly what `knowing install cursor --print` prints', async () => {
    const repo = fixtureRepo('knowing-install-docs-');
    const printed = await knowing(['install', 'cursor', '--print'], { cwd: repo, env: scratchHome().env });
    const doc = snippet('cursor');
    expect(doc.lang).toBe('json');
    expect(JSON.parse(printed.stdout)).toEqual(JSON.parse(doc.text));
  });

  it('shows every agent\'s default entry as --print prints it (the repository as /path/to/repo)', async () => {
    const repo = fixtureRepo('knowing-install-docs-all-');
    const env = scratchHome().env;
    for (const agent of ['claude', 'cursor', 'vscode', 'windsurf', 'codex', 'gemini', 'zed']) {
      const printed = await knowing(['install', agent, '--print'], { cwd: repo, env });
      expect(printed.code).toBe(0);
      const text = printed.stdout.split(JSON.stringify(repo).slice(1, -1)).join('/path/to/repo');
      const doc = snippet(agent);
      if (doc.lang === 'toml') expect(parseToml(doc.text), agent).toEqual(parseToml(text));
      else expect(JSON.parse(doc.text), agent).toEqual(JSON.parse(text));
    }
  });
});
