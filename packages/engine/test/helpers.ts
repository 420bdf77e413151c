import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSqliteStore } from '@knowing/store-sqlite';
import type { SqliteGraphStore } from '@knowing/store-sqlite';
import { indexRepository } from '@knowing/indexer';

export const FIXTURE = fileURLToPath(new URL('./fixtures/tinyweb', import.meta.url));

/** A fresh copy of the fixture repository, indexed into a real SQLite file. */
export async function indexedFixture(): Promise<{ root: string; store: SqliteGraphStore; reindex: () => Promise<void>; cleanup: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'knowing-engine-'));
  const root = join(dir, 'repo');
  cpSync(FIXTURE, root, { recursive: true });
  const store = await createSqliteStore({ path: join(dir, 'graph.db') });
  const reindex = async (): Promise<void> => {
    await indexRepository({ root, store, workers: 0, repoId: 'tinyweb' });
  };
  await reindex();
  return {
    root,
    store,
    reindex,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
