import { ErrorCode, KnowingError, sha256Hex } from '@knowing/graph';
import type { WalkCache, WalkCacheKeyInput, WalkCacheOptions } from './types.js';

/** Defaults of {@link createWalkCache}. */
export const DEFAULT_WALK_CACHE_OPTIONS: Readonly<Required<WalkCacheOptions>> = Object.freeze({
  capacity: 128,
});

function invalid(message: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source: 'walk' });
}

const encoder = new TextEncoder();

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

class ByteWriter {
  private chunks: Uint8Array[] = [];
  private size = 0;

  bytes(value: Uint8Array): void {
    const length = new Uint8Array(4);
    new DataView(length.buffer).setUint32(0, value.length, true);
    this.push(length);
    this.push(value);
  }

  float(value: number): void {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, value, true);
    this.push(bytes);
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }

  private push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
  }
}

/**
 * Content key of a walk: hex SHA-256 over the seeds (duplicates merged, sorted by their UTF-8
 * bytes, each with its weight), alpha, the sorted package roots and an optional variant
 * string. Each field is length-prefixed, so distinct inputs cannot collide by concatenation.
 * Seed and root order do not matter; a changed package root changes the key.
 *
 * @example
 * ```ts
 * const key = walkCacheKey({ seeds: [a, b], weights: [1, 0.9], alpha: 0.2, packageRoots: roots });
 * const result = cache.get(key) ?? randomWalkWithRestart(adjacency, seeds);
 * ```
 */
export function walkCacheKey(input: WalkCacheKeyInput): string {
  const { seeds, weights, alpha, packageRoots, variant } = input;
  if (weights && weights.length !== seeds.length) throw invalid(`${seeds.length} seeds but ${weights.length} weights`);
  if (!Number.isFinite(alpha)) throw invalid(`alpha must be finite, got ${alpha}`);
  const merged = new Map<string, number>();
  for (let s = 0; s < seeds.length; s++) {
    const weight = weights ? weights[s]! : 1;
    if (!Number.isFinite(weight)) throw invalid(`seed weight must be finite, got ${weight}`);
    merged.set(seeds[s]!, (merged.get(seeds[s]!) ?? 0) + weight);
  }
  const seedEntries = [...merged].map(([id, weight]) => ({ bytes: encoder.encode(id), weight }));
  seedEntries.sort((a, b) => compareBytes(a.bytes, b.bytes));
  const roots = packageRoots.map((root) => encoder.encode(root)).sort(compareBytes);

  const writer = new ByteWriter();
  writer.bytes(encoder.encode('knowing-walk-v1'));
  writer.float(seedEntries.length);
  for (const entry of seedEntries) {
    writer.bytes(entry.bytes);
    writer.float(entry.weight);
  }
  writer.float(alpha);
  writer.float(roots.length);
  for (const root of roots) writer.bytes(root);
  writer.bytes(encoder.encode(variant ?? ''));
  return sha256Hex(writer.finish());
}

/**
 * A small least-recently-used cache for walk results (or anything else), in memory only;
 * persisting across processes goes through the note store.
 *
 * @example
 * ```ts
 * const cache = createWalkCache<WalkResult>({ capacity: 64 });
 * cache.set(key, result);
 * cache.get(key); // result, now the most recently used
 * ```
 */
export function createWalkCache<V>(options: WalkCacheOptions = {}): WalkCache<V> {
  const capacity = options.capacity ?? DEFAULT_WALK_CACHE_OPTIONS.capacity;
  if (!Number.isInteger(capacity) || capacity < 1) throw invalid(`capacity must be an integer ≥ 1, got ${capacity}`);
  // A Map iterates in insertion order: re-inserting on use keeps the oldest entry first.
  const entries = new Map<string, V>();
  return {
    get(key) {
      if (!entries.has(key)) return undefined;
      const value = entries.get(key) as V;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      while (entries.size > capacity) entries.delete(entries.keys().next().value as string);
    },
    has: (key) => entries.has(key),
    delete: (key) => entries.delete(key),
    clear: () => entries.clear(),
    get size() {
      return entries.size;
    },
    capacity,
  };
}
