/**
 * The learned ranker: a linear model over per-candidate features, trained pairwise (a positive
 * must outscore a negative of the same task) with logistic loss. A linear model is what a few
 * hundred tasks can fit without memorising them, it costs a dot product per candidate, and
 * each feature's contribution to a score can be shown as it is.
 */
import type { NodeId, NodeKind, RankedSymbol } from '@knowing/graph';
import { ErrorCode, KnowingError, TYPE_LIKE_KINDS, sha256Hex } from '@knowing/graph';
import { finalizeRanking, rankingPlace, toRankedSymbol } from './default-ranker.js';
import type { ScoredInput } from './types.js';
import { DEFAULT_RANKING_OPTIONS, DEFAULT_TEST_TASK_WORDS, defaultIsTestSymbol } from './options.js';
import { feedbackAdjustment, sessionContribution } from './components.js';
import { isAuxiliaryCode, isTestTask } from './test-detection.js';
import { DEFAULT_LEARNED_MODEL } from './learned-model.js';
import { DEFAULT_TREE_TRAIN_OPTIONS, fitTreeEnsemble, treeValue } from './trees.js';
import { treeShares } from './tree-kernel.js';
import type { RegressionTree, TreeTrainOptions } from './trees.js';
import type { RankContext, RankExplanation, RankInput, Ranker } from './types.js';

/** The features, in model order. Changing the list or a definition is a new model version. */
export const LEARNED_FEATURES = [
  'lexical',
  'lexical_rank',
  'lexical_long_task',
  'tiered_rank',
  'tiered_identifier_task',
  'name_bm25_rank',
  'equiv_rank',
  'path_rank',
  'rwr',
  'rwr_rank',
  'seed',
  'seed_weight',
  'one_hop',
  'far',
  'authority',
  'hub',
  'term_matches',
  'text_match',
  'callable',
  'type_like',
  'member',
  'test_code',
  'blast',
  'forced',
  'equivalence',
  'file_lexical',
  'file_hits',
  'named_in_task',
  'auxiliary_code',
  'field_name',
  'field_path',
  'field_signature',
  'field_doc',
  'field_body',
  'field_members',
  'file_history',
  'file_history_kept',
  'owner_lexical',
  'member_lexical',
  'sibling_lexical',
  'file_churn',
] as const;

/**
 * The features of models trained before `auxiliary_code` was split from `test_code` (which then
 * also covered benchmarks and examples). Such a model is read with `auxiliary_code` at
 * `test_code`'s weight and scale and a mean of 0, which scores every candidate as it was trained to.
 */
const FEATURES_BEFORE_AUXILIARY = LEARNED_FEATURES.slice(0, LEARNED_FEATURES.indexOf('auxiliary_code'));

/**
 * The feature lists of earlier versions, each a prefix of this one: before `auxiliary_code`,
 * before the per-field lexical scores, before the file history, before the relatives'
 * lexical evidence, and before the file churn. A model of one of them is extended: a linear model gives
 * the later features no weight, a tree ensemble never splits on them, so it scores as trained.
 * Any other list is refused.
 */
const EARLIER_FEATURE_COUNTS: ReadonlySet<number> = new Set([
  LEARNED_FEATURES.indexOf('auxiliary_code'),
  LEARNED_FEATURES.indexOf('field_name'),
  LEARNED_FEATURES.indexOf('file_history'),
  LEARNED_FEATURES.indexOf('owner_lexical'),
  LEARNED_FEATURES.indexOf('file_churn'),
]);

const isOlderFeatureList = (features: readonly string[]): boolean =>
  EARLIER_FEATURE_COUNTS.has(features.length) && features.every((f, i) => f === LEARNED_FEATURES[i]);

export type LearnedFeature = (typeof LEARNED_FEATURES)[number];

const FEATURE_COUNT = LEARNED_FEATURES.length;
/** Each feature's place in a feature vector. */
const AT = Object.fromEntries(LEARNED_FEATURES.map((feature, i) => [feature, i])) as Readonly<Record<LearnedFeature, number>>;

/** A trained linear model: standardisation and weights per feature. */
export interface LinearModel {
  readonly version: 1;
  /** Absent in models written before tree models existed. */
  readonly kind?: 'linear';
  readonly features: readonly string[];
  /** Feature means and scales: a feature enters the model as (x − mean) / scale. */
  readonly mean: readonly number[];
  readonly scale: readonly number[];
  readonly weights: readonly number[];
  /** What it was trained on, for the record. */
  readonly trainedOn?: string;
}

/** A trained ensemble of regression trees (see {@link trainTreeModel}); its logit is the sum of the trees' values. */
export interface TreeModel {
  readonly version: 1;
  readonly kind: 'trees';
  readonly features: readonly string[];
  readonly trees: readonly RegressionTree[];
  /** What it was trained on, for the record. */
  readonly trainedOn?: string;
}

/** A model the learned ranker scores with: linear (the first kind) or a tree ensemble. */
export type LearnedModel = LinearModel | TreeModel;

const isTreeModel = (model: LearnedModel): model is TreeModel => (model as TreeModel).kind === 'trees';

const MEMBER_KINDS: ReadonlySet<NodeKind> = new Set<NodeKind>(['field', 'property', 'constant', 'variable']);
const CALLABLE_KINDS: ReadonlySet<NodeKind> = new Set<NodeKind>(['function', 'method', 'constructor']);
const TYPE_KINDS: ReadonlySet<NodeKind> = new Set<NodeKind>(TYPE_LIKE_KINDS);

const reciprocal = (rank: number | undefined): number => (rank === undefined ? 0 : 1 / (1 + rank));

/**
 * The task's shape: how long it is (0 for a few words, 1 from about 40 words on) and how much
 * of it is written as identifiers (`snake_case`, `camelCase`, `a.b`, `f()`), 0..1. Long prose
 * leans on what bodies say; identifier-like tasks on names.
 *
 * @example
 * ```ts
 * taskShape('add a `before_request` hook'); // { length: 0.3…, identifiers: 0.25 }
 * ```
 */
export function taskShape(task: string): { readonly length: number; readonly identifiers: number } {
  const words = task.split(/\s+/).filter((w) => /[A-Za-z]/.test(w));
  if (words.length === 0) return { length: 0, identifiers: 0 };
  const identifiers = words.filter((w) => /[a-z0-9][A-Z]|[A-Za-z0-9]_[A-Za-z0-9]|[A-Za-z]\.[A-Za-z]|\(\)|::/.test(w)).length;
  return { length: Math.min(1, Math.log(1 + words.length) / Math.log(41)), identifiers: identifiers / words.length };
}

/**
 * The feature vectors of a candidate set, in {@link LEARNED_FEATURES} order. Some features
 * depend on the whole set (the rank of a candidate's walk score among all candidates, the
 * largest caller count), so the set is featurised at once.
 */
export function learnedFeatures(inputs: readonly RankInput[], context: RankContext): Float64Array[] {
  const shape = taskShape(context.task);
  const aboutTests = context.aboutTests ?? isTestTask(context.task, context.keywords, DEFAULT_TEST_TASK_WORDS);
  const byRwr = inputs.map((_, i) => i).sort((a, b) => inputs[b]!.rwr - inputs[a]!.rwr);
  const rwrRank = new Int32Array(inputs.length);
  byRwr.forEach((position, rank) => (rwrRank[position] = rank));
  let maxBlast = 0;
  for (const input of inputs) maxBlast = Math.max(maxBlast, input.callerCount ?? input.rwr * 100);
  // Lexical evidence per file: the change a task describes usually sits where its words cluster.
  const fileBest = new Map<string, number>();
  const fileHits = new Map<string, number>();
  for (const input of inputs) {
    if (input.lexical === undefined) continue;
    fileBest.set(input.node.file, Math.max(fileBest.get(input.node.file) ?? 0, input.lexical));
    fileHits.set(input.node.file, (fileHits.get(input.node.file) ?? 0) + 1);
  }
  const related = relatedLexical(inputs);
  const taskWords = new Set(context.task.split(/[^A-Za-z0-9_]+/).filter((w) => w.length >= 4).map((w) => w.toLowerCase()));
  return inputs.map((input, i) => {
    const ranks = input.channelRanks ?? {};
    const lexicalRank = reciprocal(ranks['lexical']);
    const tieredRank = reciprocal(ranks['tiered']);
    const kind = input.node.kind;
    const isTest = !aboutTests && defaultIsTestSymbol(input.node);
    // Written by index into the vector: a short-lived CLI featurises before the JIT has compiled
    // this, and an object of every feature read back by name costs several times as much there.
    const x = new Float64Array(FEATURE_COUNT);
    x[AT.lexical] = input.lexical ?? 0;
    x[AT.lexical_rank] = lexicalRank;
    x[AT.lexical_long_task] = (input.lexical ?? 0) * shape.length;
    x[AT.tiered_rank] = tieredRank;
    x[AT.tiered_identifier_task] = tieredRank * shape.identifiers;
    x[AT.name_bm25_rank] = reciprocal(ranks['bm25']);
    x[AT.equiv_rank] = reciprocal(ranks['equiv']);
    x[AT.path_rank] = reciprocal(ranks['path']);
    x[AT.rwr] = input.rwr;
    x[AT.rwr_rank] = 1 / (1 + rwrRank[i]!);
    x[AT.seed] = input.isSeed ? 1 : 0;
    x[AT.seed_weight] = input.isSeed ? (input.seedWeight ?? 1) : 0;
    x[AT.one_hop] = input.distance === 1 ? 1 : 0;
    x[AT.far] = input.distance >= 2 ? 1 : 0;
    x[AT.authority] = input.authority ?? 0;
    x[AT.hub] = input.hub ?? 0;
    x[AT.term_matches] = Math.min(4, input.termMatches ?? 0) / 4;
    x[AT.text_match] = input.textMatch ?? 0;
    x[AT.callable] = CALLABLE_KINDS.has(kind) ? 1 : 0;
    x[AT.type_like] = TYPE_KINDS.has(kind) ? 1 : 0;
    x[AT.member] = MEMBER_KINDS.has(kind) ? 1 : 0;
    x[AT.test_code] = isTest ? 1 : 0;
    // Benchmarks and examples: not test code, ranked by a feature of their own (never both at once).
    x[AT.auxiliary_code] = !aboutTests && !isTest && isAuxiliaryCode(input.node) ? 1 : 0;
    x[AT.blast] = maxBlast > 0 ? (input.callerCount ?? input.rwr * 100) / maxBlast : 0;
    x[AT.forced] = input.forced ? 1 : 0;
    x[AT.equivalence] = input.equivalenceClasses && input.equivalenceClasses.length > 0 ? 1 : 0;
    x[AT.file_lexical] = fileBest.get(input.node.file) ?? 0;
    x[AT.file_hits] = Math.min(10, fileHits.get(input.node.file) ?? 0) / 10;
    x[AT.named_in_task] = taskWords.has(input.node.name.toLowerCase()) ? 1 : 0;
    const fields = input.lexicalFields;
    x[AT.field_name] = fields?.name ?? 0;
    x[AT.field_path] = fields?.path ?? 0;
    x[AT.field_signature] = fields?.signature ?? 0;
    x[AT.field_doc] = fields?.doc ?? 0;
    x[AT.field_body] = fields?.body ?? 0;
    x[AT.field_members] = fields?.members ?? 0;
    x[AT.file_history] = input.fileHistory ?? 0;
    // Lets a model tell "this file's history misses the task" from "the index keeps no history".
    x[AT.file_history_kept] = context.fileHistory === false ? 0 : 1;
    x[AT.owner_lexical] = related.owner[i]!;
    x[AT.member_lexical] = related.member[i]!;
    x[AT.sibling_lexical] = related.sibling[i]!;
    x[AT.file_churn] = input.fileChurn ?? 0;
    return x;
  });
}

/** The qualified name a symbol is declared in: its type, module or file (`a.py.Foo.bar` → `a.py.Foo`). */
const ownerOf = (qualifiedName: string): string => qualifiedName.slice(0, Math.max(0, qualifiedName.lastIndexOf('.')));

/**
 * The lexical evidence of each candidate's relatives among the candidates, relative to the best
 * candidate's: its owner's (the type a matched member belongs to is often what a change
 * touches), its best member's (a type whose member the task describes), and its best sibling's
 * (another member of the same type or file). A change rarely touches one symbol alone, and the
 * task's words often land on a neighbour of the symbol that changes.
 */
function relatedLexical(inputs: readonly RankInput[]): { owner: Float64Array; member: Float64Array; sibling: Float64Array } {
  let best = 1e-9;
  for (const input of inputs) best = Math.max(best, input.lexical ?? 0);
  const values = inputs.map((input) => (input.lexical ?? 0) / best);
  const byName = new Map<string, number>();
  // The two best values among the members of each owner, so a candidate's best sibling is never itself.
  const topMembers = new Map<string, [number, number]>();
  inputs.forEach((input, i) => {
    const value = values[i]!;
    const name = input.node.qualifiedName;
    const parent = ownerOf(name);
    byName.set(name, Math.max(byName.get(name) ?? 0, value));
    const top = topMembers.get(parent);
    if (!top) topMembers.set(parent, [value, 0]);
    else if (value > top[0]) topMembers.set(parent, [value, top[0]]);
    else if (value > top[1]) top[1] = value;
  });
  const owner = new Float64Array(inputs.length);
  const member = new Float64Array(inputs.length);
  const sibling = new Float64Array(inputs.length);
  inputs.forEach((input, i) => {
    const name = input.node.qualifiedName;
    const parent = ownerOf(name);
    const top = topMembers.get(parent)!;
    owner[i] = byName.get(parent) ?? 0;
    member[i] = topMembers.get(name)?.[0] ?? 0;
    sibling[i] = top[0] === values[i] ? top[1] : top[0];
  });
  return { owner, member, sibling };
}

/**
 * A model of this version's features. One trained before the `auxiliary_code` split gains it at
 * `test_code`'s weight and scale (see {@link FEATURES_BEFORE_AUXILIARY}); one trained before
 * later features gains them with no effect (see {@link isOlderFeatureList}).
 */
function withCurrentFeatures(model: LearnedModel): LearnedModel {
  if (!model || !Array.isArray(model.features) || !isOlderFeatureList(model.features)) return model;
  if (isTreeModel(model)) return { ...model, features: [...LEARNED_FEATURES] };
  const extend = (list: readonly number[], values: readonly (number | undefined)[]): readonly number[] =>
    Array.isArray(list) ? [...list, ...values.map((v) => v ?? Number.NaN)] : list;
  let linear: LinearModel = model;
  if (model.features.length === FEATURES_BEFORE_AUXILIARY.length) {
    const test = FEATURES_BEFORE_AUXILIARY.indexOf('test_code');
    linear = { ...linear, features: [...linear.features, 'auxiliary_code'], mean: extend(linear.mean, [0]), scale: extend(linear.scale, [linear.scale?.[test]]), weights: extend(linear.weights, [linear.weights?.[test]]) };
  }
  const added = LEARNED_FEATURES.length - linear.features.length;
  return {
    ...linear,
    features: [...LEARNED_FEATURES],
    mean: extend(linear.mean, new Array(added).fill(0)),
    scale: extend(linear.scale, new Array(added).fill(1)),
    weights: extend(linear.weights, new Array(added).fill(0)),
  };
}

/** Whether a tree's arrays are aligned, its splits name known features and its children are later nodes (so every walk ends). */
function wellFormedTree(tree: RegressionTree, featureCount: number): boolean {
  const size = tree?.value?.length;
  if (!size || ![tree.feature, tree.threshold, tree.left, tree.right].every((list) => Array.isArray(list) && list.length === size)) return false;
  for (let node = 0; node < size; node++) {
    if (!Number.isFinite(tree.value[node]) || !Number.isFinite(tree.threshold[node])) return false;
    const f = tree.feature[node]!;
    if (f === -1) continue;
    if (!Number.isInteger(f) || f < 0 || f >= featureCount) return false;
    if (![tree.left[node]!, tree.right[node]!].every((child) => Number.isInteger(child) && child > node && child < size)) return false;
  }
  return true;
}

/** Throws unless a model fits this version. */
export function checkModel(model: LearnedModel): void {
  const n = LEARNED_FEATURES.length;
  const featuresFit = model && model.version === 1 && Array.isArray(model.features) && model.features.length === n && model.features.every((f, i) => f === LEARNED_FEATURES[i]);
  const ok =
    featuresFit &&
    (isTreeModel(model)
      ? Array.isArray(model.trees) && model.trees.length > 0 && model.trees.every((tree) => wellFormedTree(tree, n))
      : [model.mean, model.scale, model.weights].every((list) => Array.isArray(list) && list.length === n && list.every(Number.isFinite)) && model.scale.every((s) => s > 0));
  if (!ok) {
    const what = model && isTreeModel(model) ? 'and well-formed trees (aligned arrays, known split features, children after their parent)' : 'with a finite mean, scale (> 0) and weight each';
    throw new KnowingError(ErrorCode.InvalidArgument, `learned model does not fit this version: it must list the ${n} features ${LEARNED_FEATURES.join(', ')} ${what}`, {
      source: 'rank',
      hint: 'retrain the model with this version of @knowing/rank',
    });
  }
}

/** The first 12 hex digits of the SHA-256 of a model's weights (its trees, or its linear terms). */
export function modelDigest(model: LearnedModel): string {
  return sha256Hex(JSON.stringify(isTreeModel(model) ? model.trees : [model.mean, model.scale, model.weights])).slice(0, 12);
}

/**
 * {@link modelDigest} of the shipped model, written here instead of computed in every process:
 * encoding its 300 trees as JSON, hashing them and checking each tree cost 5-10 ms of every
 * cold `knowing context`. test/learned.test.ts recomputes it and checks the shipped model.
 */
export const SHIPPED_MODEL_DIGEST = 'b50c1bc82460';

/** The evidence each feature belongs to, for the compact breakdown `rank()` returns. */
const FEATURE_GROUPS: Readonly<Record<LearnedFeature, string>> = {
  lexical: 'lexical',
  lexical_rank: 'lexical',
  lexical_long_task: 'lexical',
  file_lexical: 'lexical',
  file_hits: 'lexical',
  tiered_rank: 'names',
  tiered_identifier_task: 'names',
  name_bm25_rank: 'names',
  equiv_rank: 'names',
  path_rank: 'names',
  term_matches: 'names',
  text_match: 'names',
  named_in_task: 'names',
  equivalence: 'names',
  forced: 'names',
  rwr: 'graph',
  rwr_rank: 'graph',
  seed: 'graph',
  seed_weight: 'graph',
  one_hop: 'graph',
  far: 'graph',
  authority: 'graph',
  hub: 'graph',
  blast: 'graph',
  callable: 'kind',
  type_like: 'kind',
  member: 'kind',
  test_code: 'test_code',
  auxiliary_code: 'auxiliary_code',
  field_name: 'lexical',
  field_path: 'lexical',
  field_signature: 'lexical',
  field_doc: 'lexical',
  field_body: 'lexical',
  field_members: 'lexical',
  file_history: 'history',
  file_history_kept: 'history',
  owner_lexical: 'lexical',
  member_lexical: 'lexical',
  sibling_lexical: 'lexical',
  file_churn: 'history',
};

function grouped(components: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(components)) {
    const group = FEATURE_GROUPS[name as LearnedFeature] ?? name;
    out[group] = (out[group] ?? 0) + value;
  }
  return out;
}

/**
 * Each feature's contribution to the logit of each feature vector, in {@link LEARNED_FEATURES}
 * order. For a tree model, a feature's share is the change its splits make along each tree's
 * path; the trees' root values are the same for every candidate and left out, so the shares sum
 * to the logit.
 */
function contributions(model: LearnedModel, vectors: readonly Float64Array[]): Float64Array[] {
  const featureCount = vectors[0]?.length ?? 0;
  return isTreeModel(model)
    ? treeShares(model.trees, vectors, featureCount)
    : vectors.map((x) => Float64Array.from(x, (value, f) => model.weights[f]! * ((value - model.mean[f]!) / model.scale[f]!)));
}

/** The group of each feature, in {@link LEARNED_FEATURES} order. */
const GROUP_OF_FEATURE: readonly string[] = LEARNED_FEATURES.map((feature) => FEATURE_GROUPS[feature] ?? feature);
/** The groups, in the order of their first feature (the order a ranked symbol's components list them). */
const GROUPS: readonly string[] = [...new Set(GROUP_OF_FEATURE)];
/** Each feature's group, as an index into {@link GROUPS}. */
const GROUP_INDEX = Int32Array.from(GROUP_OF_FEATURE, (group) => GROUPS.indexOf(group));

/**
 * The model's logit for one feature vector (of {@link learnedFeatures}): w · x̂ for a linear
 * model, the sum of the trees' values less their root values for a tree model. Without the
 * feedback, session and trace terms the ranker adds: what a history task, which has none, is
 * ranked by.
 *
 * @example
 * ```ts
 * const vectors = learnedFeatures(inputs, context);
 * const best = vectors.map((x) => learnedLogit(DEFAULT_LEARNED_MODEL, x));
 * ```
 */
export function learnedLogit(model: LearnedModel, x: Float64Array): number {
  let logit = 0;
  if (isTreeModel(model)) {
    for (const tree of model.trees) logit += treeValue(tree, x) - tree.value[0]!;
    return logit;
  }
  for (let f = 0; f < x.length; f++) logit += model.weights[f]! * ((x[f]! - model.mean[f]!) / model.scale[f]!);
  return logit;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/**
 * Logit units per point of the default formula's score: candidates' logits spread over about
 * four times the range their formula scores do, so feedback and session boosts keep their weight.
 */
const LOGIT_PER_FORMULA_POINT = 4;

/** Logit added to the innermost frame of a pasted stack trace (halved for the next, …). */
const TRACE_LOGIT = 3;

/** Logit added to the best symbol a pasted code block or message names (halved for the next, …). */
const PASTED_LOGIT = 1;

/**
 * A {@link Ranker} scoring each candidate with a trained linear model (the shipped
 * `DEFAULT_LEARNED_MODEL` unless another is given): score = σ(w · x̂), where
 * x̂ is the standardised feature vector. Components are each feature's share of the logit.
 * Forced symbols still go to the front, as with the default ranker.
 *
 * @example
 * ```ts
 * const engine = createEngine({ store, ranker: createLearnedRanker({ model: JSON.parse(readFileSync('model.json', 'utf8')) }) });
 * ```
 */
export function createLearnedRanker(options: { readonly model?: LearnedModel; readonly name?: string } = {}): Ranker {
  const shipped = options.model === undefined || options.model === DEFAULT_LEARNED_MODEL;
  const model = withCurrentFeatures(options.model ?? DEFAULT_LEARNED_MODEL);
  if (!shipped) checkModel(model);
  // The name carries the weights: answers cached under one model are not served under another.
  const name = `${options.name ?? 'knowing-learned'}@${shipped ? SHIPPED_MODEL_DIGEST : modelDigest(model)}`;
  /**
   * The ranked candidates. `byFeature` keeps each feature's share as a component and the feature
   * values as factors (for `explain`); otherwise the components are summed by group as they are
   * built, which is what `rank` returns and saves a record per candidate. A forced candidate
   * always keeps its shares per feature: the final ranking replaces its `forced` share.
   */
  const score = (inputs: readonly RankInput[], context: RankContext, byFeature: boolean): ScoredInput[] => {
    const vectors = learnedFeatures(inputs, context);
    const shares = contributions(model, vectors);
    const scored = inputs.map((input, i): ScoredInput => {
      const row = shares[i]!;
      const perFeature = byFeature || input.forced === true;
      // What the history tasks cannot teach (no feedback or sessions there) is added to the
      // logit as the formula adds it to its score, scaled to the logit's spread. A frame of a
      // pasted stack trace (the `traces` channel): no history task carries one, so the model has
      // no weight for it; the innermost frame gets a fixed, strong push. The same for what pasted
      // code calls or defines and the symbols holding a pasted message: the history tasks' code
      // spans were seen through the name channels only.
      const extras: readonly (readonly [string, number])[] = [
        ['feedback', LOGIT_PER_FORMULA_POINT * feedbackAdjustment(input.feedback, DEFAULT_RANKING_OPTIONS.feedback)],
        ['session', LOGIT_PER_FORMULA_POINT * sessionContribution(input.sessionBoost, DEFAULT_RANKING_OPTIONS.session)],
        ['traces', TRACE_LOGIT * reciprocal(input.channelRanks?.['traces'])],
        ['pasted', PASTED_LOGIT * reciprocal(input.channelRanks?.['pasted'])],
      ];
      const components: Record<string, number> = {};
      // The logit sums the shares and then the extras, in that order whichever record is built.
      let logit = 0;
      if (perFeature) {
        for (let f = 0; f < row.length; f++) {
          logit += row[f]!;
          components[LEARNED_FEATURES[f]!] = row[f]!;
        }
      } else {
        // Summed by group in an array, then named once: the same sums, in the same order.
        const sums = new Float64Array(GROUPS.length);
        for (let f = 0; f < row.length; f++) {
          logit += row[f]!;
          sums[GROUP_INDEX[f]!]! += row[f]!;
        }
        for (let g = 0; g < GROUPS.length; g++) components[GROUPS[g]!] = sums[g]!;
      }
      for (const [name, value] of extras) {
        logit += value;
        if (perFeature) components[name] = value;
        else components[name] = (components[name] ?? 0) + value;
      }
      const factors = byFeature ? Object.fromEntries(LEARNED_FEATURES.map((f, k) => [f, vectors[i]![k]!])) : {};
      return { input, score: sigmoid(logit), components, factors };
    });
    return finalizeRanking(scored);
  };
  return {
    name,
    // No feature reads a file's modification time.
    reads: { lexicalFields: true, fileHistory: true, fileTimes: false },
    rank(inputs, context): RankedSymbol[] {
      // Per feature in `explain`; here summed by kind of evidence (lexical, names, graph, kind, …).
      return score(inputs, context, false).map((entry) => toRankedSymbol(entry.input.forced === true ? { ...entry, components: grouped(entry.components) } : entry));
    },
    explain(symbol: NodeId, inputs, context): RankExplanation | undefined {
      const found = rankingPlace(symbol, score(inputs, context, true));
      if (!found) return undefined;
      const { entry, place } = found;
      return {
        ...place,
        components: grouped(entry.components),
        // Per feature: its share of the logit (the components are these summed by kind of evidence).
        factors: entry.components,
        notes: ['learned ranker: score = σ(sum of the components); factors are each feature’s share of the logit'],
      };
    },
  };
}

/** One task's candidates for training: their feature vectors and whether each is a right answer. */
export interface TrainingGroup {
  readonly features: readonly Float64Array[];
  readonly labels: readonly boolean[];
}

/** Settings of {@link trainLearnedModel}. */
export interface TrainOptions {
  /** L2 penalty on the weights. @default 0.01 */
  readonly l2: number;
  /** Passes over the pairs. @default 200 */
  readonly epochs: number;
  /** Adam step size. @default 0.05 */
  readonly learningRate: number;
  /**
   * Negatives paired with each positive: the first ones of the group's own order. Pairing with
   * (nearly) all of them beat pairing with the hard ones only (60) in cross-validation. @default 1000
   */
  readonly negativesPerPositive: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = Object.freeze({ l2: 0.01, epochs: 200, learningRate: 0.05, negativesPerPositive: 1000 });

/**
 * Fit a {@link LearnedModel} by pairwise logistic regression (RankNet with a linear scorer):
 * for every positive and each of the first `negativesPerPositive` negatives of its group (give
 * the groups in the order of a ranking to learn from, so the hard negatives come first),
 * minimise log(1 + exp(−(w·x̂⁺ − w·x̂⁻))) + l2·|w|², full batch, with Adam. Deterministic.
 *
 * @example
 * ```ts
 * const model = trainLearnedModel(groups, { l2: 0.01 });
 * writeFileSync('model.json', JSON.stringify(model));
 * ```
 */
export function trainLearnedModel(groups: readonly TrainingGroup[], options: Partial<TrainOptions> = {}, trainedOn?: string): LinearModel {
  const o = { ...DEFAULT_TRAIN_OPTIONS, ...options };
  const n = LEARNED_FEATURES.length;
  const mean = new Float64Array(n);
  const square = new Float64Array(n);
  let count = 0;
  for (const group of groups) {
    for (const x of group.features) {
      count++;
      for (let f = 0; f < n; f++) {
        mean[f]! += x[f]!;
        square[f]! += x[f]! * x[f]!;
      }
    }
  }
  const scale = new Float64Array(n);
  for (let f = 0; f < n; f++) {
    mean[f] = count > 0 ? mean[f]! / count : 0;
    const variance = count > 0 ? square[f]! / count - mean[f]! * mean[f]! : 0;
    scale[f] = variance > 1e-12 ? Math.sqrt(variance) : 1;
  }
  // Pair differences, standardised (the means cancel in a difference).
  const diffs: Float64Array[] = [];
  for (const group of groups) {
    const negatives = group.features.filter((_, i) => !group.labels[i]).slice(0, o.negativesPerPositive);
    group.features.forEach((positive, i) => {
      if (!group.labels[i]) return;
      for (const negative of negatives) {
        const d = new Float64Array(n);
        for (let f = 0; f < n; f++) d[f] = (positive[f]! - negative[f]!) / scale[f]!;
        diffs.push(d);
      }
    });
  }
  const w = new Float64Array(n);
  const m = new Float64Array(n);
  const v = new Float64Array(n);
  const grad = new Float64Array(n);
  const beta1 = 0.9;
  const beta2 = 0.999;
  for (let epoch = 1; epoch <= o.epochs && diffs.length > 0; epoch++) {
    grad.fill(0);
    for (const d of diffs) {
      let z = 0;
      for (let f = 0; f < n; f++) z += w[f]! * d[f]!;
      // d/dw log(1 + e^−z) = −σ(−z)·d
      const g = -sigmoid(-z);
      for (let f = 0; f < n; f++) grad[f]! += g * d[f]!;
    }
    for (let f = 0; f < n; f++) {
      const gf = grad[f]! / diffs.length + 2 * o.l2 * w[f]!;
      m[f] = beta1 * m[f]! + (1 - beta1) * gf;
      v[f] = beta2 * v[f]! + (1 - beta2) * gf * gf;
      const mHat = m[f]! / (1 - beta1 ** epoch);
      const vHat = v[f]! / (1 - beta2 ** epoch);
      w[f]! -= (o.learningRate * mHat) / (Math.sqrt(vHat) + 1e-8);
    }
  }
  const round = (x: number): number => Math.round(x * 1e6) / 1e6;
  return {
    version: 1,
    features: [...LEARNED_FEATURES],
    mean: [...mean].map(round),
    scale: [...scale].map(round),
    weights: [...w].map(round),
    ...(trainedOn ? { trainedOn } : {}),
  };
}

/**
 * Fit a {@link TreeModel}: a boosted ensemble of small regression trees trained with LambdaMART
 * on the same groups as {@link trainLearnedModel} (see docs/rankers.md for why and when it beats
 * the linear model). Deterministic.
 *
 * @example
 * ```ts
 * const model = trainTreeModel(groups, { trees: 300 }, '680 history tasks');
 * const ranker = createLearnedRanker({ model });
 * ```
 */
export function trainTreeModel(groups: readonly TrainingGroup[], options: Partial<TreeTrainOptions> = {}, trainedOn?: string): TreeModel {
  const trees = fitTreeEnsemble(groups, LEARNED_FEATURES.length, { ...DEFAULT_TREE_TRAIN_OPTIONS, ...options });
  return { version: 1, kind: 'trees', features: [...LEARNED_FEATURES], trees, ...(trainedOn ? { trainedOn } : {}) };
}
