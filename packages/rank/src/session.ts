import { ErrorCode, KnowingError } from '@knowing/graph';
import type { NodeId } from '@knowing/graph';
import type { SessionTracker, SessionTrackerOptions } from './types.js';

/**
 * The seeds' session settings: 3-minute half-life, boost capped at 2, boosts under 0.01
 * dropped, 20 timestamps per symbol.
 *
 * @example
 * ```ts
 * const tracker = createSessionTracker({ ...DEFAULT_SESSION_TRACKER_OPTIONS, halfLifeMs: 60_000 });
 * ```
 */
export const DEFAULT_SESSION_TRACKER_OPTIONS: SessionTrackerOptions = Object.freeze({
  halfLifeMs: 180_000,
  maxBoost: 2,
  minBoost: 0.01,
  maxStampsPerSymbol: 20,
  clock: () => Date.now(),
});

function invalid(message: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source: 'rank' });
}

function checkTime(at: number): number {
  if (typeof at !== 'number' || !Number.isFinite(at)) throw invalid(`session time must be a finite number of ms, got ${String(at)}`);
  return at;
}

/**
 * A session tracker: each time a symbol is returned its timestamp is kept (up to
 * `maxStampsPerSymbol`, oldest dropped); its boost at time `t` is
 * `min(maxBoost, Σ 2^(−(t − stamp)/halfLife))` over stamps not after `t`, and 0 below
 * `minBoost`. Time is always a parameter (the clock is read only when a call omits it), so
 * results are reproducible.
 *
 * @throws KnowingError `INVALID_ARGUMENT` for bad options or non-finite times.
 * @example
 * ```ts
 * const session = createSessionTracker();
 * session.record(ranked.map((s) => s.node.id), now);
 * session.boost(id, now + 180_000); // 0.5: one half-life later
 * const inputs = candidates.map((c) => ({ ...c, sessionBoost: session.boost(c.node.id, now) }));
 * ```
 */
export function createSessionTracker(options: Partial<SessionTrackerOptions> = {}): SessionTracker {
  const o: SessionTrackerOptions = { ...DEFAULT_SESSION_TRACKER_OPTIONS, ...options };
  if (!(o.halfLifeMs > 0) || !Number.isFinite(o.halfLifeMs)) throw invalid(`session option halfLifeMs must be a positive number, got ${String(o.halfLifeMs)}`);
  if (!(o.maxBoost > 0) || !Number.isFinite(o.maxBoost)) throw invalid(`session option maxBoost must be a positive number, got ${String(o.maxBoost)}`);
  if (!(o.minBoost >= 0) || !Number.isFinite(o.minBoost)) throw invalid(`session option minBoost must be a number ≥ 0, got ${String(o.minBoost)}`);
  if (!Number.isInteger(o.maxStampsPerSymbol) || o.maxStampsPerSymbol < 1) {
    throw invalid(`session option maxStampsPerSymbol must be a positive integer, got ${String(o.maxStampsPerSymbol)}`);
  }
  if (typeof o.clock !== 'function') throw invalid('session option clock must be a function');

  const decayPerMs = Math.LN2 / o.halfLifeMs;
  /** Per symbol, access times in ascending order. */
  const stamps = new Map<NodeId, number[]>();
  let lastPrune = -Infinity;

  function rawBoost(list: readonly number[], at: number): number {
    let sum = 0;
    for (const stamp of list) {
      if (stamp > at) break; // ascending: the rest are later still
      sum += Math.exp(-(at - stamp) * decayPerMs);
    }
    return sum;
  }

  function boostAt(id: NodeId, at: number): number {
    const list = stamps.get(id);
    if (!list) return 0;
    const boost = Math.min(o.maxBoost, rawBoost(list, at));
    return boost < o.minBoost ? 0 : boost;
  }

  function prune(at: number): void {
    for (const [id, list] of stamps) {
      const latest = list[list.length - 1]!;
      if (latest <= at && rawBoost(list, at) < o.minBoost) stamps.delete(id);
    }
    lastPrune = at;
  }

  return {
    record(ids, at = o.clock()) {
      checkTime(at);
      for (const id of new Set(ids)) {
        const list = stamps.get(id);
        if (!list) {
          stamps.set(id, [at]);
          continue;
        }
        let i = list.length;
        while (i > 0 && list[i - 1]! > at) i--;
        list.splice(i, 0, at);
        if (list.length > o.maxStampsPerSymbol) list.splice(0, list.length - o.maxStampsPerSymbol);
      }
      // Forget long-faded symbols now and then, so a long-lived server does not grow forever.
      if (at - lastPrune >= o.halfLifeMs) prune(at);
    },
    boost(id, at = o.clock()) {
      return boostAt(id, checkTime(at));
    },
    boosts(ids, at = o.clock()) {
      checkTime(at);
      const result = new Map<NodeId, number>();
      for (const id of ids) {
        const boost = boostAt(id, at);
        if (boost > 0) result.set(id, boost);
      }
      return result;
    },
    size() {
      return stamps.size;
    },
    prune(at = o.clock()) {
      prune(checkTime(at));
    },
    reset() {
      stamps.clear();
      lastPrune = -Infinity;
    },
  };
}
