import { invalidArgument } from './errors.js';
import type { GcfSession, GcfSessionEntry } from './types.js';

const keyOf = (qualifiedName: string, kind: string): string => `${kind}\0${qualifiedName}`;

/**
 * A GCF session: remembers which symbols one conversation has already received and under
 * which id, so later packs refer to them as `@ID` instead of repeating them. A symbol is
 * identified by its qualified name and kind. Pass `entries()` of an earlier session to
 * restore it.
 *
 * @example
 * ```ts
 * const session = createGcfSession();
 * formatPack(first, { format: 'gcf', session });  // @0 fn src/a.ts.run 0.91 -
 * formatPack(second, { format: 'gcf', session }); // @0 # sent before
 * ```
 */
export function createGcfSession(entries: Iterable<GcfSessionEntry> = []): GcfSession {
  const ids = new Map<string, number>();
  const byId = new Map<number, GcfSessionEntry>();
  let nextId = 0;
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.id) || entry.id < 0) throw invalidArgument(`session entry ${entry.qualifiedName} has id ${entry.id}; ids are whole numbers ≥ 0`);
    const key = keyOf(entry.qualifiedName, entry.kind);
    if (ids.has(key) || byId.has(entry.id)) throw invalidArgument(`session entries repeat ${ids.has(key) ? `symbol ${entry.qualifiedName}` : `id ${entry.id}`}`);
    ids.set(key, entry.id);
    byId.set(entry.id, { qualifiedName: entry.qualifiedName, kind: entry.kind, id: entry.id });
    nextId = Math.max(nextId, entry.id + 1);
  }
  return {
    get size() {
      return ids.size;
    },
    get nextId() {
      return nextId;
    },
    idOf: (qualifiedName, kind) => ids.get(keyOf(qualifiedName, kind)),
    add(qualifiedName, kind) {
      const key = keyOf(qualifiedName, kind);
      const known = ids.get(key);
      if (known !== undefined) return known;
      const id = nextId++;
      ids.set(key, id);
      byId.set(id, { qualifiedName, kind, id });
      return id;
    },
    entries: () => [...byId.values()].sort((a, b) => a.id - b.id),
    clear() {
      ids.clear();
      byId.clear();
      nextId = 0;
    },
  };
}
