import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '@knowing/engine';
import type { Engine } from '@knowing/engine';
import { indexRepository } from '@knowing/indexer';
import type { IndexSummary } from '@knowing/indexer';
import { createSqliteStore } from '@knowing/store-sqlite';
import { costFunctionFor, defaultFormats } from '@knowing/wire';
import type { SqliteGraphStore } from '@knowing/store-sqlite';

/** The sample project shipped with this example: a tiny invoicing service in TypeScript. */
export const SAMPLE_PROJECT = fileURLToPath(new URL('../fixtures/invoicer', import.meta.url));

const BUILT_IN_FORMATS = new Set(defaultFormats.map((f) => f.name));

/** An indexed repository and an engine over it. */
export interface IndexedProject {
  readonly store: SqliteGraphStore;
  readonly engine: Engine;
  readonly summary: IndexSummary;
  /** Where the SQLite file lives. */
  readonly dbPath: string;
  /** Close the store and delete the database when it was created in a temporary directory. */
  close(): Promise<void>;
}

export interface OpenProjectOptions {
  /** Repository to index. @default the sample project */
  readonly root?: string;
  /** SQLite file; a fresh temporary directory (removed by `close`) when omitted. */
  readonly dbPath?: string;
  /** Identity used in node ids; pinned so ids do not depend on the checkout's directory name. */
  readonly repoId?: string;
  /** Parser threads; 0 parses in this thread (what the tests use). */
  readonly workers?: number;
}

/**
 * Open (or create) the index of a repository, bring it up to date, and create an engine on it.
 * This is all an application needs: a store, one `indexRepository` call, `createEngine`.
 */
export async function openProject(options: OpenProjectOptions = {}): Promise<IndexedProject> {
  const tempDir = options.dbPath ? undefined : mkdtempSync(join(tmpdir(), 'knowing-engine-library-'));
  const dbPath = options.dbPath ?? join(tempDir!, 'graph.db');
  const store = await createSqliteStore({ path: dbPath });
  try {
    // Incremental: a second call on an unchanged tree parses nothing.
    const summary = await indexRepository({
      root: options.root ?? SAMPLE_PROJECT,
      store,
      repoId: options.repoId ?? 'example/invoicer',
      ...(options.workers !== undefined ? { workers: options.workers } : {}),
    });
    const engine = createEngine({
      store,
      // Budgets count what a symbol really costs in the output format (gcf lines are far
      // cheaper than xml blocks). Without this the engine estimates from a canonical line.
      symbolCost: (format) => (BUILT_IN_FORMATS.has(format) ? costFunctionFor(format) : undefined),
    });
    return {
      store,
      engine,
      summary,
      dbPath,
      async close() {
        await store.close();
        if (tempDir) rmSync(tempDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await store.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    throw error;
  }
}
