#!/usr/bin/env node
import { splitCommand } from './args.js';
import { askWatcher, mayAskWatcher } from './answer-socket.js';

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
// A running `knowing watch` answers `context` without this process loading anything more.
const argv = process.argv.slice(2);
const answered = mayAskWatcher(argv)
  ? await askWatcher(argv, process.cwd(), {
      stdoutTTY: process.stdout.isTTY === true,
      stderrTTY: process.stderr.isTTY === true,
      ...(process.stdout.columns !== undefined ? { columns: process.stdout.columns } : {}),
      env: process.env,
    })
  : undefined;
if (answered) {
  process.stderr.write(answered.stderr);
  const quiet = ['-q', '--quiet', '--json'].some((flag) => argv.includes(flag));
  if (!quiet) process.stderr.write(`knowing: answered by the running \`knowing watch\` (pid ${answered.pid}); --no-watcher answers in this process\n`);
}
const code = answered
  ? answered.code
  : await (await import('./run.js')).run(argv, { stdout: process.stdout, stderr: process.stderr, signal: interrupt.signal });
if (answered) process.stdout.write(answered.stdout);
// Exit only after stdout has drained (large packs written to a pipe), then leave at once:
// nothing the commands started may keep the process alive.
process.stdout.write('', () => process.exit(code));
