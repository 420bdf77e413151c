/**
 * The server's index worker (started by index-thread.ts): `indexRepository` over a connection of
 * its own to the server's store. Resolution and the write hold the thread they run in for
 * seconds on a large repository; here that thread is not the one answering requests.
 *
 * One run at a time (the server's IndexKeeper queues them). The store is opened by the first run
 * and kept for the next ones, like the loaded grammars: a refresh after a one-file edit then
 * costs about what it costs in the server's thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { GraphStore } from '@knowing/graph';
import { indexRepository } from '@knowing/indexer';
import { sendableError } from './index-protocol.js';
import type { FromIndexWorker, IndexWorkerData, ToIndexWorker } from './index-protocol.js';
import type { StoreLocator } from './types.js';

const { root, locator, indexOptions } = workerData as IndexWorkerData;
const port = parentPort!;
const post = (message: FromIndexWorker): void => port.postMessage(message);

/** The store's package is loaded now: a driver that cannot load is a failure to start, and the server indexes in its own thread. */
async function storeOpener(where: StoreLocator): Promise<() => Promise<GraphStore>> {
  if (where.kind === 'sqlite') {
    const { createSqliteStore } = await import('@knowing/store-sqlite');
    return () => createSqliteStore({ path: where.path });
  }
  const { createPostgresStore } = await import('@knowing/store-postgres');
  return () => createPostgresStore({ connectionString: where.connectionString, ...(where.repository !== undefined ? { repository: where.repository } : {}) });
}

const openStore = await storeOpener(locator);
let store: Promise<GraphStore> | undefined;
let running: { readonly controller: AbortController; readonly settled: Promise<void> } | undefined;

async function run(full: boolean, signal: AbortSignal): Promise<void> {
  try {
    store ??= openStore().catch((error: unknown) => {
      // Not kept: the next run tries again (a lock released, a database back up).
      store = undefined;
      throw error;
    });
    // The signal also makes the indexer let this thread's event loop turn every 50 ms, so
    // that a `close` is read during the run.
    const summary = await indexRepository({ ...indexOptions, root, store: await store, full, signal, onProgress: (event) => post({ type: 'progress', event }) });
    post({ type: 'done', summary });
  } catch (error) {
    post({ type: 'failed', error: sendableError(error) });
  }
}

async function close(): Promise<void> {
  // Aborted before its write, the run leaves the stored graph as it was; once writing, it
  // completes (the batch is one transaction), and the close waits for it.
  running?.controller.abort();
  await running?.settled;
  const open = store;
  store = undefined;
  await open?.then((opened) => opened.close()).catch(() => undefined);
  post({ type: 'closed' });
}

port.on('message', (message: ToIndexWorker) => {
  if (message.type === 'close') {
    void close();
    return;
  }
  const controller = new AbortController();
  const settled = run(message.full, controller.signal).finally(() => {
    running = undefined;
  });
  running = { controller, settled };
});

post({ type: 'ready' });
