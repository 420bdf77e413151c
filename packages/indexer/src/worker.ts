/**
 * Worker-thread entry: extracts files on request. Loaded only from built JavaScript
 * (`dist/worker.js`); a worker cannot load TypeScript sources without a loader.
 */
import { parentPort } from 'node:worker_threads';
import { extractFile } from './extract.js';
import type { ExtractTask } from './extract.js';

interface Request {
  readonly id: number;
  readonly task: ExtractTask;
}

// Reaching this line means every module loaded: the pool treats earlier deaths as "cannot start".
parentPort?.postMessage({ ready: true });

parentPort?.on('message', (request: Request) => {
  void extractFile(request.task).then(
    (result) => {
      // The decoded object stays here: the encoded bytes travel without a copy.
      const { extraction: _extraction, ...rest } = result;
      parentPort!.postMessage({ id: request.id, result: rest }, [rest.encoded.buffer as ArrayBuffer]);
    },
    (error: unknown) => parentPort!.postMessage({ id: request.id, error: (error as Error).message ?? String(error) }),
  );
});
