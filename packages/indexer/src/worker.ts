/**
 * Worker-thread entry: extracts files, and builds the lexical documents of parsed ones (see
 * lexical-task.ts), on request. Loaded only from built JavaScript (`dist/worker.js`); a worker
 * cannot load TypeScript sources without a loader.
 *
 * The pool may post a task before the previous one is answered: tasks wait here and run one at
 * a time in arrival order (the pool blames a timeout or crash on the oldest unanswered task).
 */
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { extractFile } from './extract.js';
import type { ExtractTask } from './extract.js';
import { isLexicalTask, runLexicalTask } from './lexical-task.js';
import type { LexicalTask } from './lexical-task.js';

interface Request {
  readonly id: number;
  readonly task: ExtractTask | LexicalTask;
}

const waiting: Request[] = [];
let running = false;

async function drain(): Promise<void> {
  running = true;
  for (let request = waiting.shift(); request; request = waiting.shift()) {
    try {
      if (isLexicalTask(request.task)) {
        parentPort!.postMessage({ id: request.id, result: runLexicalTask(request.task) });
        continue;
      }
      // Reading synchronously: this thread has nothing else to do meanwhile.
      const result = await extractFile(request.task as ExtractTask, undefined, readFileSync);
      // The decoded object stays here: the encoded bytes travel without a copy.
      const { extraction: _extraction, ...rest } = result;
      parentPort!.postMessage({ id: request.id, result: rest }, [rest.encoded.buffer as ArrayBuffer]);
    } catch (error) {
      parentPort!.postMessage({ id: request.id, error: (error as Error).message ?? String(error) });
    }
  }
  running = false;
}

// Reaching this line means every module loaded: the pool treats earlier deaths as "cannot start".
parentPort?.postMessage({ ready: true });

parentPort?.on('message', (request: Request) => {
  waiting.push(request);
  if (!running) void drain();
});
