/**
 * Readying a long-lived process (a watcher) for its next incremental run. A run of a few
 * changed files parses them in the calling thread; the first such run of a process also loads
 * and compiles the WASM grammar and runs the extractor's code cold, which costs several times
 * the parse itself.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GraphStore } from '@knowing/graph';
import type { LanguageModule } from './languages/types.js';
import { extractFile } from './extract.js';
import { DEFAULT_INDEX_OPTIONS } from './indexer.js';
import { createLanguageRegistry } from './languages/registry.js';

/** Options of {@link warmParsers}. */
export interface WarmParsersOptions {
  /** The working tree the index was built from. */
  readonly root: string;
  /** The index: which files there are, of which languages. Only read. */
  readonly store: GraphStore;
  /** The languages the index was built with, as given to `indexRepository`. @default all */
  readonly languages?: readonly string[];
  /** Stops between files. */
  readonly signal?: AbortSignal;
}

/**
 * Parse and extract one indexed file of each language in this thread, and drop the results:
 * the next incremental run here finds its grammars loaded and its extraction code run once.
 * Nothing is written. The file of a language is its indexed file of median size without syntax
 * errors; one that cannot be read now is skipped. Returns the files parsed.
 *
 * @example
 * ```ts
 * await indexRepository({ root, store });
 * await warmParsers({ root, store }); // then wait for edits
 * ```
 */
export async function warmParsers(options: WarmParsersOptions): Promise<string[]> {
  const registry = createLanguageRegistry(options.languages ? { languages: options.languages } : {});
  const root = path.resolve(options.root);
  const byLanguage = new Map<LanguageModule, { path: string; sizeBytes: number }[]>();
  for (const file of await options.store.listFiles()) {
    const module = registry.forPath(file.path);
    if (!module || file.syntaxErrors > 0) continue;
    let files = byLanguage.get(module);
    if (!files) byLanguage.set(module, (files = []));
    files.push(file);
  }
  const parsed: string[] = [];
  for (const [module, files] of [...byLanguage].sort(([a], [b]) => (a.id < b.id ? -1 : 1))) {
    options.signal?.throwIfAborted();
    files.sort((a, b) => a.sizeBytes - b.sizeBytes || (a.path < b.path ? -1 : 1));
    const file = files[Math.floor(files.length / 2)]!;
    const task = { path: file.path, absolutePath: path.join(root, file.path), language: module.id, timeoutMs: DEFAULT_INDEX_OPTIONS.fileTimeoutMs };
    const result = await extractFile(task, [module], readFileSync).catch(() => undefined);
    if (result?.cacheable) parsed.push(file.path);
  }
  return parsed;
}
