import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createWorkerPool, TaskTimeoutError, WorkerStartupError } from '../src/pool.js';

const script = new URL('./fixtures/workers/echo.mjs', import.meta.url);

// Worker start-up takes seconds on a loaded 2-core machine: generous test time limits.
describe('worker pool', { timeout: 60_000 }, () => {
  it('runs tasks across workers and returns every result', async () => {
    const pool = createWorkerPool<{ value: number }, { value: number }>({ script, size: 2, taskTimeoutMs: 5_000 });
    try {
      const results = await Promise.all([1, 2, 3, 4, 5].map((value) => pool.run({ value })));
      expect(results.map((r) => r.value)).toEqual([2, 4, 6, 8, 10]);
    } finally {
      await pool.close();
    }
  });

  it('abandons a hung task, replaces its worker and keeps going', async () => {
    const pool = createWorkerPool<{ value?: number; hang?: boolean }, { value: number }>({ script, size: 1, taskTimeoutMs: 1_500 });
    try {
      const hung = pool.run({ hang: true });
      const after = pool.run({ value: 21 });
      await expect(hung).rejects.toBeInstanceOf(TaskTimeoutError);
      await expect(after).resolves.toEqual({ value: 42 });
    } finally {
      await pool.close();
    }
  });

  it('survives a crashing worker', async () => {
    const pool = createWorkerPool<{ value?: number; crash?: boolean }, { value: number }>({ script, size: 1, taskTimeoutMs: 5_000 });
    try {
      await expect(pool.run({ crash: true })).rejects.toThrow('worker crashed');
      await expect(pool.run({ value: 1 })).resolves.toEqual({ value: 2 });
    } finally {
      await pool.close();
    }
  });
});

describe('worker pool and the event loop', { timeout: 60_000 }, () => {
  it('keeps a process alive while tasks wait for workers to start, and lets it exit once closed', async () => {
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const script = fileURLToPath(new URL('./fixtures/scripts/await-pool-only.ts', import.meta.url));
    // Before the fix, this exited with code 13 (unsettled top-level await) and no output.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', tsx, script], { timeout: 50_000 });
    expect(stdout).toBe('[2,4,6]');
  });

  it('settles close() when a worker says it is ready only after the pool was closed', async () => {
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const script = fileURLToPath(new URL('./fixtures/scripts/close-before-ready-handled.ts', import.meta.url));
    // Before the fix, the late readiness unref'd the worker being terminated: exit code 13.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', tsx, script], { timeout: 50_000 });
    expect(stdout).toBe('closed');
  });
});

describe('worker pool startup failures', { timeout: 60_000 }, () => {
  it('rejects every task with WorkerStartupError when the script cannot load, without respawning forever', async () => {
    const missing = new URL('./fixtures/workers/does-not-exist.mjs', import.meta.url);
    const pool = createWorkerPool<{ value: number }, { value: number }>({ script: missing, size: 2, taskTimeoutMs: 5_000 });
    try {
      const results = await Promise.allSettled([1, 2, 3, 4].map((value) => pool.run({ value })));
      expect(results.every((r) => r.status === 'rejected' && r.reason instanceof WorkerStartupError)).toBe(true);
      await expect(pool.run({ value: 5 })).rejects.toBeInstanceOf(WorkerStartupError);
    } finally {
      await pool.close();
    }
  });
});
