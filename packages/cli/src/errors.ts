import type { ErrorCode } from '@knowing/graph';

/**
 * Exit codes of the `knowing` command. Scripts branch on these; the README and `--help`
 * document the same table.
 */
export const ExitCode = {
  /** Success. */
  Ok: 0,
  /** An unexpected failure (a bug, a crashing plugin, a full disk). */
  Failure: 1,
  /** A usage or configuration error: unknown command or flag, missing or bad value, bad config file. */
  Usage: 2,
  /** There is no index yet for this repository (run `knowing index`). */
  NoIndex: 3,
  /** A path does not exist or cannot be read. */
  PathNotFound: 4,
  /** The database is not a knowing index, is corrupt, newer than this build, locked or read-only. */
  Database: 5,
  /** A symbol named on the command line (`why --symbol`) is not in the index. */
  NotFound: 6,
  /** Interrupted (Ctrl-C); the index was left as it was. 128 + SIGINT, as shells report it. */
  Interrupted: 130,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Error codes the CLI adds to the library's `ErrorCode`s in its JSON error objects. */
export const CliErrorCode = {
  Usage: 'USAGE',
  Config: 'CONFIG',
  NotAGitRepository: 'NOT_A_GIT_REPOSITORY',
  /** No symbol has the name given (exit 6); the message lists the closest names. */
  SymbolNotFound: 'SYMBOL_NOT_FOUND',
  /** Several symbols have the name given (exit 2); the message lists them. */
  AmbiguousSymbol: 'AMBIGUOUS_SYMBOL',
  Unexpected: 'UNEXPECTED',
} as const;

/** An error the CLI raises itself: it knows its exit code and what to suggest. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly code: string;
  readonly hint: string | undefined;

  constructor(exitCode: ExitCode, code: string, message: string, hint?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CliError';
    this.exitCode = exitCode;
    this.code = code;
    this.hint = hint;
  }
}

/** A usage error (exit 2). */
export function usageError(message: string, hint?: string): CliError {
  return new CliError(ExitCode.Usage, CliErrorCode.Usage, message, hint);
}

/** A configuration error (exit 2), naming the file. */
export function configError(file: string, message: string, hint?: string, cause?: unknown): CliError {
  return new CliError(ExitCode.Usage, CliErrorCode.Config, `${file}: ${message}`, hint, cause === undefined ? undefined : { cause });
}

// The library's codes as literals (checked against its ErrorCode type), so that loading this
// module, as every run of the CLI does, does not load @knowing/graph.
const EXIT_BY_KNOWING_CODE: Readonly<Record<string, ExitCode>> = {
  INVALID_ARGUMENT: ExitCode.Usage,
  UNKNOWN_LANGUAGE: ExitCode.Usage,
  NO_INDEX: ExitCode.NoIndex,
  PATH_NOT_FOUND: ExitCode.PathNotFound,
  STORE_NOT_A_DATABASE: ExitCode.Database,
  STORE_SCHEMA_TOO_NEW: ExitCode.Database,
  STORE_READ_ONLY: ExitCode.Database,
  STORE_LOCKED: ExitCode.Database,
  STORE_CORRUPT: ExitCode.Database,
  STORE_CLOSED: ExitCode.Database,
} satisfies Partial<Record<ErrorCode, ExitCode>>;

const INTERNAL: ErrorCode = 'INTERNAL';

/** What the CLI prints for a failure: one message, an optional hint, a code and an exit code. */
export interface Failure {
  readonly exitCode: ExitCode;
  readonly code: string;
  readonly message: string;
  readonly hint: string | undefined;
  /** The stack of an unexpected error, shown with KNOWING_DEBUG=1. */
  readonly stack: string | undefined;
}

/**
 * The library formats messages as `[knowing:source] message — hint`; the CLI prints the
 * message and the hint on their own lines, so both decorations come off.
 */
function bareMessage(message: string, hint: string | undefined): string {
  let text = message.replace(/^\[knowing(?::[^\]]*)?\]\s*/, '');
  if (hint && text.endsWith(` — ${hint}`)) text = text.slice(0, -(hint.length + 3));
  return text;
}

interface KnowingErrorLike {
  readonly name: string;
  readonly code: string;
  readonly message: string;
  readonly hint?: string;
  readonly stack?: string;
}

/** By shape rather than `instanceof`: a plugin may bring its own copy of @knowing/graph. */
function isKnowingErrorLike(error: unknown): error is KnowingErrorLike {
  return (
    error instanceof Error &&
    error.name === 'KnowingError' &&
    typeof (error as { code?: unknown }).code === 'string'
  );
}

/** Classify anything thrown into what the CLI reports. */
export function toFailure(error: unknown): Failure {
  if (error instanceof CliError) {
    return { exitCode: error.exitCode, code: error.code, message: error.message, hint: error.hint, stack: undefined };
  }
  if (isKnowingErrorLike(error)) {
    return {
      exitCode: EXIT_BY_KNOWING_CODE[error.code] ?? ExitCode.Failure,
      code: error.code,
      message: bareMessage(error.message, error.hint),
      hint: error.hint ?? (error.code === INTERNAL ? 'this looks like a bug in knowing; please report it' : undefined),
      stack: error.code === INTERNAL ? error.stack : undefined,
    };
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return { exitCode: ExitCode.Interrupted, code: 'INTERRUPTED', message: 'interrupted; the index was left as it was', hint: undefined, stack: undefined };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    exitCode: ExitCode.Failure,
    code: CliErrorCode.Unexpected,
    message,
    hint: 'this looks like a bug in knowing; run again with KNOWING_DEBUG=1 for the stack and report it',
    stack: error instanceof Error ? error.stack : undefined,
  };
}
