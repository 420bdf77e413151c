import { describe, expect, it } from 'vitest';
import { createWorkerPool, TaskTimeoutError } from '../src/pool.js';

const script = new URL('./fixtures/workers/in-order.mjs', import.meta.url);

interface Task {
  value: number;
  delayMs?: number;
  crash?: boolean;
  hang?: boolean;
}
interface Answer {
  value: number;
  /** Tasks waiting in the worker when this one was answered. */
  behind: number;
}

// Worker start-up takes seconds on a loaded 2-core machine: generous test time limits.
describe('worker pool with several tasks per worker', { timeout: 60_000 }, () => {
  it('hands a worker its next task before the current one is answered', async () => {
    const pool = createWorkerPool<Task, Answer>({ script, size: 1, taskTimeoutMs: 10_000 });
    try {
      const answers = await Promise.all([1, 2, 3].map((value) => pool.run({ value, delayMs: 100 })));
      expect(answers.map((a) => a.value)).toEqual([2, 4, 6]);
      // Two tasks per worker by default: the second waited in the worker behind the first.
      expect(answers[0]!.behind).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('holds one task per worker when asked to', async () => {
    const pool = createWorkerPool<Task, Answer>({ script, size: 1, taskTimeoutMs: 10_000, tasksPerWorker: 1 });
    try {
      const answers = await Promise.all([1, 2].map((value) => pool.run({ value, delayMs: 50 })));
      expect(answers.map((a) => a.behind)).toEqual([0, 0]);
    } finally {
      await pool.close();
    }
  });

  it('fails only the task a worker crashed in; the task waiting behind it runs on the replacement', async () => {
    const pool = createWorkerPool<Task, Answer>({ script, size: 1, taskTimeoutMs: 10_000 });
    try {
      const crashed = pool.run({ value: 0, crash: true, delayMs: 50 });
      const behind = pool.run({ value: 5 });
      await expect(crashed).rejects.toThrow('worker crashed');
      await expect(behind).resolves.toMatchObject({ value: 10 });
    } finally {
      await pool.close();
    }
  });

  it('times out only the stuck task; the task waiting behind it runs on the replacement', async () => {
    const pool = createWorkerPool<Task, Answer>({ script, size: 1, taskTimeoutMs: 1_500 });
    try {
      const stuck = pool.run({ value: 0, hang: true });
      const behind = pool.run({ value: 7 });
      await expect(stuck).rejects.toBeInstanceOf(TaskTimeoutError);
      await expect(behind).resolves.toMatchObject({ value: 14 });
    } finally {
      await pool.close();
    }
  });

  it('gives a task waiting behind a slow one its own full time limit', async () => {
    // Each task takes 60% of the limit: together they exceed it, each alone does not (with a
    // second to spare for a loaded machine).
    const pool = createWorkerPool<Task, Answer>({ script, size: 1, taskTimeoutMs: 2_500 });
    try {
      const answers = await Promise.all([1, 2].map((value) => pool.run({ value, delayMs: 1_500 })));
      expect(answers.map((a) => a.value)).toEqual([2, 4]);
    } finally {
      await pool.close();
    }
  });
});
