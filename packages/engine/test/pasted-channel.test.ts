/**
 * The pasted-evidence channel on a real index (tree-sitter, SQLite) of a small repository: the
 * code a task pastes resolves by name and qualifier, the messages it quotes by the bodies that
 * hold them, and the engine ranks what they name first.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractKeywordSet } from '@knowing/keywords';
import { indexRepository } from '@knowing/indexer';
import { createSqliteStore } from '@knowing/store-sqlite';
import type { SqliteGraphStore } from '@knowing/store-sqlite';
import { createEngine, createPastedChannel } from '../src/index.js';
import { testChannel } from '../src/testing.js';

const LEDGER = fileURLToPath(new URL('./fixtures/ledger', import.meta.url));
let dir: string;
let store: SqliteGraphStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'knowing-pasted-'));
  cpSync(LEDGER, join(dir, 'repo'), { recursive: true });
  store = await createSqliteStore({ path: join(dir, 'graph.db') });
  await indexRepository({ root: join(dir, 'repo'), store, workers: 0, repoId: 'ledger' });
}, 60_000);
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = async (task: string) => createPastedChannel().run({ store, task, keywords: extractKeywordSet(task), aboutTests: false });
const names = async (task: string): Promise<string[]> => (await run(task)).map((h) => h.node.qualifiedName);

const TASKS = [
  'Posting fails:\n\n```python\njournal = Journal()\njournal.post("cash", "bank", 10)\n```',
  'Withdrawing from an empty account says "insufficient funds in account for withdrawal" even after a deposit',
  'Fix the rounding of balances in reports',
];
testChannel(createPastedChannel(), () => ({ store, tasks: TASKS }));

describe('the pasted channel', () => {
  it('resolves a call through the receiver type the code assigned', async () => {
    const hits = await run('Posting fails:\n\n```python\njournal = Journal()\njournal.post("cash", "bank", 10)\n```');
    // `journal.post` is Journal.post (its receiver was built by `Journal()`), not another `post`.
    expect(hits.map((h) => h.node.qualifiedName)).toEqual(['ledger/journal.py.Journal.post', 'ledger/journal.py.Journal']);
    expect(hits[0]!.detail).toBe('call journal.Journal.post');
  });

  it('resolves no mere mention: a name the code only reads is what the name channels match already', async () => {
    expect(await run('```python\nentries = ledger.Journal\nprint(entries)\n```')).toEqual([]);
    expect((await run('```python\nentries = ledger.Journal\nJournal()\n```')).map((h) => h.node.qualifiedName)).toEqual(['ledger/journal.py.Journal']);
  });

  it('uses a qualifier to choose among symbols of one name; an unknown receiver keeps both, weaker', async () => {
    // Both Account and Journal have close(); the span's qualifier picks one.
    const qualified = await run('`Account.close()` logs a warning it should not');
    expect(qualified.map((h) => h.node.qualifiedName)).toEqual(['ledger/accounts.py.Account.close']);
    const unknown = await run('```python\nthing.close()\n```');
    expect(unknown.map((h) => h.node.qualifiedName)).toEqual(['ledger/accounts.py.Account.close', 'ledger/journal.py.Journal.close']);
    expect(unknown[0]!.score!).toBeLessThan(qualified[0]!.score!);
  });

  it('finds where a quoted message is raised, with placeholders and the values the user saw left out', async () => {
    const hits = await run('Withdrawing from an empty account says "insufficient funds in account savings for withdrawal" even after a deposit');
    expect(hits[0]!.node.qualifiedName).toBe('ledger/accounts.py.Account.withdraw');
    expect(hits[0]!.detail).toMatch(/^message "/);
    // An error line and a log line pasted in a block resolve the same way.
    expect((await names('```\nKeyError: unknown account savings; open it before posting entries\n```'))[0]).toBe('ledger/accounts.py.Registry.find');
    expect((await names('```\n2024-01-02 10:00:00 WARNING closing account savings with a remaining balance\n```'))[0]).toBe('ledger/accounts.py.Account.close');
  });

  it('keeps a message only where most of its rare words are: a common word alone matches nothing', async () => {
    expect(await names('The error says "account must be something else entirely"')).toEqual([]);
  });

  it('finds nothing in a task without pasted code or messages', async () => {
    expect(await run('Fix the rounding of balances in reports')).toEqual([]);
  });

  it('puts the symbol a pasted message names first in the engine\'s answer', async () => {
    // Off by default; switched on by its weight.
    const off = await createEngine({ store }).forTask('Posting fails with "currency mismatch between debit and credit accounts"', { trace: true, fresh: true });
    expect(off.trace!.channels['pasted'] ?? []).toEqual([]);
    const engine = createEngine({ store, options: { channels: { pasted: 2 } } });
    const task = 'Posting between accounts of different currencies fails with "currency mismatch between debit and credit accounts" although both are EUR';
    const result = await engine.forTask(task, { trace: true, fresh: true });
    expect(result.trace!.channels['pasted']![0]!.node.qualifiedName).toBe('ledger/journal.py.Journal.post');
    expect(result.ranked[0]!.node.qualifiedName).toBe('ledger/journal.py.Journal.post');
  });
});
