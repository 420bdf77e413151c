import { once } from 'node:events';
import type { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorReply } from './jsonrpc.js';

const NEWLINE = 0x0a;

/**
 * MCP's stdio framing — one JSON value per line — without the SDK's losses: its transport
 * drops a line that is not JSON (reporting it only to `onerror`, so the client waits for an
 * answer that never comes) and closes the connection when a line outgrows its buffer. Here a
 * line that is not JSON gets a -32700 reply, an oversized line a -32600 reply (its bytes are
 * skipped, not kept), and the connection goes on. Every parsed value is handed on as it is;
 * the server checks that it is a JSON-RPC message (`guardTransport`).
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** The current line so far. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside a line longer than the limit: its bytes are skipped up to the next newline. */
  private skipping = false;
  private started = false;
  private closed = false;
  private draining: Promise<void> | undefined;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxMessageBytes: number,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('LineTransport already started');
    this.started = true;
    for (const [stream, event, listener] of this.listeners()) stream.on(event, listener);
  }

  /** What start() listens to on the streams, and close() stops listening to. */
  private listeners(): readonly (readonly [EventEmitter, string, Parameters<EventEmitter['on']>[1]])[] {
    return [
      [this.stdin, 'data', this.onData],
      [this.stdin, 'error', this.onStreamError],
      // The client going away: stdin ends (the SDK's transport does not notice).
      [this.stdin, 'end', this.onEnd],
      [this.stdin, 'close', this.onEnd],
      // Writing to a client that went away fails with EPIPE: close instead of crashing.
      [this.stdout, 'error', this.onWriteError],
    ];
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [stream, event, listener] of this.listeners()) stream.off(event, listener);
    // Pause only a stdin nobody else reads.
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.pending = [];
    this.pendingBytes = 0;
    this.onclose?.();
  }

  private async write(value: unknown): Promise<void> {
    if (this.closed) return;
    if (this.stdout.write(`${JSON.stringify(value)}\n`)) return;
    // One shared wait for 'drain', not a listener per message.
    this.draining ??= once(this.stdout, 'drain').then(
      () => {
        this.draining = undefined;
      },
      () => {
        this.draining = undefined;
      },
    );
    await this.draining;
  }

  private reply(code: number, message: string): void {
    this.write(errorReply(null, code, message)).catch((error: unknown) => this.onerror?.(error as Error));
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    while (!this.closed) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytes.length : newline;
      this.take(bytes.subarray(start, end));
      if (newline === -1) break;
      this.endLine();
      start = newline + 1;
    }
  };

  private take(part: Buffer): void {
    if (part.length === 0 || this.skipping) return;
    if (this.pendingBytes + part.length > this.maxMessageBytes) {
      this.skipping = true;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      this.reply(ErrorCode.InvalidRequest, `Invalid Request: a message longer than ${this.maxMessageBytes} bytes was skipped`);
      return;
    }
    const line = Buffer.concat(this.pending, this.pendingBytes).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    // Blank lines (a trailing \r\n, keep-alives) are not messages.
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.reply(ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
      return;
    }
    // The server checks what the value is (guardTransport); a handler that throws must not stop the reading.
    try {
      this.onmessage?.(value as JSONRPCMessage);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onWriteError = (error: Error): void => {
    this.onerror?.(error);
    this.close().catch(() => undefined);
  };

  private readonly onEnd = (): void => {
    this.close().catch(() => undefined);
  };
}
