import type { ContextPack, GraphStore, RankedSymbol } from '@knowing/graph';

const PACK_NOTE_KIND = 'context_pack';

/** An answer as it is cached: the pack and the ranking it was cut from. */
export interface CachedAnswer {
  readonly pack: ContextPack;
  readonly ranked: readonly RankedSymbol[];
}

/** Answers kept in memory (most recent first out) and as notes in the store, per snapshot. */
export interface AnswerCache {
  /** The answer kept under `key` for this snapshot, if any. */
  get(key: string, snapshot: string | null): Promise<CachedAnswer | undefined>;
  /** Keep an answer; the store copy is best effort. */
  put(key: string, snapshot: string | null, answer: CachedAnswer): Promise<void>;
  /** Forget every answer, in memory and in the store (feedback changed what they would be). */
  invalidate(): Promise<void>;
  /** Forget the answers held in memory only. */
  clearMemory(): void;
}

/**
 * The engine's answer cache. Answers without a snapshot (an empty or unversioned store) live
 * in memory only: a note must name the snapshot it is valid for.
 */
export function createAnswerCache(store: GraphStore, capacity: number): AnswerCache {
  const memory = new Map<string, CachedAnswer & { snapshot: string | null }>();

  function remember(key: string, snapshot: string | null, answer: CachedAnswer): void {
    memory.delete(key);
    memory.set(key, { ...answer, snapshot });
    while (memory.size > capacity) memory.delete(memory.keys().next().value!);
  }

  return {
    async get(key, snapshot) {
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
    },
    async put(key, snapshot, answer) {
      remember(key, snapshot, answer);
      if (!snapshot) return;
      try {
        await store.putNote(`pack:${key}`, PACK_NOTE_KIND, new TextEncoder().encode(JSON.stringify(answer)), snapshot);
      } catch {
        // The answer is computed; keeping it only saves the next identical query. A read-only
        // index, another process's write lock or a full disk must not fail this one.
      }
    },
    async invalidate() {
      memory.clear();
      await store.deleteNotes({ kind: PACK_NOTE_KIND });
    },
    clearMemory() {
      memory.clear();
    },
  };
}
