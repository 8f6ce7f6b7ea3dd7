/**
 * The MCP stdio transport, one JSON-RPC message per line, with every line the client sends bounded
 * and answered. The SDK's own transport closes itself on a line over 10 MiB (and the server then
 * exits without a word) and drops a line that is not JSON without an answer. Here a line over
 * `maxBytes` is skipped as it streams in (never held whole) and answered with an Invalid Request
 * error, a line that is not JSON with a Parse error (-32700), and the server keeps serving.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's own limit for one message. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const NEWLINE = 0x0a;
/** Bytes of an oversized line kept to find its request id in. */
const HEAD_BYTES = 256;

type RequestId = string | number | null;

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Pieces of the line being read, while it is within the limit. */
  private pieces: Buffer[] = [];
  private bytes = 0;
  /** The start of a line past the limit, while the rest of it is skipped; null otherwise. */
  private skipping: Buffer | null = null;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
    /** Requests answered before this transport started (serve-mcp-fast.ts): their answers are dropped. */
    private readonly hiddenAnswerIds: ReadonlySet<string> = new Set(),
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.pieces = [];
    this.skipping = null;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const answered = ('result' in message || 'error' in message) && typeof message.id === 'string' && this.hiddenAnswerIds.has(message.id);
    return answered ? Promise.resolve() : this.write(message);
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let rest = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (;;) {
      const end = rest.indexOf(NEWLINE);
      this.take(end === -1 ? rest : rest.subarray(0, end));
      if (end === -1) return;
      this.endLine();
      rest = rest.subarray(end + 1);
    }
  };

  private take(piece: Buffer): void {
    if (this.skipping !== null) return;
    if (this.bytes + piece.length > this.maxBytes) {
      this.skipping = Buffer.concat([...this.pieces, piece.subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES);
      this.pieces = [];
      this.bytes = 0;
      return;
    }
    this.pieces.push(piece);
    this.bytes += piece.length;
  }

  private endLine(): void {
    const skipped = this.skipping;
    const line = skipped === null ? Buffer.concat(this.pieces).toString('utf8') : '';
    this.pieces = [];
    this.bytes = 0;
    this.skipping = null;
    if (skipped !== null) {
      this.refuse(idIn(skipped.toString('utf8')), ErrorCode.InvalidRequest, `message too large: over ${this.maxBytes} bytes`);
      return;
    }
    const text = line.replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.refuse(null, ErrorCode.ParseError, 'Parse error: the message is not valid JSON');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.refuse(idOf(value), ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private refuse(id: RequestId, code: number, message: string): void {
    this.onerror?.(new Error(message));
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}

/** The id of a parsed message, when it has a usable one. */
function idOf(value: unknown): RequestId {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null;
  const { id } = value as { id: unknown };
  return typeof id === 'number' || typeof id === 'string' ? id : null;
}

/** The id at the start of an oversized message, so the client can match the error to its request. */
function idIn(head: string): RequestId {
  const match = /"id"\s*:\s*(?:(-?\d{1,15})\b|"([^"\\]{1,128})")/.exec(head);
  if (match === null) return null;
  return match[1] !== undefined ? Number(match[1]) : (match[2] as string);
}
