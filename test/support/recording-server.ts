/**
 * What every model-API double shares: an HTTP server on 127.0.0.1 that records each request (method, path,
 * parsed JSON body, raw byte length) before the double answers it. Node built-ins only.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  bytes: number;
  body: Record<string, unknown> | null;
}

export type Answer = (request: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export class RecordingServer {
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;

  constructor(private readonly answer: Answer) {}

  /** Listens on 127.0.0.1; returns `http://127.0.0.1:<port>`. */
  async start(): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    let body: Record<string, unknown> | null = null;
    try {
      body = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : null;
    } catch {
      body = null;
    }
    const request = { method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0]!, bytes: raw.length, body };
    this.requests.push(request);
    await this.answer(request, res);
  }
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}
