/** The user documentation covers every tool the server registers. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createKnowingServer, TOOL_NAMES } from '../src/index.js';
import { FIXTURE } from './support/harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const guide = readFileSync(path.join(here, '..', '..', '..', 'docs', 'mcp.md'), 'utf8');
const readme = readFileSync(path.join(here, '..', 'README.md'), 'utf8');

describe('docs/mcp.md', () => {
  it.each(TOOL_NAMES.map((name) => [name]))('has a section and an annotations row for %s', (name) => {
    expect(guide).toContain(`\n### \`${name}\`\n`);
    expect(guide).toMatch(new RegExp(`\\n\\| \`${name}\` \\| (true|false) \\| false \\| (true|false) \\| false \\|\\n`));
  });

  it('shows the annotations the server sends', async () => {
    const server = await createKnowingServer({ repoRoot: FIXTURE, dbPath: ':memory:' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'knowing-docs-test', version: '0' });
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        const a = tool.annotations!;
        expect(guide, tool.name).toContain(`\n| \`${tool.name}\` | ${a.readOnlyHint} | ${a.destructiveHint} | ${a.idempotentHint} | ${a.openWorldHint} |\n`);
      }
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('has no tool section the server does not register', () => {
    const sections = [...guide.matchAll(/\n### `([a-z_]+)`\n/g)].map((m) => m[1]);
    expect(sections).toEqual([...TOOL_NAMES]);
  });

  it('is what the package README points to, naming the seven tools', () => {
    expect(readme).toContain('docs/mcp.md');
    for (const name of TOOL_NAMES) expect(readme).toContain(`\`${name}\``);
  });
});
