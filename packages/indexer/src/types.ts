import type { GraphStore, Snapshot } from '@knowing/graph';
import type { SkippedFile, SkipReason } from './discover.js';

/** Options of {@link indexRepository}. */
export interface IndexOptions {
  /** Repository working tree to index. */
  readonly root: string;
  /** Where the graph goes. One store holds one repository. */
  readonly store: GraphStore;
  /**
   * Identity used in node ids.
   * @default the normalised `origin` URL from `.git/config`, else the root directory's name
   */
  readonly repoId?: string;
  /** Only these languages (ids or aliases such as `py`); unknown names throw UNKNOWN_LANGUAGE. @default all */
  readonly languages?: readonly string[];
  /** Ignore cached extractions and index state: parse every file and rewrite the whole graph. @default false */
  readonly full?: boolean;
  /**
   * Parser threads, the calling thread included: it parses too, beside `workers - 1` worker
   * threads (0 and 1 both parse in the calling thread alone). Workers need the built JavaScript
   * (`dist/`); from TypeScript sources the indexer parses in the calling thread. Small batches
   * (a few changed files) are parsed in-thread regardless: starting workers costs more than it
   * saves. Left unset, a worker is used only when the machine has a core to spare (no other
   * thread running at the start, or a 1-minute load average at most the cores less one): on a
   * busy core a worker costs more than it saves. On a machine of two cores it is used, unset,
   * only for a batch of 8 MB of source or more: below that, parsing alone was faster there.
   * @default 2 (at most the available cores) when a core is idle and, on two cores, the batch
   * holds 8 MB or more; else 1
   */
  readonly workers?: number;
  /** A parse running longer than this is abandoned and the file indexed without symbols. @default 10_000 */
  readonly fileTimeoutMs?: number;
  /** Files larger than this are skipped. @default 1_048_576 */
  readonly maxFileBytes?: number;
  /** Directory names never descended into. @default DEFAULT_SKIP_DIRECTORIES */
  readonly skipDirectories?: readonly string[];
  /**
   * How many of the latest commits (from HEAD, merges left out) describe the files: each
   * file gets a lexical document of the messages of the commits that changed it, which the
   * learned ranker scores a task against. Read again only when HEAD moved; 0 keeps no history.
   * A root outside a git working tree, or no git installed, keeps none either.
   * @default 5000
   */
  readonly commitHistory?: number;
  /** Progress callback; called synchronously, keep it cheap. */
  readonly onProgress?: (event: IndexProgress) => void;
  /** Abort before the write: the stored graph is left exactly as it was. */
  readonly signal?: AbortSignal;
  /**
   * Repo-relative paths a file watcher reported changed since the last run. When every one is
   * a file the last run indexed (an edit in place), the run looks at those files alone and
   * takes every other file as that run recorded it, without walking the tree; otherwise (a
   * directory, a new or ignore file, no usable state, `full`) it walks as usual. A change the
   * watcher did not report waits for the next walk, such as a freshness check's.
   * @default undefined: walk
   */
  readonly changedPaths?: readonly string[];
}

/** Phases reported through `onProgress`, in order. */
export type IndexPhase = 'discover' | 'parse' | 'resolve' | 'write' | 'done';

/** One progress report. */
export interface IndexProgress {
  readonly phase: IndexPhase;
  /** Units done in this phase (files for discover/parse, owners for write). */
  readonly done: number;
  readonly total: number;
  /** The file just finished, during `parse`. */
  readonly path?: string;
}

/** A file the parser recovered from errors in; its good parts were indexed. */
export interface SyntaxErrorFile {
  readonly path: string;
  readonly errors: number;
}

/** What {@link indexRepository} did. */
export interface IndexSummary {
  readonly repoId: string;
  readonly root: string;
  readonly files: {
    /** Files kept by discovery (and handled by a language module). */
    readonly discovered: number;
    /** Files parsed this run. */
    readonly parsed: number;
    /** Files whose content did not change (not parsed). */
    readonly unchanged: number;
    /**
     * Files whose references were resolved again: only the changed ones after body-only edits,
     * every file when a symbol table changed (definitions added, removed or renamed, imports
     * or supertypes edited) or files were added or deleted, none when nothing changed.
     */
    readonly resolved: number;
    /** Files removed from the graph (gone from disk, now ignored, or of an excluded language). */
    readonly deleted: number;
    /** Files whose nodes or edges were rewritten in the store. */
    readonly written: number;
  };
  /** Whether the run walked the tree (see `changedPaths`); without a walk, `skipped` holds only what the changed files became. */
  readonly walked: boolean;
  readonly skipped: readonly SkippedFile[];
  readonly skippedByReason: Readonly<Partial<Record<SkipReason, number>>>;
  readonly syntaxErrors: readonly SyntaxErrorFile[];
  /** Files indexed without symbols (parse timeouts, extractor failures), and similar notes. */
  readonly warnings: readonly string[];
  /** The whole graph after the run. */
  readonly nodes: number;
  readonly edges: number;
  readonly nodesByKind: Readonly<Record<string, number>>;
  readonly edgesByType: Readonly<Record<string, number>>;
  readonly externalNodes: number;
  readonly bytes: { readonly total: number; readonly parsed: number };
  readonly timings: {
    readonly discoverMs: number;
    readonly parseMs: number;
    readonly resolveMs: number;
    readonly writeMs: number;
    readonly totalMs: number;
  };
  /** What the store changed; null when nothing needed writing. */
  readonly write: {
    readonly nodesWritten: number;
    readonly edgesWritten: number;
    readonly nodesDeleted: number;
    readonly edgesDeleted: number;
    readonly owners: number;
  } | null;
  readonly snapshot: Snapshot | null;
  /** How files were parsed. */
  readonly parser: { readonly threads: number; readonly inWorkers: boolean };
}
