/**
 * Whether the working tree still matches the index, cheaply: the light entry point
 * `@knowing/indexer/fresh`. It loads neither the parser runtime nor the language modules, so a
 * query can afford the check before every answer and import the indexer only when a file
 * changed.
 */
import path from 'node:path';
import { ErrorCode, KnowingError } from '@knowing/graph';
import type { GraphStore } from '@knowing/graph';
import { DEFAULT_DISCOVER_OPTIONS, discoverFiles } from './discover.js';
import { LANGUAGE_ALIASES } from './language-aliases.js';
import type { KnownFileState } from './discover.js';
import { loadDirectories, loadFileStats } from './state-load.js';

/**
 * The extensions of each built-in language, as its module declares them: a copy, so that the
 * check need not load the modules (test/fresh.test.ts holds it to `createLanguageRegistry`).
 */
const LANGUAGE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  python: ['.py', '.pyi'],
  go: ['.go'],
  rust: ['.rs'],
  java: ['.java'],
  csharp: ['.cs'],
  ruby: ['.rb', '.rake', '.gemspec', '.ru'],
  typescript: ['.ts', '.mts', '.cts', '.tsx'],
  javascript: ['.js', '.jsx', '.mjs', '.cjs'],
};

/**
 * Which repo-relative paths an index of `languages` covers, by extension, the way the
 * indexer's language registry decides it. Unknown names throw `UNKNOWN_LANGUAGE`, as
 * `indexRepository` does.
 *
 * @example
 * ```ts
 * const isSource = sourceFileFilter(['py']);
 * isSource('src/app.py'); // true
 * isSource('cmd/main.go'); // false
 * ```
 */
export function sourceFileFilter(languages?: readonly string[]): (path: string) => boolean {
  let wanted = Object.keys(LANGUAGE_EXTENSIONS);
  if (languages && languages.length > 0) {
    wanted = languages.map((raw) => {
      const name = raw.trim().toLowerCase();
      const id = name in LANGUAGE_EXTENSIONS ? name : name === 'tsx' ? 'typescript' : LANGUAGE_ALIASES[name];
      if (id === undefined) {
        throw new KnowingError(ErrorCode.UnknownLanguage, `unknown language "${raw}"`, {
          source: 'indexer',
          hint: `known languages: ${Object.keys(LANGUAGE_EXTENSIONS).sort().join(', ')}`,
        });
      }
      return id;
    });
  }
  const extensions = new Set(wanted.flatMap((id) => LANGUAGE_EXTENSIONS[id]!));
  return (file) => {
    const slash = file.lastIndexOf('/');
    const dot = file.lastIndexOf('.');
    return dot > slash + 1 && extensions.has(file.slice(dot).toLowerCase());
  };
}

/** Options of {@link checkFreshness}. */
export interface FreshnessOptions {
  /** The working tree the index was built from. */
  readonly root: string;
  /** The store holding the index. Only read. */
  readonly store: GraphStore;
  /** The languages the index was built with (ids or aliases), as given to `indexRepository`. @default all */
  readonly languages?: readonly string[];
  /** As given to `indexRepository`. @default 1_048_576 (1 MB) */
  readonly maxFileBytes?: number;
  /** As given to `indexRepository`. @default DEFAULT_SKIP_DIRECTORIES */
  readonly skipDirectories?: readonly string[];
  readonly signal?: AbortSignal;
}

/** Defaults of {@link FreshnessOptions}: those of `indexRepository`, so both see the same files. */
export const DEFAULT_FRESHNESS_OPTIONS = Object.freeze({
  maxFileBytes: DEFAULT_DISCOVER_OPTIONS.maxFileBytes,
  skipDirectories: DEFAULT_DISCOVER_OPTIONS.skipDirectories,
});

/** What {@link checkFreshness} found: the files an incremental index run would re-index. */
export interface FreshnessReport {
  /** Files on disk the index covers (after ignore rules and the language filter). */
  readonly discovered: number;
  /** Indexed with other content. Sorted. */
  readonly changed: readonly string[];
  /** On disk, not indexed. Sorted. */
  readonly added: readonly string[];
  /** Indexed, gone from disk (or now ignored, skipped or of another language). Sorted. */
  readonly deleted: readonly string[];
  /**
   * Files whose size or times moved while their content did not (a `touch`, a checkout of the
   * same content). Nothing to re-index, but every check reads them again until an index run
   * records their new times.
   */
  readonly touched: readonly string[];
  /**
   * Files read and hashed by this check: those whose size, mtime or ctime differ from what the
   * index recorded. The others were judged by their stat alone.
   */
  readonly hashed: number;
  /**
   * False when the store holds no indexer state this version can use (no index yet, one
   * written by another version, or a run that did not finish): every file was then hashed and
   * compared with the stored file records, and an index run would rebuild the state.
   */
  readonly stateUsable: boolean;
  /** How long the check took, in milliseconds. */
  readonly checkMs: number;
}

/**
 * Compare the working tree with an index, without writing: the files an incremental
 * `indexRepository` run would parse or remove. The sizes, times and hashes the indexer keeps
 * per file serve as the previous snapshot, as `git status` uses its index: a file whose size,
 * mtime and ctime are unchanged is not read, and unchanged directories are not listed again.
 * Costs a few milliseconds on a repository of a few hundred files.
 *
 * @example
 * ```ts
 * import { checkFreshness } from '@knowing/indexer/fresh';
 *
 * const report = await checkFreshness({ root: '/src/caddy', store });
 * if (report.changed.length + report.added.length + report.deleted.length > 0) {
 *   const { indexRepository } = await import('@knowing/indexer');
 *   await indexRepository({ root: '/src/caddy', store });
 * }
 * ```
 */
export async function checkFreshness(options: FreshnessOptions): Promise<FreshnessReport> {
  // process.uptime, not performance.now: the global `performance` loads Node's perf_hooks on
  // first use, which a check before every answer would pay for its timing alone.
  const started = process.uptime();
  const root = path.resolve(options.root);
  const accept = sourceFileFilter(options.languages);
  const store = options.store;
  const repo = await store.repo();
  const stats = repo ? await loadFileStats(store, repo.id) : undefined;
  // What the index holds, by path: with a usable state its entries (content hash and the stat
  // it was taken under), else the stored file records, whose content every file is hashed for.
  const known: ReadonlyMap<string, KnownFileState> = stats ?? new Map();
  const indexed = new Map<string, string>();
  if (stats) {
    for (const [file, entry] of known) indexed.set(file, entry.contentHash);
  } else {
    for (const record of await store.listFiles()) indexed.set(record.path, record.contentHash);
  }
  const discovery = await discoverFiles({
    root,
    accept,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_FRESHNESS_OPTIONS.maxFileBytes,
    skipDirectories: options.skipDirectories ?? DEFAULT_FRESHNESS_OPTIONS.skipDirectories,
    previous: known,
    previousDirectories: await loadDirectories(store, root),
    // Links are never indexed: why each one is passed over is no concern of the check.
    classifySymlinks: false,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const changed: string[] = [];
  const added: string[] = [];
  const touched: string[] = [];
  let hashed = 0;
  for (const file of discovery.files) {
    const before = known.get(file.path);
    const sameStat =
      before !== undefined &&
      before.sizeBytes === file.sizeBytes &&
      before.mtimeMs === file.mtimeMs &&
      (before.ctimeMs === undefined || before.ctimeMs === file.ctimeMs);
    if (!sameStat) hashed++;
    let indexedHash = indexed.get(file.path);
    // A file the last run failed to extract (a parse timeout) is recorded with no hash and no
    // mtime, so that every index run retries it: its file record has the hash of the content
    // it was indexed from, and while that stands there is nothing new to index.
    const failed = indexedHash === '';
    if (failed) indexedHash = (await store.getFile(file.path))?.contentHash;
    if (indexedHash === undefined) added.push(file.path);
    else if (indexedHash !== file.contentHash) changed.push(file.path);
    else if (!sameStat && !failed) touched.push(file.path);
  }
  const present = new Set(discovery.files.map((file) => file.path));
  const deleted = [...indexed.keys()].filter((file) => !present.has(file)).sort();
  return {
    discovered: discovery.files.length,
    changed,
    added,
    deleted,
    touched,
    hashed,
    stateUsable: stats !== undefined,
    checkMs: Math.round((process.uptime() - started) * 10_000) / 10,
  };
}

/**
 * How many files an index run would re-index or remove (changed, added and deleted).
 *
 * @example
 * ```ts
 * if (staleFileCount(await checkFreshness({ root, store })) > 0) await reindex();
 * ```
 */
export function staleFileCount(report: Pick<FreshnessReport, 'changed' | 'added' | 'deleted'>): number {
  return report.changed.length + report.added.length + report.deleted.length;
}
