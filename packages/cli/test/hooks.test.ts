/**
 * `knowing hooks` in real git repositories: the hooks refresh the index in the background
 * after commits and checkouts, chain the hooks that were there (with their arguments, input
 * and exit status), follow core.hooksPath, and uninstall puts back exactly what was there.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '@knowing/store-sqlite';
import { emptyDir, fixtureRepo, git, knowing, packagesLoaded, removeScratch } from './helpers.js';

afterAll(removeScratch);

const HOOKS = ['post-checkout', 'post-merge', 'post-rewrite', 'post-commit'];

/** Run git as a person would, with its exit status (a hook's status can become git's). */
function gitRun(cwd: string, ...args: string[]): { status: number; stderr: string; ms: number } {
  const started = Date.now();
  const result = spawnSync('git', ['-c', 'user.name=knowing tests', '-c', 'user.email=tests@knowing.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
  return { status: result.status ?? -1, stderr: result.stderr, ms: Date.now() - started };
}

async function until(test: () => boolean | Promise<boolean>, what: () => string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
}

function hooksLog(repo: string): string {
  try {
    return readFileSync(join(repo, '.knowing', 'hooks.log'), 'utf8');
  } catch {
    return '';
  }
}

/** Wait until the background runs are done: the log has `lines` run lines and no run holds the lock. */
async function backgroundDone(repo: string, lines: number): Promise<void> {
  await until(
    () => hooksLog(repo).split('\n').filter((l) => /Z post-[a-z]+: /.test(l)).length >= lines && !existsSync(join(repo, '.knowing', 'hooks.lock')),
    () => hooksLog(repo),
  );
}

async function symbolsIn(repo: string, file: string): Promise<string[]> {
  const store = await createSqliteStore({ path: join(repo, '.knowing', 'graph.db'), readonly: true });
  try {
    return (await store.nodesInFile(file)).filter((n) => n.kind !== 'file' && n.kind !== 'module').map((n) => n.name).sort();
  } finally {
    await store.close();
  }
}

/** Every file of a directory with its bytes and mode: what "exactly what was there" means. */
function snapshot(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const stats = statSync(path);
    if (stats.isFile()) result[name] = `${(stats.mode & 0o777).toString(8)} ${readFileSync(path, 'base64')}`;
  }
  return result;
}

describe('knowing hooks install', () => {
  it('adds four executable hooks, is idempotent, and status reports them', async () => {
    const repo = fixtureRepo('knowing-hooks-');
    const first = await knowing(['hooks', 'install'], { cwd: repo });
    expect(first.code, first.stderr).toBe(0);
    for (const hook of HOOKS) {
      expect(first.stdout).toMatch(new RegExp(`${hook}\\s+added`));
      const file = join(repo, '.git', 'hooks', hook);
      expect(statSync(file).mode & 0o111).toBe(0o111);
      expect(readFileSync(file, 'utf8').split('\n')[1]).toMatch(/^# knowing-hook: /);
    }
    const before = snapshot(join(repo, '.git', 'hooks'));
    const again = await knowing(['hooks', 'install', '--json'], { cwd: repo });
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as { hooks: { action: string }[] }).hooks.map((h) => h.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(snapshot(join(repo, '.git', 'hooks'))).toEqual(before);

    const status = await knowing(['hooks', 'status', '--json'], { cwd: repo });
    const report = JSON.parse(status.stdout) as { hooksPath: string | null; hooks: { hook: string; installed: boolean; chained: boolean }[] };
    expect(report.hooksPath).toBeNull();
    expect(report.hooks.every((h) => h.installed && !h.chained)).toBe(true);
  });

  it('a commit re-indexes in the background: git returns first, the index follows, the log says what happened', async () => {
    const repo = fixtureRepo('knowing-hooks-commit-');
    expect((await knowing(['index'], { cwd: repo })).code).toBe(0);
    expect((await knowing(['hooks', 'install'], { cwd: repo })).code).toBe(0);
    writeFileSync(join(repo, 'bookshop', 'gift.py'), 'def gift_wrap(order):\n    return order\n');
    git(repo, 'add', '-A');
    const commit = gitRun(repo, 'commit', '-q', '-m', 'gift wrapping');
    expect(commit.status, commit.stderr).toBe(0);
    // The hook only starts the run: when git returns, the run has not written its result yet.
    expect(hooksLog(repo)).not.toContain('1 parsed');
    await backgroundDone(repo, 1);
    expect(hooksLog(repo)).toMatch(/Z post-commit: 1 parsed; \d+ symbols, \d+ edges \(\d+ ms\)/);
    expect(await symbolsIn(repo, 'bookshop/gift.py')).toEqual(['gift_wrap']);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('a branch switch re-indexes (post-checkout), and a broken index never fails the git command', async () => {
    const repo = fixtureRepo('knowing-hooks-checkout-');
    git(repo, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(repo, 'bookshop', 'gift.py'), 'def gift_wrap(order):\n    return order\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'gift');
    git(repo, 'checkout', '-q', 'main');
    expect((await knowing(['index'], { cwd: repo })).code).toBe(0);
    expect((await knowing(['hooks', 'install'], { cwd: repo })).code).toBe(0);

    expect(gitRun(repo, 'checkout', '-q', 'feature').status).toBe(0);
    await backgroundDone(repo, 1);
    expect(await symbolsIn(repo, 'bookshop/gift.py')).toEqual(['gift_wrap']);

    // A database that is not an index: the background run fails, git does not.
    writeFileSync(join(repo, '.knowing', 'graph.db'), 'this is not a database, just some text that is long enough to look like a header');
    for (const suffix of ['-wal', '-shm']) writeFileSync(join(repo, '.knowing', `graph.db${suffix}`), '');
    const checkout = gitRun(repo, 'checkout', '-q', 'main');
    expect(checkout.status).toBe(0);
    expect(checkout.stderr).toBe('');
    await until(() => /knowing: /.test(hooksLog(repo)) && !existsSync(join(repo, '.knowing', 'hooks.lock')), () => hooksLog(repo));
    expect(hooksLog(repo)).toMatch(/knowing: .*not a knowing index|knowing: .*database/i);
  });

  it('chains an existing hook: it runs first with the same arguments and input, and its exit status is kept', async () => {
    const repo = fixtureRepo('knowing-hooks-chain-');
    const hooks = join(repo, '.git', 'hooks');
    const record = join(repo, '..', `${repo.split(/[\\/]/).pop()}-record.txt`);
    const existing = `#!/bin/sh\necho "checkout $*" >> '${record}'\nexit 3\n`;
    const rewrite = `#!/bin/sh\necho "rewrite $*" >> '${record}'\ncat >> '${record}'\n`;
    writeFileSync(join(hooks, 'post-checkout'), existing);
    chmodSync(join(hooks, 'post-checkout'), 0o750);
    writeFileSync(join(hooks, 'post-rewrite'), rewrite);
    chmodSync(join(hooks, 'post-rewrite'), 0o755);
    // A hook git would not run (not executable) stays one that is not run.
    writeFileSync(join(hooks, 'post-merge'), '#!/bin/sh\necho "merge" >> /dev/null\n');
    chmodSync(join(hooks, 'post-merge'), 0o644);
    const before = snapshot(hooks);
    // What git reports for that failing post-checkout without knowing.
    git(repo, 'branch', 'side');
    const without = gitRun(repo, 'checkout', '-q', 'side').status;
    expect(without).not.toBe(0);
    gitRun(repo, 'checkout', '-q', 'main');
    rmSync(record);

    const install = await knowing(['hooks', 'install'], { cwd: repo });
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toMatch(/post-checkout\s+added; the hook that was there runs first/);
    expect(install.stdout).toMatch(/post-commit\s+added$/m);
    expect(readFileSync(join(hooks, 'post-checkout.knowing-chained'), 'utf8')).toBe(existing);
    expect(statSync(join(hooks, 'post-checkout.knowing-chained')).mode & 0o777).toBe(0o750);

    const checkout = gitRun(repo, 'checkout', '-q', 'side');
    expect(checkout.status).toBe(without); // the chained hook's failure is git's, as without knowing
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    expect(readFileSync(record, 'utf8')).toBe(`checkout ${head} ${head} 1\n`);

    const amend = gitRun(repo, 'commit', '--amend', '-q', '-m', 'bookshop, amended');
    expect(amend.status, amend.stderr).toBe(0);
    const amended = git(repo, 'rev-parse', 'HEAD').trim();
    expect(readFileSync(record, 'utf8')).toContain(`rewrite amend\n${head} ${amended}\n`);
    await backgroundDone(repo, 3); // post-checkout, post-commit, post-rewrite (one may wait for another)

    const uninstall = await knowing(['hooks', 'uninstall'], { cwd: repo });
    expect(uninstall.code, uninstall.stderr).toBe(0);
    expect(uninstall.stdout).toMatch(/post-checkout\s+removed; the previous hook is back/);
    expect(snapshot(hooks)).toEqual(before);
    const again = await knowing(['hooks', 'uninstall', '--json'], { cwd: repo });
    expect((JSON.parse(again.stdout) as { hooks: { action: string }[] }).hooks.map((h) => h.action)).toEqual(['absent', 'absent', 'absent', 'absent']);
  });

  it('follows core.hooksPath (a husky-style .husky folder) and restores it exactly', async () => {
    const repo = fixtureRepo('knowing-hooks-husky-');
    const husky = join(repo, '.husky');
    mkdirSync(husky);
    const marker = join(repo, '.husky-ran');
    writeFileSync(join(husky, 'post-commit'), `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(join(husky, 'post-commit'), 0o755);
    writeFileSync(join(husky, 'pre-commit'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(husky, 'pre-commit'), 0o755);
    git(repo, 'config', 'core.hooksPath', '.husky');
    const before = snapshot(husky);

    const install = await knowing(['hooks', 'install', '--json'], { cwd: join(repo, 'bookshop') });
    expect(install.code, install.stderr).toBe(0);
    const report = JSON.parse(install.stdout) as { directory: string; hooksPath: string; hooks: { hook: string; action: string }[] };
    expect(report.directory).toBe(husky);
    expect(report.hooksPath).toBe('.husky');
    expect(Object.fromEntries(report.hooks.map((h) => [h.hook, h.action]))).toEqual({ 'post-checkout': 'added', 'post-merge': 'added', 'post-rewrite': 'added', 'post-commit': 'chained' });
    expect(existsSync(join(repo, '.git', 'hooks', 'post-commit'))).toBe(false);

    writeFileSync(join(repo, 'bookshop', 'gift.py'), 'def gift_wrap(order):\n    return order\n');
    git(repo, 'add', 'bookshop/gift.py');
    expect(gitRun(repo, 'commit', '-q', '-m', 'gift').status).toBe(0);
    expect(existsSync(marker)).toBe(true); // husky's own hook still runs
    await backgroundDone(repo, 1);
    expect(await symbolsIn(repo, 'bookshop/gift.py')).toEqual(['gift_wrap']);

    expect((await knowing(['hooks', 'uninstall'], { cwd: repo })).code).toBe(0);
    expect(snapshot(husky)).toEqual(before);
  });

  it('reinstalling over hooks a hook manager wrote again chains them once', async () => {
    const repo = fixtureRepo('knowing-hooks-regenerated-');
    const hooks = join(repo, '.git', 'hooks');
    const managed = '#!/bin/sh\n# managed by a hook manager\nexit 0\n';
    writeFileSync(join(hooks, 'post-merge'), managed);
    chmodSync(join(hooks, 'post-merge'), 0o755);
    expect((await knowing(['hooks', 'install'], { cwd: repo })).code).toBe(0);
    // The manager reinstalls its hooks, over knowing's.
    writeFileSync(join(hooks, 'post-merge'), managed);
    const again = await knowing(['hooks', 'install'], { cwd: repo });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/post-merge\s+added; the hook that was there runs first/);
    expect(readFileSync(join(hooks, 'post-merge.knowing-chained'), 'utf8')).toBe(managed);
    expect(readFileSync(join(hooks, 'post-merge'), 'utf8')).toContain('# knowing-hook: post-merge');
  });

  it('refuses, changing nothing, when a different hook already sits where it would chain one', async () => {
    const repo = fixtureRepo('knowing-hooks-conflict-');
    const hooks = join(repo, '.git', 'hooks');
    writeFileSync(join(hooks, 'post-commit'), '#!/bin/sh\necho mine\n');
    writeFileSync(join(hooks, 'post-commit.knowing-chained'), '#!/bin/sh\necho older\n');
    const before = snapshot(hooks);
    const result = await knowing(['hooks', 'install'], { cwd: repo });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('post-commit.knowing-chained');
    expect(snapshot(hooks)).toEqual(before);
  });

  it('hooks run waits its turn: concurrent runs index one at a time, and a stale lock does not stop them', async () => {
    const repo = fixtureRepo('knowing-hooks-run-');
    mkdirSync(join(repo, '.knowing'));
    // Left by a run that was killed: a process id no process has.
    writeFileSync(join(repo, '.knowing', 'hooks.lock'), '2147483646\n');
    const runs = await Promise.all(['post-checkout', 'post-merge', 'post-commit'].map((hook) => knowing(['hooks', 'run', hook], { cwd: repo })));
    for (const result of runs) expect(result.code, result.stderr).toBe(0);
    const lines = runs.flatMap((r) => r.stdout.split('\n').filter((l) => l !== ''));
    // Each run either indexed or handed its request to the run in progress, which indexed again.
    expect(lines.filter((l) => /post-[a-z]+: (\d+ parsed|nothing to re-index)/.test(l)).length).toBeGreaterThanOrEqual(1);
    expect(lines.every((l) => /^\d{4}-\d\d-\d\dT[\d:.]+Z post-[a-z]+: /.test(l))).toBe(true);
    expect(existsSync(join(repo, '.knowing', 'hooks.lock'))).toBe(false);
    expect(existsSync(join(repo, '.knowing', 'hooks.pending'))).toBe(false);
    expect(await symbolsIn(repo, 'bookshop/cart.py')).toContain('Cart');
  });

  it('install loads no part of the index (the hooks load it later, in the background)', async () => {
    const repo = fixtureRepo('knowing-hooks-load-');
    const { packages, result } = await packagesLoaded(['hooks', 'install'], { cwd: repo });
    expect(result.code).toBe(0);
    expect([...packages]).toEqual(['knowing']);
  });

  it('outside a git repository, and without an action, is a usage error', async () => {
    const outside = await knowing(['hooks', 'install'], { cwd: emptyDir() });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('is not inside a git working tree');
    const bare = await knowing(['hooks'], { cwd: emptyDir() });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('needs an action');
    const help = await knowing(['hooks', '--help'], { cwd: emptyDir() });
    expect(help.stdout).toContain('.knowing-chained');
  });
});
