// `knowing serve` as a child process, and a bare MCP client over Streamable HTTP (fetch and
// JSON-RPC; the SDK's own client is exercised in @knowing/mcp's http.test.ts).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { BIN } from './helpers.js';

export interface Listening {
  readonly url: string;
  readonly port: number;
  readonly repositories: readonly { readonly name: string; readonly endpoint: string; readonly store: string; readonly checkout: string | null }[];
}

export interface Serving {
  readonly child: ChildProcess;
  readonly listening: Listening;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number>;
}

/** Start `knowing serve … --port 0 --json` and wait for its "listening" line. */
export function serve(args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Serving> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args, '--port', '0', '--json'], {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((l) => l.includes('"event":"listening"'));
      if (line) resolve({ child, listening: JSON.parse(line) as Listening, stdout: () => out, stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`knowing serve exited with ${code} before listening:\n${err}`)));
  });
}

/** The JSON-RPC message a response carries: the body, or the first `data:` event of an SSE stream. */
async function messageOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    for (const line of text.split('\n')) if (line.startsWith('data: ')) return JSON.parse(line.slice(6)) as Record<string, unknown>;
    throw new Error(`no data in the event stream: ${text}`);
  }
  return JSON.parse(text) as Record<string, unknown>;
}

/** One MCP session, opened with `initialize`. */
export class McpHttpSession {
  private nextId = 1;

  private constructor(
    readonly endpoint: string,
    private readonly token: string,
    readonly sessionId: string,
  ) {}

  static async open(endpoint: string, token: string): Promise<McpHttpSession> {
    const response = await post(endpoint, token, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'knowing-cli-test', version: '0' } },
    });
    if (response.status !== 200) throw new Error(`initialize: HTTP ${response.status}: ${await response.text()}`);
    const sessionId = response.headers.get('mcp-session-id');
    await messageOf(response);
    if (!sessionId) throw new Error('initialize: no Mcp-Session-Id');
    const session = new McpHttpSession(endpoint, token, sessionId);
    await post(endpoint, token, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId);
    return session;
  }

  /** A request; the JSON-RPC response (with `result` or `error`). */
  async request(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const response = await post(this.endpoint, this.token, { jsonrpc: '2.0', id: this.nextId++, method, params }, this.sessionId);
    if (response.status !== 200) throw new Error(`${method}: HTTP ${response.status}: ${await response.text()}`);
    return messageOf(response);
  }

  /** The text of a tool call's result, or throws with its JSON-RPC error. */
  async callTool(name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean; error?: { code: number; message: string } }> {
    const message = await this.request('tools/call', { name, arguments: args });
    const error = message['error'] as { code: number; message: string } | undefined;
    if (error) return { text: '', isError: true, error };
    const result = message['result'] as { content: { type: string; text?: string }[]; isError?: boolean };
    return { text: result.content.map((item) => item.text ?? '').join(''), isError: result.isError === true };
  }
}

export function post(endpoint: string, token: string | undefined, body: unknown, sessionId?: string): Promise<Response> {
  return fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
      ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } : {}),
    },
    body: JSON.stringify(body),
  });
}
