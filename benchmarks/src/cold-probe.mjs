// One cold `knowing context` answer, taken apart: what a fresh Node process spends on each
// phase of the command, measured from inside. Plain JavaScript over the built packages (no tsx),
// so that its imports cost what the CLI's do. Run by cold-bench.ts, once per process:
//
//   node cold-probe.mjs '{"root":"…","db":"…","task":"…","budget":5000,"format":"xml"}'
//
// Prints one JSON line: [[phase, ms, minor page faults], …] in the order the phases ran (the
// query's stages come from the engine's trace and carry no fault count; the row `query: all
// stages` carries theirs, with no time of its own). A first touch of fresh memory is a minor
// page fault, and on some virtual machines each costs microseconds: the count says which
// phases touch new memory.
const nodeStart = performance.now();
const faults = () => process.resourceUsage().minorPageFault;
const { root, db, task, budget, format, packages } = JSON.parse(process.argv[2]);
const phases = [['node start', nodeStart, faults()]];
let last = performance.now();
let lastFaults = faults();
/** Records the time and the page faults since the previous lap under `name`. */
const lap = (name) => {
  const now = performance.now();
  const count = faults();
  phases.push([name, now - last, count - lastFaults]);
  last = now;
  lastFaults = count;
};

// Leaves first, so that each figure is the package's own modules (and its third-party ones),
// in the command's order: the tokenizer starts (reads its table) as soon as @knowing/pack is
// loaded, before the engine's packages load (`packages` lists them in that order). The CLI
// itself runs `context` from one bundle through a code cache (cli/src/compile-cache.ts),
// which this probe, importing each package's ES modules, does not.
const loaded = {};
let tokenizer;
let tokenizerReady;
for (const [name, dist] of Object.entries(packages)) {
  loaded[name] = await import(new URL(`file://${dist}`).href);
  lap(`import ${name}`);
  if (name === '@knowing/pack') {
    // As the command does: the table is read on the thread pool while the rest goes on.
    tokenizerReady = loaded[name].preloadExactTokenizer?.();
    tokenizer = loaded[name].startExactTokenizer();
    lap('start the tokenizer (its table read in the background, or a worker loading gpt-tokenizer)');
  }
}
const { createSqliteStore } = loaded['@knowing/store-sqlite'];
const { createEngine } = loaded['@knowing/engine'];
const { costFunctionFor, createFormatRegistry, fitPack } = loaded['@knowing/wire'];
const { repositoryModel } = loaded['@knowing/history/model'];
const store = await createSqliteStore({ path: db });
await store.repo();
lap('open the index');
const learnedModel = repositoryModel(root);
const formats = createFormatRegistry();
const engine = createEngine({
  store,
  ...(learnedModel ? { learnedModel } : {}),
  symbolCost: (name) => (formats.has(name) ? costFunctionFor(name) : undefined),
});
lap('create the engine');
await engine.warm();
lap('load the graph state (adjacency, communities)');
const result = await engine.forTask(task, { budget, format, fresh: true, trace: true });
const total = performance.now() - last;
const stages = Object.entries(result.trace?.timings ?? {});
for (const [stage, ms] of stages) phases.push([`query: ${stage}`, ms, null]);
phases.push(['query: other (cache keys, glue)', total - stages.reduce((sum, [, ms]) => sum + ms, 0), null]);
phases.push(['query: all stages', 0, faults() - lastFaults]);
last = performance.now();
lastFaults = faults();
await tokenizerReady;
lap('wait for the tokenizer table');
fitPack(result.pack, { format, budget: result.pack.tokenBudget, tokenizer, task, tool: 'knowing context' });
lap('format and count tokens');
await store.close();
lap('close the index');
process.stdout.write(`${JSON.stringify(phases)}\n`);
process.exit(0);
