import { readFileSync } from 'node:fs';
import { booleanValue, closest, parseCommandArgs, splitCommand, stringValue } from './args.js';
import type { Command, CommandContext } from './command.js';
import { COMMANDS, contextCommand, expandOptionalPr } from './commands.js';
import { ExitCode, toFailure, usageError } from './errors.js';
import { CONFIG_HELP, commandHelp, generalHelp } from './help.js';
import { createOutput } from './io.js';
import type { CliIO } from './io.js';

let cachedVersion: string | undefined;

/** This package's version (from its package.json, one directory above src/ and dist/). */
export function version(): string {
  if (cachedVersion === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
      cachedVersion = pkg.version ?? 'unknown';
    } catch {
      cachedVersion = 'unknown';
    }
  }
  return cachedVersion;
}

function findCommand(name: string): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (command) return command;
  const guess = closest(name, [...COMMANDS.map((c) => c.name), 'help']);
  throw usageError(`unknown command "${name}"`, guess ? `did you mean \`knowing ${guess}\`? see \`knowing --help\`` : 'see `knowing --help` for the commands');
}

/**
 * Run the `knowing` command line with `argv` (without the node and script paths) and return
 * the exit code. Output goes to the injected streams only; nothing here exits the process.
 *
 * @example
 * ```ts
 * const code = await run(['context', '--task', 'add a discount code'], { stdout: process.stdout, stderr: process.stderr });
 * process.exitCode = code;
 * ```
 */
export async function run(argv: readonly string[], io: CliIO): Promise<ExitCode> {
  const { command: name, rest } = splitCommand(argv);
  // Known before parsing, so that even a parse error is reported as JSON when asked.
  const wantsJson = argv.includes('--json');
  const out = createOutput(io, { json: wantsJson, quiet: argv.includes('--quiet') || argv.includes('-q') });
  try {
    if (name === undefined || name === 'help') {
      const parsed = parseCommandArgs(name ?? 'help', rest, {}, name === 'help' ? 1 : 0);
      if (booleanValue(parsed.values, 'version')) {
        out.line(version());
        return ExitCode.Ok;
      }
      const topic = parsed.positionals[0];
      if (topic === 'config') io.stdout.write(CONFIG_HELP);
      else if (topic !== undefined) io.stdout.write(commandHelp(findCommand(topic)));
      else if (name === 'help' || booleanValue(parsed.values, 'help')) io.stdout.write(generalHelp(COMMANDS, version()));
      else {
        io.stderr.write(generalHelp(COMMANDS, version()));
        return ExitCode.Usage;
      }
      return ExitCode.Ok;
    }
    const command = findCommand(name);
    const args = command === contextCommand ? expandOptionalPr(rest) : rest;
    const parsed = parseCommandArgs(command.name, args, command.options, command.positionals?.length ?? 0);
    if (booleanValue(parsed.values, 'help')) {
      io.stdout.write(commandHelp(command));
      return ExitCode.Ok;
    }
    if (booleanValue(parsed.values, 'version')) {
      out.line(version());
      return ExitCode.Ok;
    }
    const cwd = io.cwd ?? process.cwd();
    const context: CommandContext = {
      command: command.name,
      values: parsed.values,
      positionals: parsed.positionals,
      out: createOutput(io, { json: booleanValue(parsed.values, 'json'), quiet: booleanValue(parsed.values, 'quiet') }),
      io,
      cwd,
      env: io.env ?? process.env,
      now: io.now ?? Date.now,
      repo: stringValue(parsed.values, 'repo'),
      db: stringValue(parsed.values, 'db'),
      config: stringValue(parsed.values, 'config'),
    };
    return await command.run(context);
  } catch (error) {
    return report(error, io, wantsJson);
  }
}

/** Print a failure (stderr always; stdout too with --json) and return its exit code. */
function report(error: unknown, io: CliIO, json: boolean): ExitCode {
  const failure = toFailure(error);
  io.stderr.write(`knowing: ${failure.message}\n`);
  if (failure.hint) io.stderr.write(`hint: ${failure.hint}\n`);
  const env = io.env ?? process.env;
  if (failure.stack && env['KNOWING_DEBUG']) io.stderr.write(`${failure.stack}\n`);
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ error: { code: failure.code, exitCode: failure.exitCode, message: failure.message, hint: failure.hint ?? null } }, null, 2)}\n`,
    );
  }
  return failure.exitCode;
}
