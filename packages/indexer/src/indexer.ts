/**
 * The pipeline: discover → parse changed files (reuse cached extractions of the rest) →
 * resolve every file against the whole project → derived passes → write the owners whose
 * output changed, in one atomic batch.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ErrorCode, KnowingError } from '@knowing/graph';
import type { FileRecord, FileWrite, GraphEdge, GraphNode, GraphStore, LexicalDocument, NodeId, OwnedEdges } from '@knowing/graph';
import { DamagedTablesError, decodeExtraction, peekContentHash } from './codec.js';
import { deriveCoTested, deriveHierarchy, derivedOwners } from './derive.js';
import { DEFAULT_SKIP_DIRECTORIES, discoverFiles, revisitFiles } from './discover.js';
import type { DiscoveredFile, Discovery, KnownFileState, SkipReason } from './discover.js';
import { emptyExtraction, moduleVersion } from './extract.js';
import type { ExtractResult, ExtractTask } from './extract.js';
import { createLanguageRegistry } from './languages/registry.js';
import { createNoteBatch } from './note-batch.js';
import type { NoteBatch } from './note-batch.js';
import { LEXICAL_VERSION, lexicalDocuments } from './lexical.js';
import { readSourceText } from './lexical-task.js';
import type { LexicalResult, LexicalTask } from './lexical-task.js';
import type { FileExtraction, LanguageModule } from './languages/types.js';
import { createWorkerPool } from './pool.js';
import { parseAll, WORKER_DEPTH } from './parse-all.js';
import type { ParseOutcome, ParserPool } from './parse-all.js';
import { preloadGrammars } from './parser.js';
import { withLoopHeld } from './held-loop.js';
import { externalNode, Project } from './resolve.js';
import type { FileOutput, OwnerOutput } from './resolve.js';
import { loadDirectories, loadLinkedTables, loadState, saveDirectories, saveState, saveTables, tableHash, tableOf } from './state.js';
import type { DerivedState, FileState } from './state.js';
import { detectRepoId, readHeadCommit } from './repo-id.js';
import { automaticParserThreads, automaticWorkerMinBytes, parserThreads } from './threads.js';
import { applyFileHistory, prepareFileHistory } from './commit-history.js';
import type { IndexOptions, IndexProgress, IndexSummary, SyntaxErrorFile } from './types.js';

/** Defaults of {@link IndexOptions}. */
export const DEFAULT_INDEX_OPTIONS = Object.freeze({
  full: false,
  /**
   * Clamped to the available cores at run time; left unset, a run parses in the calling thread
   * alone when no core is idle (see IndexOptions.workers).
   */
  workers: 2,
  fileTimeoutMs: 10_000,
  maxFileBytes: 1_048_576,
  skipDirectories: DEFAULT_SKIP_DIRECTORIES,
  commitHistory: 5000,
});

/**
 * The longest the pipeline computes without giving the event loop a turn while an abort
 * signal is given: a signal (Ctrl-C) is delivered only between tasks, and parsing in this
 * thread, resolving and preparing the write are otherwise one long stretch of synchronous work.
 */
const YIELD_EVERY_MS = 50;

/**
 * A check to await between units of work: it yields to the event loop when the last yield is
 * {@link YIELD_EVERY_MS} old, then throws if `signal` was aborted. Free without a signal.
 */
function checkpoints(signal: AbortSignal | undefined): () => Promise<void> {
  if (!signal) return () => Promise.resolve();
  let last = performance.now();
  return async () => {
    if (performance.now() - last >= YIELD_EVERY_MS) {
      await yieldToEventLoop();
      last = performance.now();
    }
    signal.throwIfAborted();
  };
}

const EXTRACTION_NOTE = 'extraction';

interface Entry {
  readonly file: DiscoveredFile;
  readonly module: LanguageModule;
  /** Full extraction, when this run needs it (parsed now, or re-resolved from its note). */
  extraction: FileExtraction | undefined;
  /** Symbol table (see state.ts): of every file when all are re-resolved, else of the changed ones. */
  table: FileExtraction | undefined;
  contentHash: string;
  sizeBytes: number;
  parsedNow: boolean;
  /** Content or module version differs from the previous run. */
  changed: boolean;
  /** Extraction failed (timeout, crash): indexed without symbols now, retried next run. */
  failed: boolean;
}

function extractionKey(file: string): string {
  return `extraction:${file}`;
}

function elapsed(since: number): number {
  return Math.round((performance.now() - since) * 10) / 10;
}

function emptyCounts(): Record<string, number> {
  return Object.create(null) as Record<string, number>;
}

function countNodes(project: Project, file: string): Record<string, number> {
  const unit = project.unitOf(file)!;
  const counts = emptyCounts();
  counts.file = 1;
  const symbols = unit.ext.symbols;
  for (let i = 0; i < symbols.length; i++) {
    if (unit.canon[i] !== i) continue;
    const kind = symbols[i]!.kind;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

function countEdges(edges: readonly GraphEdge[]): Record<string, number> {
  const counts = emptyCounts();
  for (const edge of edges) counts[edge.type] = (counts[edge.type] ?? 0) + 1;
  return counts;
}

/**
 * Index a repository into a graph store, incrementally: unchanged files are not parsed, and
 * only what changed is written, in one atomic batch (a killed run leaves the previous graph).
 *
 * Two ways through: when no file was added or deleted and every changed file kept its symbol
 * table (a body-only edit), only the changed files are re-resolved, against the stored tables
 * of the others; otherwise every file is re-resolved from its cached extraction. Either way
 * the stored graph equals what a full index of the same tree produces.
 *
 * @example
 * ```ts
 * import { createSqliteStore } from '@knowing/store-sqlite';
 * import { indexRepository } from '@knowing/indexer';
 *
 * const store = await createSqliteStore({ path: '.knowing/graph.db' });
 * const summary = await indexRepository({ root: '.', store, onProgress: (e) => render(e) });
 * console.log(summary.files.parsed, summary.nodes, summary.edgesByType.calls);
 * ```
 */
export function indexRepository(options: IndexOptions): Promise<IndexSummary> {
  return withLoopHeld(() => runIndex(options));
}

async function runIndex(options: IndexOptions): Promise<IndexSummary> {
  const run = await startRun(options);
  const scan = await discoverAndParse(run);
  let resolution: Resolution;
  let diff: Diff;
  let batch: Batch;
  try {
    resolution = await resolveFiles(run, scan);
    diff = diffOutputs(run, scan, resolution);
    batch = await prepareBatch(run, scan, resolution, diff);
  } finally {
    // The parser workers' last job, the lexical documents, is done: they go before the write.
    await scan.pool?.pool.close();
  }
  // The batch now holds all the write needs. Let go of the extractions (their references above
  // all) and the project over them, the bulk of a first index's heap, which every garbage
  // collection during the write would otherwise mark again.
  for (const entry of scan.entries) entry.extraction = undefined;
  resolution.project = undefined;
  const written = await writeBatch(run, scan, diff, batch);
  await applyFileHistory(run.store, await run.fileHistory);
  return summarize(run, scan, resolution, diff, batch, written);
}

function settingsOf(options: IndexOptions) {
  return { ...DEFAULT_INDEX_OPTIONS, ...definedOnly(options) };
}

/** What every phase of a run reads: its options resolved, and what the store held before it. */
type Run = Awaited<ReturnType<typeof startRun>>;

async function startRun(options: IndexOptions) {
  const started = performance.now();
  const root = path.resolve(options.root);
  const rootInfo = statSync(root, { throwIfNoEntry: false });
  if (!rootInfo?.isDirectory()) {
    throw new KnowingError(ErrorCode.PathNotFound, `${root} does not exist or is not a directory`, {
      source: 'indexer',
      hint: 'pass the root of the repository to index',
    });
  }
  const settings = {
    ...settingsOf(options),
    // Left unset: workers when a core is spare and, on two cores, only for a large batch.
    ...(options.workers === undefined ? { workers: automaticParserThreads(), minBytesForWorkers: automaticWorkerMinBytes() } : { minBytesForWorkers: 0 }),
  };
  const registry = createLanguageRegistry(options.languages ? { languages: options.languages } : {});
  const store = options.store;
  const progress = options.onProgress ?? (() => {});
  const signal = options.signal;
  const checkpoint = checkpoints(signal);
  const repoId = options.repoId ?? (await detectRepoId(root));
  // Read now, while the thread pool is idle: by the write, a fresh process's pool threads
  // compete with grammar compilation for cores, and a read there can wait tens of milliseconds.
  const headCommit = readHeadCommit(root).catch(() => null);

  // Git runs beside the parse; what it read is stored after the graph (an abort leaves it too).
  const fileHistory = prepareFileHistory(store, root, headCommit, settings.commitHistory, settings.full);
  // Nothing awaits it before the write: a failure surfaces there, not as an unhandled rejection.
  fileHistory.catch(() => {});

  const storedRepo = await store.repo();
  // Node ids embed the repo id: under another id (a renamed or copied folder, a new git
  // origin) every node is new. The store is rebuilt under the new id: the batch deletes every
  // stored file and writes them all again. Extractions do not depend on the id: the cached
  // ones are reused.
  const identityChanged = storedRepo !== null && storedRepo.id !== repoId;
  const full = settings.full;
  const warnings: string[] = [];
  if (identityChanged) {
    warnings.push(`the index held repository '${storedRepo.id}' but ${root} is '${repoId}' (the folder was renamed or copied, or its git origin changed): rebuilt it under the new identity`);
  }
  const state = full || identityChanged ? undefined : await loadState(store, repoId);
  // A trusted state knows every stored file; otherwise ask the store (files of a killed run,
  // of another writer, of an older indexer version).
  const stateFiles = state ? new Map(Object.entries(state.files)) : undefined;
  const previousRecords: ReadonlyMap<string, { readonly contentHash: string; readonly indexedAt: number; readonly syntaxErrors: number }> =
    stateFiles ?? new Map((await store.listFiles()).map((record) => [record.path, record]));

  // Extraction notes go to the store a batch at a time (see createNoteBatch), after each parse.
  const notes = createNoteBatch(store);
  const accept = (entry: Entry, result: ExtractResult): Promise<void> => acceptParsed(notes, entry, result, warnings);
  const startPool = (size: number): ParserPool | undefined => startParserPool(size, settings.fileTimeoutMs);
  return {
    started,
    root,
    settings,
    registry,
    store,
    progress,
    signal,
    checkpoint,
    repoId,
    headCommit,
    fileHistory,
    storedRepo,
    identityChanged,
    full,
    warnings,
    state,
    stateFiles,
    previousRecords,
    notes,
    accept,
    startPool,
  };
}

/** The files found, and those parsed now. */
type Scan = Awaited<ReturnType<typeof discoverAndParse>>;

/**
 * Discover the files, then parse those that need it. A first or full index parses every file:
 * its workers start now, loading their code and grammars while the walk runs, instead of after
 * it. When they parsed, they stay (`pool`) to build the lexical documents while this thread
 * resolves; the caller closes them. Otherwise, and on failure, they are closed here.
 */
async function discoverAndParse(run: Run) {
  const workerThreads = parserThreads(run.settings.workers) - 1;
  const parsesAll = run.full || !run.state;
  // Every file will be parsed: the runtime compiles while the walk runs.
  if (parsesAll) preloadGrammars([]);
  // Not where the batch's size decides (see automaticWorkerMinBytes): that is known after the walk.
  const early = parsesAll && workerThreads > 0 && run.settings.minBytesForWorkers === 0 ? run.startPool(workerThreads) : undefined;
  let kept = false;
  try {
    const found = await discover(run);
    const parsed = await parseChanged(run, found.discovery, early);
    kept = parsed.parser.inWorkers;
    return { ...found, ...parsed, pool: kept ? early : undefined };
  } finally {
    if (!kept) await early?.pool.close();
  }
}

async function discover(run: Run) {
  const discoverStarted = performance.now();
  run.progress({ phase: 'discover', done: 0, total: 0 });
  const known: ReadonlyMap<string, KnownFileState> = run.stateFiles ?? new Map();
  const previousDirectories = await loadDirectories(run.store, run.root);
  const options = {
    root: run.root,
    accept: (file: string) => run.registry.forPath(file) !== undefined,
    maxFileBytes: run.settings.maxFileBytes,
    skipDirectories: run.settings.skipDirectories,
    previous: known,
    // A full index reads every directory (and records fresh listings for the next run).
    ...(run.full ? {} : { previousDirectories }),
    ...(run.signal ? { signal: run.signal } : {}),
  };
  // Edits in place of indexed files, as a watcher reports them: the state knows every other file.
  const changed = run.settings.changedPaths;
  const walked = !(changed && run.stateFiles && !run.full && changed.every((file) => run.stateFiles!.has(file)));
  const discovery = walked ? await discoverFiles(options) : revisitFiles({ ...options, paths: changed! });
  run.progress({ phase: 'discover', done: discovery.files.length, total: discovery.files.length });
  run.warnings.push(...discovery.warnings);
  return { previousDirectories, discovery, walked, discoverMs: elapsed(discoverStarted) };
}

/** Entries for the files discovered; the changed ones get their full extraction. `early` is a pool started before the walk. */
async function parseChanged(run: Run, discovery: Discovery, early: ParserPool | undefined) {
  const { state, full } = run;
  const parseStarted = performance.now();
  const entries: Entry[] = discovery.files.map((file) => {
    const module = run.registry.forPath(file.path)!;
    const before = state?.files[file.path];
    const changed = !before || before.contentHash !== file.contentHash || before.moduleVersion !== moduleVersion(module);
    return { file, module, extraction: undefined, table: undefined, contentHash: file.contentHash, sizeBytes: file.sizeBytes, parsedNow: false, changed, failed: false };
  });
  const present = new Set(entries.map((e) => e.file.path));
  const deleted = new Set<string>();
  for (const file of run.previousRecords.keys()) if (!present.has(file)) deleted.add(file);
  for (const file of Object.keys(state?.files ?? {})) if (!present.has(file)) deleted.add(file);
  const added = entries.some((e) => !state?.files[e.file.path]);

  // Their grammars load while the notes of the others are read; a run with nothing to parse loads none.
  const grammars = new Set(entries.filter((entry) => entry.changed || full).map((entry) => entry.module.grammarFor(entry.file.path)));
  if (grammars.size > 0) preloadGrammars(grammars);
  // Changed files need their full extraction: from a note written for this content (a run
  // killed after parsing), else by parsing.
  const toParse: Entry[] = [];
  for (const entry of entries) {
    if (!entry.changed && !full) continue;
    await run.checkpoint();
    if (!full && (await loadCachedExtraction(run.store, entry))) continue;
    toParse.push(entry);
  }
  // The early pool is its caller's to close (see discoverAndParse).
  const parser = await parseAndSave(run, toParse, (size) => (early?.size === size ? { ...early, closedByCaller: true } : run.startPool(size)));
  run.warnings.push(...parser.warnings);
  return { parseStarted, entries, deleted, added, parser };
}

/**
 * The project to resolve against. The fast path needs the stored tables (with their links) and
 * no change to any table; it then reads only the tables its resolution reaches. Nothing added,
 * deleted or changed needs no project at all (`project` undefined, `fast` true).
 */
async function openProject(run: Run, scan: Scan) {
  const { state } = run;
  const { entries, added, deleted } = scan;
  // Nothing added, deleted or changed: the stored graph is current, nothing to resolve.
  const noop = state !== undefined && !added && deleted.size === 0 && entries.every((e) => !e.changed);
  const goModulePath = noop ? undefined : readGoModulePath(run.root);
  const storedTables = state && !noop && !added && deleted.size === 0 ? await loadLinkedTables(run.store, state) : undefined;
  let fast = noop || storedTables !== undefined;
  for (const entry of noop ? [] : entries) {
    if (!entry.extraction) continue;
    entry.table = tableOf(entry.extraction);
    if (fast && tableHash(entry.table, moduleVersion(entry.module)) !== state!.files[entry.file.path]!.tableHash) fast = false;
  }
  const allPaths = entries.map((e) => e.file.path);
  let project: Project | undefined;
  if (fast && !noop) {
    project = Project.fromLinks(
      run.repoId,
      entries.filter((e) => e.extraction).map((e) => ({ path: e.file.path, extraction: e.extraction!, language: e.module })),
      {
        allPaths,
        ...(goModulePath ? { goModulePath } : {}),
        linked: {
          links: storedTables!.links,
          // Positions in the links are positions in `entries` (fromLinks checks the paths).
          load: (index) => ({ path: allPaths[index]!, extraction: storedTables!.table(index), language: entries[index]!.module, deduplicated: true }),
        },
      },
    );
    if (!project) fast = false;
  }
  if (!fast) project = await projectOfAllFiles(run, scan, allPaths, goModulePath);
  return { project, fast, allPaths, goModulePath };
}

/** Every file is re-resolved: the full extractions the fast path could do without, and an eager project over them. */
async function projectOfAllFiles(run: Run, scan: Scan, allPaths: readonly string[], goModulePath: string | undefined): Promise<Project> {
  const { entries } = scan;
  // Parsing the few whose cached extraction is missing (deleted notes, an older codec).
  const missing: Entry[] = [];
  for (const entry of entries) {
    await run.checkpoint();
    if (!entry.extraction && !(await loadCachedExtraction(run.store, entry))) missing.push(entry);
  }
  if (missing.length > 0) run.warnings.push(...(await parseAndSave(run, missing, run.startPool)).warnings);
  for (const entry of entries) entry.table = tableOf(entry.extraction!);
  return new Project(run.repoId, entries.map((e) => ({ path: e.file.path, extraction: e.extraction!, language: e.module })), { allPaths, ...(goModulePath ? { goModulePath } : {}) });
}

/** The edges of the files resolved and of the derived owners; `project` is dropped before the write. */
interface Resolution {
  project: Project | undefined;
  readonly fast: boolean;
  readonly toResolve: readonly Entry[];
  readonly fileOutputs: ReadonlyMap<string, FileOutput>;
  readonly derivedOutputs: ReadonlyMap<string, OwnerOutput>;
  /** The written files' lexical documents, when parser workers build them. */
  readonly lexical: LexicalOffload | undefined;
  readonly parseMs: number;
  readonly resolveMs: number;
}

async function resolveFiles(run: Run, scan: Scan): Promise<Resolution> {
  const { state } = run;
  const { entries } = scan;
  const opened = await openProject(run, scan);
  let { project, fast } = opened;
  const parseMs = elapsed(scan.parseStarted);
  await run.checkpoint();

  const resolveStarted = performance.now();
  let toResolve = fast ? entries.filter((e) => e.changed) : entries;
  run.progress({ phase: 'resolve', done: 0, total: toResolve.length });
  project ??= new Project(run.repoId, [], { allPaths: opened.allPaths });
  // Posted before resolving: the workers build the documents while this thread resolves.
  const lexical = scan.pool ? offloadLexical(scan.pool, project, toResolve, run.root) : undefined;
  let fileOutputs = new Map<string, FileOutput>();
  const resolveAll = async (): Promise<void> => {
    for (const entry of toResolve) {
      await run.checkpoint();
      fileOutputs.set(entry.file.path, project!.edgesOf(project!.unitOf(entry.file.path)!));
    }
  };
  try {
    await resolveAll();
  } catch (error) {
    // A stored table that cannot be read back: resolve every file from its extraction instead.
    if (!fast || !(error instanceof DamagedTablesError)) throw error;
    fast = false;
    project = await projectOfAllFiles(run, scan, opened.allPaths, opened.goModulePath);
    toResolve = entries;
    fileOutputs = new Map();
    await resolveAll();
  }
  // Hierarchy passes read only tables: unchanged tables mean unchanged results.
  const hierarchyOutputs = fast ? new Map<string, OwnerOutput>() : deriveHierarchy(project);
  // co_tested_with depends only on test files' targets: recompute when one of them moved.
  const testsMoved = !fast || toResolve.some((e) => (state?.files[e.file.path]?.tests.length ?? 0) > 0 || (fileOutputs.get(e.file.path)?.tests.length ?? 0) > 0);
  const testTargets = new Map<string, NodeId[]>();
  for (const entry of testsMoved ? entries : []) {
    const tests = fileOutputs.get(entry.file.path)?.tests ?? state?.files[entry.file.path]?.tests ?? [];
    if (tests.length > 0) testTargets.set(entry.file.path, [...tests]);
  }
  const derivedOutputs = new Map([...hierarchyOutputs, ...(testsMoved ? deriveCoTested(testTargets) : [])]);
  run.progress({ phase: 'resolve', done: toResolve.length, total: toResolve.length });
  const resolveMs = elapsed(resolveStarted);
  await run.checkpoint();
  return { project, fast, toResolve, fileOutputs, derivedOutputs, lexical, parseMs, resolveMs };
}

/** The state of every file and derived owner after this run, and the owners whose output changed. */
type Diff = ReturnType<typeof diffOutputs>;

function diffOutputs(run: Run, scan: Scan, resolution: Resolution) {
  const { state, previousRecords } = run;
  const project = resolution.project!;
  const now = Date.now();
  const files: Record<string, FileState> = {};
  const changedFiles: Entry[] = [];
  for (const entry of scan.entries) {
    const previous = state?.files[entry.file.path];
    const output = resolution.fileOutputs.get(entry.file.path);
    const record = previousRecords.get(entry.file.path);
    if (!output) {
      const { sizeBytes, mtimeMs, ctimeMs } = entry.file;
      // Most files are untouched: keep their state objects rather than copy each one.
      files[entry.file.path] =
        previous!.sizeBytes === sizeBytes && previous!.mtimeMs === mtimeMs && previous!.ctimeMs === ctimeMs ? previous! : { ...previous!, sizeBytes, mtimeMs, ctimeMs };
      continue;
    }
    const version = moduleVersion(entry.module);
    const hash = outputHash(`${entry.contentHash}\0${version}\0${run.repoId}\0lexical${LEXICAL_VERSION}`, output.edges);
    files[entry.file.path] = {
      sizeBytes: entry.file.sizeBytes,
      // A failed file must read as changed next time: no mtime shortcut, no matching hash.
      mtimeMs: entry.failed ? -1 : entry.file.mtimeMs,
      ctimeMs: entry.file.ctimeMs,
      contentHash: entry.failed ? '' : entry.contentHash,
      moduleVersion: version,
      tableHash: tableHash(entry.table!, version),
      outputHash: hash,
      indexedAt: entry.parsedNow || !record || record.contentHash !== entry.contentHash ? now : record.indexedAt,
      syntaxErrors: entry.extraction?.syntaxErrors ?? 0,
      nodes: countNodes(project, entry.file.path),
      edges: countEdges(output.edges),
      externals: [...output.externals],
      tests: output.tests,
    };
    if (previous?.outputHash !== hash || !previousRecords.has(entry.file.path)) changedFiles.push(entry);
  }
  const derived: Record<string, DerivedState> = {};
  const changedOwners: string[] = [];
  for (const owner of derivedOwners()) {
    const output = resolution.derivedOutputs.get(owner);
    if (!output) {
      derived[owner] = state!.derived[owner]!;
      continue;
    }
    const hash = outputHash(owner, output.edges);
    derived[owner] = { hash, edges: countEdges(output.edges) };
    if (state?.derived[owner]?.hash !== hash) changedOwners.push(owner);
  }
  return { now, files, changedFiles, derived, changedOwners };
}

/** What the write takes: the changed files' nodes and edges, derived edges, and the tables' links when they changed. */
type Batch = Awaited<ReturnType<typeof prepareBatch>>;

async function prepareBatch(run: Run, scan: Scan, resolution: Resolution, diff: Diff) {
  const project = resolution.project!;
  const writeStarted = performance.now();
  const writes: FileWrite[] = [];
  const externals = new Map<string, GraphNode>();
  for (const entry of diff.changedFiles) {
    await run.checkpoint();
    const output = resolution.fileOutputs.get(entry.file.path)!;
    const record: FileRecord = {
      path: entry.file.path,
      language: entry.extraction!.language,
      contentHash: entry.contentHash,
      sizeBytes: entry.sizeBytes,
      indexedAt: diff.files[entry.file.path]!.indexedAt,
      syntaxErrors: entry.extraction!.syntaxErrors,
    };
    const offloaded = resolution.lexical?.of(entry.file.path);
    const nodes = offloaded?.nodes ?? project.nodesOf(project.unitOf(entry.file.path)!);
    const lexical = (await offloaded?.documents) ?? lexicalDocuments(nodes, readSourceText(path.join(run.root, entry.file.path)));
    writes.push({ file: record, nodes, edges: output.edges, lexical });
    for (const name of output.externals) if (!externals.has(name)) externals.set(name, externalNode(run.repoId, name));
  }
  const ownedEdges: OwnedEdges[] = diff.changedOwners.map((owner) => ({ owner, edges: resolution.derivedOutputs.get(owner)!.edges }));
  const tablesChanged = !resolution.fast;
  const links = tablesChanged ? project.links() : undefined;
  const syntaxErrors: SyntaxErrorFile[] = [];
  for (const entry of scan.entries) {
    const errors = entry.extraction?.syntaxErrors ?? run.previousRecords.get(entry.file.path)?.syntaxErrors ?? 0;
    if (errors > 0) syntaxErrors.push({ path: entry.file.path, errors });
  }
  return { writeStarted, writes, externals, ownedEdges, tablesChanged, links, syntaxErrors };
}

/** Apply the batch, then save the tables and the state that names them; a run that changed nothing only remembers moved times. */
async function writeBatch(run: Run, scan: Scan, diff: Diff, batch: Batch) {
  const { store, state, signal, repoId, root, storedRepo, identityChanged, previousRecords } = run;
  const { entries, deleted } = scan;
  const { files, derived } = diff;
  const { writes, ownedEdges, tablesChanged, links } = batch;
  const repoChanged = storedRepo === null || identityChanged || storedRepo.root !== root;
  const needsWrite = writes.length > 0 || ownedEdges.length > 0 || deleted.size > 0 || repoChanged || !state;
  let write: IndexSummary['write'] = null;
  let snapshot = null;
  if (needsWrite || tablesChanged) {
    // The last moment to stop: from the batch on, the run completes (the batch is one
    // synchronous transaction, and the notes after it must describe what it wrote).
    if (signal) await yieldToEventLoop();
    signal?.throwIfAborted();
    const total = writes.length + ownedEdges.length + deleted.size;
    run.progress({ phase: 'write', done: 0, total });
    // Under a new identity every stored file goes, also those written again (see above).
    const deleteFiles = identityChanged ? new Set([...deleted, ...previousRecords.keys()]) : deleted;
    let snapshotId: string;
    if (needsWrite) {
      const result = await store.applyBatch({
        ...(deleteFiles.size > 0 ? { deleteFiles: [...deleteFiles].sort() } : {}),
        files: writes,
        ownedEdges,
        externalNodes: [...batch.externals.values()],
        repo: { id: repoId, root, commit: await run.headCommit, indexedAt: diff.now },
      });
      snapshot = result.snapshot;
      snapshotId = result.snapshot.id;
      write = {
        nodesWritten: result.nodesWritten,
        edgesWritten: result.edgesWritten,
        nodesDeleted: result.nodesDeleted,
        edgesDeleted: result.edgesDeleted,
        owners: writes.length + ownedEdges.length,
      };
    } else {
      snapshot = await store.currentSnapshot();
      snapshotId = snapshot?.id ?? '';
    }
    // After the batch: tables, then the state that names them, stamped with the snapshot.
    let tablesId = state?.tablesId ?? '';
    if (links) {
      const tables = new Map(entries.map((e) => [e.file.path, e.table!]));
      tablesId = await saveTables(store, links.paths.map((file) => tables.get(file)!), links);
    }
    await saveState(store, { repoId, tablesId, files, derived }, snapshotId, state);
    for (const file of deleted) await store.deleteNote(extractionKey(file));
    run.progress({ phase: 'write', done: total, total });
  } else {
    snapshot = await store.currentSnapshot();
    const touched = entries.some((e) => {
      const before = state?.files[e.file.path];
      return before && (before.mtimeMs !== e.file.mtimeMs || before.ctimeMs !== e.file.ctimeMs || before.sizeBytes !== e.file.sizeBytes);
    });
    // Only times moved (a touch, a chmod, a checkout of the same content): remember them so
    // the next run need not read those files again.
    if (touched && snapshot) await saveState(store, { repoId, tablesId: state!.tablesId, files, derived }, snapshot.id, state);
  }
  await saveDirectories(store, root, scan.previousDirectories, scan.discovery.directories);
  return { write, snapshot, writeMs: elapsed(batch.writeStarted) };
}

/** Totals over every file's counts (no pairs allocated: this runs over the whole repository). */
function graphTotals(files: Readonly<Record<string, FileState>>, derived: Readonly<Record<string, DerivedState>>) {
  const nodesByKind = emptyCounts();
  const edgesByType = emptyCounts();
  const addCounts = (totals: Record<string, number>, counts: Readonly<Record<string, number>>): number => {
    let sum = 0;
    for (const key in counts) {
      const n = counts[key]!;
      totals[key] = (totals[key] ?? 0) + n;
      sum += n;
    }
    return sum;
  };
  let nodes = 0;
  let edges = 0;
  const allExternals = new Set<string>();
  for (const file in files) {
    const f = files[file]!;
    nodes += addCounts(nodesByKind, f.nodes);
    edges += addCounts(edgesByType, f.edges);
    for (const name of f.externals) allExternals.add(name);
  }
  for (const d of Object.values(derived)) edges += addCounts(edgesByType, d.edges);
  if (allExternals.size > 0) nodesByKind.external = allExternals.size;
  nodes += allExternals.size;
  return { nodes, edges, nodesByKind, edgesByType, externalNodes: allExternals.size };
}

function summarize(run: Run, scan: Scan, resolution: Resolution, diff: Diff, batch: Batch, written: Awaited<ReturnType<typeof writeBatch>>): IndexSummary {
  const { entries, discovery, parser } = scan;
  const { nodes, edges, nodesByKind, edgesByType, externalNodes } = graphTotals(diff.files, diff.derived);
  const skippedByReason: Partial<Record<SkipReason, number>> = Object.create(null) as Partial<Record<SkipReason, number>>;
  for (const skipped of discovery.skipped) skippedByReason[skipped.reason] = (skippedByReason[skipped.reason] ?? 0) + 1;
  const parsedNow = entries.filter((e) => e.parsedNow);
  run.progress({ phase: 'done', done: entries.length, total: entries.length });
  return {
    repoId: run.repoId,
    root: run.root,
    files: {
      discovered: entries.length,
      parsed: parsedNow.length,
      unchanged: entries.length - parsedNow.length,
      resolved: resolution.toResolve.length,
      deleted: scan.deleted.size,
      written: batch.writes.length,
    },
    walked: scan.walked,
    skipped: discovery.skipped,
    skippedByReason,
    syntaxErrors: batch.syntaxErrors,
    warnings: run.warnings,
    nodes,
    edges,
    nodesByKind,
    edgesByType,
    externalNodes,
    bytes: {
      total: entries.reduce((sum, e) => sum + e.sizeBytes, 0),
      parsed: parsedNow.reduce((sum, e) => sum + e.sizeBytes, 0),
    },
    timings: { discoverMs: scan.discoverMs, parseMs: resolution.parseMs, resolveMs: resolution.resolveMs, writeMs: written.writeMs, totalMs: elapsed(run.started) },
    write: written.write,
    snapshot: written.snapshot,
    parser: { threads: parser.threads, inWorkers: parser.inWorkers },
  };
}

/**
 * parseAll, then the extraction notes of the files it parsed are written, also of those it
 * parsed before it failed or was stopped (a run killed after parsing reuses them).
 */
async function parseAndSave(run: Run, toParse: readonly Entry[], startPool: (size: number) => ParserPool | undefined): Promise<ParseOutcome> {
  let outcome: ParseOutcome;
  try {
    outcome = await parseAll(toParse, { threads: parserThreads(run.settings.workers), fileTimeoutMs: run.settings.fileTimeoutMs, minBytesForWorkers: run.settings.minBytesForWorkers }, { progress: run.progress, signal: run.signal, checkpoint: run.checkpoint, accept: run.accept, startPool });
  } catch (error) {
    await run.notes.flush().catch(() => {});
    throw error;
  }
  await run.notes.flush();
  return outcome;
}

/** Take one parse result into its entry, and cache it as a note when it is good. */
async function acceptParsed(notes: NoteBatch, entry: Entry, result: ExtractResult, warnings: string[]): Promise<void> {
  entry.extraction = result.extraction ?? decodeExtraction(result.encoded)?.extraction ?? emptyExtraction(entry.file.path, entry.module.id);
  entry.contentHash = result.contentHash || entry.file.contentHash;
  entry.sizeBytes = result.sizeBytes || entry.file.sizeBytes;
  entry.parsedNow = true;
  entry.failed = !result.cacheable;
  if (result.warning) warnings.push(result.warning);
  if (result.cacheable) await notes.put({ key: extractionKey(entry.file.path), kind: EXTRACTION_NOTE, value: result.encoded, snapshot: null });
}

/** Fill `entry` from its extraction note when the note was written for this content. */
async function loadCachedExtraction(store: GraphStore, entry: Entry): Promise<boolean> {
  const note = await store.getNote(extractionKey(entry.file.path));
  // An edited file's note describes its previous content: tell so without decoding it.
  if (!note || peekContentHash(note.value) !== entry.file.contentHash) return false;
  const cached = decodeExtraction(note.value);
  if (!cached || cached.contentHash !== entry.file.contentHash || cached.moduleVersion !== moduleVersion(entry.module) || cached.extraction.path !== entry.file.path) {
    return false;
  }
  entry.extraction = cached.extraction;
  return true;
}

/**
 * Start `size` parser workers, or none from TypeScript sources: workers load the built
 * worker.js beside this module (dist/, or beside a bundle that holds the indexer), which tests
 * and tsx runs do not have.
 */
function startParserPool(size: number, fileTimeoutMs: number): ParserPool | undefined {
  if (!/\.c?js$/.test(import.meta.url)) return undefined;
  const pool = createWorkerPool<ExtractTask | LexicalTask, ExtractResult | LexicalResult>({
    script: new URL('./worker.js', import.meta.url),
    size,
    // The in-worker parse deadline fires first; this catches a worker stuck anywhere else.
    taskTimeoutMs: fileTimeoutMs * 2 + 5_000,
    tasksPerWorker: WORKER_DEPTH,
  });
  return { pool, size };
}


/** Lexical documents a worker builds: each file's nodes (the ones written) and, once in, its documents. */
interface LexicalOffload {
  /** Undefined for a file not offloaded; `documents` resolves to undefined when the worker failed (build them here). */
  of(file: string): { readonly nodes: GraphNode[]; readonly documents: Promise<ReadonlyMap<NodeId, LexicalDocument> | undefined> } | undefined;
}

/**
 * Hand the lexical documents of `entries` to the parser workers. The files go in as many tasks
 * as the workers hold at once (see WORKER_DEPTH), balanced by size: further tasks would only be
 * dispatched when this thread next turns its event loop, which resolution does not do.
 */
function offloadLexical(pool: ParserPool, project: Project, entries: readonly Entry[], root: string): LexicalOffload {
  const slots = pool.size * WORKER_DEPTH;
  const chunks: Entry[][] = Array.from({ length: slots }, () => []);
  const bytes = new Array<number>(slots).fill(0);
  for (const entry of [...entries].sort((a, b) => b.sizeBytes - a.sizeBytes)) {
    const lightest = bytes.indexOf(Math.min(...bytes));
    chunks[lightest]!.push(entry);
    bytes[lightest]! += entry.sizeBytes;
  }
  const offloaded = new Map<string, { nodes: GraphNode[]; documents: Promise<ReadonlyMap<NodeId, LexicalDocument> | undefined> }>();
  for (const chunk of chunks) {
    if (chunk.length === 0) continue;
    const nodes = chunk.map((entry) => project.nodesOf(project.unitOf(entry.file.path)!));
    const task: LexicalTask = { kind: 'lexical', files: chunk.map((entry, i) => ({ absolutePath: path.join(root, entry.file.path), nodes: nodes[i]! })) };
    const done = pool.pool.run(task).then(
      (result) => (result as LexicalResult).documents,
      () => undefined,
    );
    chunk.forEach((entry, i) => offloaded.set(entry.file.path, { nodes: nodes[i]!, documents: done.then((documents) => documents?.[i]) }));
  }
  return { of: (file) => offloaded.get(file) };
}

function outputHash(prefix: string, edges: readonly GraphEdge[]): string {
  const hash = createHash('sha1').update(prefix);
  let chunk = '';
  for (const edge of edges) {
    chunk += `${edge.source}${edge.target}${edge.type}\t${edge.confidence}\t${edge.provenance}\t${edge.line ?? 0}\n`;
    if (chunk.length > 65_536) {
      hash.update(chunk);
      chunk = '';
    }
  }
  return hash.update(chunk).digest('hex');
}

/**
 * Synchronous, like the other small reads of a run: an await on the thread pool can wait tens
 * of milliseconds in a fresh process, whose threads compete with WASM compilation for cores.
 */
/** The module path of the Go module at `root`, as the project-wide passes use it. */
export function readGoModulePath(root: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(root, 'go.mod'), 'utf8');
  } catch {
    return undefined;
  }
  return /^\s*module\s+(\S+)/m.exec(text)?.[1]?.replace(/^"|"$/g, '');
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
