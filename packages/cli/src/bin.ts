#!/usr/bin/env node
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { splitCommand } from './args.js';
import { askWatcher, mayAskWatcher } from './answer-socket.js';
import { loadBundle } from './compile-cache.js';
import type { LoadedBundle } from './compile-cache.js';
import type { CliIO } from './io.js';
import type { ExitCode } from './errors.js';

// The whole process side of the CLI: arguments in, streams out, exit code back. Everything
// else lives in run() so that it can be tested in-process.
const interrupt = new AbortController();
// `serve` stops gracefully on the first Ctrl-C or a SIGTERM (a service manager's stop): it
// finishes the requests in flight and closes its stores.
const serving = splitCommand(process.argv.slice(2)).command === 'serve';
const indexes = serving || ['index', '--reindex', 'train', 'watch', 'doctor', 'hooks'].some((word) => process.argv.includes(word));
if (serving) {
  process.on('SIGTERM', () => {
    if (interrupt.signal.aborted) process.exit(143);
    interrupt.abort();
  });
}
process.on('SIGINT', () => {
  // While indexing (index, --reindex, watch, doctor --fix, hooks run) or training, the first Ctrl-C lets the run stop before it writes (the index
  // stays as it was; training removes its temporary worktree and index); otherwise, or on a
  // second Ctrl-C, exit at once.
  if (!indexes || interrupt.signal.aborted) process.exit(130);
  interrupt.abort();
});
// This file is built as CommonJS alone (tsup.config.ts): its folder is the build's `dist`.
const DIST = __dirname;
/**
 * The commands that run from the CommonJS bundle: `context`, which agents run again and again
 * in fresh processes, and `index`, which hooks and scripts run after every change
 * (benchmarks/RESULTS.md, session 25).
 */
const BUNDLED_COMMANDS: ReadonlySet<string> = new Set(['context', 'index']);

// A running `knowing watch` answers `context` without this process loading anything more.
void main(process.argv.slice(2));

async function main(argv: readonly string[]): Promise<void> {
  const answered = mayAskWatcher(argv)
    ? await askWatcher(argv, process.cwd(), {
        stdoutTTY: process.stdout.isTTY === true,
        stderrTTY: process.stderr.isTTY === true,
        ...(process.stdout.columns !== undefined ? { columns: process.stdout.columns } : {}),
        env: process.env,
      }, DIST)
    : undefined;
  if (answered) {
    process.stderr.write(answered.stderr);
    const quiet = ['-q', '--quiet', '--json'].some((flag) => argv.includes(flag));
    if (!quiet) process.stderr.write(`knowing: answered by the running \`knowing watch\` (pid ${answered.pid}); --no-watcher answers in this process\n`);
  }
  const code = answered ? answered.code : await runHere(argv, { stdout: process.stdout, stderr: process.stderr, signal: interrupt.signal });
  if (answered) process.stdout.write(answered.stdout);
  // Exit only after stdout has drained (large packs written to a pipe), then leave at once:
  // nothing the commands started may keep the process alive.
  process.stdout.write('', () => process.exit(code));
}

/**
 * A bundled command runs from the CommonJS bundle through a V8 code cache kept in the user's
 * cache directory, one per command (about 100 ms less of a cold start, most of it compiling).
 * Any other command, or a bundle that cannot be loaded, runs from the ES modules.
 */
async function runHere(args: readonly string[], io: CliIO): Promise<ExitCode> {
  const { command } = splitCommand(args);
  // Their help and version need none of what the bundle holds.
  if (command !== undefined && BUNDLED_COMMANDS.has(command) && !args.some((arg) => ['-h', '--help', '-v', '--version'].includes(arg))) {
    let bundle: LoadedBundle<{ run: (argv: readonly string[], io: CliIO) => Promise<ExitCode>; wasLightRun?: () => boolean }> | undefined;
    try {
      bundle = loadBundle({
        file: join(DIST, 'cli.cjs'),
        cacheDir: compileCacheDir(),
        purpose: command,
        importer: (specifier) => import(specifier),
      });
    } catch {
      bundle = undefined;
    }
    if (bundle) {
      const code = await bundle.exports.run(args, io);
      // Only a run that answered: the cache holds the functions the run compiled, and one
      // written by a run that stopped early (no index yet, a bad flag) would stay, and leave
      // every later query compiling the rest; nor a run that did little (run-weight.ts).
      if (code === 0 && bundle.exports.wasLightRun?.() !== true) bundle.saveCache();
      return code;
    }
  }
  // The ES build's run.js, named at run time: this file is built as CommonJS on its own (no ES
  // loader before the bundle's answer), and a literal path would pull the whole CLI into it.
  const entry = pathToFileURL(join(DIST, 'run.js')).href;
  return ((await import(entry)) as typeof import('./run.js')).run(args, io);
}

/** The user's own cache directory (never a shared one: a code cache is code), or none without a home. */
function compileCacheDir(): string | undefined {
  const base = process.env['XDG_CACHE_HOME'] || process.env['LOCALAPPDATA'] || (homedir() ? join(homedir(), '.cache') : '');
  return base ? join(base, 'knowing', 'compile-cache') : undefined;
}
