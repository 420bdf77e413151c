import type { OptionSpecs, ParsedArgs } from './args.js';
import type { ExitCode } from './errors.js';
import type { CliIO, Output } from './io.js';

/** What a command's `run` receives. */
export interface CommandContext {
  readonly command: string;
  readonly values: ParsedArgs['values'];
  readonly positionals: readonly string[];
  readonly out: Output;
  readonly io: CliIO;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => number;
  /** The global flags. */
  readonly repo: string | undefined;
  readonly db: string | undefined;
  readonly config: string | undefined;
}

/** A subcommand: how it parses, how it documents itself, and what it does. */
export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The usage line after `knowing `. */
  readonly usage: string;
  /** A paragraph for `knowing help <command>`. */
  readonly description: string;
  readonly options: OptionSpecs;
  readonly positionals?: readonly { readonly name: string; readonly description: string }[];
  /** Example invocations with what they do. */
  readonly examples: readonly (readonly [string, string])[];
  /** Exit codes worth naming for this command, beyond 0. */
  readonly exitCodes?: readonly (readonly [ExitCode, string])[];
  run(context: CommandContext): Promise<ExitCode>;
}
