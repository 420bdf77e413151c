import type { GraphStore } from '@knowing/graph';

/**
 * After this much work without a turn of the event loop, the next store call lets it turn.
 * Small enough that a `ping` queued behind an answer or an index run is read within a few
 * tens of milliseconds; large enough that the turns cost nothing measurable.
 */
export const YIELD_AFTER_MS = 15;

/**
 * The store, with its asynchronous methods made to yield to the event loop now and then.
 *
 * The SQLite store answers synchronously behind its promises, and promise continuations run
 * before any I/O: an answer or an index run made of thousands of store calls would otherwise
 * hold the thread until it ends, and the requests that arrive meanwhile (a `ping`, a
 * `notifications/cancelled`, another tool call) would wait that long to be read at all. Every
 * store call is a point where the engine and the indexer can be paused without changing what
 * they compute, so the pause goes there: when `yieldAfterMs` have passed since the last turn,
 * the call's result is handed over after a `setImmediate`, which lets pending I/O run first.
 */
export function yieldingStore(store: GraphStore, yieldAfterMs: number = YIELD_AFTER_MS): GraphStore {
  let lastTurn = performance.now();
  const turn = (): Promise<void> =>
    new Promise((resolve) =>
      setImmediate(() => {
        lastTurn = performance.now();
        resolve();
      }),
    );
  const pause = async <T>(value: T): Promise<T> => {
    if (performance.now() - lastTurn >= yieldAfterMs) await turn();
    return value;
  };
  /** An async iterable (allNodes, allEdges: the engine loads the graph with them) that pauses between items too. */
  const pausing = <T>(iterable: AsyncIterable<T>): AsyncIterable<T> => ({
    [Symbol.asyncIterator]() {
      const iterator = iterable[Symbol.asyncIterator]();
      return {
        next: () => iterator.next().then(pause),
        ...(iterator.return ? { return: (value?: unknown) => iterator.return!(value) } : {}),
      };
    },
  });
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      let wrapper = wrapped.get(property);
      if (!wrapper) {
        wrapper = (...args: unknown[]): unknown => {
          const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (result instanceof Promise) return result.then(pause);
          if (typeof result === 'object' && result !== null && Symbol.asyncIterator in result) return pausing(result as AsyncIterable<unknown>);
          return result;
        };
        wrapped.set(property, wrapper);
      }
      return wrapper;
    },
  });
}
