import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '@knowing/store-sqlite';
import { createRefresher, refreshIndex } from '../src/refresh.js';
import type { RefreshSettings } from '../src/refresh.js';
import { fixtureRepo, removeScratch } from './helpers.js';

afterAll(removeScratch);

async function indexedNames(dbPath: string, name: string): Promise<string[]> {
  const store = await createSqliteStore({ path: dbPath, readonly: true });
  try {
    return (await store.findNodesByName(name)).map((node) => node.qualifiedName);
  } finally {
    await store.close();
  }
}

describe('a refresher (the watcher\'s index runs)', () => {
  it('indexes run after run over one connection, and into the new file when the index was replaced on disk', async () => {
    const root = fixtureRepo('knowing-refresher-');
    const settings: RefreshSettings = { root, dbPath: join(root, '.knowing', 'graph.db'), languages: undefined, workers: 0 };
    const refresher = createRefresher(settings);
    try {
      expect((await refresher.run({ warm: true })).files.parsed).toBeGreaterThan(0);
      appendFileSync(join(root, 'bookshop', 'cart.py'), '\n\ndef apply_gift_card(cart, card):\n    return cart\n');
      expect((await refresher.run()).files.parsed).toBe(1);
      expect(await indexedNames(settings.dbPath, 'apply_gift_card')).toHaveLength(1);

      // The index removed and built again (as after `rm -rf .knowing`): the kept connection
      // holds the removed file, and the next run must write the new one.
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${settings.dbPath}${suffix}`, { force: true });
      await refreshIndex(settings);
      appendFileSync(join(root, 'bookshop', 'cart.py'), '\n\ndef apply_store_credit(cart, credit):\n    return cart\n');
      expect((await refresher.run()).files.parsed).toBe(1);
      expect(await indexedNames(settings.dbPath, 'apply_store_credit')).toHaveLength(1);
    } finally {
      await refresher.close();
    }
  });
});
