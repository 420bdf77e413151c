import type { Channel, ChannelHit } from '../channel.js';
import type { VectorChannel } from '../types.js';
import { HitList } from './common.js';

/**
 * A semantic search (`VectorChannel`) as a channel: the task's nearest symbols, in the order
 * the search gives them; ids the store does not know are left out. The engine builds it from
 * `createEngine({ vector })` and fuses it at `channels.vector` (0 by default: it runs only
 * when given a weight).
 *
 * @example
 * ```ts
 * const engine = createEngine({ store, channels: [createVectorChannel(myEmbeddings, { limit: 40 })], options: { channels: { vector: 1 } } });
 * ```
 */
export function createVectorChannel(search: VectorChannel, options: { readonly limit?: number } = {}): Channel {
  const limit = options.limit ?? 20;
  const fingerprint = `vector@1${JSON.stringify({ limit })}`;
  return {
    name: 'vector',
    fingerprint: () => fingerprint,
    async run({ store, task }): Promise<ChannelHit[]> {
      const ids = await search.search(task, { limit });
      const list = new HitList();
      list.add(await store.getNodes(ids), 'vector');
      return list.hits;
    },
  };
}
