/** A stand-in for `recall serve` on a Unix socket in a temp dir: answers each request line as told. */
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

export interface FakeDaemon {
  socketPath: string;
  /** Every request line received, parsed. */
  requests: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * `answer` gives the reply (a value sent as JSON, or a string sent as the raw line), or 'hang-up' to
 * close the connection without a reply, as a daemon dying mid-request would.
 */
export async function startFakeDaemon(dir: string, answer: (request: Record<string, unknown>) => unknown): Promise<FakeDaemon> {
  const socketPath = join(dir, 'serve.sock');
  const requests: Array<Record<string, unknown>> = [];
  const server: Server = createServer((socket: Socket) => {
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
      const end = data.indexOf('\n');
      if (end < 0) return;
      const request = JSON.parse(data.slice(0, end)) as Record<string, unknown>;
      requests.push(request);
      void Promise.resolve(answer(request)).then((reply) => {
        if (reply === 'hang-up') socket.destroy();
        else socket.end(`${typeof reply === 'string' ? reply : JSON.stringify(reply)}\n`);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return { socketPath, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
