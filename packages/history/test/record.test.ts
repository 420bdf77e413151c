import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLearnedRanker, DEFAULT_LEARNED_MODEL, trainLearnedModel } from '@knowing/rank';
import { mineRepository } from '../src/miner.js';
import type { MinedTask } from '../src/miner.js';
import { labelCandidates, recordTrainingGroups, withFileHistory } from '../src/record.js';
import { readCommitLog } from '@knowing/indexer';
import { buildFileHistory } from '@knowing/keywords';
import type { RecordedGroup } from '../src/record.js';
import { orderWithModel, rankingFigures, recordedOrder, trainingGroupOf } from '../src/evaluate.js';
import { repositoryModel, repositoryModelPath, writeModelFile } from '../src/model.js';
import { buildShopHistory, SHOP_CHANGES } from './fixtures/shop-history.mjs';

let scratch: string;
let repo: string;
let tasks: readonly MinedTask[];
let groups: RecordedGroup[];

const gitOut = (...args: string[]): string => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'knowing-history-record-'));
  repo = join(scratch, 'shop');
  mkdirSync(repo);
  buildShopHistory(repo);
  ({ tasks } = await mineRepository({ gitDir: join(repo, '.git'), repo: 'shop', language: 'python' }));
  groups = await recordTrainingGroups({ gitDir: join(repo, '.git'), tasks: tasks.slice(0, 4), repo: 'shop', index: { workers: 0 } });
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('recordTrainingGroups', () => {
  it('mines one task per change of the fixture, each naming the function it changed', () => {
    expect(tasks).toHaveLength(SHOP_CHANGES);
    const discount = tasks.find((t) => t.description.startsWith('Make apply_discount'));
    expect(discount?.groundTruth).toEqual(['shop/pricing.py.apply_discount']);
  });

  it('skips a task whose parent commit cannot be checked out, and records the others', async () => {
    const missing = { ...tasks[0]!, id: 'shop/missing', parent: 'deadbeef'.repeat(5) };
    const progress: { id: string; skipped?: string }[] = [];
    const recorded = await recordTrainingGroups({
      gitDir: join(repo, '.git'),
      tasks: [missing, tasks[1]!],
      repo: 'shop',
      index: { workers: 0 },
      onTask: ({ task, skipped }) => progress.push({ id: task.id, ...(skipped ? { skipped } : {}) }),
    });
    expect(recorded.map((g) => g.task)).toEqual([tasks[1]!.id]);
    expect(progress[0]).toMatchObject({ id: 'shop/missing' });
    expect(progress[0]!.skipped).toMatch(/\S/);
    expect(progress[1]!.skipped).toBeUndefined();
  });

  it('records one labelled group per task, the changed function among the positives', () => {
    expect(groups).toHaveLength(4);
    for (const group of groups) {
      expect(group.repo).toBe('shop');
      expect(group.labels).toHaveLength(group.inputs.length);
      expect(group.context.task.length).toBeGreaterThan(0);
      expect(group.inputs.every((input) => input.node.signature === '' && input.node.doc === '')).toBe(true);
    }
    // Mined newest first: the last change of the fixture made Inventory.available never negative.
    const available = groups[0]!;
    expect(available.groundTruth).toEqual(['shop/inventory.py.Inventory.available']);
    const names = recordedOrder(available);
    expect(available.labels[names.indexOf('shop/inventory.py.Inventory.available')]).toBe(true);
    // By the matching rules the enclosing class counts too (dot-bounded containment).
    expect(names.filter((_, i) => available.labels[i]).sort()).toEqual(['shop/inventory.py.Inventory', 'shop/inventory.py.Inventory.available']);
  });

  it("records the file history of each task's parent, as withFileHistory computes it from the log", async () => {
    for (const group of groups) expect(group.context.fileHistory).toBe(true);
    expect(groups.some((group) => group.inputs.some((input) => (input.fileHistory ?? 0) > 0))).toBe(true);
    expect(groups.every((group) => group.inputs.some((input) => input.fileChurn === 1))).toBe(true);
    for (const group of groups) {
      const parent = tasks.find((t) => t.id === group.task)!.parent;
      const commits = await readCommitLog({ gitDir: join(repo, '.git'), rev: parent }, 5000);
      const again = withFileHistory(group, buildFileHistory(commits!, { commit: parent }));
      expect(again.inputs.map((i) => i.fileHistory)).toEqual(group.inputs.map((i) => i.fileHistory));
      expect(again.inputs.map((i) => i.fileChurn)).toEqual(group.inputs.map((i) => i.fileChurn));
      const none = withFileHistory(group, undefined);
      expect(none.context.fileHistory).toBe(false);
      expect(none.inputs.every((i) => i.fileHistory === undefined && i.fileChurn === undefined)).toBe(true);
    }
  });

  it('leaves the repository as it was: branch, HEAD, working tree, no worktree registered', () => {
    expect(gitOut('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(gitOut('status', '--porcelain')).toBe('');
    expect(gitOut('worktree', 'list').split('\n')).toHaveLength(1);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('knowing-train-'))).toEqual([]);
  });

  it('cleans up when aborted, rejecting with the abort reason', async () => {
    const controller = new AbortController();
    const run = recordTrainingGroups({
      gitDir: join(repo, '.git'),
      tasks: tasks.slice(0, 3),
      repo: 'shop',
      index: { workers: 0 },
      signal: controller.signal,
      onTask: () => controller.abort(),
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(gitOut('worktree', 'list').split('\n')).toHaveLength(1);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('knowing-train-'))).toEqual([]);
  });

  it('labels candidates by the benchmark matching rules', () => {
    expect(labelCandidates(['shop/cart.py.Cart.total', 'shop/cart.py.Cart.subtotal'], ['cart.py:Cart.total'])).toEqual([true, false]);
  });

  it('trains a model createLearnedRanker accepts, and scores orders with it', () => {
    const model = trainLearnedModel(groups.map(trainingGroupOf), { epochs: 20 }, 'shop');
    expect(() => createLearnedRanker({ model })).not.toThrow();
    const formula = rankingFigures(groups, recordedOrder);
    const shipped = rankingFigures(groups, (g) => orderWithModel(DEFAULT_LEARNED_MODEL, g));
    expect(formula.tasks).toBe(4);
    for (const figures of [formula, shipped]) {
      for (const value of [figures.recallAt10, figures.mrr, figures.precisionAt10]) expect(value).toBeGreaterThanOrEqual(0);
    }
    expect(formula.recallAt10).toBeGreaterThan(0);
  });
});

describe('repositoryModel', () => {
  it('is undefined without a model file', () => {
    expect(repositoryModel(join(scratch, 'nowhere'))).toBeUndefined();
  });

  it('warns in one line and is undefined for a model of another version', () => {
    const root = join(scratch, 'bad-model');
    mkdirSync(join(root, '.knowing'), { recursive: true });
    writeFileSync(repositoryModelPath(root), JSON.stringify({ version: 1, features: ['x'], mean: [0], scale: [1], weights: [1] }));
    const warnings: string[] = [];
    expect(repositoryModel(root, { warn: (m) => warnings.push(m) })).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/ignoring .*model\.json \(learned model does not fit this version/);
    expect(warnings[0]).not.toContain('\n');
    writeFileSync(repositoryModelPath(root), '{ not json');
    expect(repositoryModel(root, { warn: (m) => warnings.push(m) })).toBeUndefined();
    expect(warnings).toHaveLength(2);
  });

  it('reads a usable model back', () => {
    const root = join(scratch, 'good-model');
    writeModelFile(repositoryModelPath(root), DEFAULT_LEARNED_MODEL);
    expect(existsSync(join(root, '.knowing', 'model.json'))).toBe(true);
    expect(repositoryModel(root)).toEqual(DEFAULT_LEARNED_MODEL);
  });
});
