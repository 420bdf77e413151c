import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, KnowingError } from '@knowing/graph';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { connectionServer, openRepositoryHost, packageVersion } from './server.js';
import type { RepositoryHost } from './server.js';
import type { HttpRepository, HttpServerOptions, HttpToken, KnowingHttpServer, KnowingServer } from './types.js';

/**
 * Defaults of {@link HttpServerOptions}.
 *
 * @example
 * ```ts
 * await startHttpServer({ repositories, tokens, requestsPerMinute: DEFAULT_HTTP_OPTIONS.requestsPerMinute * 10 });
 * ```
 */
export const DEFAULT_HTTP_OPTIONS = Object.freeze({
  /** Loopback only: put a TLS-terminating proxy in front to serve a network. */
  host: '127.0.0.1',
  port: 7420,
  /** 1 MiB: a 20,000-character task is 80 KB at most; 500 file paths a few dozen KB. */
  maxBodyBytes: 1024 * 1024,
  /** Per token: an agent asks a few times a minute; a busy CI script a few per second. */
  requestsPerMinute: 600,
  /** Requests a token may make at once before the per-minute rate applies. */
  burst: 60,
  /** A session without requests for this long is closed (its client must initialize again). */
  sessionIdleMs: 30 * 60 * 1000,
  maxSessions: 1000,
  /** How long shutdown waits for requests in flight before cutting connections. */
  shutdownTimeoutMs: 10_000,
});

/** JSON-RPC error code of a call the token may not make (`reindex` with a read-only token). */
export const FORBIDDEN_ERROR_CODE = -32003;

/** Repository names as URLs carry them: path segments of letters, digits and `._~-`. */
const REPOSITORY_NAME = /^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;
/** Shortest token accepted: a guessable token is no authentication. */
export const MIN_TOKEN_CHARS = 16;
const MCP_PREFIX = '/mcp';
const SWEEP_INTERVAL_MS = 60_000;

interface KnownToken {
  /** Its position in the options: what its rate is counted under (labels may repeat). */
  readonly key: string;
  readonly label: string;
  readonly write: boolean;
  readonly digest: Buffer;
}

interface Repository {
  readonly name: string;
  readonly host: RepositoryHost;
}

interface Session {
  readonly id: string;
  readonly repository: Repository;
  readonly token: KnownToken;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: KnowingServer;
  lastSeen: number;
}

/** A token bucket per token: `burst` requests at once, refilled at `requestsPerMinute`. */
class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    requestsPerMinute: number,
    private readonly burst: number,
  ) {
    this.perMs = requestsPerMinute / 60_000;
  }

  /** 0 when the request may go ahead, else the milliseconds until it may. */
  take(key: string, now: number): number {
    if (this.perMs === 0) return 0;
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / this.perMs);
  }
}

const digestOf = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

function invalid(message: string, hint?: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source: 'mcp', ...(hint ? { hint } : {}) });
}

function checkWhole(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) throw invalid(`${name} must be a whole number ≥ ${min}, got ${value}`);
  return value;
}

function checkTokens(tokens: readonly HttpToken[] | undefined): KnownToken[] {
  if (!Array.isArray(tokens) || tokens.length === 0) {
    throw invalid('startHttpServer needs at least one token: every request must carry one', 'pass tokens: [{ token: "<32 random bytes, hex>", write: false }]');
  }
  const seen = new Set<string>();
  return tokens.map((entry, i) => {
    const token = entry?.token;
    if (typeof token !== 'string' || token.length < MIN_TOKEN_CHARS || /\s/.test(token)) {
      throw invalid(`tokens[${i}] must be a string of at least ${MIN_TOKEN_CHARS} characters without spaces`, 'generate one with `openssl rand -hex 32`');
    }
    if (seen.has(token)) throw invalid(`tokens[${i}] repeats an earlier token`, 'give each client its own token, once');
    seen.add(token);
    return { key: String(i), label: entry.label ?? `token ${i + 1}`, write: entry.write === true, digest: digestOf(token) };
  });
}

function checkRepositories(repositories: readonly HttpRepository[] | undefined): void {
  if (!Array.isArray(repositories) || repositories.length === 0) throw invalid('startHttpServer needs at least one repository', 'pass repositories: [{ name: "shop", server: { repoRoot: "/src/shop" } }]');
  const names = new Set<string>();
  for (const [i, repository] of repositories.entries()) {
    const name = repository?.name;
    if (typeof name !== 'string' || !REPOSITORY_NAME.test(name) || name.split('/').some((segment) => segment === '.' || segment === '..')) {
      throw invalid(`repositories[${i}].name ${JSON.stringify(name)} is not usable in a URL`, 'use letters, digits, "._~-" and "/" between parts, e.g. "shop" or "github.com/acme/shop"');
    }
    if (names.has(name)) throw invalid(`repositories[${i}].name ${JSON.stringify(name)} is given twice`);
    names.add(name);
  }
}

/** Largest body read (and thrown away) to answer 413 cleanly; beyond it the connection is cut. */
const MAX_DRAINED_BYTES = 64 * 1024 * 1024;

/**
 * Reads a request body of at most `limit` bytes; null when it is longer. The rest of a longer
 * body is read and dropped (up to MAX_DRAINED_BYTES), so that the client, still sending,
 * receives the 413 instead of a reset connection.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > MAX_DRAINED_BYTES) req.destroy();
    });
    req.once('end', () => resolve(size > limit ? null : Buffer.concat(chunks, size)));
    req.once('close', () => resolve(size > limit ? null : Buffer.concat(chunks, size)));
    req.once('error', (error) => (size > limit ? resolve(null) : reject(error)));
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** An HTTP-level refusal of an MCP request, as a JSON-RPC error the way the SDK's transport answers its own. */
function sendRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}, id: unknown = null): void {
  sendJson(res, status, { jsonrpc: '2.0', id, error: { code, message } }, headers);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isInitialize = (message: unknown): boolean => isRecord(message) && message['method'] === 'initialize' && 'id' in message;

/** The id of a `tools/call` of `reindex` in the message, if it is one. */
function reindexCall(message: unknown): { id: unknown } | undefined {
  if (!isRecord(message) || message['method'] !== 'tools/call' || !('id' in message)) return undefined;
  const params = message['params'];
  return isRecord(params) && params['name'] === 'reindex' ? { id: message['id'] } : undefined;
}

/**
 * Serve knowing to many clients and many repositories over MCP's Streamable HTTP transport,
 * on `node:http`. Each repository answers at `/mcp/<name>` (with one repository, `/mcp` too);
 * each client session gets its own MCP server over the repository's shared store, engine and
 * index runs. Every MCP request carries `Authorization: Bearer <token>`: a missing or unknown
 * token is answered 401 with `WWW-Authenticate`, a body over `maxBodyBytes` 413, a token over
 * its rate 429 with `Retry-After`. Tokens are read-only unless `write: true`: a `reindex` call
 * with a read-only token gets a JSON-RPC error ({@link FORBIDDEN_ERROR_CODE}).
 * `GET /healthz` (no token) reports the repositories and versions. `close()` stops accepting
 * connections, lets requests in flight finish (up to `shutdownTimeoutMs`), then closes the
 * sessions and the stores it opened.
 *
 * @example
 * ```ts
 * const server = await startHttpServer({
 *   repositories: [{ name: 'shop', server: { repoRoot: '/src/shop', refresh: false } }],
 *   tokens: [{ token: process.env.SHOP_TOKEN!, label: 'ci', write: true }],
 *   port: 7420,
 * });
 * // clients connect to http://127.0.0.1:7420/mcp/shop with the header Authorization: Bearer …
 * process.once('SIGTERM', () => void server.close());
 * ```
 */
export async function startHttpServer(options: HttpServerOptions): Promise<KnowingHttpServer> {
  checkRepositories(options?.repositories);
  const tokens = checkTokens(options.tokens);
  const host = options.host ?? DEFAULT_HTTP_OPTIONS.host;
  const port = checkWhole('port', options.port ?? DEFAULT_HTTP_OPTIONS.port, 0);
  const maxBodyBytes = checkWhole('maxBodyBytes', options.maxBodyBytes ?? DEFAULT_HTTP_OPTIONS.maxBodyBytes, 1);
  const requestsPerMinute = checkWhole('requestsPerMinute', options.requestsPerMinute ?? DEFAULT_HTTP_OPTIONS.requestsPerMinute, 0);
  const burst = checkWhole('burst', options.burst ?? DEFAULT_HTTP_OPTIONS.burst, 1);
  const sessionIdleMs = checkWhole('sessionIdleMs', options.sessionIdleMs ?? DEFAULT_HTTP_OPTIONS.sessionIdleMs, 1);
  const maxSessions = checkWhole('maxSessions', options.maxSessions ?? DEFAULT_HTTP_OPTIONS.maxSessions, 1);
  const shutdownTimeoutMs = checkWhole('shutdownTimeoutMs', options.shutdownTimeoutMs ?? DEFAULT_HTTP_OPTIONS.shutdownTimeoutMs, 0);
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const log = options.log ?? (() => {});
  const serverInfo = options.serverInfo ?? { name: 'knowing', version: packageVersion() };

  const repositories = new Map<string, Repository>();
  try {
    for (const repository of options.repositories) {
      const opened = await openRepositoryHost({ ...repository.server, log: repository.server.log ?? log });
      repositories.set(repository.name, { name: repository.name, host: opened });
    }
  } catch (error) {
    for (const repository of repositories.values()) await repository.host.close().catch(() => undefined);
    throw error;
  }
  const only = repositories.size === 1 ? [...repositories.values()][0] : undefined;

  const sessions = new Map<string, Session>();
  const limiter = new RateLimiter(requestsPerMinute, burst);
  let draining = false;
  let inFlight = 0;
  let settled: (() => void) | undefined;

  /** The token a request carries, compared in constant time with every known one. */
  function tokenOf(req: IncomingMessage): KnownToken | 'missing' | 'invalid' {
    const header = req.headers.authorization;
    if (header === undefined) return 'missing';
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    if (!match) return 'invalid';
    const digest = digestOf(match[1]!);
    let found: KnownToken | undefined;
    // Every token is compared, so the time taken does not say which one matched.
    for (const known of tokens) if (timingSafeEqual(digest, known.digest) && !found) found = known;
    return found ?? 'invalid';
  }

  function repositoryOf(pathname: string): Repository | undefined | 'none' {
    if (pathname === MCP_PREFIX || pathname === `${MCP_PREFIX}/`) return only ?? 'none';
    if (!pathname.startsWith(`${MCP_PREFIX}/`)) return 'none';
    let name: string;
    try {
      name = decodeURIComponent(pathname.slice(MCP_PREFIX.length + 1).replace(/\/+$/, ''));
    } catch {
      return undefined;
    }
    return repositories.get(name);
  }

  async function health(res: ServerResponse): Promise<void> {
    const report = await Promise.all(
      [...repositories.values()].map(async ({ name, host: repository }) => {
        try {
          const [repo, snapshot] = await Promise.all([repository.store.repo(), repository.store.currentSnapshot()]);
          return {
            name,
            indexed: repo !== null && snapshot !== null,
            repo_id: repo?.id ?? null,
            commit: repo?.commit ?? null,
            last_indexed: repo?.indexedAt ? new Date(repo.indexedAt).toISOString() : null,
            snapshot: snapshot?.id ?? null,
            index_run: repository.keeper.running?.kind ?? null,
            server_indexes: repository.indexing,
          };
        } catch (error) {
          // The health report is public: the details (hosts, paths) go to the log only.
          log(`knowing: health check of ${name} failed: ${(error as Error).message}`);
          const code = (error as { code?: unknown }).code;
          return { name, error: `the store cannot be read${typeof code === 'string' ? ` (${code})` : ''}` };
        }
      }),
    );
    const failing = report.some((entry) => 'error' in entry);
    const status = draining ? 'draining' : failing ? 'degraded' : 'ok';
    sendJson(res, status === 'ok' ? 200 : 503, {
      status,
      server: serverInfo,
      protocol_version: LATEST_PROTOCOL_VERSION,
      sessions: sessions.size,
      repositories: report,
    });
  }

  async function closeSession(session: Session): Promise<void> {
    sessions.delete(session.id);
    await session.server.close().catch((error: unknown) => log(`knowing: closing session ${session.id} failed: ${(error as Error).message}`));
  }

  async function openSession(repository: Repository, token: KnownToken): Promise<Session> {
    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
    const server = connectionServer(repository.host, { sessionId: id, serverInfo }, { ownsHost: false });
    const session: Session = { id, repository, token, transport, server, lastSeen: Date.now() };
    // Set before connecting: the server chains its own handler after this one. A DELETE, an
    // idle sweep or shutdown all end here.
    transport.onclose = () => {
      if (sessions.get(id) === session) {
        sessions.delete(id);
        log(`knowing: session ${id} of ${repository.name} (${token.label}) closed`);
      }
      void server.close();
    };
    await server.connect(transport);
    return session;
  }

  async function handleMcp(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      // A browser page on another origin (DNS rebinding): MCP servers must refuse it.
      sendRpcError(res, 403, -32000, `Forbidden: origin ${origin} is not allowed`);
      return;
    }
    const token = tokenOf(req);
    if (token === 'missing' || token === 'invalid') {
      const challenge = token === 'missing' ? 'Bearer realm="knowing"' : 'Bearer realm="knowing", error="invalid_token"';
      sendRpcError(res, 401, -32000, token === 'missing' ? 'Unauthorized: send Authorization: Bearer <token>' : 'Unauthorized: the token is not known', {
        'www-authenticate': challenge,
      });
      return;
    }
    const wait = limiter.take(token.key, Date.now());
    if (wait > 0) {
      sendRpcError(res, 429, -32000, `Too Many Requests: ${token.label} is over ${requestsPerMinute} requests a minute`, { 'retry-after': String(Math.ceil(wait / 1000)) });
      return;
    }
    const repository = repositoryOf(pathname);
    if (repository === undefined || repository === 'none') {
      sendRpcError(res, 404, -32000, `Not Found: no repository at ${pathname}; this server serves ${[...repositories.keys()].map((name) => `${MCP_PREFIX}/${name}`).join(', ')}`);
      return;
    }

    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    let session: Session | undefined;
    if (sessionId !== undefined) {
      session = sessions.get(sessionId);
      // A session belongs to its repository and to the token that opened it.
      if (!session || session.repository !== repository || session.token !== token) {
        sendRpcError(res, 404, -32001, 'Session not found');
        return;
      }
      session.lastSeen = Date.now();
    }

    if (req.method !== 'POST') {
      if (!session) {
        sendRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
        return;
      }
      await session.transport.handleRequest(req, res);
      return;
    }

    const declared = Number(req.headers['content-length']);
    // A declared size beyond what is drained is refused before reading it; the connection goes.
    const body = Number.isFinite(declared) && declared > MAX_DRAINED_BYTES ? null : await readBody(req, maxBodyBytes);
    if (body === null) {
      sendRpcError(res, 413, -32000, `Payload Too Large: a request body is at most ${maxBodyBytes} bytes`, req.complete ? {} : { connection: 'close' });
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch (error) {
      sendRpcError(res, 400, -32700, `Parse error: ${(error as Error).message}`);
      return;
    }
    const reindex = reindexCall(message);
    if (reindex && !token.write) {
      sendRpcError(
        res,
        200,
        FORBIDDEN_ERROR_CODE,
        `Forbidden: reindex needs a token allowed to write, and ${token.label} is read-only; the index is kept current by \`knowing index --store …\` (or ask for a write token)`,
        {},
        reindex.id,
      );
      return;
    }
    if (!session) {
      if (!isInitialize(message)) {
        sendRpcError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header; start with an initialize request');
        return;
      }
      if (sessions.size >= maxSessions) {
        sendRpcError(res, 503, -32000, `Service Unavailable: ${maxSessions} sessions are open; try again later`, { 'retry-after': '60' });
        return;
      }
      session = await openSession(repository, token);
      await session.transport.handleRequest(req, res, message);
      if (session.transport.sessionId === session.id) {
        sessions.set(session.id, session);
        log(`knowing: session ${session.id} of ${repository.name} opened (${token.label})`);
      } else {
        // The initialize request was refused: nothing to keep.
        await session.server.close();
      }
      return;
    }
    await session.transport.handleRequest(req, res, message);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pathname = new URL(req.url ?? '/', 'http://knowing.invalid').pathname;
    if (pathname === '/healthz') {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendJson(res, 405, { error: 'use GET /healthz' }, { allow: 'GET, HEAD' });
        return;
      }
      await health(res);
      return;
    }
    if (draining) {
      sendRpcError(res, 503, -32000, 'Service Unavailable: the server is shutting down', { connection: 'close', 'retry-after': '5' });
      return;
    }
    if (pathname !== MCP_PREFIX && !pathname.startsWith(`${MCP_PREFIX}/`)) {
      sendJson(res, 404, { error: `not found: ${pathname}`, hint: `MCP endpoints are ${MCP_PREFIX}/<repository>; health is GET /healthz` });
      return;
    }
    await handleMcp(req, res, pathname);
  }

  const http: Server = createServer((req, res) => {
    // Requests in flight: shutdown waits for them. A GET is a notification stream that only
    // ends when its session does, so it is not waited for.
    const counted = req.method !== 'GET';
    if (counted) {
      inFlight += 1;
      res.once('close', () => {
        inFlight -= 1;
        if (inFlight === 0) settled?.();
      });
    }
    handle(req, res).catch((error: unknown) => {
      log(`knowing: ${req.method} ${req.url} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) sendRpcError(res, 500, -32603, `Internal error: ${(error as Error).message}`);
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    for (const repository of repositories.values()) await repository.host.close().catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    throw new KnowingError(
      code === 'EADDRINUSE' ? ErrorCode.InvalidArgument : ErrorCode.Internal,
      `cannot listen on ${host}:${port} (${code ?? (error as Error).message})`,
      { source: 'mcp', hint: code === 'EADDRINUSE' ? 'another process uses the port: pick another one' : 'check the host and port', cause: error },
    );
  });
  const address = http.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;

  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const session of sessions.values()) {
      if (now - session.lastSeen > sessionIdleMs) {
        log(`knowing: session ${session.id} of ${session.repository.name} idle for ${Math.round((now - session.lastSeen) / 1000)} s: closing it`);
        void closeSession(session);
      }
    }
  }, Math.min(SWEEP_INTERVAL_MS, sessionIdleMs));
  sweeper.unref();

  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    repositories: [...repositories.keys()],
    endpoint: (name: string) => {
      if (!repositories.has(name)) throw invalid(`no repository named ${JSON.stringify(name)}`, `this server serves ${[...repositories.keys()].join(', ')}`);
      return `${url}${MCP_PREFIX}/${name}`;
    },
    close() {
      closing ??= (async () => {
        draining = true;
        clearInterval(sweeper);
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeIdleConnections();
        if (inFlight > 0) {
          await new Promise<void>((resolve) => {
            settled = resolve;
            setTimeout(resolve, shutdownTimeoutMs).unref();
          });
        }
        // Ends the notification streams (GET) with their sessions.
        await Promise.all([...sessions.values()].map((session) => closeSession(session)));
        http.closeAllConnections();
        await stopped;
        for (const repository of repositories.values()) {
          await repository.host.close().catch((error: unknown) => log(`knowing: closing ${repository.name} failed: ${(error as Error).message}`));
        }
        log('knowing: HTTP server stopped');
      })();
      return closing;
    },
  };
}
