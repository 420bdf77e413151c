import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLearnedRanker, LEARNED_FEATURES } from '@knowing/rank';
import type { LearnedModel } from '@knowing/rank';
import { buildShopHistory } from '../../history/test/fixtures/shop-history.mjs';
import { BIN, emptyDir, git, knowing, removeScratch } from './helpers.js';
import { installDecision } from '../src/commands/train.js';

afterAll(removeScratch);

/** A scratch repository with the shop fixture's history: 13 commits, 12 of them tasks. */
function shopRepo(changes?: number): string {
  const dir = emptyDir('knowing-train-shop-');
  buildShopHistory(dir, changes);
  return dir;
}

/** A temp directory of the run's own (TMPDIR), to see that training leaves nothing in it. */
function privateTmp(): string {
  return emptyDir('knowing-train-tmp-');
}

let repo: string;
let trainTmp: string;
let trained: { code: number; stdout: string; stderr: string };

beforeAll(async () => {
  repo = shopRepo();
  trainTmp = privateTmp();
  // --force: installed whatever the 2 held-out tasks say of it.
  trained = await knowing(['train', '--force'], { cwd: repo, env: { TMPDIR: trainTmp } });
});

describe('knowing train', () => {
  it('mines the history, prints before/after figures and writes a model createLearnedRanker accepts', () => {
    expect(trained.stderr).toContain('12 tasks mined');
    expect(trained.code).toBe(0);
    expect(trained.stdout).toMatch(/^Trained on 10 history tasks of knowing-train-shop-\w+ \(2024-01-02 to 2024-01-11\); held out the newest 2 tasks \(2024-01-12 to 2024-01-13\)\./);
    expect(trained.stdout).toMatch(/R@10\s+MRR\s+P@10/);
    for (const label of ['before: formula', 'before: shipped model', 'after: trained model']) expect(trained.stdout).toMatch(new RegExp(`${label}\\s+\\d\\.\\d{3}\\s+\\d\\.\\d{3}\\s+\\d\\.\\d{3}`));
    expect(trained.stdout).toContain('Wrote .knowing/model.json.');
    const model = JSON.parse(readFileSync(join(repo, '.knowing', 'model.json'), 'utf8')) as LearnedModel;
    expect(() => createLearnedRanker({ model })).not.toThrow();
    expect(model.trainedOn).toMatch(/^10 history tasks of /);
  });

  it('leaves the repository as it was: branch, clean status (the model is ignored), no worktree, no scratch', () => {
    expect(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(readdirSync(trainTmp)).toEqual([]);
  });

  it('does not install a model that ranks the held-out tasks worse than the shipped one, unless forced or written with --out', () => {
    const figures = (trained: number) => ({ shipped: { recallAt10: 1, mrr: 0.8 }, trained: { recallAt10: trained, mrr: 0.8 } });
    expect(installDecision(figures(0.9), { out: false, force: false })).toEqual({ worse: true, install: false });
    expect(installDecision(figures(0.9), { out: false, force: true })).toEqual({ worse: true, install: true });
    expect(installDecision(figures(0.9), { out: true, force: false })).toEqual({ worse: true, install: true });
    // As good as the shipped one is good enough.
    expect(installDecision(figures(1), { out: false, force: false })).toEqual({ worse: false, install: true });
  });

  it('installs the trained model when it ranks the held-out tasks as well as the shipped one, and says which it used', async () => {
    const fresh = shopRepo();
    const result = await knowing(['train', '--json'], { cwd: fresh });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as { model: string | null; heldOut: Record<string, { recallAt10: number; mrr: number }> };
    const sum = (f: { recallAt10: number; mrr: number }): number => f.recallAt10 + f.mrr;
    const worse = sum(json.heldOut['trained']!) < sum(json.heldOut['shipped']!);
    expect(json.model === null).toBe(worse);
    expect(existsSync(join(fresh, '.knowing', 'model.json'))).toBe(!worse);
  });

  it('reports the figures as JSON and writes --out instead of the repository model', async () => {
    const out = join(repo, 'elsewhere', 'model.json');
    const result = await knowing(['train', '--out', out, '--json', '--holdout', '0.5', '--max-tasks', '10'], { cwd: repo });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as { model: string; tasks: { mined: number; train: number; heldOut: number }; heldOut: Record<string, { recallAt10: number; mrr: number; precisionAt10: number }> };
    expect(json.model).toBe(out);
    expect(json.tasks).toMatchObject({ mined: 10, train: 5, heldOut: 5 });
    expect(Object.keys(json.heldOut)).toEqual(['formula', 'shipped', 'trained']);
    expect(existsSync(out)).toBe(true);
  });

  it('refuses a folder that is not a git repository', async () => {
    const result = await knowing(['train'], { cwd: emptyDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/knowing: .* is not a git repository\n/);
    expect(result.stderr).toContain('hint: knowing train learns from the commits of a repository');
  });

  it('refuses a history with too few tasks, saying how many and the minimum', async () => {
    const small = shopRepo(3);
    const result = await knowing(['train', '--json'], { cwd: small });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('found 3 tasks in the newest 4 commits');
    expect(result.stderr).toContain('training needs at least 10');
    expect((JSON.parse(result.stdout) as { error: { code: string } }).error.code).toBe('TOO_FEW_TASKS');
    expect(existsSync(join(small, '.knowing', 'model.json'))).toBe(false);
  });

  it('--learner trees fits boosted trees, which the ranker accepts', async () => {
    const out = join(repo, 'elsewhere', 'trees.json');
    const result = await knowing(['train', '--learner', 'trees', '--out', out, '--json', '--max-tasks', '10'], { cwd: repo });
    expect(result.code, result.stderr).toBe(0);
    const model = JSON.parse(readFileSync(out, 'utf8')) as LearnedModel;
    expect(model.kind).toBe('trees');
    expect(() => createLearnedRanker({ model })).not.toThrow();
  });

  it('refuses an unknown --learner', async () => {
    const result = await knowing(['train', '--learner', 'forest'], { cwd: repo });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--learner must be linear or trees, got "forest"');
  });

  it('refuses a bad --holdout', async () => {
    const result = await knowing(['train', '--holdout', '1.5'], { cwd: repo });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--holdout must be a fraction between 0 and 1');
  });

  it('stops on Ctrl-C with exit 130, removing the temporary worktree and index', async () => {
    const fresh = shopRepo();
    const tmp = privateTmp();
    const child = spawn(process.execPath, [BIN, 'train'], { cwd: fresh, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', TMPDIR: tmp } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.includes('temporary worktree')) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(stderr).toContain('interrupted; the temporary worktree and index were removed');
    expect(git(fresh, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(fresh, '.knowing', 'model.json'))).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('explains itself in --help', async () => {
    const result = await knowing(['train', '--help'], { cwd: repo });
    expect(result.code).toBe(0);
    for (const text of ['--max-tasks N', '--holdout FRACTION', '.knowing/model.json', 'temporary worktree', 'delete the file']) expect(result.stdout).toContain(text);
  });
});

describe('a repository model in .knowing/model.json', () => {
  /** The shipped model with every weight zero but one: its score then comes from that feature alone. */
  function onlyFeature(feature: string, weight: number): LearnedModel {
    return {
      version: 1,
      kind: 'linear',
      features: [...LEARNED_FEATURES],
      mean: LEARNED_FEATURES.map(() => 0),
      scale: LEARNED_FEATURES.map(() => 1),
      weights: LEARNED_FEATURES.map((name) => (name === feature ? weight : 0)),
      trainedOn: 'test',
    };
  }

  let modelRepo: string;
  beforeAll(async () => {
    modelRepo = shopRepo(1);
    expect((await knowing(['index', '--workers', '0'], { cwd: modelRepo })).code).toBe(0);
  });

  const whyCart = async (): Promise<{ factors: Record<string, number>; stderr: string }> => {
    const result = await knowing(['why', '--task', 'add an item to the shopping cart', '--symbol', 'Cart', '--json'], { cwd: modelRepo });
    expect(result.code).toBe(0);
    return { factors: (JSON.parse(result.stdout) as { factors: Record<string, number> }).factors, stderr: result.stderr };
  };

  it('ranks task answers: `knowing why` shows the features of that model', async () => {
    const before = await whyCart();
    expect(Object.values(before.factors).filter((v) => v !== 0).length).toBeGreaterThan(3);
    mkdirSync(join(modelRepo, '.knowing'), { recursive: true });
    writeFileSync(join(modelRepo, '.knowing', 'model.json'), JSON.stringify(onlyFeature('type_like', 3)));
    const after = await whyCart();
    expect(after.stderr).toBe('');
    const nonZero = Object.entries(after.factors).filter(([, v]) => v !== 0).map(([name]) => name);
    expect(nonZero).toEqual(['type_like']);
    const text = await knowing(['why', '--task', 'add an item to the shopping cart', '--symbol', 'Cart'], { cwd: modelRepo });
    expect(text.stdout).toMatch(/features \(share of the learned score\):\n\s+type_like\s+/);
  });

  it('is ignored with a one-line warning when it does not fit this version', async () => {
    writeFileSync(join(modelRepo, '.knowing', 'model.json'), JSON.stringify({ version: 1, features: ['lexical'], mean: [0], scale: [1], weights: [1] }));
    const result = await knowing(['context', '--task', 'add an item to the shopping cart', '--format', 'gcf'], { cwd: modelRepo });
    expect(result.code).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.includes('warning'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^knowing: warning: ignoring .*model\.json \(learned model does not fit this version\); using the shipped model — retrain with `knowing train` or delete the file$/);
    expect(result.stdout).toContain('Cart');
    const { factors } = await whyCart();
    expect(Object.values(factors).filter((v) => v !== 0).length).toBeGreaterThan(3);
  });

  it('gives way to a ranker set in knowing.config', async () => {
    writeFileSync(join(modelRepo, '.knowing', 'model.json'), JSON.stringify(onlyFeature('type_like', 3)));
    writeFileSync(join(modelRepo, 'walk-ranker.mjs'), "export default { name: 'walk-only', rank: (inputs) => inputs.map((i) => ({ node: i.node, score: i.rwr, distance: i.distance, rwr: i.rwr, components: { rwr: i.rwr } })).sort((a, b) => b.score - a.score) };\n");
    writeFileSync(join(modelRepo, 'knowing.config.json'), JSON.stringify({ ranker: './walk-ranker.mjs' }));
    try {
      const result = await knowing(['why', '--task', 'add an item to the shopping cart', '--symbol', 'Cart', '--json'], { cwd: modelRepo });
      expect(result.code).toBe(0);
      const explanation = JSON.parse(result.stdout) as { factors?: Record<string, number>; components: Record<string, number> };
      expect(explanation.factors ?? {}).toEqual({});
      expect(Object.keys(explanation.components)).toEqual(['rwr']);
    } finally {
      writeFileSync(join(modelRepo, 'knowing.config.json'), '{}');
    }
  });
});
