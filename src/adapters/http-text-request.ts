/**
 * One HTTP request with node:http (or node:https), bounded by an AbortSignal and a response size cap,
 * answering the status and the body as text. Not the built-in fetch: measured here, its first use
 * costs ~30 ms of start-up and ~60 ms more at process exit (its HTTP parser is WebAssembly compiled
 * in the background), most of a hook's budget; node:http costs a few ms. Node built-ins only.
 */
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';

export interface TextRequest {
  method: 'GET' | 'POST';
  url: string;
  /** A JSON body, sent with `Content-Type: application/json`. */
  body?: string;
  signal: AbortSignal;
  /** Answers larger than this are cut off and fail with code RESPONSE_TOO_LARGE. */
  maxResponseBytes: number;
}

export interface TextResponse {
  status: number;
  text: string;
}

export type HttpTransport = (request: TextRequest) => Promise<TextResponse>;

export const RESPONSE_TOO_LARGE = 'ERR_RECALL_RESPONSE_TOO_LARGE';

export const requestText: HttpTransport = async ({ method, url, body, signal, maxResponseBytes }) => {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  const options: RequestOptions = {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    signal,
    // One connection per call, closed after it: nothing pooled keeps a finished process waiting.
    agent: false,
  };
  return new Promise<TextResponse>((resolve, reject) => {
    const req = request(target, options, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxResponseBytes) {
          reject(Object.assign(new Error(`response over ${maxResponseBytes} bytes`), { code: RESPONSE_TOO_LARGE }));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
      res.on('aborted', () => reject(signal.aborted ? abortError(signal) : new Error('response aborted')));
    });
    req.on('error', (err) => reject(signal.aborted ? abortError(signal) : err));
    req.end(body);
  });
};

/** The deadline's own error (a TimeoutError for AbortSignal.timeout), whatever the socket said. */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : Object.assign(new Error('aborted'), { name: 'AbortError' });
}
