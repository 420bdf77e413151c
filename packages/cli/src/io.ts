/** A stream the CLI writes to: `process.stdout`, `process.stderr`, or a test double. */
export interface OutputStream {
  write(chunk: string | Uint8Array): unknown;
  /** True when a person is watching (enables the progress bar, refuses binary output). */
  readonly isTTY?: boolean;
  /** Terminal width, when known. */
  readonly columns?: number;
}

/** A stream the CLI reads a long task from: `process.stdin`, or a test double. */
export interface InputStream extends AsyncIterable<string | Uint8Array> {
  /** True when a person types into it (a note then says how to end the text). */
  readonly isTTY?: boolean;
}

/**
 * Everything `run()` touches outside itself, so commands can be run in-process by tests and
 * by other programs.
 */
export interface CliIO {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /** Where `--task -` and `--task-file -` read the task. @default process.stdin */
  readonly stdin?: InputStream;
  /** Where relative paths start. @default process.cwd() */
  readonly cwd?: string;
  /** Environment (only `KNOWING_DEBUG`, `NO_COLOR` and, for `serve`, `KNOWING_TOKENS` are read). @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Clock for durations and "indexed 5 minutes ago". @default Date.now */
  readonly now?: () => number;
  /** Aborted on Ctrl-C: indexing stops before writing and leaves the index as it was. */
  readonly signal?: AbortSignal;
}

/** What commands get: the streams, plus helpers that respect --json and --quiet. */
export interface Output {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly json: boolean;
  readonly quiet: boolean;
  /** A line of the command's answer on stdout. */
  line(text?: string): void;
  /** A JSON value on stdout, pretty-printed, newline-terminated. */
  printJson(value: unknown): void;
  /** A note for the person at the terminal on stderr; suppressed by --quiet and --json. */
  note(text: string): void;
  /** A warning on stderr; suppressed by --json only (the JSON carries it). */
  warn(text: string): void;
}

export function createOutput(io: CliIO, flags: { readonly json: boolean; readonly quiet: boolean }): Output {
  return {
    stdout: io.stdout,
    stderr: io.stderr,
    json: flags.json,
    quiet: flags.quiet,
    line(text = '') {
      io.stdout.write(`${text}\n`);
    },
    printJson(value) {
      io.stdout.write(`${JSON.stringify(value, jsonReplacer, 2)}\n`);
    },
    note(text) {
      if (!flags.quiet && !flags.json) io.stderr.write(`knowing: ${text}\n`);
    },
    warn(text) {
      if (!flags.json) io.stderr.write(`knowing: warning: ${text}\n`);
    },
  };
}

/** Maps and sets (engine traces use them) become objects and arrays in JSON output. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value;
}
