/**
 * An agent's session with knowing over MCP: list the tools, ask for context for a task, ask again
 * with the pack root it got (the server answers "unchanged"), and explain one symbol.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSession, packRootOf } from './session.js';

const dir = mkdtempSync(join(tmpdir(), 'knowing-mcp-example-'));
const repo = join(dir, 'bookmarks');
cpSync(fileURLToPath(new URL('../fixtures/bookmarks', import.meta.url)), repo, { recursive: true });
const session = await openSession(repo, join(dir, 'graph.db'));
try {
  const { tools } = await session.client.listTools();
  console.log('tools:', tools.map((t) => t.name).join(', '));
  const task = 'tags are not saved when a bookmark is added';
  const first = await session.call('context_for_task', { task_description: task, token_budget: 600 });
  console.log(first.text);
  const again = await session.call('context_for_task', { task_description: task, token_budget: 600, pack_root: packRootOf(first.text) });
  console.log('\nsame question again →', again.text.split('\n')[0]);
  const why = await session.call('explain_symbol', { task_description: task, symbol: 'normalize_tags' });
  console.log('\n' + why.text.split('\n').slice(0, 12).join('\n'));
} finally {
  await session.close();
  rmSync(dir, { recursive: true, force: true });
}
