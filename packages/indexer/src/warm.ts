/**
 * Readying a long-lived process (a watcher) for its next incremental run. A run of a few
 * changed files parses them in the calling thread; the first such run of a process also loads
 * and compiles the WASM grammar, runs the extractor's and the resolver's code cold and reads
 * the index's state and tables, which together cost several times the run itself.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GraphStore } from '@knowing/graph';
import type { LanguageModule } from './languages/types.js';
import { extractFile } from './extract.js';
import { DEFAULT_INDEX_OPTIONS, readGoModulePath } from './indexer.js';
import { createLanguageRegistry } from './languages/registry.js';
import type { LanguageRegistry } from './languages/registry.js';
import { Project } from './resolve.js';
import type { ProjectFile } from './resolve-model.js';
import { loadLinkedTables, loadState } from './state.js';

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
 * Parse and extract one indexed file of each language in this thread, resolve it against the
 * stored symbol tables as a body-only edit of it would be, and drop the results: the next
 * incremental run here finds its grammars loaded, its extraction and resolution code run once
 * and the index's state and tables already read. Nothing is written. The file of a language is
 * the one at the upper quartile of its indexed files by size (larger than most, so that it runs
 * much of the extractor, without syntax errors); one that cannot be read now is skipped.
 * Returns the files parsed.
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
  const resolveAgainst = await storedTables(options.store, root, registry);
  const parsed: string[] = [];
  for (const [module, files] of [...byLanguage].sort(([a], [b]) => (a.id < b.id ? -1 : 1))) {
    options.signal?.throwIfAborted();
    files.sort((a, b) => a.sizeBytes - b.sizeBytes || (a.path < b.path ? -1 : 1));
    const file = files[Math.floor((files.length * 3) / 4)]!;
    const task = { path: file.path, absolutePath: path.join(root, file.path), language: module.id, timeoutMs: DEFAULT_INDEX_OPTIONS.fileTimeoutMs };
    const result = await extractFile(task, [module], readFileSync).catch(() => undefined);
    if (!result?.cacheable || !result.extraction) continue;
    parsed.push(file.path);
    try {
      resolveAgainst?.({ path: file.path, extraction: result.extraction, language: module });
    } catch {
      // Only speed is at stake: the index run resolves for itself.
    }
  }
  return parsed;
}

/** Resolving one file against the stored tables, as the indexer's fast path does; undefined without a usable state. */
async function storedTables(store: GraphStore, root: string, registry: LanguageRegistry): Promise<((file: ProjectFile) => void) | undefined> {
  const repo = await store.repo();
  const state = repo ? await loadState(store, repo.id) : undefined;
  const tables = state ? await loadLinkedTables(store, state) : undefined;
  if (!repo || !tables) return undefined;
  const { links } = tables;
  const goModulePath = readGoModulePath(root);
  return (file) => {
    const project = Project.fromLinks(repo.id, [file], {
      allPaths: links.paths,
      ...(goModulePath ? { goModulePath } : {}),
      linked: {
        links,
        load: (index) => ({ path: links.paths[index]!, extraction: tables.table(index), language: registry.forPath(links.paths[index]!) ?? file.language, deduplicated: true }),
      },
    });
    const unit = project?.unitOf(file.path);
    if (!project || !unit) return;
    project.edgesOf(unit);
    project.nodesOf(unit);
  };
}
