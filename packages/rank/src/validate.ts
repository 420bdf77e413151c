import { ErrorCode, KnowingError, isKnowingError } from '@knowing/graph';
import type { NodeId, RankedSymbol } from '@knowing/graph';
import type { CheckedRanker, RankContext, RankExplanation, RankInput, Ranker } from './types.js';

function pluginError(pluginName: string, problem: string, cause?: unknown): KnowingError {
  return new KnowingError(ErrorCode.PluginInvalid, `ranker "${pluginName}" ${problem}`, {
    source: 'rank',
    hint: 'a ranker must return each input symbol at most once, with finite numbers (see @knowing/rank/testing)',
    cause,
  });
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function checkComponents(pluginName: string, where: string, components: unknown): void {
  if (typeof components !== 'object' || components === null || Array.isArray(components)) {
    throw pluginError(pluginName, `returned ${where} without a components object`);
  }
  for (const [key, value] of Object.entries(components)) {
    if (!isFiniteNumber(value)) throw pluginError(pluginName, `returned ${where} with component "${key}" = ${String(value)} (not a finite number)`);
  }
}

/**
 * The boundary check on what a ranker returned: an array of symbols whose ids are among the
 * inputs, each at most once, with finite `score`, `rwr`, `distance` and components. Returns a
 * copy ordered by score descending (a stable sort: already-sorted output and the plugin's own
 * tie order are kept).
 *
 * @throws KnowingError `PLUGIN_INVALID` whose message names the plugin and the offending symbol.
 * @example
 * ```ts
 * const ranked = validateRankerOutput('my-ranker', inputs, await myRanker.rank(inputs, context));
 * ```
 */
export function validateRankerOutput(pluginName: string, inputs: readonly RankInput[], output: unknown): RankedSymbol[] {
  if (!Array.isArray(output)) throw pluginError(pluginName, `returned ${output === null ? 'null' : typeof output} instead of an array`);
  const known = new Set<NodeId>();
  for (const input of inputs) known.add(input.node.id);
  const seen = new Set<NodeId>();
  output.forEach((symbol: unknown, i) => {
    const entry = symbol as Partial<RankedSymbol> | null | undefined;
    const id = entry?.node?.id;
    if (typeof id !== 'string') throw pluginError(pluginName, `returned an entry without a node id at position ${i}`);
    const where = `symbol ${id} (position ${i})`;
    if (!known.has(id)) throw pluginError(pluginName, `returned unknown ${where}: it was not among the inputs`);
    if (seen.has(id)) throw pluginError(pluginName, `returned duplicate ${where}`);
    seen.add(id);
    if (!isFiniteNumber(entry!.score)) throw pluginError(pluginName, `returned ${where} with score ${String(entry!.score)} (not a finite number)`);
    if (!isFiniteNumber(entry!.rwr)) throw pluginError(pluginName, `returned ${where} with rwr ${String(entry!.rwr)} (not a finite number)`);
    if (!isFiniteNumber(entry!.distance) || entry!.distance < 0) {
      throw pluginError(pluginName, `returned ${where} with distance ${String(entry!.distance)} (not a finite number ≥ 0)`);
    }
    checkComponents(pluginName, where, entry!.components);
  });
  const ordered = (output as RankedSymbol[]).slice();
  // Array.prototype.sort is stable, so this only moves out-of-order entries.
  ordered.sort((a, b) => b.score - a.score);
  return ordered;
}

/**
 * The boundary check on an explanation: it must be about the asked symbol, with a finite
 * score, a 1-based rank and finite components. `undefined` (symbol not ranked) is valid.
 *
 * @throws KnowingError `PLUGIN_INVALID` naming the plugin.
 * @example
 * ```ts
 * const why = validateRankerExplanation('my-ranker', id, await myRanker.explain?.(id, inputs, context));
 * ```
 */
export function validateRankerExplanation(pluginName: string, symbol: NodeId, explanation: unknown): RankExplanation | undefined {
  if (explanation === undefined) return undefined;
  if (typeof explanation !== 'object' || explanation === null) throw pluginError(pluginName, `explained ${symbol} with ${String(explanation)} instead of an object`);
  const e = explanation as Partial<RankExplanation>;
  if (e.symbol !== symbol) throw pluginError(pluginName, `was asked to explain ${symbol} but explained ${String(e.symbol)}`);
  if (!isFiniteNumber(e.score)) throw pluginError(pluginName, `explained ${symbol} with score ${String(e.score)} (not a finite number)`);
  if (!isFiniteNumber(e.rank) || e.rank < 1 || !Number.isInteger(e.rank)) throw pluginError(pluginName, `explained ${symbol} with rank ${String(e.rank)} (not a 1-based position)`);
  checkComponents(pluginName, `the explanation of ${symbol}`, e.components);
  return explanation as RankExplanation;
}

/** Rankers produced by wrapRanker, so wrapping twice is a no-op. */
const CHECKED = new WeakSet<object>();

function rethrow(pluginName: string, what: string, error: unknown): never {
  if (isKnowingError(error)) throw error;
  const message = error instanceof Error ? error.message : String(error);
  throw new KnowingError(ErrorCode.Internal, `ranker "${pluginName}" threw during ${what}: ${message}`, {
    source: 'rank',
    cause: error,
    hint: 'the error comes from the ranker plugin, not from knowing',
  });
}

/**
 * Put a ranker behind the boundary check: what the engine calls. Output is validated with
 * {@link validateRankerOutput} (and explanations with {@link validateRankerExplanation});
 * exceptions other than `KnowingError`s are wrapped with code `INTERNAL` naming the plugin.
 * Wrapping an already wrapped ranker returns it unchanged.
 *
 * @throws KnowingError `PLUGIN_INVALID` when `ranker` has no `rank` function or no name.
 * @example
 * ```ts
 * const ranker = wrapRanker(options.ranker ?? createDefaultRanker());
 * const ranked = await ranker.rank(inputs, { task, now });
 * ```
 */
export function wrapRanker(ranker: Ranker): CheckedRanker {
  if (typeof ranker !== 'object' || ranker === null || typeof ranker.rank !== 'function') {
    throw new KnowingError(ErrorCode.PluginInvalid, 'a ranker must be an object with a rank() function', { source: 'rank' });
  }
  if (typeof ranker.name !== 'string' || ranker.name.length === 0) {
    throw new KnowingError(ErrorCode.PluginInvalid, 'a ranker must have a non-empty name', {
      source: 'rank',
      hint: 'add `name` to the ranker object; it names the plugin in errors',
    });
  }
  if (CHECKED.has(ranker)) return ranker as CheckedRanker;
  const name = ranker.name;
  if (ranker.explain !== undefined && typeof ranker.explain !== 'function') {
    throw new KnowingError(ErrorCode.PluginInvalid, `ranker "${name}" has an explain that is not a function`, { source: 'rank' });
  }
  const checked: CheckedRanker = {
    name,
    inner: ranker,
    ...(ranker.reads ? { reads: { ...ranker.reads } } : {}),
    async rank(inputs, context) {
      let output: unknown;
      try {
        output = await ranker.rank(inputs, context);
      } catch (error) {
        rethrow(name, 'rank()', error);
      }
      return validateRankerOutput(name, inputs, output);
    },
    ...(ranker.explain
      ? {
          async explain(symbol: NodeId, inputs: readonly RankInput[], context: RankContext) {
            let explanation: unknown;
            try {
              explanation = await ranker.explain!(symbol, inputs, context);
            } catch (error) {
              rethrow(name, 'explain()', error);
            }
            return validateRankerExplanation(name, symbol, explanation);
          },
        }
      : {}),
  };
  CHECKED.add(checked);
  return checked;
}
