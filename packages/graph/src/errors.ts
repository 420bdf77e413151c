/**
 * Stable error codes. Callers branch on `code`, never on message text.
 */
export const ErrorCode = {
  InvalidArgument: 'INVALID_ARGUMENT',
  NotFound: 'NOT_FOUND',
  PathNotFound: 'PATH_NOT_FOUND',
  UnknownLanguage: 'UNKNOWN_LANGUAGE',
  NoIndex: 'NO_INDEX',
  NotADatabase: 'STORE_NOT_A_DATABASE',
  SchemaTooNew: 'STORE_SCHEMA_TOO_NEW',
  ReadOnly: 'STORE_READ_ONLY',
  Locked: 'STORE_LOCKED',
  Corrupt: 'STORE_CORRUPT',
  StoreClosed: 'STORE_CLOSED',
  BadFormat: 'BAD_FORMAT',
  PluginInvalid: 'PLUGIN_INVALID',
  Internal: 'INTERNAL',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Options accepted by {@link KnowingError}. */
export interface KnowingErrorOptions {
  /** The package or component raising the error, e.g. `store-sqlite`. */
  source?: string;
  /** The underlying error, if any. */
  cause?: unknown;
  /** What the user can do about it; appended to the message. */
  hint?: string;
}

/**
 * The one error class of knowing. Messages say where they come from and what to do.
 *
 * @example
 * ```ts
 * throw new KnowingError(ErrorCode.SchemaTooNew,
 *   '/x/graph.db was written by schema v7; this build reads up to v5',
 *   { source: 'store-sqlite', hint: 'upgrade knowing or re-index with --full' });
 * ```
 */
/** Marks a KnowingError of any copy of this package (`Symbol.for` is shared by every copy). */
const KNOWING_ERROR = Symbol.for('@knowing/graph:KnowingError');

export class KnowingError extends Error {
  readonly code: ErrorCode;
  readonly source: string | undefined;
  readonly hint: string | undefined;
  /** The message alone, without the source prefix and the hint, for callers that frame it themselves. */
  readonly detail: string;

  constructor(code: ErrorCode, message: string, options: KnowingErrorOptions = {}) {
    const prefix = options.source ? `[knowing:${options.source}] ` : '[knowing] ';
    const suffix = options.hint ? ` — ${options.hint}` : '';
    super(prefix + message + suffix, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KnowingError';
    this.code = code;
    this.source = options.source;
    this.hint = options.hint;
    this.detail = message;
    Object.defineProperty(this, KNOWING_ERROR, { value: true });
  }

  /**
   * `instanceof KnowingError` holds for the errors of every copy of this package: a bundled
   * command line, a plugin or an application may each carry one, and an error crosses from one
   * to another (a store's error caught by the indexer, the indexer's by the CLI).
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== KnowingError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[KNOWING_ERROR] === true;
  }
}

/** True when `error` is a {@link KnowingError}, optionally with the given code. */
export function isKnowingError(error: unknown, code?: ErrorCode): error is KnowingError {
  return error instanceof KnowingError && (code === undefined || error.code === code);
}
