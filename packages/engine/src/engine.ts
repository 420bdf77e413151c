import type { ContextPack, GraphStore, NodeId, RankedSymbol } from '@knowing/graph';
import { ErrorCode, KnowingError, sha256Hex } from '@knowing/graph';
import { createClassRegistry, BUILTIN_PLUGINS } from '@knowing/equivalence';
import type { ClassRegistry, EquivalencePlugin } from '@knowing/equivalence';
import { allKeywords } from '@knowing/keywords';
import { createDefaultRanker, createLearnedRanker, wrapRanker } from '@knowing/rank';
import type { CheckedRanker } from '@knowing/rank';
import { normalizeTask, packSymbols } from '@knowing/pack';
import { createWalkCache } from '@knowing/walk';
import type { PackFormat } from '@knowing/pack';
import { resolveEngineOptions } from './options.js';
import type { EngineOptions } from './options.js';
import type {
  ContextResult,
  CreateEngineOptions,
  Engine,
  QueryKind,
  QueryOptions,
  SymbolExplanation,
  TestScopeResult,
} from './types.js';
import { GraphStateCache, warmGraphState } from './graph-state.js';
import type { GraphState } from './graph-state.js';
import { createEquivalenceStage } from './equivalence-stage.js';
import { edgesAmongIds, runStages, timer } from './pipeline.js';
import type { CachedWalk, PipelineContext, Seeding } from './pipeline.js';
import { filesSymbols, normalizeFiles, seedFiles, seedPR, seedTask } from './seeding.js';
import { explainRun } from './explain.js';
import { loadNameIndex, suggestSymbols } from './suggest.js';
import type { NameIndex } from './suggest.js';
import { findTests } from './test-scope.js';
import type { Channel } from './channel.js';
import { RESERVED_CHANNEL_NAMES } from './channel.js';
import { createTieredChannel } from './channels/tiered.js';
import { createBm25Channel } from './channels/bm25.js';
import { createPathChannel } from './channels/path.js';
import { createVectorChannel } from './channels/vector.js';
import { createLexicalChannel } from './channels/lexical.js';
import { createTraceChannel } from './channels/traces.js';
import { createPastedChannel } from './channels/pasted.js';
import { createAnswerCache } from './answer-cache.js';
import { createFileTimes } from './file-times.js';
import { createSessionLearning } from './learning.js';
import type { SessionLearning } from './learning.js';
import type { AnswerCache } from './answer-cache.js';

/** Content digests of vocabulary plugins; a validated plugin is frozen, so its digest never changes. */
const pluginDigests = new WeakMap<EquivalencePlugin, string>();

/** What the registered vocabulary is: every plugin's name and content, in registration order. */
function vocabularyFingerprint(registry: ClassRegistry): string {
  return registry
    .list()
    .map((plugin) => {
      let digest = pluginDigests.get(plugin);
      if (digest === undefined) {
        digest = sha256Hex(JSON.stringify(plugin));
        pluginDigests.set(plugin, digest);
      }
      return digest;
    })
    .join(',');
}

/**
 * The retrieval channels of every task, in the order they run: the built-in ones, built from
 * the options (the vector channel only when a vector search is given), each replaced by a
 * registered channel of the same name; then the other registered channels in order.
 */
function taskChannels(config: CreateEngineOptions, options: EngineOptions): Channel[] {
  const list: Channel[] = [
    createTieredChannel(options.tiered),
    createBm25Channel({ limit: options.seeds.bm25Limit, keywords: options.seeds.bm25Keywords }),
    createPathChannel(options.path),
    ...(config.vector ? [createVectorChannel(config.vector)] : []),
    createLexicalChannel(),
    createTraceChannel(),
    createPastedChannel(),
  ];
  const seen = new Set<string>();
  for (const channel of config.channels ?? []) {
    if (!channel || typeof channel.name !== 'string' || typeof channel.run !== 'function' || typeof channel.fingerprint !== 'function') {
      throw new KnowingError(ErrorCode.InvalidArgument, 'a channel needs a name, fingerprint() and run()', { source: 'engine', hint: 'see the Channel interface of @knowing/engine' });
    }
    if (RESERVED_CHANNEL_NAMES.has(channel.name) || seen.has(channel.name)) {
      throw new KnowingError(ErrorCode.InvalidArgument, `channel name "${channel.name}" is ${seen.has(channel.name) ? 'registered twice' : 'reserved for a built-in stage'}`, {
        source: 'engine',
        hint: 'give the channel a name of its own',
      });
    }
    seen.add(channel.name);
    const builtIn = list.findIndex((c) => c.name === channel.name);
    if (builtIn >= 0) list[builtIn] = channel;
    else list.push(channel);
  }
  return list;
}

/** The ranker for task answers and the formula for file and PR answers (the model was trained on tasks). */
function rankersFor(config: CreateEngineOptions, options: EngineOptions): { readonly task: CheckedRanker; readonly formula: CheckedRanker } {
  if (options.rankingModel !== 'learned' && options.rankingModel !== 'formula') {
    throw new KnowingError(ErrorCode.InvalidArgument, `unknown rankingModel "${String(options.rankingModel)}"`, { source: 'engine', hint: "use 'learned' or 'formula'" });
  }
  const formula: CheckedRanker = wrapRanker(config.ranker ?? createDefaultRanker(options.ranking));
  // Task answers: a given ranker, else the learned model unless the formula is asked for.
  const task = config.ranker || options.rankingModel === 'formula' ? formula : wrapRanker(createLearnedRanker(config.learnedModel ? { model: config.learnedModel } : {}));
  return { task, formula };
}

/** Packs a ranking into a budget in a format, with the edges among the packed symbols. */
function createPacker(config: CreateEngineOptions, options: EngineOptions) {
  const costs = new Map<string, ((symbol: RankedSymbol) => number) | undefined>();
  const costOf = (format: string): ((symbol: RankedSymbol) => number) | undefined => {
    if (!config.symbolCost) return undefined;
    if (!costs.has(format)) costs.set(format, config.symbolCost(format));
    return costs.get(format);
  };
  return (ranked: readonly RankedSymbol[], state: GraphState, task: string, budget: number, format: PackFormat): ContextPack => {
    const cost = costOf(format);
    const packed = packSymbols(ranked, {
      budget,
      strategy: options.pack.strategy,
      rankedShare: options.pack.rankedShare,
      task,
      format,
      ...(config.tokenizer ? { tokenizer: config.tokenizer } : {}),
      ...(cost ? { cost } : {}),
    });
    return { ...packed, edges: edgesAmongIds(state.adjacency, packed.symbols.map((s) => s.node.id)) };
  };
}

/**
 * The names of the current snapshot, read on the first unknown symbol and kept until the
 * snapshot changes: one pass over the nodes, then each search is in memory.
 */
function createNameIndexCache(store: GraphStore): { get(snapshot: string | null): Promise<NameIndex>; clear(): void } {
  let names: { readonly snapshot: string | null; readonly index: Promise<NameIndex> } | undefined;
  return {
    get(snapshot) {
      if (!names || names.snapshot !== snapshot || snapshot === null) {
        const index = loadNameIndex(store);
        names = { snapshot, index };
        index.catch(() => {
          if (names?.index === index) names = undefined;
        });
      }
      return names.index;
    },
    clear() {
      names = undefined;
    },
  };
}

/**
 * The cache key of an answer: what was asked (kind, subject, budget, format) and everything
 * pluggable that shapes the answer — ranker, options, channels, vocabulary, index content.
 */
function answerKeys(ranker: CheckedRanker, options: EngineOptions, channels: readonly Channel[], registry: ClassRegistry) {
  // Options are frozen for the engine's lifetime: their part of every key is computed once.
  const configKey = `${ranker.name}\0${JSON.stringify(options)}\0${channels.map((c) => `${c.name}=${c.fingerprint()}`).join('\0')}`;
  // Plugins can be registered and removed at any time: their part of the key is read per query.
  // The snapshot id is a root over the graph's structure: an edit inside a function body leaves
  // it unchanged while the lexical index (and so the answer) changes. The time of the last index
  // write stands for the content, so any write makes earlier answers miss.
  return (kind: string, subject: string, budget: number, format: string, indexedAt: number): string =>
    sha256Hex(`${kind}\0${subject}\0${budget}\0${format}\0${configKey}\0${vocabularyFingerprint(registry)}\0${indexedAt}`);
}

function formatOf(q: QueryOptions | undefined, options: EngineOptions): PackFormat {
  return (q?.format ?? options.pack.format) as PackFormat;
}

function requireText(value: string, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new KnowingError(ErrorCode.InvalidArgument, `${what} is empty`, { source: 'engine', hint: `describe the ${what} in a few words` });
  }
  return value;
}

/** What answering a query needs of the engine. */
interface AnswerParts {
  readonly store: GraphStore;
  readonly options: EngineOptions;
  readonly graph: GraphStateCache;
  readonly learning: SessionLearning;
  readonly answers: AnswerCache;
  readonly pack: ReturnType<typeof createPacker>;
  readonly cacheKey: ReturnType<typeof answerKeys>;
  readonly context: (session: string | undefined, reuseWalks: boolean, ranker: CheckedRanker) => PipelineContext;
  readonly ranker: CheckedRanker;
  readonly formula: CheckedRanker;
}

/**
 * One query of any kind: the seeding differs, everything else is shared — the stages after
 * seeding (pipeline.ts), packing, the trace and its timings, caching keyed by kind, subject,
 * budget, format and the engine's fingerprints, and the session's learning.
 */
function createAnswerer(parts: AnswerParts) {
  const { store, options, graph, learning, answers, pack, cacheKey, context, ranker, formula } = parts;
  return async function answer(
    kind: QueryKind,
    subject: string,
    packTask: string,
    seed: (ctx: PipelineContext, state: GraphState) => Promise<Seeding>,
    q: QueryOptions,
  ): Promise<ContextResult> {
    if (await learning.before(q.session)) await answers.invalidate();
    const state = await graph.get();
    const budget = q.budget ?? (kind === 'pr' ? options.pack.prBudget : options.pack.budget);
    const format = formatOf(q, options);
    // With a session, boosts and feedback make each answer depend on history: no cache.
    const useCache = options.cache && !q.fresh && !q.trace && !q.session;
    const key = cacheKey(kind, subject, budget, format, useCache ? ((await store.repo())?.indexedAt ?? 0) : 0);
    if (useCache) {
      const hit = await answers.get(key, state.snapshotId);
      if (hit) return { pack: hit.pack, ranked: hit.ranked, cached: true, snapshotId: state.snapshotId };
    }
    // Task answers use the engine's ranker; file and PR answers the formula: the model was trained on tasks.
    const ctx = context(q.session, !q.trace && !q.fresh, kind === 'task' ? ranker : formula);
    const run = await runStages(ctx, state, await seed(ctx, state));
    const lap = timer();
    const packed = pack(run.ranked, state, packTask, budget, format);
    const packMs = lap();
    if (useCache) await answers.put(key, state.snapshotId, { pack: packed, ranked: run.ranked });
    learning.after(q.session, packed.symbols, allKeywords(run.seeding.keywords), run.seeding.keywordCluster);
    const trace = q.trace ? { ...run.trace, timings: { ...run.trace.timings, pack: packMs } } : undefined;
    return { pack: packed, ranked: run.ranked, cached: false, snapshotId: state.snapshotId, ...(trace ? { trace } : {}) };
  };
}

/**
 * Create the engine over a store.
 *
 * @example
 * ```ts
 * const store = await createSqliteStore({ path: '.knowing/graph.db' });
 * const engine = createEngine({ store });
 * const { pack } = await engine.forTask('add a before_request hook that checks API keys');
 * for (const s of pack.symbols) console.log(s.score.toFixed(2), s.node.qualifiedName);
 * ```
 */
export function createEngine(config: CreateEngineOptions): Engine {
  if (!config || !config.store) {
    throw new KnowingError(ErrorCode.InvalidArgument, 'createEngine needs a store', { source: 'engine', hint: 'pass { store: await createSqliteStore({ path }) }' });
  }
  const store = config.store;
  const options = resolveEngineOptions(config.options);
  const { task: ranker, formula } = rankersFor(config, options);
  const registry: ClassRegistry = createClassRegistry(config.classes ?? BUILTIN_PLUGINS);
  const equivalence = createEquivalenceStage(registry, options.equivalence);
  const channels = taskChannels(config, options);
  const graph = new GraphStateCache(store, options.walk);
  const clock = config.now ?? Date.now;
  const learning = createSessionLearning(store, options.learning, clock);
  const answers = createAnswerCache(store, options.cacheCapacity);
  const names = createNameIndexCache(store);
  const fileTimes = createFileTimes(store);
  const pack = createPacker(config, options);
  const walkCache = createWalkCache<CachedWalk>({ capacity: options.cacheCapacity });

  const context = (session: string | undefined, reuseWalks: boolean, queryRanker: CheckedRanker): PipelineContext => ({
    ...(reuseWalks && options.cache ? { walkCache } : {}),
    store,
    options,
    ranker: queryRanker,
    equivalence,
    channels,
    now: clock(),
    session: learning.tracker(session),
    fileTimes,
  });

  const cacheKey = answerKeys(ranker, options, channels, registry);

  const answer = createAnswerer({ store, options, graph, learning, answers, pack, cacheKey, context, ranker, formula });

  async function forTask(task: string, q: QueryOptions = {}): Promise<ContextResult> {
    requireText(task, 'task');
    return answer('task', normalizeTask(task), task, (ctx, state) => seedTask(ctx, state, task), q);
  }

  // File and PR answers differ only in their seeding; the subject is the sorted paths.
  const forPaths = (kind: 'files' | 'pr', seed: typeof seedFiles) => async (files: readonly string[], q: QueryOptions = {}): Promise<ContextResult> => {
    const paths = normalizeFiles(files);
    const sorted = [...paths].sort();
    return answer(kind, sorted.join('\0'), `${kind}:${sorted.join(',')}`, (ctx, state) => seed(ctx, state, paths), q);
  };
  const forFiles = forPaths('files', seedFiles);
  const forPR = forPaths('pr', seedPR);

  async function explainSymbol(task: string, symbol: string, q: QueryOptions = {}): Promise<SymbolExplanation> {
    requireText(task, 'task');
    requireText(symbol, 'symbol');
    const state = await graph.get();
    const ctx = context(q.session, false, ranker);
    const run = await runStages(ctx, state, await seedTask(ctx, state, task));
    const packed = pack(run.ranked, state, task, q.budget ?? options.pack.budget, formatOf(q, options));
    const explainRank = ranker.explain ? (id: NodeId) => ranker.explain!(id, run.inputs, run.rankContext) : undefined;
    const suggest = async (query: string) => suggestSymbols(store, await names.get(state.snapshotId), query);
    return explainRun({ store, state, task, query: symbol, run, pack: packed, suggest, ...(explainRank ? { explainRank } : {}) });
  }

  async function testScope(files: readonly string[], q: { readonly depth?: number } = {}): Promise<TestScopeResult> {
    const symbols = await filesSymbols(store, normalizeFiles(files));
    return findTests(store, files, symbols, q.depth ?? options.testScopeDepth);
  }

  return {
    options,
    forTask,
    forFiles,
    forPR,
    explainSymbol,
    testScope,
    observe(session, text) {
      learning.observe(session, text);
    },
    async recordFeedback(entries) {
      await store.recordFeedback(entries.map((e) => ({ symbol: e.symbol, useful: e.useful, session: e.session ?? 'explicit', at: clock() })));
      await answers.invalidate();
    },
    warm() {
      return warmGraphState(graph);
    },
    clearCaches() {
      answers.clearMemory();
      names.clear();
      walkCache.clear();
      graph.clear();
    },
    classes: registry,
  };
}

