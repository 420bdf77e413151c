import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { CommandContext } from '../command.js';
import { CliError, CliErrorCode, ExitCode, usageError } from '../errors.js';
import { INDEX_DIRECTORY, displayPath, resolveRepoRoot } from '../repo.js';
import { table } from '../text.js';

/** The hooks that follow a change of the working tree by git. */
export const KNOWING_HOOKS = ['post-checkout', 'post-merge', 'post-rewrite', 'post-commit'] as const;
type HookName = (typeof KNOWING_HOOKS)[number];

/** The second line of every hook knowing writes: how `uninstall` and `status` recognise them. */
const MARKER = '# knowing-hook:';
/** Where a hook that was there before is kept, and called from ours. */
const CHAINED_SUFFIX = '.knowing-chained';
const LOG_FILE = 'hooks.log';
const LOCK_FILE = 'hooks.lock';
const PENDING_FILE = 'hooks.pending';
/** The log is emptied when it grows past this. */
const MAX_LOG_BYTES = 1024 * 1024;
/** Index runs one `hooks run` may do back to back for requests that came in meanwhile. */
const MAX_ROUNDS = 10;
/** A lock older than this is stale whatever its process id says (a reused id). */
const STALE_LOCK_MS = 60 * 60 * 1000;

const ACTIONS = ['install', 'uninstall', 'status', 'run'] as const;

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function git(args: readonly string[], cwd: string): string {
  return execFileSync('git', [...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

interface HookLocation {
  readonly root: string;
  /** Where git runs hooks from. */
  readonly directory: string;
  /** core.hooksPath, when set (husky, a shared hooks folder). */
  readonly hooksPath: string | undefined;
}

function hookLocation(ctx: CommandContext): HookLocation {
  const root = resolveRepoRoot(ctx.repo, ctx.cwd);
  let top: string;
  try {
    top = git(['rev-parse', '--show-toplevel'], root);
  } catch (error) {
    const missingGit = (error as { code?: unknown }).code === 'ENOENT';
    throw new CliError(
      ExitCode.Usage,
      CliErrorCode.NotAGitRepository,
      missingGit ? 'git is not installed, so there are no git hooks to install' : `${root} is not inside a git working tree`,
      'run it in a git repository, or use `knowing watch` to keep an index fresh without git',
    );
  }
  // `--git-path hooks` answers core.hooksPath when it is set, relative paths resolved as git
  // resolves them (from the top of the working tree), and the common hooks folder of a worktree.
  const directory = resolve(top, git(['rev-parse', '--git-path', 'hooks'], top));
  let hooksPath: string | undefined;
  try {
    hooksPath = git(['config', '--get', 'core.hooksPath'], top) || undefined;
  } catch {
    hooksPath = undefined; // exit 1: not set
  }
  return { root: resolve(top), directory, hooksPath };
}

/**
 * How the hook starts knowing: the node and script running now, when this is an installed
 * knowing (a global install, a project's node_modules), so the hook works without knowing on
 * the PATH; the hook falls back to `knowing` on the PATH when they are gone.
 */
function currentLauncher(): { readonly node: string; readonly script: string } | undefined {
  const argv1 = process.argv[1];
  if (!argv1) return undefined;
  try {
    const script = realpathSync(argv1);
    if (!/\.[cm]?js$/.test(script)) return undefined;
    const pkg = JSON.parse(readFileSync(join(dirname(script), '..', 'package.json'), 'utf8')) as { name?: unknown };
    return pkg.name === 'knowing' ? { node: process.execPath, script } : undefined;
  } catch {
    return undefined;
  }
}

/** The hook knowing writes: chain the previous hook, then refresh the index in the background. */
export function hookScript(hook: HookName, options: { readonly launcher?: { readonly node: string; readonly script: string }; readonly db?: string } = {}): string {
  const log = `${INDEX_DIRECTORY}/${LOG_FILE}`;
  const runArgs = ['hooks', 'run', hook, ...(options.db ? ['--db', options.db] : [])].map(shellQuote).join(' ');
  const launcher = options.launcher;
  const find = launcher
    ? [
        `  if [ -x ${shellQuote(launcher.node)} ] && [ -f ${shellQuote(launcher.script)} ]; then`,
        `    set -- ${shellQuote(launcher.node)} ${shellQuote(launcher.script)}`,
        '  elif command -v knowing >/dev/null 2>&1; then',
      ]
    : ['  if command -v knowing >/dev/null 2>&1; then'];
  return [
    '#!/bin/sh',
    `${MARKER} ${hook} (written by \`knowing hooks install\`; \`knowing hooks uninstall\` puts back what was here)`,
    `# Runs the hook that was here before, if any (${hook}${CHAINED_SUFFIX}), with the same arguments and`,
    '# input, and exits with its status. Then starts `knowing hooks run` in the background to refresh',
    `# the index (git does not wait for it; its output goes to ${log}).`,
    `chained="$(dirname -- "$0")/${hook}${CHAINED_SUFFIX}"`,
    'status=0',
    'if [ -x "$chained" ]; then',
    '  "$chained" "$@"',
    '  status=$?',
    'fi',
    '(',
    `  mkdir -p ${INDEX_DIRECTORY} 2>/dev/null || exit 0`,
    ...find,
    '    set -- knowing',
    '  else',
    `    echo "knowing ${hook} hook: knowing is not installed any more (npm install -g knowing, or knowing hooks uninstall)" >>${log}`,
    '    exit 0',
    '  fi',
    '  if command -v nohup >/dev/null 2>&1; then set -- nohup "$@"; fi',
    `  "$@" ${runArgs} </dev/null >>${log} 2>&1 &`,
    ') </dev/null >/dev/null 2>&1',
    'exit $status',
    '',
  ].join('\n');
}

type HookState = 'missing' | 'ours' | 'other';

function stateOf(file: string): HookState {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(file);
  } catch {
    return 'missing';
  }
  if (stats.isFile()) {
    try {
      const head = readFileSync(file, 'utf8').slice(0, 400).split('\n', 3);
      if (head[1]?.startsWith(MARKER)) return 'ours';
    } catch {
      // unreadable: not ours
    }
  }
  return 'other';
}

function sameContent(a: string, b: string): boolean {
  try {
    return readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}

function writeHook(file: string, content: string): void {
  writeFileSync(file, content, { mode: 0o755 });
  chmodSync(file, 0o755); // the mode above is only applied to a new file, and through the umask
}

interface HookChange {
  readonly hook: HookName;
  readonly action: 'added' | 'chained' | 'updated' | 'unchanged' | 'removed' | 'restored' | 'absent' | 'left';
  readonly chained: boolean;
  readonly note?: string;
}

const ACTION_TEXT: Readonly<Record<HookChange['action'], string>> = {
  added: 'added',
  chained: 'added; the hook that was there runs first',
  updated: 'updated',
  unchanged: 'already installed',
  removed: 'removed',
  restored: 'removed; the previous hook is back',
  absent: 'not installed',
  left: 'left alone',
};

function install(location: HookLocation, db: string | undefined): HookChange[] {
  const launcher = currentLauncher();
  const plans = KNOWING_HOOKS.map((hook) => {
    const file = join(location.directory, hook);
    const chained = file + CHAINED_SUFFIX;
    return { hook, file, chained, state: stateOf(file), chainedExists: existsSync(chained) };
  });
  // Check every hook before changing any: install changes all four or none.
  for (const plan of plans) {
    if (plan.state === 'other' && plan.chainedExists && !sameContent(plan.file, plan.chained)) {
      throw usageError(
        `${plan.file} is not knowing's hook, and ${plan.chained} (a hook knowing chained earlier) is still there`,
        `keep the one you want under ${plan.hook}${CHAINED_SUFFIX}, remove the other, and run \`knowing hooks install\` again`,
      );
    }
    if (plan.state === 'other' && lstatSync(plan.file).isDirectory()) {
      throw usageError(`${plan.file} is a directory, not a hook`, 'move it away and run `knowing hooks install` again');
    }
  }
  mkdirSync(location.directory, { recursive: true });
  return plans.map((plan): HookChange => {
    const content = hookScript(plan.hook, { ...(launcher ? { launcher } : {}), ...(db ? { db } : {}) });
    if (plan.state === 'ours') {
      const same = readFileSync(plan.file, 'utf8') === content;
      if (!same) writeHook(plan.file, content);
      return { hook: plan.hook, action: same ? 'unchanged' : 'updated', chained: plan.chainedExists };
    }
    if (plan.state === 'other') {
      // A tool that regenerates its hooks (husky, lefthook) wrote the same hook again over ours:
      // the chained copy is that hook already.
      if (plan.chainedExists) rmSync(plan.chained);
      renameSync(plan.file, plan.chained);
      writeHook(plan.file, content);
      return { hook: plan.hook, action: 'chained', chained: true };
    }
    writeHook(plan.file, content);
    return { hook: plan.hook, action: 'added', chained: plan.chainedExists };
  });
}

function uninstall(location: HookLocation): HookChange[] {
  return KNOWING_HOOKS.map((hook): HookChange => {
    const file = join(location.directory, hook);
    const chained = file + CHAINED_SUFFIX;
    const state = stateOf(file);
    const chainedExists = existsSync(chained);
    if (state === 'ours') {
      if (chainedExists) {
        renameSync(chained, file);
        return { hook, action: 'restored', chained: false };
      }
      unlinkSync(file);
      return { hook, action: 'removed', chained: false };
    }
    if (state === 'missing' && chainedExists) {
      // Our hook was deleted by hand: the chained one is what was there before.
      renameSync(chained, file);
      return { hook, action: 'restored', chained: false };
    }
    if (state === 'other' && chainedExists) {
      return { hook, action: 'left', chained: true, note: `${hook} is not knowing's hook any more; the hook knowing chained is still in ${hook}${CHAINED_SUFFIX}` };
    }
    return { hook, action: 'absent', chained: false };
  });
}

interface HookStatus {
  readonly hook: HookName;
  readonly installed: boolean;
  readonly chained: boolean;
  /** Another hook is there (not knowing's). */
  readonly other: boolean;
}

function status(location: HookLocation): HookStatus[] {
  return KNOWING_HOOKS.map((hook) => {
    const file = join(location.directory, hook);
    const state = stateOf(file);
    return { hook, installed: state === 'ours', chained: existsSync(file + CHAINED_SUFFIX), other: state === 'other' };
  });
}

function whereText(location: HookLocation, cwd: string): string {
  const shown = displayPath(location.directory, cwd);
  return location.hooksPath !== undefined ? `${shown} (core.hooksPath)` : shown;
}

// ------------------------------------------------------------------------------ hooks run

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/** Take the per-repository lock of background runs; false when a live run holds it. */
function tryLock(lockFile: string, now: number): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, `${process.pid}\n`, { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    }
    let pid = Number.NaN;
    let age = 0;
    try {
      pid = Number(readFileSync(lockFile, 'utf8').trim());
      age = now - statSync(lockFile).mtimeMs;
    } catch {
      continue; // released meanwhile: try again
    }
    // An empty lock is one being written right now, unless it is old.
    const holderAlive = Number.isInteger(pid) && pid > 0 ? processAlive(pid) : age < 10_000;
    if (holderAlive && age < STALE_LOCK_MS) return false;
    rmSync(lockFile, { force: true });
  }
  return false;
}

async function runFromHook(ctx: CommandContext, hook: string | undefined): Promise<ExitCode> {
  // Loaded here, not at the top: install, uninstall and status need none of the index.
  const { describeRefresh, refreshIndex, refreshSettings } = await import('../refresh.js');
  const { locate } = await import('../session.js');
  const location = await locate(ctx);
  const settings = refreshSettings(ctx, location);
  const directory = join(location.root, INDEX_DIRECTORY);
  mkdirSync(directory, { recursive: true });
  const log = join(directory, LOG_FILE);
  try {
    if (statSync(log).size > MAX_LOG_BYTES) truncateSync(log, 0);
  } catch {
    // no log yet
  }
  const say = (text: string): void => {
    ctx.io.stdout.write(`${new Date(ctx.now()).toISOString()} ${hook ?? 'run'}: ${text}\n`);
  };
  const lock = join(directory, LOCK_FILE);
  const pending = join(directory, PENDING_FILE);
  // Ask for a run first, then try to be the one doing it: a run in progress that finishes
  // before it sees the request gives up the lock and then sees it.
  writeFileSync(pending, '');
  let rounds = 0;
  let ran = false;
  while (tryLock(lock, ctx.now())) {
    ran = true;
    try {
      while (existsSync(pending) && rounds < MAX_ROUNDS) {
        rmSync(pending, { force: true });
        rounds++;
        const started = ctx.now();
        const summary = await refreshIndex(settings, ctx.io.signal ? { signal: ctx.io.signal } : {});
        say(`${describeRefresh(summary)} (${ctx.now() - started} ms)`);
        for (const warning of summary.warnings.slice(0, 3)) say(`warning: ${warning}`);
      }
    } finally {
      rmSync(lock, { force: true });
    }
    if (!existsSync(pending) || rounds >= MAX_ROUNDS) break;
  }
  if (!ran) say('another run is indexing this repository; it will index again when it is done');
  return ExitCode.Ok;
}

// ------------------------------------------------------------------------------ command

export async function runHooks(ctx: CommandContext): Promise<ExitCode> {
  const { out } = ctx;
  const action = ctx.positionals[0];
  if (action === undefined) throw usageError('`knowing hooks` needs an action: install, uninstall or status', 'for example `knowing hooks install`; see `knowing hooks --help`');
  if (!(ACTIONS as readonly string[]).includes(action)) {
    throw usageError(`unknown action "${action}" for \`knowing hooks\``, 'use install, uninstall or status; see `knowing hooks --help`');
  }
  const extra = ctx.positionals[1];
  if (extra !== undefined && action !== 'run') throw usageError(`unexpected argument "${extra}" for \`knowing hooks ${action}\``, 'see `knowing hooks --help`');
  if (action === 'run') return runFromHook(ctx, extra);

  const location = hookLocation(ctx);
  const where = whereText(location, ctx.cwd);
  if (action === 'status') {
    const hooks = status(location);
    if (out.json) {
      out.printJson({ directory: location.directory, hooksPath: location.hooksPath ?? null, hooks });
      return ExitCode.Ok;
    }
    const installed = hooks.filter((h) => h.installed).length;
    out.line(`knowing hooks in ${where}: ${installed === 0 ? 'not installed' : `${installed} of ${hooks.length} installed`}`);
    const rows = hooks.map((h) => [
      h.hook,
      h.installed ? `installed${h.chained ? `, chaining ${h.hook}${CHAINED_SUFFIX}` : ''}` : h.other ? 'not installed (another hook is there; install chains it)' : 'not installed',
    ]);
    for (const line of table(rows, '  ')) out.line(line);
    if (installed > 0) out.note(`the background runs log to ${displayPath(join(location.root, INDEX_DIRECTORY, LOG_FILE), ctx.cwd)}`);
    return ExitCode.Ok;
  }

  // A --db given now is where the hooks index, too (absolute: hooks run at the top of the tree).
  const db = ctx.db !== undefined ? resolve(ctx.cwd, ctx.db) : undefined;
  const changes = action === 'install' ? install(location, db) : uninstall(location);
  if (out.json) {
    out.printJson({ action, directory: location.directory, hooksPath: location.hooksPath ?? null, hooks: changes });
    return ExitCode.Ok;
  }
  out.line(action === 'install' ? `knowing hooks in ${where}:` : `knowing hooks removed from ${where}:`);
  for (const line of table(changes.map((c) => [c.hook, ACTION_TEXT[c.action]]), '  ')) out.line(line);
  for (const change of changes) if (change.note) out.warn(change.note);
  if (action === 'install') {
    out.note(
      `after a checkout, merge, rebase or commit they refresh the index in the background; see ${displayPath(join(location.root, INDEX_DIRECTORY, LOG_FILE), ctx.cwd)}`,
    );
    if (/(^|[\\/])\.husky[\\/]_$/.test(location.directory)) {
      out.note('husky rewrites .husky/_ when it installs its hooks: run `knowing hooks install` again after that (it finds and chains them again)');
    }
  }
  return ExitCode.Ok;
}
