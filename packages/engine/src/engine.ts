import type { NodeId, RankedSymbol, ContextPack } from '@knowing/graph';
import { ErrorCode, KnowingError, sha256Hex } from '@knowing/graph';
import { createClassRegistry, BUILTIN_PLUGINS } from '@knowing/equivalence';
import type { ClassRegistry, EquivalencePlugin } from '@knowing/equivalence';
import { allKeywords, isVocabWorthy } from '@knowing/keywords';
import { createDefaultRanker, createImplicitFeedback, createLearnedRanker, createSessionTracker, wrapRanker } from '@knowing/rank';
import type { CheckedRanker, SessionTracker, ImplicitFeedback } from '@knowing/rank';
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
import { GraphStateCache } from './graph-state.js';
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
import { createLexicalChannel } from './channels/lexical.js';
import { createTraceChannel } from './channels/traces.js';

const PACK_NOTE_KIND = 'context_pack';

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

/** Names of the stages the engine runs itself; a registered channel may not take them. */
const RESERVED_CHANNEL_NAMES = new Set(['tiered', 'bm25', 'equiv', 'path', 'vector']);

/** The built-in lexical channel, replaced by a registered one of the same name, then the others in order. */
function registeredChannels(extra: readonly Channel[] | undefined): Channel[] {
  const list: Channel[] = [createLexicalChannel(), createTraceChannel()];
  const seen = new Set<string>();
  for (const channel of extra ?? []) {
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

interface CachedAnswer {
  readonly pack: ContextPack;
  readonly ranked: readonly RankedSymbol[];
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
  if (options.rankingModel !== 'learned' && options.rankingModel !== 'formula') {
    throw new KnowingError(ErrorCode.InvalidArgument, `unknown rankingModel "${String(options.rankingModel)}"`, { source: 'engine', hint: "use 'learned' or 'formula'" });
  }
  const formula: CheckedRanker = wrapRanker(config.ranker ?? createDefaultRanker(options.ranking));
  // Task answers: a given ranker, else the learned model unless the formula is asked for.
  const ranker: CheckedRanker =
    config.ranker || options.rankingModel === 'formula' ? formula : wrapRanker(createLearnedRanker(config.learnedModel ? { model: config.learnedModel } : {}));
  const registry: ClassRegistry = createClassRegistry(config.classes ?? BUILTIN_PLUGINS);
  const equivalence = createEquivalenceStage(registry, options.equivalence);
  const channels = registeredChannels(config.channels);
  const graph = new GraphStateCache(store, options.walk);
  const clock = config.now ?? Date.now;
  const sessions = new Map<string, SessionTracker>();
  const implicit: ImplicitFeedback = createImplicitFeedback({
    feedback: store,
    vocab: store,
    options: { isVocabWorthy: (k: string) => isVocabWorthy(k) },
  });
  const memory = new Map<string, CachedAnswer & { snapshot: string | null }>();

  const sessionTracker = (id: string | undefined): SessionTracker | undefined => {
    if (!id) return undefined;
    let tracker = sessions.get(id);
    if (!tracker) {
      tracker = createSessionTracker();
      sessions.set(id, tracker);
    }
    return tracker;
  };

  const walkCache = createWalkCache<CachedWalk>({ capacity: options.cacheCapacity });
  const context = (session: string | undefined, reuseWalks: boolean, queryRanker: CheckedRanker): PipelineContext => ({
    ...(reuseWalks && options.cache ? { walkCache } : {}),
    store,
    options,
    ranker: queryRanker,
    equivalence,
    vector: config.vector,
    channels,
    now: clock(),
    session: sessionTracker(session),
  });

  const costs = new Map<string, ((symbol: RankedSymbol) => number) | undefined>();
  const costOf = (format: string): ((symbol: RankedSymbol) => number) | undefined => {
    if (!config.symbolCost) return undefined;
    if (!costs.has(format)) costs.set(format, config.symbolCost(format));
    return costs.get(format);
  };

  const formatOf = (q: QueryOptions | undefined): PackFormat => (q?.format ?? options.pack.format) as PackFormat;

  const pack = (ranked: readonly RankedSymbol[], state: GraphState, task: string, budget: number, format: PackFormat): ContextPack => {
    const packed = packSymbols(ranked, {
      budget,
      strategy: options.pack.strategy,
      task,
      format,
      ...(config.tokenizer ? { tokenizer: config.tokenizer } : {}),
      ...(costOf(format) ? { cost: costOf(format)! } : {}),
    });
    return { ...packed, edges: edgesAmongIds(state.adjacency, packed.symbols.map((s) => s.node.id)) };
  };

  // Options are frozen for the engine's lifetime: their part of every cache key is computed once.
  const configKey = `${ranker.name}\0${JSON.stringify(options)}\0${channels.map((c) => `${c.name}=${c.fingerprint()}`).join('\0')}`;
  // Plugins can be registered and removed at any time: their part of the key is read per query.
  // The snapshot id is a root over the graph's structure: an edit inside a function body leaves
  // it unchanged while the lexical index (and so the answer) changes. The time of the last index
  // write stands for the content, so any write makes earlier answers miss.
  const cacheKey = (kind: string, subject: string, budget: number, format: string, indexedAt: number): string =>
    sha256Hex(`${kind}\0${subject}\0${budget}\0${format}\0${configKey}\0${vocabularyFingerprint(registry)}\0${indexedAt}`);

  async function cached(key: string, snapshot: string | null): Promise<CachedAnswer | undefined> {
    const hit = memory.get(key);
    if (hit && hit.snapshot === snapshot) return hit;
    if (!snapshot) return undefined;
    const note = await store.getNote(`pack:${key}`);
    if (!note || note.snapshot !== snapshot) return undefined;
    try {
      const answer = JSON.parse(new TextDecoder().decode(note.value)) as CachedAnswer;
      remember(key, snapshot, answer);
      return answer;
    } catch {
      return undefined;
    }
  }

  function remember(key: string, snapshot: string | null, answer: CachedAnswer): void {
    memory.delete(key);
    memory.set(key, { ...answer, snapshot });
    while (memory.size > options.cacheCapacity) memory.delete(memory.keys().next().value!);
  }

  async function store_(key: string, snapshot: string | null, answer: CachedAnswer): Promise<void> {
    remember(key, snapshot, answer);
    if (!snapshot) return;
    try {
      await store.putNote(`pack:${key}`, PACK_NOTE_KIND, new TextEncoder().encode(JSON.stringify(answer)), snapshot);
    } catch {
      // The answer is computed; keeping it only saves the next identical query. A read-only
      // index, another process's write lock or a full disk must not fail this one.
    }
  }

  async function invalidateAnswers(): Promise<void> {
    memory.clear();
    await store.deleteNotes({ kind: PACK_NOTE_KIND });
  }

  async function learnBefore(session: string | undefined): Promise<void> {
    if (!session || !options.learning) return;
    const flushed = await implicit.flush(session, clock());
    if (flushed.positive.length + flushed.negative.length > 0) await invalidateAnswers();
  }

  function learnAfter(session: string | undefined, symbols: readonly RankedSymbol[], keywords: readonly string[], cluster: string | null): void {
    if (!session) return;
    sessionTracker(session)!.record(
      symbols.map((s) => s.node.id),
      clock(),
    );
    if (options.learning) implicit.registerReturned(session, symbols, { keywords, keywordCluster: cluster, at: clock() });
  }

  const requireText = (value: string, what: string): string => {
    if (typeof value !== 'string' || value.trim() === '') {
      throw new KnowingError(ErrorCode.InvalidArgument, `${what} is empty`, { source: 'engine', hint: `describe the ${what} in a few words` });
    }
    return value;
  };

  /**
   * One query of any kind: the seeding differs, everything else is shared — the stages after
   * seeding (pipeline.ts), packing, the trace and its timings, caching keyed by kind, subject,
   * budget, format and the engine's fingerprints, and the session's learning.
   */
  async function answer(
    kind: QueryKind,
    subject: string,
    packTask: string,
    seed: (ctx: PipelineContext, state: GraphState) => Promise<Seeding>,
    q: QueryOptions,
  ): Promise<ContextResult> {
    await learnBefore(q.session);
    const state = await graph.get();
    const budget = q.budget ?? (kind === 'pr' ? options.pack.prBudget : options.pack.budget);
    const format = formatOf(q);
    // With a session, boosts and feedback make each answer depend on history: no cache.
    const useCache = options.cache && !q.fresh && !q.trace && !q.session;
    const key = cacheKey(kind, subject, budget, format, useCache ? ((await store.repo())?.indexedAt ?? 0) : 0);
    if (useCache) {
      const hit = await cached(key, state.snapshotId);
      if (hit) return { pack: hit.pack, ranked: hit.ranked, cached: true, snapshotId: state.snapshotId };
    }
    // Task answers use the engine's ranker; file and PR answers the formula: the model was trained on tasks.
    const ctx = context(q.session, !q.trace && !q.fresh, kind === 'task' ? ranker : formula);
    const run = await runStages(ctx, state, await seed(ctx, state));
    const lap = timer();
    const packed = pack(run.ranked, state, packTask, budget, format);
    const packMs = lap();
    if (useCache) await store_(key, state.snapshotId, { pack: packed, ranked: run.ranked });
    learnAfter(q.session, packed.symbols, allKeywords(run.seeding.keywords), run.seeding.keywordCluster);
    const trace = q.trace ? { ...run.trace, timings: { ...run.trace.timings, pack: packMs } } : undefined;
    return { pack: packed, ranked: run.ranked, cached: false, snapshotId: state.snapshotId, ...(trace ? { trace } : {}) };
  }

  async function forTask(task: string, q: QueryOptions = {}): Promise<ContextResult> {
    requireText(task, 'task');
    return answer('task', normalizeTask(task), task, (ctx, state) => seedTask(ctx, state, task), q);
  }

  async function forFiles(files: readonly string[], q: QueryOptions = {}): Promise<ContextResult> {
    const paths = normalizeFiles(files);
    const sorted = [...paths].sort();
    return answer('files', sorted.join('\0'), `files:${sorted.join(',')}`, (ctx, state) => seedFiles(ctx, state, paths), q);
  }

  async function forPR(files: readonly string[], q: QueryOptions = {}): Promise<ContextResult> {
    const paths = normalizeFiles(files);
    const sorted = [...paths].sort();
    return answer('pr', sorted.join('\0'), `pr:${sorted.join(',')}`, (ctx, state) => seedPR(ctx, state, paths), q);
  }

  // The names of the current snapshot, read on the first unknown symbol and kept until the
  // snapshot changes: one pass over the nodes, then each search is in memory.
  let names: { readonly snapshot: string | null; readonly index: Promise<NameIndex> } | undefined;
  const nameIndex = (snapshot: string | null): Promise<NameIndex> => {
    if (!names || names.snapshot !== snapshot || snapshot === null) {
      const index = loadNameIndex(store);
      names = { snapshot, index };
      index.catch(() => {
        if (names?.index === index) names = undefined;
      });
    }
    return names.index;
  };

  async function explainSymbol(task: string, symbol: string, q: QueryOptions = {}): Promise<SymbolExplanation> {
    requireText(task, 'task');
    requireText(symbol, 'symbol');
    const state = await graph.get();
    const ctx = context(q.session, false, ranker);
    const run = await runStages(ctx, state, await seedTask(ctx, state, task));
    const packed = pack(run.ranked, state, task, q.budget ?? options.pack.budget, formatOf(q));
    const explainRank = ranker.explain ? (id: NodeId) => ranker.explain!(id, run.inputs, run.rankContext) : undefined;
    const suggest = async (query: string) => suggestSymbols(store, await nameIndex(state.snapshotId), query);
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
      if (options.learning) implicit.detectUsed(session, text, clock());
    },
    async recordFeedback(entries) {
      await store.recordFeedback(entries.map((e) => ({ symbol: e.symbol, useful: e.useful, session: e.session ?? 'explicit', at: clock() })));
      await invalidateAnswers();
    },
    async warm() {
      const state = await graph.get({ computeCommunities: true });
      return { nodes: state.adjacency.nodeCount, edges: state.adjacency.edgeCount, communities: state.communities?.count ?? 0 };
    },
    clearCaches() {
      memory.clear();
      names = undefined;
      walkCache.clear();
      graph.clear();
    },
    classes: registry,
  };
}

