import { describe, expect, it } from 'vitest';
import { nodeId } from '@knowing/graph';
import type { GraphNode, NodeKind, RankedSymbol } from '@knowing/graph';
import type { RankContext, RankInput, Ranker } from './types.js';
import { validateRankerExplanation } from './validate.js';

/** A named candidate set with its context. */
export interface RankFixture {
  readonly name: string;
  readonly inputs: readonly RankInput[];
  readonly context: RankContext;
}

/** Options of {@link testRanker}. */
export interface TestRankerOptions {
  /** Candidate sets to check in addition to {@link RANK_FIXTURES}. */
  readonly fixtures?: readonly RankFixture[];
  /** Check that shuffling the inputs leaves the result unchanged. @default true */
  readonly orderIndependent?: boolean;
}

const FIXTURE_NOW = 1_700_000_000_000;
const DAY = 86_400_000;

/**
 * A plausible graph node for tests: `file`.`name` as qualified name, the id derived from it.
 *
 * @example
 * ```ts
 * const node = fixtureNode('src/app.py', 'Flask.run', { kind: 'method' });
 * ```
 */
export function fixtureNode(file: string, symbol: string, overrides: Partial<Omit<GraphNode, 'id'>> = {}): GraphNode {
  const kind: NodeKind = overrides.kind ?? 'function';
  const qualifiedName = overrides.qualifiedName ?? `${file}.${symbol}`;
  const name = symbol.slice(symbol.lastIndexOf('.') + 1);
  return {
    id: nodeId('fixture-repo', qualifiedName, kind),
    name,
    qualifiedName,
    kind,
    language: file.endsWith('.py') ? 'python' : file.endsWith('.go') ? 'go' : 'typescript',
    file,
    startLine: 1,
    endLine: 10,
    signature: `def ${name}()`,
    doc: '',
    isTest: false,
    external: false,
    ...overrides,
  };
}

function baseInputs(): RankInput[] {
  return [
    { node: fixtureNode('src/app.py', 'Flask.before_request', { kind: 'method' }), rwr: 1, distance: 0, isSeed: true, seedWeight: 1, channels: ['tiered', 'bm25'], tier: 'exact', confidence: 0.9, provenance: 'lsp_resolved', lastModified: FIXTURE_NOW - DAY / 2 },
    { node: fixtureNode('src/app.py', 'Flask', { kind: 'class' }), rwr: 0.6, distance: 0, isSeed: true, seedWeight: 0.9, channels: ['equiv'], equivalenceClasses: ['REQUEST_HOOK'], sessionBoost: 1.2 },
    { node: fixtureNode('src/ctx.py', 'RequestContext.push', { kind: 'method' }), rwr: 0.4, distance: 1, isSeed: false, confidence: 0.7, provenance: 'ast_inferred', feedback: { useful: 2, notUseful: 1 } },
    { node: fixtureNode('src/helpers.py', 'url_for'), rwr: 0.2, distance: 2, isSeed: false, feedback: { useful: 0, notUseful: 3 } },
    { node: fixtureNode('tests/test_app.py', 'test_before_request', { isTest: true }), rwr: 0.5, distance: 1, isSeed: false, confidence: 0.8 },
    { node: fixtureNode('src/globals.py', 'current_app', { kind: 'variable' }), rwr: 0.05, distance: 1, isSeed: false, callerCount: 0 },
  ];
}

/**
 * The kit's own candidate sets: a base-mode set, the same with HITS scores, one with forced
 * (framework-injected) symbols and a test task, and one full of exact ties.
 */
export const RANK_FIXTURES: readonly RankFixture[] = Object.freeze([
  { name: 'base mode', inputs: baseInputs(), context: { task: 'add a before-request hook', keywords: ['before_request', 'hook'], now: FIXTURE_NOW } },
  {
    name: 'HITS mode',
    inputs: baseInputs().map((input, i) => ({ ...input, hub: [0.3, 0.05, 0.5, 0.1, 0.2, 0][i]!, authority: [0.4, 0.7, 0.1, 0.3, 0, 0.9][i]! })),
    context: { task: 'add a before-request hook', now: FIXTURE_NOW },
  },
  {
    name: 'forced injection, test task',
    inputs: baseInputs().map((input, i) => (i === 3 || i === 5 ? { ...input, forced: true } : input)),
    context: { task: 'write a unit test for before_request', now: FIXTURE_NOW },
  },
  {
    name: 'ties',
    inputs: ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((symbol) => ({
      node: fixtureNode('src/same.ts', symbol),
      rwr: 0.5,
      distance: 1,
      isSeed: false,
    })),
    context: { task: 'greek letters', now: FIXTURE_NOW },
  },
]);

/** Copy plain data (arrays, plain objects, maps, sets); other values are kept by reference. */
function snapshot<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => snapshot(item)) as T;
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, snapshot(v)])) as T;
  if (value instanceof Set) return new Set([...value].map((v) => snapshot(v))) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) copy[key] = snapshot(inner);
    return copy as T;
  }
  return value;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** A deterministic permutation (reverse, then interleave halves) so no randomness is involved. */
function shuffled<T>(items: readonly T[]): T[] {
  const reversed = [...items].reverse();
  const half = Math.ceil(reversed.length / 2);
  const result: T[] = [];
  for (let i = 0; i < half; i++) {
    result.push(reversed[i]!);
    if (i + half < reversed.length) result.push(reversed[i + half]!);
  }
  return result;
}

function summary(ranked: readonly RankedSymbol[]): { id: string; score: number; components: Readonly<Record<string, number>> }[] {
  return ranked.map((symbol) => ({ id: symbol.node.id, score: symbol.score, components: symbol.components }));
}

/**
 * Register the vitest tests every {@link Ranker} must pass: only known ids, no duplicates,
 * finite scores and components, sorted by score descending, empty input handled,
 * deterministic, inputs not mutated, independent of input order, and (when `explain` exists)
 * explanations that name the symbol's components. Call it at the top level of a test file.
 *
 * @example
 * ```ts
 * import { testRanker } from '@knowing/rank/testing';
 * import { createMyRanker } from '../src/index.js';
 *
 * testRanker('my-ranker', () => createMyRanker());
 * ```
 */
export function testRanker(name: string, makeRanker: () => Ranker | Promise<Ranker>, options: TestRankerOptions = {}): void {
  const fixtures = [...RANK_FIXTURES, ...(options.fixtures ?? [])];
  const orderIndependent = options.orderIndependent ?? true;

  describe(`Ranker conformance: ${name}`, () => {
    it('has a non-empty name and a rank function', async () => {
      const ranker = await makeRanker();
      expect(typeof ranker.name).toBe('string');
      expect(ranker.name.length).toBeGreaterThan(0);
      expect(typeof ranker.rank).toBe('function');
    });

    it('returns an empty array for no inputs', async () => {
      const ranker = await makeRanker();
      expect(await ranker.rank([], { task: '', now: FIXTURE_NOW })).toEqual([]);
      expect(await ranker.rank([], { task: 'anything at all' })).toEqual([]);
    });

    for (const fixture of fixtures) {
      describe(fixture.name, () => {
        it('returns only symbols from its inputs', async () => {
          const ranker = await makeRanker();
          const known = new Set(fixture.inputs.map((input) => input.node.id));
          const ranked = await ranker.rank(fixture.inputs, fixture.context);
          expect(Array.isArray(ranked)).toBe(true);
          for (const symbol of ranked) expect(known.has(symbol.node.id), `unknown id ${symbol.node.id}`).toBe(true);
        });

        it('returns each symbol at most once', async () => {
          const ranker = await makeRanker();
          const ids = (await ranker.rank(fixture.inputs, fixture.context)).map((symbol) => symbol.node.id);
          expect(new Set(ids).size).toBe(ids.length);
        });

        it('gives finite scores, rwr, distances and components', async () => {
          const ranker = await makeRanker();
          for (const symbol of await ranker.rank(fixture.inputs, fixture.context)) {
            expect(Number.isFinite(symbol.score), `score of ${symbol.node.qualifiedName}`).toBe(true);
            expect(Number.isFinite(symbol.rwr), `rwr of ${symbol.node.qualifiedName}`).toBe(true);
            expect(Number.isFinite(symbol.distance), `distance of ${symbol.node.qualifiedName}`).toBe(true);
            expect(typeof symbol.components).toBe('object');
            for (const [key, value] of Object.entries(symbol.components)) {
              expect(Number.isFinite(value), `component ${key} of ${symbol.node.qualifiedName}`).toBe(true);
            }
          }
        });

        it('sorts by score descending', async () => {
          const ranker = await makeRanker();
          const scores = (await ranker.rank(fixture.inputs, fixture.context)).map((symbol) => symbol.score);
          for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeLessThanOrEqual(scores[i - 1]!);
        });

        it('is deterministic for the same input', async () => {
          const ranker = await makeRanker();
          const first = summary(await ranker.rank(fixture.inputs, fixture.context));
          const second = summary(await ranker.rank(fixture.inputs, fixture.context));
          const fresh = summary(await (await makeRanker()).rank(fixture.inputs, fixture.context));
          expect(second).toEqual(first);
          expect(fresh).toEqual(first);
        });

        it('does not mutate its inputs or context', async () => {
          const ranker = await makeRanker();
          const inputs = snapshot(fixture.inputs);
          const context = snapshot(fixture.context);
          const before = snapshot({ inputs, context });
          await ranker.rank(inputs, context);
          expect({ inputs, context }).toEqual(before);
          // Frozen inputs make any write attempt throw (modules are strict mode).
          await ranker.rank(deepFreeze(snapshot(fixture.inputs)), deepFreeze(snapshot(fixture.context)));
        });

        if (orderIndependent) {
          it('does not depend on the order of its inputs', async () => {
            const ranker = await makeRanker();
            const straight = summary(await ranker.rank(fixture.inputs, fixture.context));
            const permuted = summary(await ranker.rank(shuffled(fixture.inputs), fixture.context));
            expect(permuted).toEqual(straight);
          });
        }

        it('explains each ranked symbol with its components (when explain exists)', async (test) => {
          const ranker = await makeRanker();
          if (!ranker.explain) {
            test.skip();
            return;
          }
          const ranked = await ranker.rank(fixture.inputs, fixture.context);
          for (const [index, symbol] of ranked.entries()) {
            const explanation = validateRankerExplanation(ranker.name, symbol.node.id, await ranker.explain(symbol.node.id, fixture.inputs, fixture.context));
            expect(explanation, `explanation of ${symbol.node.qualifiedName}`).toBeDefined();
            expect(explanation!.symbol).toBe(symbol.node.id);
            expect(explanation!.score).toBeCloseTo(symbol.score, 9);
            expect(explanation!.rank).toBe(index + 1);
            expect(Object.keys(explanation!.components).sort()).toEqual(Object.keys(symbol.components).sort());
            expect(Object.keys(explanation!.components).length).toBeGreaterThan(0);
          }
          expect(await ranker.explain('not-a-candidate', fixture.inputs, fixture.context)).toBeUndefined();
        });
      });
    }
  });
}
