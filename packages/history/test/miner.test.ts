import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCheckout, resolveMirror } from '../src/checkout.js';
import { commitGroundTruth, mineRepository } from '../src/miner.js';
import type { MineResult } from '../src/miner.js';
import { readHistoryManifest, readHistoryTasks, writeHistoryManifestEntry, writeHistoryTasks } from '../src/tasks.js';

const SERVICE_V1 = `"""A small service."""


class Service:
    def __init__(self, store):
        self.store = store

    def handle(self, payload):
        data = self.store.load(payload)
        return self.render(data)

    def render(self, data):
        title = data["title"]
        return "<h1>" + title + "</h1>"


def helper(value):
    return value * 2
`;

// handle() returns early on empty payloads.
const SERVICE_V2 = SERVICE_V1.replace(
  '    def handle(self, payload):\n',
  '    def handle(self, payload):\n        if not payload:\n            return ""\n',
);

// A new function appended, nothing existing touched.
const SERVICE_V3 = `${SERVICE_V2}

def format_duration(seconds):
    minutes = seconds // 60
    return f"{minutes} min"
`;

// helper() changed under a one-word message.
const SERVICE_V4 = SERVICE_V3.replace('    return value * 2\n', '    return value * 3\n');

// render() escapes, and a new method escape() is added beside it.
const SERVICE_V5 = SERVICE_V4.replace(
  '        title = data["title"]\n        return "<h1>" + title + "</h1>"\n',
  '        title = self.escape(data["title"])\n        return "<h1>" + title + "</h1>"\n\n    def escape(self, text):\n        return text.replace("<", "&lt;")\n',
);

// A line appended at the very end of helper(), which is the last statement of its body.
const SERVICE_V6 = SERVICE_V5.replace('    return value * 3\n', '    value = int(value)\n    return value * 3\n');

const TEST_V1 = `from app.service import Service


def test_handle():
    assert Service(None) is not None
`;

const TEST_V2 = `${TEST_V1}

def test_render():
    assert Service(None).render({"title": "x"}) == "<h1>x</h1>"
`;

let root: string;
let clock = 1_700_000_000;

function git(args: string[], env: Record<string, string> = {}): string {
  clock += 3600;
  const date = `@${clock} +0000`;
  return execFileSync('git', args, {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com', ...env },
  });
}

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

function commit(message: string): string {
  git(['add', '-A']);
  git(['commit', '-q', '-m', message]);
  return git(['rev-parse', 'HEAD']).trim();
}

const hashes: Record<string, string> = {};
let result: MineResult;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'knowing-history-'));
  git(['init', '-q', '-b', 'main']);
  git(['config', 'commit.gpgsign', 'false']);
  write('app/__init__.py', '');
  write('app/service.py', SERVICE_V1);
  write('tests/test_service.py', TEST_V1);
  hashes.initial = commit('Create the service with a store-backed handler and an HTML renderer');

  write('app/service.py', SERVICE_V2);
  hashes.changedMethod = commit('Return an empty result early when the handler gets an empty payload (#12)\n\nSigned-off-by: Ada <ada@example.com>');

  write('app/service.py', SERVICE_V3);
  hashes.addedOnly = commit('Add a helper that formats durations in minutes for the report output');

  write('app/service.py', SERVICE_V4);
  hashes.shortMessage = commit('fix helper (#3)');

  write('tests/test_service.py', TEST_V2);
  hashes.testOnly = commit('Cover the renderer with a test that checks the produced heading markup');

  git(['revert', '--no-edit', hashes.testOnly]);
  hashes.revert = git(['rev-parse', 'HEAD']).trim();

  git(['checkout', '-q', '-b', 'feature']);
  write('app/service.py', SERVICE_V5);
  hashes.branchChange = commit(
    'fix(render): escape angle brackets in titles so user markup stays inert\n\nTitles were inserted verbatim into the heading.\n\nFixes #41\nCo-authored-by: Bob <bob@example.com>',
  );
  git(['checkout', '-q', 'main']);
  git(['merge', '-q', '--no-ff', '-m', "Merge branch 'feature' with the escaping of titles in the renderer", 'feature']);
  hashes.merge = git(['rev-parse', 'HEAD']).trim();

  write('app/service.py', SERVICE_V6);
  hashes.appended = commit('Convert the helper argument to an integer before doubling it in every call');

  result = await mineRepository({ gitDir: join(root, '.git'), repo: 'tiny', language: 'python' });
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('mineRepository on a small Python history', () => {
  it('makes tasks of described commits that change existing non-test functions, newest first', () => {
    expect(result.tasks.map((t) => t.commit)).toEqual([hashes.appended, hashes.branchChange, hashes.changedMethod]);
  });

  it('names the changed method, not the method added beside it', () => {
    const byCommit = new Map(result.tasks.map((t) => [t.commit, t]));
    expect(byCommit.get(hashes.changedMethod!)?.groundTruth).toEqual(['app/service.py.Service.handle']);
    expect(byCommit.get(hashes.branchChange!)?.groundTruth).toEqual(['app/service.py.Service.render']);
    expect(byCommit.get(hashes.appended!)?.groundTruth).toEqual(['app/service.py.helper']);
  });

  it('skips an added-only function, a short message, a test-only change, a revert, a merge and the root commit', () => {
    const tasked = new Set(result.tasks.map((t) => t.commit));
    for (const name of ['addedOnly', 'shortMessage', 'testOnly', 'revert', 'merge', 'initial']) expect(tasked.has(hashes[name]!), name).toBe(false);
    expect(result.skipped).toMatchObject({ merge: 1, revert: 1, 'root commit': 1, 'short description': 1, 'no existing non-test function changed': 2 });
  });

  it('writes descriptions without references, prefixes and trailers, and records parent and id', () => {
    const task = result.tasks.find((t) => t.commit === hashes.branchChange)!;
    expect(task.description).toBe('escape angle brackets in titles so user markup stays inert\n\nTitles were inserted verbatim into the heading.');
    expect(result.tasks.find((t) => t.commit === hashes.changedMethod)!.description).toBe('Return an empty result early when the handler gets an empty payload');
    expect(task.parent).toBe(git(['rev-parse', `${hashes.branchChange}^`]).trim());
    expect(task.id).toBe(`tiny/${hashes.branchChange!.slice(0, 10)}`);
  });

  it('honours the cap and counts a deleted function as changed', async () => {
    const capped = await mineRepository({ gitDir: join(root, '.git'), repo: 'tiny', language: 'python', cap: 1 });
    expect(capped.tasks.map((t) => t.commit)).toEqual([hashes.appended]);
    const deletion = await commitGroundTruth(join(root, '.git'), hashes.changedMethod!, hashes.initial!);
    expect(deletion.map((f) => f.qualifiedName)).toEqual(['app/service.py.Service.handle']);
  });
});

describe('writing, reading and checking out tasks', () => {
  it('round-trips tasks through YAML and filters by split and repository', () => {
    const out = mkdtempSync(join(tmpdir(), 'knowing-history-out-'));
    try {
      writeHistoryTasks(out, 'tiny', result.tasks);
      writeHistoryManifestEntry(out, { name: 'tiny', mirror: 'github:example/tiny', language: 'python', split: 'heldout', tasks: result.tasks.length });
      writeHistoryManifestEntry(out, { name: 'other', mirror: 'github:example/other', language: 'go', split: 'tuning', tasks: 0 });
      expect(readHistoryManifest(out).map((r) => [r.name, r.split])).toEqual([
        ['other', 'tuning'],
        ['tiny', 'heldout'],
      ]);
      expect(existsSync(join(out, 'tiny', `${hashes.changedMethod!.slice(0, 10)}.yaml`))).toBe(true);
      const heldout = readHistoryTasks(out, { split: 'heldout' });
      const tasks = heldout.get('tiny')!;
      expect(tasks.map((t) => t.commit)).toEqual([hashes.changedMethod, hashes.branchChange, hashes.appended]);
      expect(tasks[0]).toMatchObject({ repo: 'tiny', tier: 'heldout', split: 'heldout', language: 'python', groundTruth: ['app/service.py.Service.handle'] });
      expect(readHistoryTasks(out, { split: 'tuning' }).size).toBe(0);
      expect(readHistoryTasks(out, { repos: ['other'] }).size).toBe(0);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('moves one worktree between parents, cleaning untracked files but keeping .knowing', () => {
    const parent = mkdtempSync(join(tmpdir(), 'knowing-history-tree-'));
    const dir = join(parent, 'tree');
    const tree = openCheckout({ mirror: join(root, '.git'), dir });
    try {
      tree.checkout(hashes.initial!);
      expect(readFileSync(join(dir, 'app/service.py'), 'utf8')).toBe(SERVICE_V1);
      writeFileSync(join(dir, 'stray.txt'), 'x');
      mkdirSync(join(dir, '.knowing'));
      writeFileSync(join(dir, '.knowing', 'graph.db'), 'db');
      tree.checkout(hashes.branchChange!);
      expect(readFileSync(join(dir, 'app/service.py'), 'utf8')).toBe(SERVICE_V5);
      expect(existsSync(join(dir, 'stray.txt'))).toBe(false);
      expect(existsSync(join(dir, '.knowing', 'graph.db'))).toBe(true);
      expect(tree.head()).toBe(hashes.branchChange);
      // Reopening reuses the same worktree.
      expect(openCheckout({ mirror: join(root, '.git'), dir }).head()).toBe(hashes.branchChange);
    } finally {
      tree.remove();
      rmSync(parent, { recursive: true, force: true });
    }
    expect(existsSync(dir)).toBe(false);
  });

  it('finds a mirror as owner+name/repo under a mirrors directory', () => {
    const mirrors = mkdtempSync(join(tmpdir(), 'knowing-mirrors-'));
    try {
      execFileSync('git', ['clone', '-q', '--bare', root, join(mirrors, 'example+tiny', 'repo')]);
      expect(resolveMirror('github:example/tiny', mirrors)).toBe(join(mirrors, 'example+tiny', 'repo'));
      expect(() => resolveMirror('github:example/absent', mirrors)).toThrow(/no git directory/);
    } finally {
      rmSync(mirrors, { recursive: true, force: true });
    }
  });
});
