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

/** The options a server runs with: checked, defaults filled in. */
interface HttpSettings {
  readonly tokens: readonly KnownToken[];
  readonly host: string;
  readonly port: number;
  readonly maxBodyBytes: number;
  readonly requestsPerMinute: number;
  readonly burst: number;
  readonly sessionIdleMs: number;
  readonly maxSessions: number;
  readonly shutdownTimeoutMs: number;
  readonly allowedOrigins: ReadonlySet<string>;
  readonly log: (message: string) => void;
  readonly serverInfo: { readonly name: string; readonly version: string };
}

function httpSettings(options: HttpServerOptions): HttpSettings {
  checkRepositories(options?.repositories);
  const tokens = checkTokens(options.tokens);
  return {
    tokens,
    host: options.host ?? DEFAULT_HTTP_OPTIONS.host,
    port: checkWhole('port', options.port ?? DEFAULT_HTTP_OPTIONS.port, 0),
    maxBodyBytes: checkWhole('maxBodyBytes', options.maxBodyBytes ?? DEFAULT_HTTP_OPTIONS.maxBodyBytes, 1),
    requestsPerMinute: checkWhole('requestsPerMinute', options.requestsPerMinute ?? DEFAULT_HTTP_OPTIONS.requestsPerMinute, 0),
    burst: checkWhole('burst', options.burst ?? DEFAULT_HTTP_OPTIONS.burst, 1),
    sessionIdleMs: checkWhole('sessionIdleMs', options.sessionIdleMs ?? DEFAULT_HTTP_OPTIONS.sessionIdleMs, 1),
    maxSessions: checkWhole('maxSessions', options.maxSessions ?? DEFAULT_HTTP_OPTIONS.maxSessions, 1),
    shutdownTimeoutMs: checkWhole('shutdownTimeoutMs', options.shutdownTimeoutMs ?? DEFAULT_HTTP_OPTIONS.shutdownTimeoutMs, 0),
    allowedOrigins: new Set(options.allowedOrigins ?? []),
    log: options.log ?? (() => {}),
    serverInfo: options.serverInfo ?? { name: 'knowing', version: packageVersion() },
  };
}

/** Open a host per repository; on a failure, close the ones already open. */
async function openRepositories(repositories: readonly HttpRepository[], log: (message: string) => void): Promise<Map<string, Repository>> {
  const opened = new Map<string, Repository>();
  try {
    for (const repository of repositories) {
      const host = await openRepositoryHost({ ...repository.server, log: repository.server.log ?? log });
      opened.set(repository.name, { name: repository.name, host });
    }
  } catch (error) {
    await closeHostsQuietly(opened);
    throw error;
  }
  return opened;
}

async function closeHostsQuietly(repositories: ReadonlyMap<string, Repository>): Promise<void> {
  for (const repository of repositories.values()) await repository.host.close().catch(() => undefined);
}

/** What the request handlers of one running server share. */
interface HttpState {
  readonly settings: HttpSettings;
  readonly repositories: ReadonlyMap<string, Repository>;
  /** The repository `/mcp` answers for: the only one, when there is one. */
  readonly only: Repository | undefined;
  readonly sessions: Map<string, Session>;
  readonly limiter: RateLimiter;
  /** Set by `close()`: new requests are refused, health says so. */
  draining: boolean;
}

/** The token a request carries, compared in constant time with every known one. */
function tokenOf(tokens: readonly KnownToken[], req: IncomingMessage): KnownToken | 'missing' | 'invalid' {
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

function repositoryOf(state: HttpState, pathname: string): Repository | undefined | 'none' {
  if (pathname === MCP_PREFIX || pathname === `${MCP_PREFIX}/`) return state.only ?? 'none';
  if (!pathname.startsWith(`${MCP_PREFIX}/`)) return 'none';
  let name: string;
  try {
    name = decodeURIComponent(pathname.slice(MCP_PREFIX.length + 1).replace(/\/+$/, ''));
  } catch {
    return undefined;
  }
  return state.repositories.get(name);
}

async function health(state: HttpState, res: ServerResponse): Promise<void> {
  const { log, serverInfo } = state.settings;
  const report = await Promise.all(
    [...state.repositories.values()].map(async ({ name, host: repository }) => {
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
  const status = state.draining ? 'draining' : failing ? 'degraded' : 'ok';
  sendJson(res, status === 'ok' ? 200 : 503, {
    status,
    server: serverInfo,
    protocol_version: LATEST_PROTOCOL_VERSION,
    sessions: state.sessions.size,
    repositories: report,
  });
}

async function closeSession(state: HttpState, session: Session): Promise<void> {
  state.sessions.delete(session.id);
  await session.server.close().catch((error: unknown) => state.settings.log(`knowing: closing session ${session.id} failed: ${(error as Error).message}`));
}

async function openSession(state: HttpState, repository: Repository, token: KnownToken): Promise<Session> {
  const { sessions, settings } = state;
  const id = randomUUID();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
  const server = connectionServer(repository.host, { sessionId: id, serverInfo: settings.serverInfo }, { ownsHost: false });
  const session: Session = { id, repository, token, transport, server, lastSeen: Date.now() };
  // Set before connecting: the server chains its own handler after this one. A DELETE, an
  // idle sweep or shutdown all end here.
  transport.onclose = () => {
    if (sessions.get(id) === session) {
      sessions.delete(id);
      settings.log(`knowing: session ${id} of ${repository.name} (${token.label}) closed`);
    }
    void server.close();
  };
  await server.connect(transport);
  return session;
}

/** Who may ask and of which repository: the origin, the token and its rate, the path. Refusals are answered here. */
function admit(state: HttpState, req: IncomingMessage, res: ServerResponse, pathname: string): { token: KnownToken; repository: Repository } | undefined {
  const { settings, limiter, repositories } = state;
  const origin = req.headers.origin;
  if (origin !== undefined && !settings.allowedOrigins.has(origin)) {
    // A browser page on another origin (DNS rebinding): MCP servers must refuse it.
    sendRpcError(res, 403, -32000, `Forbidden: origin ${origin} is not allowed`);
    return undefined;
  }
  const token = tokenOf(settings.tokens, req);
  if (token === 'missing' || token === 'invalid') {
    const challenge = token === 'missing' ? 'Bearer realm="knowing"' : 'Bearer realm="knowing", error="invalid_token"';
    sendRpcError(res, 401, -32000, token === 'missing' ? 'Unauthorized: send Authorization: Bearer <token>' : 'Unauthorized: the token is not known', {
      'www-authenticate': challenge,
    });
    return undefined;
  }
  const wait = limiter.take(token.key, Date.now());
  if (wait > 0) {
    sendRpcError(res, 429, -32000, `Too Many Requests: ${token.label} is over ${settings.requestsPerMinute} requests a minute`, { 'retry-after': String(Math.ceil(wait / 1000)) });
    return undefined;
  }
  const repository = repositoryOf(state, pathname);
  if (repository === undefined || repository === 'none') {
    sendRpcError(res, 404, -32000, `Not Found: no repository at ${pathname}; this server serves ${[...repositories.keys()].map((name) => `${MCP_PREFIX}/${name}`).join(', ')}`);
    return undefined;
  }
  return { token, repository };
}

/** The JSON-RPC message of a POST, or undefined when the body is too large or not JSON (answered here). */
async function readMessage(state: HttpState, req: IncomingMessage, res: ServerResponse): Promise<{ message: unknown } | undefined> {
  const { maxBodyBytes } = state.settings;
  const declared = Number(req.headers['content-length']);
  // A declared size beyond what is drained is refused before reading it; the connection goes.
  const body = Number.isFinite(declared) && declared > MAX_DRAINED_BYTES ? null : await readBody(req, maxBodyBytes);
  if (body === null) {
    sendRpcError(res, 413, -32000, `Payload Too Large: a request body is at most ${maxBodyBytes} bytes`, req.complete ? {} : { connection: 'close' });
    return undefined;
  }
  try {
    return { message: JSON.parse(body.toString('utf8')) };
  } catch (error) {
    sendRpcError(res, 400, -32700, `Parse error: ${(error as Error).message}`);
    return undefined;
  }
}

/** A POST without a session: an initialize request opens one, kept only when the transport accepts it. */
async function startSession(state: HttpState, req: IncomingMessage, res: ServerResponse, admitted: { token: KnownToken; repository: Repository }, message: unknown): Promise<void> {
  const { sessions, settings } = state;
  const { token, repository } = admitted;
  if (!isInitialize(message)) {
    sendRpcError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header; start with an initialize request');
    return;
  }
  if (sessions.size >= settings.maxSessions) {
    sendRpcError(res, 503, -32000, `Service Unavailable: ${settings.maxSessions} sessions are open; try again later`, { 'retry-after': '60' });
    return;
  }
  const session = await openSession(state, repository, token);
  await session.transport.handleRequest(req, res, message);
  if (session.transport.sessionId === session.id) {
    sessions.set(session.id, session);
    settings.log(`knowing: session ${session.id} of ${repository.name} opened (${token.label})`);
  } else {
    // The initialize request was refused: nothing to keep.
    await session.server.close();
  }
}

async function handleMcp(state: HttpState, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const admitted = admit(state, req, res, pathname);
  if (!admitted) return;
  const { token, repository } = admitted;

  const sessionHeader = req.headers['mcp-session-id'];
  const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
  let session: Session | undefined;
  if (sessionId !== undefined) {
    session = state.sessions.get(sessionId);
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

  const read = await readMessage(state, req, res);
  if (!read) return;
  const { message } = read;
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
    await startSession(state, req, res, admitted, message);
    return;
  }
  await session.transport.handleRequest(req, res, message);
}

async function handle(state: HttpState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const pathname = new URL(req.url ?? '/', 'http://knowing.invalid').pathname;
  if (pathname === '/healthz') {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJson(res, 405, { error: 'use GET /healthz' }, { allow: 'GET, HEAD' });
      return;
    }
    await health(state, res);
    return;
  }
  if (state.draining) {
    sendRpcError(res, 503, -32000, 'Service Unavailable: the server is shutting down', { connection: 'close', 'retry-after': '5' });
    return;
  }
  if (pathname !== MCP_PREFIX && !pathname.startsWith(`${MCP_PREFIX}/`)) {
    sendJson(res, 404, { error: `not found: ${pathname}`, hint: `MCP endpoints are ${MCP_PREFIX}/<repository>; health is GET /healthz` });
    return;
  }
  await handleMcp(state, req, res, pathname);
}

/** Requests in flight, which shutdown waits for. */
class InFlightRequests {
  private count = 0;
  private settled: (() => void) | undefined;

  /** Count a request until its response closes. */
  track(res: ServerResponse): void {
    this.count += 1;
    res.once('close', () => {
      this.count -= 1;
      if (this.count === 0) this.settled?.();
    });
  }

  get size(): number {
    return this.count;
  }

  /** Resolves when no request is in flight any more, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.settled = resolve;
      setTimeout(resolve, timeoutMs).unref();
    });
  }
}

function createHttpServer(state: HttpState, inFlight: InFlightRequests): Server {
  return createServer((req, res) => {
    // A GET is a notification stream that only ends when its session does, so it is not
    // waited for.
    if (req.method !== 'GET') inFlight.track(res);
    handle(state, req, res).catch((error: unknown) => {
      state.settings.log(`knowing: ${req.method} ${req.url} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) sendRpcError(res, 500, -32603, `Internal error: ${(error as Error).message}`);
      else res.end();
    });
  });
}

/** Listen on the configured address; a failure closes the repositories and says what to do. */
async function listen(http: Server, state: HttpState): Promise<void> {
  const { host, port } = state.settings;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await closeHostsQuietly(state.repositories);
    const code = (error as NodeJS.ErrnoException).code;
    throw new KnowingError(
      code === 'EADDRINUSE' ? ErrorCode.InvalidArgument : ErrorCode.Internal,
      `cannot listen on ${host}:${port} (${code ?? (error as Error).message})`,
      { source: 'mcp', hint: code === 'EADDRINUSE' ? 'another process uses the port: pick another one' : 'check the host and port', cause: error },
    );
  });
}

/** Close sessions idle for longer than `sessionIdleMs`, checked at least once a minute. */
function startIdleSweep(state: HttpState): NodeJS.Timeout {
  const { sessionIdleMs, log } = state.settings;
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const session of state.sessions.values()) {
      if (now - session.lastSeen > sessionIdleMs) {
        log(`knowing: session ${session.id} of ${session.repository.name} idle for ${Math.round((now - session.lastSeen) / 1000)} s: closing it`);
        void closeSession(state, session);
      }
    }
  }, Math.min(SWEEP_INTERVAL_MS, sessionIdleMs));
  sweeper.unref();
  return sweeper;
}

/** Stop accepting, let requests in flight finish (up to the timeout), then close sessions, connections and hosts. */
async function shutdown(state: HttpState, http: Server, inFlight: InFlightRequests, sweeper: NodeJS.Timeout): Promise<void> {
  const { log } = state.settings;
  state.draining = true;
  clearInterval(sweeper);
  const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeIdleConnections();
  if (inFlight.size > 0) await inFlight.drained(state.settings.shutdownTimeoutMs);
  // Ends the notification streams (GET) with their sessions.
  await Promise.all([...state.sessions.values()].map((session) => closeSession(state, session)));
  http.closeAllConnections();
  await stopped;
  for (const repository of state.repositories.values()) {
    await repository.host.close().catch((error: unknown) => log(`knowing: closing ${repository.name} failed: ${(error as Error).message}`));
  }
  log('knowing: HTTP server stopped');
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
  const settings = httpSettings(options);
  const repositories = await openRepositories(options.repositories, settings.log);
  const state: HttpState = {
    settings,
    repositories,
    only: repositories.size === 1 ? [...repositories.values()][0] : undefined,
    sessions: new Map<string, Session>(),
    limiter: new RateLimiter(settings.requestsPerMinute, settings.burst),
    draining: false,
  };
  const inFlight = new InFlightRequests();
  const http = createHttpServer(state, inFlight);
  await listen(http, state);
  const address = http.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  const sweeper = startIdleSweep(state);

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
      closing ??= shutdown(state, http, inFlight, sweeper);
      return closing;
    },
  };
}
