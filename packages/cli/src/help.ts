import { GLOBAL_OPTIONS } from './args.js';
import type { OptionSpec, OptionSpecs } from './args.js';
import type { Command } from './command.js';
import { ExitCode } from './errors.js';
import { table } from './text.js';

/** The exit-code table, shared by the general help and the README. */
export const EXIT_CODE_TABLE: readonly (readonly [ExitCode, string])[] = [
  [ExitCode.Ok, 'success'],
  [ExitCode.Failure, 'unexpected failure (a bug, a crashing plugin, a full disk)'],
  [ExitCode.Usage, 'usage or config error: unknown command or flag, missing or empty value, unknown format or language'],
  [ExitCode.NoIndex, 'no index yet: run `knowing index`'],
  [ExitCode.PathNotFound, 'a path does not exist or cannot be read'],
  [ExitCode.Database, 'database problem: not a knowing index, corrupt, newer schema, locked or read-only'],
  [ExitCode.NotFound, 'no symbol has the name given (`why --symbol`); the closest names are listed'],
  [ExitCode.Interrupted, 'interrupted (Ctrl-C) while indexing; the index was left as it was'],
];

function optionLabel(name: string, spec: OptionSpec): string {
  const long = `--${name}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`;
  return spec.short ? `-${spec.short}, ${long}` : `    ${long}`;
}

function optionRows(options: OptionSpecs): string[][] {
  return Object.entries(options).map(([name, spec]) => [
    optionLabel(name, spec),
    spec.description + (spec.defaultText ? ` (default: ${spec.defaultText})` : ''),
  ]);
}

export function generalHelp(commands: readonly Command[], version: string): string {
  const lines = [
    `knowing ${version} — the code an AI agent (or you) should read for a task, within a token budget`,
    '',
    'Usage: knowing <command> [options]',
    '',
    'Commands:',
    ...table([...commands.map((c) => [c.name, c.summary]), ['help CMD', 'help for one command, with examples (`help config`: the config file)']], '  '),
    '',
    'Global options:',
    ...table(optionRows(GLOBAL_OPTIONS), '  '),
    '',
    'Examples:',
    ...table(
      [
        ['knowing index', '# index the repository you are in'],
        ['knowing context --task "add a discount code to the cart"', '# what to read for a task'],
        ['knowing context --pr main --format gcf --budget 8000', '# what your branch touches'],
        ['knowing why --task "apply a discount" --symbol Cart.total', '# how a symbol was scored'],
        ['knowing test-scope --format run', '# commands running the tests for your changes'],
        ['knowing viz --task "refund a payment"', '# an HTML graph to look at'],
      ],
      '  ',
    ),
    '',
    'Exit codes:',
    ...table(EXIT_CODE_TABLE.map(([code, text]) => [String(code), text]), '  '),
    '',
    'Errors go to stderr as "knowing: <message>" and "hint: <what to do>". With --json, stdout also gets',
    '{"error": {"code", "exitCode", "message", "hint"}} and the exit code is the same.',
    '',
    'Config: knowing.config.json (or .mjs/.js/.ts) at the repository root sets plugins, a ranker and defaults;',
    'see `knowing help config`.',
  ];
  return `${lines.join('\n')}\n`;
}

export function commandHelp(command: Command): string {
  const lines = [`knowing ${command.name} — ${command.summary}`, '', `Usage: knowing ${command.usage}`, '', ...wrap(command.description, 96), ''];
  if (command.positionals?.length) {
    lines.push('Arguments:', ...table(command.positionals.map((p) => [p.name, p.description]), '  '), '');
  }
  if (Object.keys(command.options).length > 0) lines.push('Options:', ...table(optionRows(command.options), '  '), '');
  lines.push('Global options:', ...table(optionRows(GLOBAL_OPTIONS), '  '), '');
  lines.push('Examples:');
  for (const [example, what] of command.examples) lines.push(`  ${example}`, `      ${what}`);
  lines.push('', 'Exit codes:');
  const codes: (readonly [ExitCode, string])[] = [[ExitCode.Ok, 'success'], ...(command.exitCodes ?? [])];
  if (!codes.some(([c]) => c === ExitCode.Usage)) codes.push([ExitCode.Usage, 'bad flag or config']);
  codes.push([ExitCode.Failure, 'unexpected failure']);
  lines.push(...table([...codes].sort((a, b) => a[0] - b[0]).map(([code, text]) => [String(code), text]), '  '));
  return `${lines.join('\n')}\n`;
}

export const CONFIG_HELP = `knowing.config — plugins, a ranker and defaults for a repository

knowing looks for knowing.config.json, knowing.config.mjs, knowing.config.js or knowing.config.ts at
the repository root (or takes --config FILE). JavaScript configs export the object as default.
TypeScript configs need a Node.js that imports .ts files (22.18+ or 23.6+); elsewhere use .mjs or .json.

  {
    "plugins": ["knowing-vocab-django", "./vocab/equiv_shop.mjs"],
    "ranker": "./tools/my-ranker.mjs",
    "defaults": { "budget": 8000, "format": "gcf", "languages": ["python", "go"], "workers": 2 },
    "engine": { "walk": { "alpha": 0.25 }, "channels": { "bm25": 3 } }
  }

  plugins    equivalence-class (vocabulary) packages or module paths, relative to the config file
  ranker     a module whose default export (or "ranker" export) is a ranker { name, rank() },
             or a function returning one
  defaults   budget and format of context/why/viz, languages and workers of index
  engine     engine options (EngineOptionsInput of @knowing/engine); unknown names are errors
  store      a PostgreSQL URL (postgres://user@host:5432/db, ?repository=NAME) holding the index
             instead of .knowing/graph.db, as --store takes it; no password here (use PGPASSWORD)

Flags given on the command line win over the config's defaults.
`;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
