import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, packRootOf } from '../src/session.js';
import type { KnowingSession } from '../src/session.js';

describe('an MCP session with the knowing server', { timeout: 120_000 }, () => {
  let dir: string;
  let session: KnowingSession;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'knowing-mcp-example-test-'));
    const repo = join(dir, 'bookmarks');
    cpSync(fileURLToPath(new URL('../fixtures/bookmarks', import.meta.url)), repo, { recursive: true });
    session = await openSession(repo, join(dir, 'graph.db'));
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the knowing tools', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['context_for_task', 'explain_symbol', 'feedback', 'index_status']));
  });

  it('indexes on first use and answers a task in GCF, then "unchanged" for the same pack root', async () => {
    const task = 'tags are not saved when a bookmark is added';
    const first = await session.call('context_for_task', { task_description: task, token_budget: 600 });
    expect(first.isError).toBe(false);
    expect(first.text).toContain('GCF profile=graph');
    expect(first.text).toContain('BookmarkStore.add_bookmark');
    const root = packRootOf(first.text);
    expect(root).toBeDefined();
    const again = await session.call('context_for_task', { task_description: task, token_budget: 600, pack_root: root });
    expect(again.text).toMatch(/unchanged/);
  });

  it('reports malformed arguments as a tool error naming the argument', async () => {
    const bad = await session.call('context_for_task', { token_budget: -5 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/task_description/);
  });
});
