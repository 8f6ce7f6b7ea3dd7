import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { requestText } from '../../../src/adapters/http-text-request.js';

const post = (url: string, body: string, signal: AbortSignal) => requestText({ method: 'POST', url, body, signal, maxResponseBytes: 4 * 1024 * 1024 });

describe('requestText', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  it('sends the body and returns the status and text', async () => {
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => res.writeHead(201).end(`got ${body}`));
    });
    expect(await post(`${url}/api/chat`, '{"a":1}', AbortSignal.timeout(2000))).toEqual({ status: 201, text: 'got {"a":1}' });
  });

  it('gives up at the deadline with a TimeoutError', async () => {
    const url = await serve(() => undefined);
    await expect(post(`${url}/api/chat`, '{}', AbortSignal.timeout(100))).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('refuses an answer larger than maxResponseBytes with its own code', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      for (let i = 0; i < 6; i += 1) res.write(chunk);
      res.end();
    });
    await expect(post(`${url}/api/chat`, '{}', AbortSignal.timeout(5000))).rejects.toMatchObject({ code: 'ERR_RECALL_RESPONSE_TOO_LARGE' });
  });
});
