import { ErrorCode, KnowingError } from '@knowing/graph';

/** The source every error of this store names. */
export const SOURCE = 'store-postgres';

/** A KnowingError raised by this package. */
export function storeError(code: ErrorCode, message: string, hint?: string, cause?: unknown): KnowingError {
  return new KnowingError(code, message, { source: SOURCE, hint, cause });
}

/** Where the store connects, for messages: `host:port/database`, never the password. */
export interface Target {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  /** `repository 'x' (schema knowing_x)`. */
  readonly where: string;
}

/** host, port and database of a connection string, or of a pg Pool's options. */
export function targetOf(connectionString: string | undefined, pool: unknown): Omit<Target, 'where'> {
  if (connectionString !== undefined) {
    try {
      const url = new URL(connectionString);
      const host = decodeURIComponent(url.hostname || url.searchParams.get('host') || 'localhost');
      return { host, port: Number(url.port || 5432), database: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres' };
    } catch {
      // Not a URL (a keyword/value string): the driver reports what is wrong with it.
    }
  }
  const options = (pool as { options?: { host?: unknown; port?: unknown; database?: unknown } } | undefined)?.options;
  return {
    host: typeof options?.host === 'string' ? options.host : 'localhost',
    port: typeof options?.port === 'number' ? options.port : 5432,
    database: typeof options?.database === 'string' ? options.database : 'postgres',
  };
}

interface DriverError {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly address?: unknown;
  readonly port?: unknown;
  readonly hostname?: unknown;
}

/** The SQLSTATE or the Node.js system error code of a driver error. */
function codeOf(error: unknown): string {
  const code = (error as DriverError | null)?.code;
  return typeof code === 'string' ? code : '';
}

const NETWORK = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE']);

/**
 * Translate an error of the driver or the server into a KnowingError with a stable code and a
 * message naming the server, the repository and what to do. KnowingErrors pass through.
 */
export function translateError(error: unknown, target: Target, action: string): KnowingError {
  if (error instanceof KnowingError) return error;
  const code = codeOf(error);
  const detail = error instanceof Error ? error.message : String(error);
  const server = `PostgreSQL at ${target.host}:${target.port}`;
  if (code === 'ECONNREFUSED') {
    return storeError(
      ErrorCode.NotFound,
      `cannot connect to ${server} (connection refused) during ${action}`,
      `start the server (\`pg_ctl start\`, \`systemctl start postgresql\`), or fix the host and port in the connection string`,
      error,
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return storeError(ErrorCode.NotFound, `cannot connect to ${server}: host '${target.host}' not found`, 'fix the host in the connection string', error);
  }
  if (NETWORK.has(code) || /timeout exceeded when trying to connect|Connection terminated/i.test(detail) || code.startsWith('08')) {
    return storeError(
      ErrorCode.NotFound,
      `lost or could not open the connection to ${server} during ${action}: ${detail}`,
      'check that the server is running and reachable from this machine (firewall, listen_addresses, pg_hba.conf)',
      error,
    );
  }
  if (code === '3D000') {
    return storeError(
      ErrorCode.NotFound,
      `${server} has no database '${target.database}'`,
      `create it (\`createdb -h ${target.host} -p ${target.port} ${target.database}\`) or fix the database in the connection string`,
      error,
    );
  }
  if (code === '28P01' || code === '28000') {
    return storeError(ErrorCode.InvalidArgument, `${server} refused the credentials: ${detail}`, 'fix the user and password in the connection string, or pg_hba.conf', error);
  }
  if (code === '42501') {
    return storeError(
      ErrorCode.ReadOnly,
      `${target.where}: permission denied during ${action} (${detail})`,
      `grant the user CREATE on the database (to create the repository's schema) and privileges on the schema, or open with readonly: true`,
      error,
    );
  }
  if (code === '25006') {
    return storeError(ErrorCode.ReadOnly, `${server} accepts no writes (${detail}) during ${action}`, 'connect to the primary server, or open with readonly: true', error);
  }
  if (code === '55P03' || code === '40P01' || code === '40001') {
    return storeError(
      ErrorCode.Locked,
      `${target.where} is locked by another writer; gave up on ${action} (${detail})`,
      'wait for the other knowing process to finish, or raise lockTimeoutMs',
      error,
    );
  }
  if (code === 'XX001' || code === 'XX002') {
    return storeError(ErrorCode.Corrupt, `${target.where}: the server reports corrupt data during ${action}: ${detail}`, 'restore the database from a backup or re-index the repository', error);
  }
  if (code === '53100') return storeError(ErrorCode.Internal, `${server}: disk full during ${action}`, 'free disk space on the database server and retry', error);
  return storeError(
    ErrorCode.Internal,
    `${target.where}: ${action} failed: ${detail}${code ? ` (${code})` : ''}`,
    'this is a bug in knowing; please report it',
    error,
  );
}
