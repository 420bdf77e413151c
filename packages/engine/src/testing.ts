/**
 * Conformance kit for retrieval {@link Channel}s. It runs a channel on the tasks of a fixture
 * (an indexed store and a few tasks), as the engine would call it and in the corner cases the
 * engine also produces (blank tasks, no keywords, no optional context), and checks what every
 * channel owes the fusion stage: a name of its own, a stable fingerprint, well-formed hits of
 * nodes the store knows, each node once, the same hits for the same context. Rules on test code
 * differ between channels, so the kit checks one only when told which the channel documents.
 *
 * `checkChannel` returns the violations without a test runner; `testChannel` registers one
 * vitest test per rule on top of it.
 */
import { describe, expect, it } from 'vitest';
import type { GraphStore, NodeId } from '@knowing/graph';
import { allKeywords, extractKeywordSet } from '@knowing/keywords';
import type { KeywordSet } from '@knowing/keywords';
import { expandWithThesaurus } from '@knowing/equivalence/stage';
import { RESERVED_CHANNEL_NAMES } from './channel.js';
import type { Channel, ChannelContext, ChannelHit } from './channel.js';
import { DEFAULT_ENGINE_OPTIONS } from './options.js';

/** What a channel is run on: an indexed store and tasks about its code. */
export interface ChannelFixture {
  readonly store: GraphStore;
  /**
   * Tasks the channel should find something for (at least one of them must give hits, or the
   * other checks prove nothing). The kit adds a blank task and a whitespace-only one.
   */
  readonly tasks: readonly string[];
}

/** The rules {@link checkChannel} checks, each a test of {@link testChannel}. */
export type ChannelRule = 'name' | 'fingerprint' | 'runs' | 'hits' | 'known' | 'unique' | 'deterministic' | 'finds' | 'testCode';

/** One broken rule, with a message naming the channel, the task and what was wrong. */
export interface ChannelViolation {
  readonly rule: ChannelRule;
  readonly message: string;
}

/** Options of {@link checkChannel} and {@link testChannel}. */
export interface TestChannelOptions {
  /**
   * The channel's documented rule on test code (`node.isTest`), checked when given: `never`
   * returns none, `when-about-tests` returns none unless `aboutTests` is true. Left out, test
   * code is the seeding's business and not checked.
   */
  readonly testCode?: 'never' | 'when-about-tests';
  /**
   * Titles of tests to skip (as printed by vitest, without the suite prefix), for a channel
   * that knowingly does not meet one rule yet. Say why next to the list. `testChannel` only.
   */
  readonly skip?: readonly string[];
}

/** Test titles of the rules, in the order they are registered. */
export const CHANNEL_RULES: Readonly<Record<ChannelRule, string>> = Object.freeze({
  name: 'has a name of its own',
  fingerprint: 'fingerprint() is a non-empty string, the same on every call',
  runs: 'run resolves for every context (blank tasks, no keywords, no optional fields) and reports queries as strings',
  hits: 'returns an array of hits, each with a node, a string detail and a finite score or none',
  known: 'returns only nodes of the store',
  unique: 'returns each node at most once',
  deterministic: 'returns the same hits in the same order for the same context',
  finds: 'finds something for at least one fixture task',
  testCode: 'honours its rule on test code',
});

const SOURCE = '[knowing:engine/testing]';
const BLANK_TASKS: readonly string[] = ['', ' \t\n '];
const NO_KEYWORDS: KeywordSet = Object.freeze({ exact: [], compounds: [], components: [], priority: [] });

/** One call of the channel the kit makes, and what to check of it beyond the common rules. */
interface Case {
  readonly context: ChannelContext;
  /** Run a second time and compare. */
  readonly repeat: boolean;
  /** A fixture task with its keywords: its hits count for `finds`. */
  readonly counts: boolean;
}

/** A keyword set whose arrays throw when written to: a channel must not change its context. */
function frozenKeywords(keywords: KeywordSet): KeywordSet {
  return Object.freeze({
    exact: Object.freeze([...keywords.exact]),
    compounds: Object.freeze([...keywords.compounds]),
    components: Object.freeze([...keywords.components]),
    priority: Object.freeze([...keywords.priority]),
  });
}

/** The contexts the engine builds for a task (about tests or not), and a bare one without keywords. */
function casesOf(fixture: ChannelFixture, reportQuery: (query: unknown) => void): Case[] {
  const cases: Case[] = [];
  const tasks = [...fixture.tasks.map((task) => ({ task, fromFixture: true })), ...BLANK_TASKS.map((task) => ({ task, fromFixture: false }))];
  for (const { task, fromFixture } of tasks) {
    const keywords = frozenKeywords(extractKeywordSet(task));
    const relatedTerms = Object.freeze(expandWithThesaurus(allKeywords(keywords), { maxTerms: DEFAULT_ENGINE_OPTIONS.equivalence.thesaurusTerms }));
    for (const aboutTests of [false, true]) {
      const context = Object.freeze({ store: fixture.store, task, keywords, aboutTests, relatedTerms, reportQuery });
      cases.push({ context, repeat: !aboutTests, counts: fromFixture });
    }
    cases.push({ context: Object.freeze({ store: fixture.store, task, keywords: NO_KEYWORDS, aboutTests: false }), repeat: false, counts: false });
  }
  return cases;
}

const describeTask = (context: ChannelContext): string =>
  `for task ${JSON.stringify(context.task)}${context.keywords === NO_KEYWORDS ? ' without keywords' : ''}${context.aboutTests ? ' about tests' : ''}`;

/** What decides whether two runs agree: ids, details and scores in order. */
const signature = (hits: readonly ChannelHit[]): string => JSON.stringify(hits.map((h) => [h.node.id, h.detail, h.score ?? null]));

function wellFormed(hit: unknown): hit is ChannelHit {
  if (typeof hit !== 'object' || hit === null) return false;
  const { node, detail, score } = hit as Partial<ChannelHit>;
  return (
    typeof node === 'object' && node !== null && typeof node.id === 'string' && typeof detail === 'string' && (score === undefined || (typeof score === 'number' && Number.isFinite(score)))
  );
}

/**
 * Run a channel on a fixture and return every broken rule (empty when it conforms), without a
 * test runner.
 *
 * @example
 * ```ts
 * import { checkChannel } from '@knowing/engine/testing';
 *
 * const violations = await checkChannel(myChannel, { store, tasks: ['add a before_request hook'] });
 * for (const v of violations) console.error(v.rule, v.message);
 * ```
 */
export async function checkChannel(channel: Channel, fixture: ChannelFixture, options: TestChannelOptions = {}): Promise<ChannelViolation[]> {
  const violations: ChannelViolation[] = [];
  const label = typeof channel?.name === 'string' ? channel.name : String(channel?.name);
  const fail = (rule: ChannelRule, what: string): void => {
    violations.push({ rule, message: `${SOURCE} channel "${label}": ${what}` });
  };

  if (typeof channel?.name !== 'string' || channel.name.trim() === '' || channel.name !== channel.name.trim()) {
    fail('name', 'name must be a non-empty string without surrounding whitespace; it keys the channel\'s weight and its hits in traces');
  } else if (RESERVED_CHANNEL_NAMES.has(channel.name)) {
    fail('name', `"${channel.name}" is reserved for a built-in stage; give the channel a name of its own`);
  }

  if (typeof channel?.fingerprint !== 'function') fail('fingerprint', 'fingerprint must be a function returning a string');
  else {
    try {
      const first: unknown = channel.fingerprint();
      const second: unknown = channel.fingerprint();
      if (typeof first !== 'string' || first === '') fail('fingerprint', `fingerprint() returned ${JSON.stringify(first)}; return a non-empty string naming the channel's version and options`);
      else if (first !== second) fail('fingerprint', `fingerprint() changed between calls (${JSON.stringify(first)}, then ${JSON.stringify(second)}); cached answers would never be found`);
    } catch (error) {
      fail('fingerprint', `fingerprint() threw: ${String(error)}`);
    }
  }

  if (typeof channel?.run !== 'function') {
    fail('runs', 'run must be a function returning a promise of hits');
    return violations;
  }

  const stored = new Map<NodeId, boolean>();
  const testCode = new Set<NodeId>();
  let reportedWrong = false;
  const reportQuery = (query: unknown): void => {
    if (typeof query !== 'string' && !reportedWrong) {
      reportedWrong = true;
      fail('runs', `reportQuery was given ${JSON.stringify(query)}; report the query as a string`);
    }
  };
  const run = async (context: ChannelContext): Promise<readonly ChannelHit[] | undefined> => {
    let hits: unknown;
    try {
      hits = await channel.run(context);
    } catch (error) {
      fail('runs', `run threw ${describeTask(context)}: ${String(error)} (the context is frozen: a channel must not change it)`);
      return undefined;
    }
    if (!Array.isArray(hits)) {
      fail('hits', `run returned ${typeof hits} ${describeTask(context)}; return an array of hits, [] when nothing matches`);
      return undefined;
    }
    const bad = hits.findIndex((hit) => !wellFormed(hit));
    if (bad >= 0) {
      fail('hits', `hit ${bad} ${describeTask(context)} is ${JSON.stringify(hits[bad])}; a hit is { node, detail: string, score?: finite number }`);
      return undefined;
    }
    return hits as readonly ChannelHit[];
  };

  let found = false;
  for (const { context, repeat, counts } of casesOf(fixture, reportQuery)) {
    const hits = await run(context);
    if (!hits) continue;
    if (counts && hits.length > 0) found = true;

    const unseen = [...new Set(hits.map((h) => h.node.id))].filter((id) => !stored.has(id));
    if (unseen.length > 0) {
      const nodes = await fixture.store.getNodes(unseen);
      for (const node of nodes) {
        stored.set(node.id, true);
        if (node.isTest) testCode.add(node.id);
      }
      for (const id of unseen) if (!stored.has(id)) stored.set(id, false);
    }
    const unknown = hits.filter((h) => stored.get(h.node.id) === false);
    if (unknown.length > 0) fail('known', `${unknown.length} hit(s) ${describeTask(context)} are not nodes of the store: ${unknown.slice(0, 3).map((h) => h.node.id).join(', ')}`);

    const seen = new Set<NodeId>();
    const twice = new Set<NodeId>();
    for (const hit of hits) (seen.has(hit.node.id) ? twice : seen).add(hit.node.id);
    if (twice.size > 0) fail('unique', `node(s) returned more than once ${describeTask(context)}: ${[...twice].slice(0, 3).join(', ')}; fusion counts a node once per channel`);

    const excludesTests = options.testCode === 'never' || (options.testCode === 'when-about-tests' && !context.aboutTests);
    const tests = excludesTests ? hits.filter((h) => testCode.has(h.node.id)) : [];
    if (tests.length > 0) fail('testCode', `returned test code ${describeTask(context)} (testCode: '${options.testCode}'): ${tests.slice(0, 3).map((h) => h.node.qualifiedName).join(', ')}`);

    if (repeat) {
      const again = await run(context);
      if (again && signature(again) !== signature(hits)) fail('deterministic', `two runs ${describeTask(context)} returned different hits or another order`);
    }
  }
  if (!found) fail('finds', `no hits for any of the ${fixture.tasks.length} fixture task(s); give tasks the channel answers, or the other checks prove nothing`);
  return violations;
}

/**
 * Register the vitest tests every {@link Channel} must pass, one per rule of
 * {@link CHANNEL_RULES}: a name of its own, a stable fingerprint, runs on blank tasks and
 * without keywords, well-formed hits of nodes of the store, each node once, deterministic,
 * something found for the fixture's tasks, and the channel's rule on test code when given.
 * Call it at the top level of a test file; the fixture may be a function, called once when
 * the first test runs (after `beforeAll` indexed the store).
 *
 * @example
 * ```ts
 * import { testChannel } from '@knowing/engine/testing';
 *
 * let store: GraphStore;
 * beforeAll(async () => { store = await indexFixtureRepo(); });
 * testChannel(createTodoChannel(), () => ({ store, tasks: ['finish the TODO in the session code'] }));
 * ```
 */
export function testChannel(
  channel: Channel,
  fixture: ChannelFixture | (() => ChannelFixture | Promise<ChannelFixture>),
  options: TestChannelOptions = {},
): void {
  const skip = new Set(options.skip ?? []);
  const label = typeof channel?.name === 'string' ? channel.name : String(channel?.name);
  let report: Promise<ChannelViolation[]> | undefined;
  const violations = (): Promise<ChannelViolation[]> =>
    (report ??= (async () => checkChannel(channel, typeof fixture === 'function' ? await fixture() : fixture, options))());

  describe(`Channel conformance: ${label}`, () => {
    for (const [rule, title] of Object.entries(CHANNEL_RULES) as [ChannelRule, string][]) {
      if (rule === 'testCode' && !options.testCode) continue;
      (skip.has(title) ? it.skip : it)(title, async () => {
        const broken = (await violations()).filter((v) => v.rule === rule).map((v) => v.message);
        expect(broken, title).toEqual([]);
      });
    }
  });
}
