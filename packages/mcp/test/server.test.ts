/**
 * In-process tests of behaviour that is awkward to reach through a child process: slow first
 * index, progress notifications, the bounded pack history, option checks, closing.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, KnowingError } from '@knowing/graph';
import { createKnowingServer, DEFAULT_SERVER_OPTIONS } from '../src/index.js';
import type { KnowingServer, KnowingServerOptions } from '../src/index.js';
import { call, FIXTURE, packRootOf, scratchRepo, textOf } from './support/harness.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connected(options: Partial<KnowingServerOptions> & { repoRoot: string }): Promise<{ server: KnowingServer; client: Client }> {
  const server = await createKnowingServer({ indexOptions: { workers: 0 }, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'knowing-mcp-test', version: '0.0.0' });
  await client.connect(clientSide);
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  return { server, client };
}

function plainCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'knowing-mcp-plain-'));
  cpSync(FIXTURE, path.join(dir, 'repo'), { recursive: true });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'repo');
}

function gitCopy(): ReturnType<typeof scratchRepo> {
  const repo = scratchRepo();
  cleanups.push(repo.cleanup);
  return repo;
}

describe('createKnowingServer', () => {
  it("uses the repository's own model (.knowing/model.json), and says in one line why not when it does not fit", async () => {
    const root = plainCopy();
    mkdirSync(path.join(root, '.knowing'), { recursive: true });
    writeFileSync(path.join(root, '.knowing', 'model.json'), JSON.stringify({ version: 1, features: ['lexical'], mean: [0], scale: [1], weights: [1] }));
    const logged: string[] = [];
    const { client } = await connected({ repoRoot: root, log: (message) => logged.push(message) });
    const warnings = logged.filter((line) => line.includes('model.json'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^ignoring .*model\.json \(learned model does not fit this version\); using the shipped model/);
    expect(textOf(await call(client, 'context_for_task', { task_description: 'search notes by query' }))).toContain('search_notes');
  });

  it('keeps its database in <repo>/.knowing/graph.db by default, and does not index it', async () => {
    const root = plainCopy();
    const { server, client } = await connected({ repoRoot: root });
    expect(server.dbPath).toBe(path.join(server.repoRoot, DEFAULT_SERVER_OPTIONS.dbPath));
    await call(client, 'reindex');
    expect(existsSync(path.join(root, '.knowing', 'graph.db'))).toBe(true);
    expect(readFileSync(path.join(root, '.knowing', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    const status = (await call(client, 'index_status')).structuredContent as { files: number; stale_files: number };
    expect(status).toMatchObject({ files: 6, stale_files: 0 });
  });

  it('rejects a repository root that does not exist', async () => {
    const error = await createKnowingServer({ repoRoot: path.join(tmpdir(), 'no-such-knowing-repo') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KnowingError);
    expect((error as KnowingError).code).toBe(ErrorCode.PathNotFound);
  });

  it('rejects an unknown language when created, not on the first call', async () => {
    const error = await createKnowingServer({ repoRoot: plainCopy(), dbPath: ':memory:', indexOptions: { languages: ['cobol'] } }).catch((e: unknown) => e);
    expect((error as KnowingError).code).toBe(ErrorCode.UnknownLanguage);
  });

  it('rejects a pack history that is not a positive whole number', async () => {
    const error = await createKnowingServer({ repoRoot: plainCopy(), packHistory: 0 }).catch((e: unknown) => e);
    expect((error as KnowingError).code).toBe(ErrorCode.InvalidArgument);
  });
});

describe('first index', () => {
  it('answers "indexing" instead of timing out when the first index outlasts the wait, then answers', async () => {
    const { client } = await connected({ repoRoot: plainCopy(), dbPath: ':memory:', indexWaitMs: 0 });
    const first = await call(client, 'context_for_task', { task_description: 'search notes' });
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toMatch(/^knowing is indexing this repository for the first time \(.*\)\. On a large repository this may take a while/);
    const during = (await call(client, 'index_status')).structuredContent as { indexing: { kind: string } | null };
    // The run may have finished by now on a fast machine; if not, status shows it.
    if (during.indexing) expect(during.indexing.kind).toBe('initial');
    let answer = first;
    for (let i = 0; i < 100 && /indexing this repository/.test(textOf(answer)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await call(client, 'context_for_task', { task_description: 'search notes' });
    }
    expect(textOf(answer)).toContain('notely/search.py.search_notes');
  });

  it('reports indexing progress to a client that asks for it', async () => {
    const { client } = await connected({ repoRoot: plainCopy(), dbPath: ':memory:' });
    const messages: string[] = [];
    const result = await client.callTool({ name: 'context_for_task', arguments: { task_description: 'search notes' } }, undefined, {
      onprogress: (progress) => messages.push(progress.message ?? ''),
    });
    expect(result.isError).toBeFalsy();
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.at(-1)).toMatch(/^indexing: done \d+\/\d+$/);
  });
});

describe('pack history', () => {
  it('remembers only the most recent packs', async () => {
    const { client } = await connected({ repoRoot: plainCopy(), dbPath: ':memory:', packHistory: 1 });
    const a = await call(client, 'context_for_task', { task_description: 'search notes by query' });
    await call(client, 'context_for_task', { task_description: 'save the notebook as json' });
    const again = await call(client, 'context_for_task', { task_description: 'add a tag to a note', pack_root: packRootOf(a) });
    expect(textOf(again)).toContain('is not among the last 1 packs this server sent, so this is the full pack');
  });
});

describe('context_for_pr without files', () => {
  it('says so when the working tree has no changes (its own index directory is git-ignored)', async () => {
    const repo = gitCopy();
    const { client } = await connected({ repoRoot: repo.root });
    await call(client, 'reindex');
    const result = await call(client, 'context_for_pr');
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/^No changed files: `git diff HEAD` is empty/);
  });

  it('asks for files outside a git repository', async () => {
    const { client } = await connected({ repoRoot: plainCopy(), dbPath: ':memory:' });
    const result = await call(client, 'context_for_pr');
    // The temp directory might sit inside some git work tree; then the diff is simply empty.
    if (result.isError) expect(textOf(result)).toMatch(/is not inside a git repository.*pass the changed files as `files` \(INVALID_ARGUMENT\)/);
    else expect(textOf(result)).toMatch(/^No changed files/);
  });
});

describe('close', () => {
  it('closes a store it opened, and leaves a store it was given open', async () => {
    const { createSqliteStore } = await import('@knowing/store-sqlite');
    const store = await createSqliteStore({ path: ':memory:' });
    const server = await createKnowingServer({ repoRoot: plainCopy(), store, indexOptions: { workers: 0 } });
    await server.close();
    await expect(store.counts()).resolves.toMatchObject({ nodes: 0 });
    await store.close();
    const own = await createKnowingServer({ repoRoot: plainCopy(), dbPath: ':memory:' });
    await own.close();
    await own.close();
  });
});
