import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '@knowing/engine';
import type { Engine } from '@knowing/engine';
import { indexRepository } from '@knowing/indexer';
import { createSqliteStore } from '@knowing/store-sqlite';
import { costFunctionFor, createFormatRegistry } from '@knowing/wire';
import type { FormatRegistry } from '@knowing/wire';
import { linesFormat } from './lines-format.js';

/** The sample: a URL shortener in JavaScript. */
export const SAMPLE_PROJECT = fileURLToPath(new URL('../fixtures/shortlink', import.meta.url));

/** The built-in formats plus `lines`. */
export function createRegistry(): FormatRegistry {
  const registry = createFormatRegistry();
  registry.register(linesFormat);
  return registry;
}

/**
 * Index the sample into a SQLite file in a temporary directory and create an engine whose
 * budgets are counted in each format's own `symbolCost`, looked up in `registry`.
 */
export async function openSample(registry: FormatRegistry, options: { readonly workers?: number } = {}): Promise<{ engine: Engine; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'knowing-custom-formatter-'));
  const store = await createSqliteStore({ path: join(dir, 'graph.db') });
  const close = async (): Promise<void> => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await indexRepository({ root: SAMPLE_PROJECT, store, repoId: 'example/shortlink', ...(options.workers !== undefined ? { workers: options.workers } : {}) });
  } catch (error) {
    await close();
    throw error;
  }
  const engine = createEngine({
    store,
    // The engine asks once per format; undefined falls back to its own estimate.
    symbolCost: (format) => (registry.has(format) ? costFunctionFor(format, undefined, { registry }) : undefined),
  });
  return { engine, close };
}
