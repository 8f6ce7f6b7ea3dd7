/**
 * One JSON POST with node:http (or node:https), bounded by an AbortSignal and a response size cap.
 * Not the built-in fetch: measured here, its first use costs ~30 ms of start-up and ~60 ms more at
 * process exit (its HTTP parser is WebAssembly compiled in the background), most of the hook's
 * budget; node:http costs a few ms. Node built-ins only.
 */
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';

export interface JsonResponse {
  status: number;
  text: string;
}

export type PostJson = (url: string, body: string, signal: AbortSignal) => Promise<JsonResponse>;

/** Answers larger than this are cut off and fail as unreadable (an observation is a few kB). */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
export const RESPONSE_TOO_LARGE = 'ERR_RECALL_RESPONSE_TOO_LARGE';

export const postJson: PostJson = async (url, body, signal) => {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  const options: RequestOptions = {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    signal,
    // One connection per call, closed after it: nothing pooled keeps a finished process waiting.
    agent: false,
  };
  return new Promise<JsonResponse>((resolve, reject) => {
    const req = request(target, options, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) {
          reject(Object.assign(new Error(`response over ${MAX_RESPONSE_BYTES} bytes`), { code: RESPONSE_TOO_LARGE }));
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
