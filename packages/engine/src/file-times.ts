import type { GraphStore } from '@knowing/graph';

/**
 * When each file's current content was first indexed, by path — the indexer keeps a file's
 * time while its content hash is unchanged, so this is when the code last changed as far as
 * the index knows. Read once per index write (the repository's `indexedAt`), shared by the
 * queries in between.
 */
export function createFileTimes(store: GraphStore): () => Promise<ReadonlyMap<string, number>> {
  let loaded: { readonly at: number | null; readonly times: Promise<ReadonlyMap<string, number>> } | undefined;
  return async () => {
    const at = (await store.repo())?.indexedAt ?? null;
    if (!loaded || loaded.at !== at) {
      const times = store.listFiles().then((files) => new Map(files.map((f) => [f.path, f.indexedAt])));
      loaded = { at, times };
      times.catch(() => {
        if (loaded?.times === times) loaded = undefined;
      });
    }
    return loaded.times;
  };
}
