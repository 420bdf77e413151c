import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Snapshot, TextHit } from '@knowing/graph';
import { createSqliteStore } from '@knowing/store-sqlite';
import { shopBatch } from './shop-graph.js';

export interface QuickstartResult {
  readonly hits: readonly TextHit[];
  readonly snapshot: Snapshot;
  readonly callersOfLoadSession: readonly string[];
}

/**
 * Write the tiny shop graph into a fresh store in a temporary directory, search it, and
 * clean up. What the CLI will do with a real index, minus the indexer.
 */
export async function quickstart(query: string): Promise<QuickstartResult> {
  const dir = mkdtempSync(join(tmpdir(), 'knowing-quickstart-'));
  const store = await createSqliteStore({ path: join(dir, 'graph.db') });
  try {
    const { snapshot } = await store.applyBatch(shopBatch(dir));
    const hits = await store.search(query, { limit: 5 });
    const [load] = await store.findNodesByName('load_session');
    const callers = load ? await store.edgesTo(load.id, { types: ['calls'] }) : [];
    const callerNodes = await store.getNodes(callers.map((e) => e.source));
    return { hits, snapshot, callersOfLoadSession: callerNodes.map((n) => n.qualifiedName) };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
