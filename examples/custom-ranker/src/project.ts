import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexRepository } from '@knowing/indexer';
import { createSqliteStore } from '@knowing/store-sqlite';
import type { SqliteGraphStore } from '@knowing/store-sqlite';

/** The sample shop: orders and shipping both email the customer, in look-alike modules. */
export const SAMPLE_PROJECT = fileURLToPath(new URL('../fixtures/shop', import.meta.url));

/** A store holding the indexed sample, in a temporary directory removed by `close`. */
export async function indexSample(options: { readonly workers?: number } = {}): Promise<{ store: SqliteGraphStore; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'knowing-custom-ranker-'));
  const store = await createSqliteStore({ path: join(dir, 'graph.db') });
  const close = async (): Promise<void> => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await indexRepository({ root: SAMPLE_PROJECT, store, repoId: 'example/shop', ...(options.workers !== undefined ? { workers: options.workers } : {}) });
  } catch (error) {
    await close();
    throw error;
  }
  return { store, close };
}
