/**
 * Pieces shared by the benchmarks that run knowing's CLI on a copy of a checkout with a
 * `knowing watch` beside it (`bench:peers --watch`, `bench:edit`): the copy, the file edited,
 * and the watcher's lifetime.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createSqliteStore } from '@knowing/store-sqlite';
import { excludedFromCopy } from './peers-lib.js';
import { pickFile } from './perf-measure.js';

/** A long-lived helper process of a tool: opened before its timed steps, closed before any full index. */
export interface ToolSession {
  open(): Promise<void>;
  close(): Promise<void>;
}

/** Copy of a checkout without the tools' index directories (symlinks kept as they are, so nothing points back into the corpus). */
export function copyCheckout(source: string, target: string): void {
  rmSync(target, { recursive: true, force: true });
  mkdirSync(join(target, '..'), { recursive: true });
  cpSync(source, target, { recursive: true, verbatimSymlinks: true, filter: (path) => !excludedFromCopy(path) });
}

/** A mid-sized file of knowing's index that is a regular file of the copy. */
export async function pickEditTarget(root: string, dbPath: string): Promise<string | null> {
  const store = await createSqliteStore({ path: dbPath, readonly: true });
  try {
    const file = await pickFile(store);
    return file && lstatSync(join(root, file)).isFile() ? file : null;
  } finally {
    await store.close();
  }
}

/**
 * `knowing watch` over the copy (`bin`, the built CLI), writing the index at `dbPath`, with a
 * 50 ms quiet time: ready when its first line says so, then asked one untimed query (budget
 * `budget`), so that the figures are those of a watcher that has answered before (as one that
 * runs beside an agent has).
 */
export function watchSession(bin: string, root: string, dbPath: string, env: NodeJS.ProcessEnv, budget: number): ToolSession {
  let running: { child: ChildProcess; exited: Promise<void> } | undefined;
  return {
    async open() {
      if (running) return;
      // The watcher listens at <repo>/.knowing/cli.sock, and makes no folder for it: the index is elsewhere (--db).
      mkdirSync(join(root, '.knowing'), { recursive: true });
      const child = spawn(process.execPath, [bin, 'watch', root, '--db', dbPath, '--debounce', '50', '--json', '-q'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      running = { child, exited };
      await new Promise<void>((ready, fail) => {
        let seen = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          seen += chunk.toString('utf8');
          if (seen.includes('"event":"ready"')) ready();
        });
        void exited.then(() => fail(new Error(`knowing watch exited before it was ready: ${seen.trim().split('\n').at(-1) ?? ''}`)));
      });
      spawnSync(process.execPath, [bin, 'context', '--task', 'warm up', '--repo', root, '--db', dbPath, '--budget', String(budget), '-q'], { cwd: root, env });
    },
    async close() {
      if (!running) return;
      const { child, exited } = running;
      running = undefined;
      child.kill('SIGINT');
      await exited;
    },
  };
}
