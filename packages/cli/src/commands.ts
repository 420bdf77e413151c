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

export const indexCommand: Command = {
  name: 'index',
  summary: 'index a repository into a symbol graph (incremental)',
  usage: 'index [PATH] [--languages LIST] [--full] [--workers N] [--db FILE] [--json]',
  description:
    'Parses the source files of the repository at PATH and stores their symbols and the calls, imports and ' +
    'inheritance between them in the index database. Re-running it only re-parses files whose content changed. ' +
    'Files matched by .gitignore or .knowingignore, generated, minified, binary and very large files are skipped ' +
    '(the summary says how many and why).',
  positionals: [{ name: 'PATH', description: 'repository to index (default: --repo, else the enclosing git root, else the current directory)' }],
  options: {
    languages: { type: 'string', multiple: true, value: 'LIST', description: `only these languages, comma-separated (${BUILTIN_LANGUAGE_IDS.join(', ')}; aliases such as py, ts, golang)`, defaultText: 'all' },
    full: { type: 'boolean', description: 'ignore cached results and re-parse every file' },
    workers: { type: 'string', value: 'N', description: 'parser threads (0 parses in the main thread)', defaultText: 'min(2, cores)' },
  },
  examples: [
    ['knowing index', 'index the repository you are in'],
    ['knowing index ../flask --languages python', 'index only the Python files of another checkout'],
    ['knowing index --full --json > summary.json', 'rebuild from scratch and keep the summary as JSON'],
  ],
  exitCodes: [
    [ExitCode.Usage, 'unknown language, bad flag or config'],
    [ExitCode.PathNotFound, 'PATH does not exist or is not a directory'],
    [ExitCode.Database, 'the database cannot be written or is not a knowing index'],
  ],
  run: async (ctx) => (await import('./commands/index-command.js')).runIndex(ctx),
};

export const statsCommand: Command = {
  name: 'stats',
  summary: 'what the index holds: counts by kind, edge type and language',
  usage: 'stats [--db FILE] [--json]',
  description:
    'Shows the indexed repository, when it was indexed, the database file and its size, the current snapshot, and ' +
    'counts of files, symbols (by kind and language) and edges (by type).',
  options: {},
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
  usage: 'context (--task TEXT | --files LIST | --pr [BASE]) [--budget N] [--format FORMAT] [--reindex]',
  description:
    'Finds the symbols an agent (or you) should read: for a task described in words, for a list of files (their ' +
    'symbols and direct callers), or for the changes in your working tree (the changed symbols and what they ' +
    'affect). The answer is packed into a token budget counted in the chosen format and written to stdout. ' +
    'Formats: xml (default), markdown, json, gcf (compact text) and gcb (binary; redirect it to a file).',
  options: {
    task: { type: 'string', short: 't', value: 'TEXT', description: 'what you want to do, in words' },
    files: { type: 'string', short: 'F', multiple: true, value: 'LIST', description: 'comma-separated files (repo-relative or from the current directory)' },
    pr: { type: 'string', value: 'BASE', description: 'files changed against BASE (git diff --name-only) plus untracked files', defaultText: 'HEAD when no BASE is given' },
    budget: { type: 'string', short: 'b', value: 'N', description: 'token budget', defaultText: 'config defaults.budget, else 50000 (8000 for --pr)' },
    format: { type: 'string', short: 'f', value: 'FORMAT', description: 'xml, markdown, json, gcf or gcb', defaultText: 'config defaults.format, else xml' },
    reindex: { type: 'boolean', description: 'refresh the index (incrementally) before answering; creates it if missing' },
  },
  examples: [
    ['knowing context --task "add a discount code to the cart"', 'the symbols to read for a task, as XML'],
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
  usage: 'why --task TEXT --symbol NAME [--budget N] [--json]',
  description:
    'Runs the whole pipeline for the task and follows one symbol through it: which retrieval channels found it ' +
    '(and how), its seed weight, its random-walk score and distance from the seeds, HITS hub and authority, every ' +
    'ranking component, its rank, and whether the budget kept it — or the stage where it was lost. NAME may be a ' +
    'bare name (total), Type.member (Cart.total) or a qualified name (bookshop/cart.py.Cart.total).',
  options: {
    task: { type: 'string', short: 't', value: 'TEXT', description: 'the task, as for `knowing context`' },
    symbol: { type: 'string', short: 's', value: 'NAME', description: 'the symbol to explain' },
    budget: { type: 'string', short: 'b', value: 'N', description: 'token budget of the pack', defaultText: 'config defaults.budget, else 50000' },
  },
  examples: [
    ['knowing why --task "apply a discount code" --symbol Cart.total', 'how Cart.total was scored for the task'],
    ['knowing why -t "refund a payment" -s refund --json', 'the explanation as JSON'],
    ['knowing why --task "checkout" --symbol render_receipt --budget 2000', 'does it survive a small budget?'],
  ],
  exitCodes: [
    [ExitCode.Usage, 'missing or empty --task or --symbol'],
    [ExitCode.NoIndex, 'no index yet'],
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
  usage: 'viz --task TEXT [--out FILE] [--budget N]',
  description:
    'Answers the task like `knowing context` and writes a self-contained HTML page (no network, no external ' +
    'scripts) drawing the packed symbols as a graph: size by score, colour by distance from the seeds, arrows for ' +
    'the edges among them. Hover a symbol for its score; click it for its score components, the channels that ' +
    'found it and its walk score. Open the file in a browser.',
  options: {
    task: { type: 'string', short: 't', value: 'TEXT', description: 'the task, as for `knowing context`' },
    out: { type: 'string', short: 'o', value: 'FILE', description: 'where to write the page', defaultText: 'knowing-viz.html in the current directory' },
    budget: { type: 'string', short: 'b', value: 'N', description: 'token budget', defaultText: 'config defaults.budget, else 50000' },
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
  usage: 'mcp [--repo DIR] [--db FILE]',
  description:
    'Starts a Model Context Protocol server on stdin/stdout for the repository, with the tools context_for_task, ' +
    'context_for_files, context_for_pr, explain_symbol, feedback and index_status. It indexes the repository if ' +
    'needed and refreshes changed files before answering. Register it with your agent as the command ' +
    '`knowing mcp --repo /path/to/repo`. Diagnostics go to stderr; stdout carries the protocol.',
  options: {},
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
  usage: 'train [--max-tasks N] [--holdout FRACTION] [--out FILE] [--force] [--json]',
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
    out: { type: 'string', short: 'o', value: 'FILE', description: 'write the model here instead, whatever its figures (it is then not used until you move it)', defaultText: '<repo>/.knowing/model.json' },
    force: { type: 'boolean', description: 'install the model in .knowing/model.json even when it ranks the held-out tasks worse than the shipped one' },
  },
  examples: [
    ['knowing train', 'learn from the history of the repository you are in, and use the model from now on'],
    ['knowing train --max-tasks 50 --holdout 0.3', 'a quicker run, judged on more held-out tasks'],
    ['knowing train --out /tmp/model.json --json', 'try a model without using it; figures as JSON'],
    ['rm .knowing/model.json', 'go back to the shipped model'],
  ],
  exitCodes: [
    [ExitCode.Failure, 'too few tasks in the history (the message says how many and the minimum), or nothing to learn from'],
    [ExitCode.Usage, 'not a git repository, bad --max-tasks or --holdout'],
    [ExitCode.Interrupted, 'Ctrl-C: the temporary worktree and index were removed, no model written'],
  ],
  run: async (ctx) => (await import('./commands/train.js')).runTrain(ctx),
};

/** Every subcommand, in the order the help lists them. */
export const COMMANDS: readonly Command[] = [indexCommand, statsCommand, contextCommand, whyCommand, testScopeCommand, vizCommand, mcpCommand, trainCommand];
