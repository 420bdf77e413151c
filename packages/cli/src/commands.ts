import { TASK_FILE_OPTION } from './args.js';
import type { OptionSpec } from './args.js';
import type { Command } from './command.js';
import { ExitCode } from './errors.js';

// What each command is called, how it parses and how it documents itself. `--help`, `--version`
// and usage errors need only this, so it imports no package: each run() imports its command's
// module (and with it the store, the engine, the indexer…) when the command runs.

/**
 * Language ids of the indexer's built-in language modules, for the help of `index --languages`.
 * A copy, so that the help does not load the indexer; a test checks it against
 * `BUILTIN_LANGUAGES` of @knowing/indexer.
 */
export const BUILTIN_LANGUAGE_IDS: readonly string[] = ['csharp', 'go', 'java', 'javascript', 'python', 'ruby', 'rust', 'typescript'];

/** `--store URL`, for the commands that work against any store (session.ts resolves it). */
const STORE_OPTION: OptionSpec = {
  type: 'string',
  value: 'URL',
  description: 'the index in a PostgreSQL database instead of a SQLite file: postgres://user@host:5432/db (?repository=NAME names the repository; the password from PGPASSWORD)',
  defaultText: 'config "store", else the SQLite file (--db)',
};

/** `--no-refresh` of the commands that answer from the index (they re-index changed files first; see freshen.ts). */
const NO_REFRESH_OPTION: OptionSpec = {
  type: 'boolean',
  description: 'answer from the index as it is: skip the check for files changed since it was built (and their re-indexing); config defaults.refresh: false does the same for every run',
};

export const indexCommand: Command = {
  name: 'index',
  summary: 'index a repository into a symbol graph (incremental)',
  usage: 'index [PATH] [--languages LIST] [--full] [--workers N] [--force] [--db FILE | --store URL] [--json]',
  description:
    'Parses the source files of the repository at PATH and stores their symbols and the calls, imports and ' +
    'inheritance between them in the index database. Re-running it only re-parses files whose content changed. ' +
    'Files matched by .gitignore or .knowingignore, generated, minified, binary and very large files are skipped ' +
    '(the summary says how many and why).',
  positionals: [{ name: 'PATH', description: 'repository to index (default: --repo, else the enclosing git root, else the current directory)' }],
  options: {
    languages: { type: 'string', multiple: true, value: 'LIST', description: `only these languages, comma-separated (${BUILTIN_LANGUAGE_IDS.join(', ')}; aliases such as py, ts, golang)`, defaultText: 'all' },
    full: { type: 'boolean', description: 'ignore cached results and re-parse every file' },
    workers: { type: 'string', value: 'N', description: 'parser threads, the main thread included (0 or 1: the main thread alone)', defaultText: '2 when a core is idle (no other thread running now, or 1-minute load average ≤ cores − 1) and, on a 2-core machine, the files to parse hold 8 MB or more; else 1' },
    force: { type: 'boolean', description: 'index even the file system root or your home directory (refused otherwise: the walk would read everything below it)' },
    store: STORE_OPTION,
  },
  examples: [
    ['knowing index', 'index the repository you are in'],
    ['knowing index ../flask --languages python', 'index only the Python files of another checkout'],
    ['knowing index --full --json > summary.json', 'rebuild from scratch and keep the summary as JSON'],
    ['knowing index --store postgres://knowing@db:5432/knowing', 'index into PostgreSQL (a CI job on push), under the git remote\'s name'],
  ],
  exitCodes: [
    [ExitCode.Usage, 'unknown language, bad flag or config; PATH is the file system root or your home directory (without --force)'],
    [ExitCode.PathNotFound, 'PATH does not exist or is not a directory'],
    [ExitCode.Database, 'the database cannot be written or is not a knowing index'],
  ],
  run: async (ctx) => (await import('./commands/index-command.js')).runIndex(ctx),
};

export const statsCommand: Command = {
  name: 'stats',
  summary: 'what the index holds: counts by kind, edge type and language',
  usage: 'stats [--db FILE | --store URL] [--json]',
  description:
    'Shows the indexed repository, when it was indexed, the database file and its size, the current snapshot, and ' +
    'counts of files, symbols (by kind and language) and edges (by type).',
  options: { store: STORE_OPTION },
  examples: [
    ['knowing stats', 'summarise the index of the repository you are in'],
    ['knowing stats --json | jq .edgesByType', 'edge counts for a script'],
    ['knowing stats --db /tmp/other.db', 'look at another index'],
  ],
  exitCodes: [
    [ExitCode.NoIndex, 'no index yet'],
    [ExitCode.Database, 'the database is not a knowing index, is corrupt or too new'],
  ],
  run: async (ctx) => (await import('./commands/stats.js')).runStats(ctx),
};

/** `--pr` may stand alone (diff against HEAD) or take a base; parseArgs wants a value, so add it. */
export function expandOptionalPr(args: readonly string[]): string[] {
  const result: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const token = args[i]!;
    if (token === '--') {
      result.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    if (token === '--pr' && (next === undefined || next.startsWith('-'))) result.push('--pr=HEAD');
    else result.push(token);
  }
  return result;
}

export const contextCommand: Command = {
  name: 'context',
  summary: 'the symbols to read for a task, files or a change, within a token budget',
  usage: 'context (--task TEXT | --task-file FILE | --files LIST | --pr [BASE]) [--budget N] [--format FORMAT] [--code] [--reindex | --no-refresh]',
  description:
    'Finds the symbols an agent (or you) should read: for a task described in words, for a list of files (their ' +
    'symbols and direct callers), or for the changes in your working tree (the changed symbols and what they ' +
    'affect). Every symbol comes with its file and line range; with --code the best-ranked ones also bring their ' +
    'source. The budget holds for everything printed (header, symbols, code, edges), counted in cl100k_base tokens ' +
    'unless --tokenizer says otherwise, and the header states the true count. ' +
    'Formats: xml (default), markdown, json, gcf (compact text) and gcb (binary; redirect it to a file). ' +
    'Files changed since the index was built are re-indexed first (a note on stderr says so); --no-refresh answers from the index as it is. ' +
    'While `knowing watch` runs for the repository it answers instead (the same answer, without starting the engine again); --no-watcher answers in this process.',
  options: {
    task: { type: 'string', short: 't', value: 'TEXT', description: 'what you want to do, in words (- reads it from stdin)' },
    'task-file': TASK_FILE_OPTION,
    files: { type: 'string', short: 'F', multiple: true, value: 'LIST', description: 'comma-separated files (repo-relative or from the current directory)' },
    pr: { type: 'string', value: 'BASE', description: 'files changed against BASE (git diff --name-only) plus untracked files', defaultText: 'HEAD when no BASE is given' },
    budget: { type: 'string', short: 'b', value: 'N', description: 'token budget', defaultText: 'config defaults.budget, else 50000 (8000 for --pr)' },
    format: { type: 'string', short: 'f', value: 'FORMAT', description: 'xml, markdown, json, gcf or gcb', defaultText: 'config defaults.format, else xml' },
    code: { type: 'boolean', description: 'include the source of the best-ranked symbols (whole bodies while they fit, then cut at a line), within the same budget' },
    tokenizer: { type: 'string', value: 'NAME', description: 'what a budget token is: cl100k (exact, GPT-4 family) or heuristic (characters / 4, no tables to load)', defaultText: 'cl100k' },
    reindex: { type: 'boolean', description: 'refresh the index (incrementally) before answering; creates it if missing' },
    'no-refresh': NO_REFRESH_OPTION,
    'no-watcher': { type: 'boolean', description: 'answer in this process even when `knowing watch` runs for the repository (it answers otherwise, faster)' },
    fresh: { type: 'boolean', description: 'work the answer out again even when the same question was answered since the last index change (answers are cached in the index)' },
    store: STORE_OPTION,
  },
  examples: [
    ['knowing context --task "add a discount code to the cart"', 'the symbols to read for a task, as XML'],
    ['knowing context --task "why does login fail after a redirect" --code --budget 8000', 'with the code of the best matches'],
    ['knowing context --files src/cart.py,src/pricing.py --format markdown', 'those files\' symbols and their callers'],
    ['knowing context --pr main --budget 8000 --format gcf', 'what your branch touches, in the compact format'],
    ['knowing context --task "fix refund rounding" --format gcb > pack.gcb', 'binary output goes to a file'],
  ],
  exitCodes: [
    [ExitCode.Usage, 'not exactly one of --task/--files/--pr, empty task, bad budget, unknown format, not a git repository'],
    [ExitCode.NoIndex, 'no index yet (run `knowing index`, or pass --reindex)'],
    [ExitCode.Database, 'the database is not a knowing index, is corrupt or too new'],
  ],
  run: async (ctx) => (await import('./commands/context.js')).runContext(ctx),
};

export const whyCommand: Command = {
  name: 'why',
  summary: 'why a symbol is (or is not) in the answer to a task',
  usage: 'why (--task TEXT | --task-file FILE) --symbol NAME [--budget N] [--json]',
  description:
    'Runs the whole pipeline for the task and follows one symbol through it: which retrieval channels found it ' +
    '(and how), its seed weight, its random-walk score and distance from the seeds, HITS hub and authority, every ' +
    'ranking component, its rank, and whether the budget kept it — or the stage where it was lost. NAME may be a ' +
    'bare name (total), Type.member (Cart.total) or a qualified name (bookshop/cart.py.Cart.total). A name no ' +
    'symbol has lists the closest names (exit 6); a name several symbols share lists them with file and line (exit 2). ' +
    'A task too long for the command line (a pasted stack trace) can come from a file (--task-file) or stdin (--task -).',
  options: {
    task: { type: 'string', short: 't', value: 'TEXT', description: 'the task, as for `knowing context` (- reads it from stdin)' },
    'task-file': TASK_FILE_OPTION,
    symbol: { type: 'string', short: 's', value: 'NAME', description: 'the symbol to explain' },
    budget: { type: 'string', short: 'b', value: 'N', description: 'token budget of the pack', defaultText: 'config defaults.budget, else 50000' },
    'no-refresh': NO_REFRESH_OPTION,
    store: STORE_OPTION,
  },
  examples: [
    ['knowing why --task "apply a discount code" --symbol Cart.total', 'how Cart.total was scored for the task'],
    ['knowing why -t "refund a payment" -s refund --json', 'the explanation as JSON'],
    ['knowing why --task "checkout" --symbol render_receipt --budget 2000', 'does it survive a small budget?'],
    ['pbpaste | knowing why --task - --symbol Cart.total', 'the task from stdin (a stack trace, a long issue)'],
  ],
  exitCodes: [
    [ExitCode.Usage, 'missing or empty --task or --symbol, unreadable --task-file, or a name several symbols share'],
    [ExitCode.NoIndex, 'no index yet'],
    [ExitCode.NotFound, 'no symbol has that name (the closest names are listed)'],
  ],
  run: async (ctx) => (await import('./commands/why.js')).runWhy(ctx),
};

export const testScopeCommand: Command = {
  name: 'test-scope',
  summary: 'the tests that reach changed code',
  usage: 'test-scope [--files LIST | --base REF] [--depth N] [--format list|json|run]',
  description:
    'Finds the tests that call the symbols of the changed files, directly or through up to --depth calls. ' +
    'Without --files it uses the files changed in your working tree (git diff against --base, default HEAD, plus ' +
    'untracked files). --format run prints commands for the test runners (pytest node ids, go test -run, ' +
    'cargo test) and, for other languages, the test files.',
  options: {
    files: { type: 'string', short: 'F', multiple: true, value: 'LIST', description: 'comma-separated changed files', defaultText: 'changed files from git' },
    base: { type: 'string', value: 'REF', description: 'compare the working tree with this revision', defaultText: 'HEAD' },
    depth: { type: 'string', value: 'N', description: 'calls between a test and a changed symbol', defaultText: '3' },
    format: { type: 'string', short: 'f', value: 'FORMAT', description: 'list, json or run', defaultText: 'list' },
    'no-refresh': NO_REFRESH_OPTION,
    store: STORE_OPTION,
  },
  examples: [
    ['knowing test-scope', 'tests reaching what you changed since the last commit'],
    ['knowing test-scope --files bookshop/cart.py --format run', 'commands that run just those tests'],
    ['knowing test-scope --base main --json', 'the tests for your branch, as JSON'],
  ],
  exitCodes: [
    [ExitCode.Usage, 'bad --format or --depth, or not a git repository (without --files)'],
    [ExitCode.NoIndex, 'no index yet'],
  ],
  run: async (ctx) => (await import('./commands/test-scope.js')).runTestScope(ctx),
};

export const vizCommand: Command = {
  name: 'viz',
  summary: 'an HTML page showing the chosen symbols as a graph, with why each was chosen',
  usage: 'viz (--task TEXT | --task-file FILE) [--out FILE] [--budget N]',
  description:
    'Answers the task like `knowing context` and writes a self-contained HTML page (no network, no external ' +
    'scripts) drawing the packed symbols as a graph: size by score, colour by distance from the seeds, arrows for ' +
    'the edges among them. Hover a symbol for its score; click it for its score components, the channels that ' +
    'found it and its walk score. Open the file in a browser.',
  options: {
    task: { type: 'string', short: 't', value: 'TEXT', description: 'the task, as for `knowing context` (- reads it from stdin)' },
    'task-file': TASK_FILE_OPTION,
    out: { type: 'string', short: 'o', value: 'FILE', description: 'where to write the page', defaultText: 'knowing-viz.html in the current directory' },
    budget: { type: 'string', short: 'b', value: 'N', description: 'token budget', defaultText: 'config defaults.budget, else 50000' },
    'no-refresh': NO_REFRESH_OPTION,
    store: STORE_OPTION,
  },
  examples: [
    ['knowing viz --task "apply a discount code at checkout"', 'writes knowing-viz.html; open it in a browser'],
    ['knowing viz -t "refund a payment" -o /tmp/refund.html --budget 4000', 'a smaller pack, elsewhere'],
  ],
  exitCodes: [
    [ExitCode.Usage, 'missing or empty --task, bad --budget'],
    [ExitCode.NoIndex, 'no index yet'],
    [ExitCode.PathNotFound, 'the output file cannot be written'],
  ],
  run: async (ctx) => (await import('./commands/viz.js')).runViz(ctx),
};

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'serve the repository to an AI agent over MCP (stdio)',
  usage: 'mcp [--repo DIR] [--db FILE | --store URL]',
  description:
    'Starts a Model Context Protocol server on stdin/stdout for the repository, with seven tools: context_for_task, ' +
    'context_for_files, context_for_pr, explain_symbol, feedback, index_status and reindex. It indexes the repository if ' +
    'needed and refreshes changed files before answering. Register it with your agent as the command ' +
    '`knowing mcp --repo /path/to/repo`. Diagnostics go to stderr; stdout carries the protocol. For a team ' +
    'server over HTTP, see `knowing serve`.',
  options: { store: STORE_OPTION },
  examples: [
    ['knowing mcp', 'serve the repository you are in'],
    ['claude mcp add knowing -- knowing mcp --repo "$PWD"', 'register it with Claude Code'],
    ['{"mcpServers": {"knowing": {"command": "knowing", "args": ["mcp", "--repo", "/src/shop"]}}}', 'an MCP client config entry'],
  ],
  exitCodes: [
    [ExitCode.PathNotFound, '--repo does not exist'],
    [ExitCode.Database, 'the database is not a knowing index, is corrupt or too new'],
  ],
  run: async (ctx) => (await import('./commands/mcp.js')).runMcp(ctx),
};

export const trainCommand: Command = {
  name: 'train',
  summary: "retrain the learned ranker on the repository's own git history",
  usage: 'train [--max-tasks N] [--holdout FRACTION] [--learner linear|trees] [--out FILE] [--force] [--json]',
  description:
    'Turns the repository\'s history into tasks — a commit whose message says what it changes is a task, the ' +
    'existing functions its diff changes are the right answers — and fits the learned ranker to them. Each task\'s ' +
    'parent commit is checked out in a temporary worktree, indexed and asked the task (your working tree, branch ' +
    'and index are not touched). The newest tasks (--holdout) are kept out of training and used to print before/after ' +
    'figures: R@10, MRR and P@10 of the formula, the shipped model and the trained model on the same candidates. ' +
    'When it ranks the held-out tasks at least as well as the shipped model (R@10 + MRR), the model is written to ' +
    '<repo>/.knowing/model.json, where `knowing context`, `why`, `viz` and `mcp` pick it up for task answers (a ranker ' +
    'set in knowing.config still wins); otherwise nothing is written unless --force. To go back to the shipped model, delete the file ' +
    '(.knowing/model.json). Takes about a second per task on a small repository, longer on a large one; Ctrl-C stops it and cleans up.',
  options: {
    'max-tasks': { type: 'string', value: 'N', description: 'mine at most this many tasks, newest first', defaultText: '200' },
    holdout: { type: 'string', value: 'FRACTION', description: 'share of the tasks, newest first, kept out of training for the figures', defaultText: '0.2' },
    learner: {
      type: 'string',
      value: 'KIND',
      description: 'linear (pairwise logistic regression: what a few hundred tasks fit best) or trees (boosted regression trees: they need more tasks, and win with them)',
      defaultText: 'linear',
    },
    out: { type: 'string', short: 'o', value: 'FILE', description: 'write the model here instead, whatever its figures (it is then not used until you move it)', defaultText: '<repo>/.knowing/model.json' },
    force: { type: 'boolean', description: 'install the model in .knowing/model.json even when it ranks the held-out tasks worse than the shipped one' },
  },
  examples: [
    ['knowing train', 'learn from the history of the repository you are in, and use the model from now on'],
    ['knowing train --max-tasks 50 --holdout 0.3', 'a quicker run, judged on more held-out tasks'],
    ['knowing train --max-tasks 1000 --learner trees', 'a long history: boosted trees instead of the linear model'],
    ['knowing train --out /tmp/model.json --json', 'try a model without using it; figures as JSON'],
    ['rm .knowing/model.json', 'go back to the shipped model'],
  ],
  exitCodes: [
    [ExitCode.Failure, 'too few tasks in the history (the message says how many and the minimum), or nothing to learn from'],
    [ExitCode.Usage, 'not a git repository, bad --max-tasks, --holdout or --learner'],
    [ExitCode.Interrupted, 'Ctrl-C: the temporary worktree and index were removed, no model written'],
  ],
  run: async (ctx) => (await import('./commands/train.js')).runTrain(ctx),
};

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'check the index for damage, staleness and bloat, and say (or do, with --fix) what repairs it',
  usage: 'doctor [--full] [--fix] [--db FILE] [--json]',
  description:
    'Checks the index without writing to it: that the file is a knowing index this version can read (and which ' +
    'knowing wrote it), SQLite\'s consistency check (quick_check, or integrity_check with --full), that it was built ' +
    'from this repository, which files changed since indexing (by size, or by content with --full), and the size of ' +
    'the answer cache and of free pages. Each problem comes with what to do. --fix does what is safe: moves a damaged ' +
    'index aside and rebuilds it, re-indexes stale files, prunes the cache and compacts the file; it never touches a ' +
    'file given with --db that is not a knowing index.',
  options: {
    full: { type: 'boolean', description: 'run integrity_check instead of quick_check, and compare file contents instead of sizes' },
    fix: { type: 'boolean', description: 'repair what can be repaired safely, then check again' },
  },
  examples: [
    ['knowing doctor', 'check the index of the repository you are in'],
    ['knowing doctor --fix', 'repair it: rebuild a damaged index, re-index changed files, prune caches'],
    ['knowing doctor --full --json', 'the thorough check, as JSON for a script'],
  ],
  exitCodes: [
    [ExitCode.NoIndex, 'no index yet'],
    [ExitCode.Database, 'a problem remains: damaged, not a knowing index, too new, or built from another repository'],
  ],
  run: async (ctx) => (await import('./commands/doctor.js')).runDoctor(ctx),
};

export const watchCommand: Command = {
  name: 'watch',
  summary: 'keep the index fresh while you work: re-index on every file change',
  usage: 'watch [PATH] [--debounce MS] [--languages LIST] [--workers N] [--poll] [--force] [--db FILE] [--json]',
  description:
    'Brings the index up to date, then watches the repository and re-indexes (incrementally) whenever files change: ' +
    'edits, new, renamed and deleted files, editors\' atomic saves. Changes are collected until they have been quiet ' +
    'for --debounce milliseconds and then indexed in one run, and nothing starts while git holds its index lock, so a ' +
    'branch switch or a rebase that rewrites hundreds of files is indexed once. .git/, .knowing/, node_modules and the ' +
    'other directories the indexer skips are not watched; files ignored by .gitignore or .knowingignore are left out ' +
    'by the index run itself. Each batch prints one line on stderr (when, what changed, what was re-indexed, how long); ' +
    'with --json, one JSON object per line on stdout instead ({"event": "ready" | "batch" | "error" | "stopped", …}). ' +
    'Ctrl-C stops it: a run in progress stops before it writes, so the index stays complete. ' +
    'While it runs it also answers `knowing context` in the repository, through a socket only you can open ' +
    '(.knowing/cli.sock): the same answer, without a new process loading the engine first.',
  positionals: [{ name: 'PATH', description: 'repository to watch (default: --repo, else the enclosing git root, else the current directory)' }],
  options: {
    debounce: { type: 'string', value: 'MS', description: 'quiet time after the last change before indexing', defaultText: '300' },
    languages: { type: 'string', multiple: true, value: 'LIST', description: 'only these languages, comma-separated, as for `knowing index`', defaultText: 'config defaults.languages, else all' },
    workers: { type: 'string', value: 'N', description: 'parser threads for large batches, the main thread included (0 or 1: the main thread alone)', defaultText: '2 when a core is idle (no other thread running now, or 1-minute load average ≤ cores − 1) and, on a 2-core machine, the files to parse hold 8 MB or more; else 1' },
    poll: { type: 'boolean', description: 'poll for changes instead of file system events (network drives, some containers, or when the inotify limit is reached)' },
    force: { type: 'boolean', description: 'watch even the file system root or your home directory' },
  },
  examples: [
    ['knowing watch', 'keep the index of the repository you are in fresh; leave it running in a terminal'],
    ['knowing watch --debounce 1000 --quiet', 'wait a second after the last change, print nothing'],
    ['knowing watch --json | jq -c \'select(.event == "batch") | .changed\'', 'the files of each batch, for a script'],
  ],
  exitCodes: [
    [ExitCode.Usage, 'bad flag or config; PATH is the file system root or your home directory (without --force)'],
    [ExitCode.PathNotFound, 'PATH does not exist or is not a directory'],
    [ExitCode.Database, 'the database cannot be written or is not a knowing index'],
    [ExitCode.Interrupted, 'stopped with Ctrl-C (the normal way to end it); the index is complete'],
  ],
  run: async (ctx) => (await import('./commands/watch.js')).runWatch(ctx),
};

export const hooksCommand: Command = {
  name: 'hooks',
  summary: 'git hooks that re-index in the background after checkout, merge, rebase and commit',
  usage: 'hooks (install | uninstall | status) [--repo DIR] [--db FILE] [--json]',
  description:
    'install adds post-checkout, post-merge, post-rewrite and post-commit hooks to the repository (where git looks for ' +
    'hooks: core.hooksPath when set, as husky does, else .git/hooks). Each starts `knowing hooks run` in the background ' +
    'and returns at once, so git is never slowed down and never fails because of knowing; the run indexes ' +
    'incrementally, one at a time per repository, and logs to .knowing/hooks.log. A hook that is already there (yours, ' +
    'husky\'s, lefthook\'s) is kept: it is renamed to <hook>.knowing-chained and called first, with the same arguments ' +
    'and input, and its exit status is the hook\'s. install is idempotent; uninstall puts back exactly what was there ' +
    '(the chained hooks under their own names). status shows what is installed. run is what the hooks call: one ' +
    'incremental index, waiting its turn behind a run in progress.',
  positionals: [
    { name: 'ACTION', description: 'install, uninstall, status, or run (what the hooks call)' },
    { name: 'HOOK', description: 'for run: the git hook that started it, named in the log' },
  ],
  options: {},
  examples: [
    ['knowing hooks install', 'keep the index of the repository you are in fresh after every checkout, pull, rebase and commit'],
    ['knowing hooks status', 'which hooks are installed, which existing hooks they chain, and where'],
    ['knowing hooks uninstall', 'remove them and put the previous hooks back'],
    ['tail .knowing/hooks.log', 'what the background runs did'],
  ],
  exitCodes: [
    [ExitCode.Usage, 'missing or unknown ACTION, not a git repository, or a hook file in the way (the message names it)'],
  ],
  run: async (ctx) => (await import('./commands/hooks.js')).runHooks(ctx),
};

export const installCommand: Command = {
  name: 'install',
  summary: "register the MCP server with an AI agent (claude, cursor, vscode, windsurf, codex, gemini, zed)",
  usage: 'install AGENT [--scope project|user] [--print] [--uninstall] [--repo DIR] [--db FILE] [--json]',
  description:
    'Adds the knowing MCP server (`knowing mcp`) to the configuration file of AGENT, in that agent\'s format: ' +
    'claude (Claude Code: .mcp.json, or ~/.claude.json), cursor (.cursor/mcp.json, or ~/.cursor/mcp.json), vscode ' +
    '(.vscode/mcp.json, or the user mcp.json), windsurf (~/.codeium/windsurf/mcp_config.json), codex ' +
    '(~/.codex/config.toml, or .codex/config.toml), gemini (.gemini/settings.json, or ~/.gemini/settings.json) and zed ' +
    '(.zed/settings.json, or ~/.config/zed/settings.json). The file is edited in place: other servers, settings, ' +
    'comments and formatting are kept, and the entry is named "knowing" (running it again changes nothing; it replaces ' +
    'an older knowing entry). Project files serve whoever opens the repository: they name it by the agent\'s workspace ' +
    'variable, or not at all where the agent starts servers in the project; user files name the repository by its ' +
    'absolute path. --print shows the entry instead of writing it; --uninstall removes only the knowing entry. ' +
    'docs/agents.md shows every snippet.',
  positionals: [{ name: 'AGENT', description: 'claude, cursor, vscode, windsurf, codex, gemini or zed' }],
  options: {
    scope: { type: 'string', value: 'SCOPE', description: 'project (a file in the repository) or user (your own configuration, for this repository)', defaultText: 'project where the agent has project files; user for windsurf and codex' },
    print: { type: 'boolean', description: 'print the entry to add (and say where) instead of writing the file' },
    uninstall: { type: 'boolean', description: 'remove the knowing entry (and nothing else)' },
  },
  examples: [
    ['knowing install claude', 'add the server to .mcp.json in this repository, for Claude Code'],
    ['knowing install cursor --scope user', 'add it to ~/.cursor/mcp.json, serving this repository'],
    ['knowing install codex --print', 'show the [mcp_servers.knowing] table without writing anything'],
    ['knowing install zed --uninstall', 'remove the knowing entry from .zed/settings.json'],
  ],
  exitCodes: [
    [ExitCode.Usage, 'unknown AGENT or --scope, a scope the agent does not have, or a configuration file knowing cannot edit safely (the message says why)'],
  ],
  run: async (ctx) => (await import('./commands/install.js')).runInstall(ctx),
};

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve many repositories to a team over MCP (Streamable HTTP), with tokens',
  usage: 'serve [--checkout [NAME=]PATH]... [--repository NAME]... [--store URL] [--tokens FILE] [--host HOST] [--port N]',
  description:
    'Starts an MCP server over HTTP (MCP\'s Streamable HTTP transport) for several repositories at once: each answers at ' +
    'http://HOST:PORT/mcp/<name> with the seven tools of `knowing mcp`, each client session with its own session state. ' +
    'A repository is a checkout on this machine (--checkout; its name is the git remote, e.g. github.com/acme/shop, ' +
    'unless given as NAME=PATH), indexed into its .knowing/graph.db or, with --store, into the PostgreSQL database under ' +
    'that name; or, with --store, a repository held in the database alone (--repository NAME: answers without code, ' +
    'never re-indexed here — a CI job runs `knowing index --store`). Without either, the repository you are in. ' +
    'Every request needs a bearer token from --tokens FILE or the KNOWING_TOKENS variable (one "TOKEN [write] [# label]" a ' +
    'line; KNOWING_TOKENS may separate them with commas): a missing or unknown token gets 401, and only tokens marked ' +
    'write may call reindex. Bodies over --max-body get 413, a token over --rate requests a minute 429 with Retry-After. ' +
    'GET /healthz reports the repositories and versions (no token needed). Ctrl-C or SIGTERM stops accepting, lets the ' +
    'requests in flight finish, and closes the stores. docs/teams.md shows a team setup.',
  options: {
    checkout: { type: 'string', multiple: true, value: '[NAME=]PATH', description: 'serve the checkout at PATH (repeatable)', defaultText: 'the repository you are in, when neither --checkout nor --repository is given' },
    repository: { type: 'string', multiple: true, value: 'NAME', description: 'serve a repository of the --store database that has no checkout here (repeatable)' },
    store: STORE_OPTION,
    tokens: { type: 'string', value: 'FILE', description: 'the bearer tokens, one "TOKEN [write] [# label]" a line', defaultText: 'the KNOWING_TOKENS variable' },
    host: { type: 'string', value: 'HOST', description: 'address to listen on (0.0.0.0 for every interface; put TLS in front)', defaultText: '127.0.0.1' },
    port: { type: 'string', value: 'N', description: 'port to listen on (0 picks a free one; --json says which)', defaultText: '7420' },
    'max-body': { type: 'string', value: 'BYTES', description: 'largest request body (413 beyond)', defaultText: '1048576' },
    rate: { type: 'string', value: 'N', description: 'requests a minute per token (429 beyond; 0 for no limit)', defaultText: '600' },
    burst: { type: 'string', value: 'N', description: 'requests a token may make at once before --rate applies', defaultText: '60' },
    refresh: { type: 'boolean', description: 're-index a checkout\'s changed files before each answer (off: the index changes only by reindex or `knowing index`)' },
    'allow-origin': { type: 'string', multiple: true, value: 'ORIGIN', description: 'a browser origin allowed to call (others get 403)', defaultText: 'none' },
  },
  examples: [
    ['(umask 077; openssl rand -hex 32 > tokens) && knowing serve --tokens tokens', 'serve the repository you are in on http://127.0.0.1:7420/mcp/<its name>, to whoever has the token in ./tokens'],
    ['knowing serve --checkout shop=/srv/shop --checkout billing=/srv/billing --tokens /etc/knowing/tokens', 'two checkouts, each with its own .knowing/graph.db'],
    ['knowing serve --store postgres://knowing@db/knowing --repository github.com/acme/shop --host 0.0.0.0 --tokens tokens.txt', 'what CI indexed into PostgreSQL, to the network'],
    ['curl -s http://127.0.0.1:7420/healthz', 'the repositories, their snapshots and the server version'],
  ],
  exitCodes: [
    [ExitCode.Usage, 'no token, a malformed token line, a bad flag, a name given twice, --repository without --store, the port in use'],
    [ExitCode.PathNotFound, 'a checkout or the tokens file does not exist'],
    [ExitCode.Database, 'a store cannot be opened (not a knowing index, too new, read-only)'],
  ],
  run: async (ctx) => (await import('./commands/serve.js')).runServe(ctx),
};

/** Every subcommand, in the order the help lists them. */
export const COMMANDS: readonly Command[] = [indexCommand, statsCommand, contextCommand, whyCommand, testScopeCommand, vizCommand, mcpCommand, serveCommand, trainCommand, doctorCommand, watchCommand, hooksCommand, installCommand];
