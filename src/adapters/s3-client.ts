/**
 * Signed requests to the S3-compatible object store behind an `s3://` store location (SigV4 via
 * aws4fetch, path-style for custom endpoints), with failures translated into coded errors by HTTP
 * status and errno: LanceDB's own errors carry only text, so the store adapter asks here first.
 */
import { AwsClient } from 'aws4fetch';
import { RecallError } from '../core/errors.js';
import type { StoreLocation } from '../core/store-location.js';

export type S3Location = Extract<StoreLocation, { kind: 's3' }>;

/** One request may take this long before the store counts as unreachable. */
const REQUEST_TIMEOUT_MS = 10_000;

const clients = new WeakMap<S3Location, AwsClient>();

function client(location: S3Location): AwsClient {
  let c = clients.get(location);
  if (c === undefined) {
    const { accessKeyId, secretAccessKey, sessionToken } = location.credentials;
    // retries: 0 — a caller that waits (the lease) has its own loop; the rest fail fast with a clear error.
    c = new AwsClient({ accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}), service: 's3', region: location.region, retries: 0 });
    clients.set(location, c);
  }
  return c;
}

/** The URL of a key in the bucket (`''` is the bucket itself). */
export function objectUrl(location: S3Location, key: string): string {
  const path = key.split('/').map(encodeURIComponent).join('/');
  const base = location.endpoint === null ? `https://${location.bucket}.s3.${location.region}.amazonaws.com` : `${location.endpoint}/${location.bucket}`;
  return `${base}/${path}`;
}

/** A key under the location's prefix. */
export function keyUnder(location: S3Location, name: string): string {
  return location.prefix === '' ? name : `${location.prefix}/${name}`;
}

/**
 * One signed request. Network failures and refused credentials throw coded errors; every other
 * answer (404, 412, ...) is returned for the caller to read.
 */
export async function s3Request(location: S3Location, method: string, url: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Response> {
  let response: Response;
  try {
    response = await client(location).fetch(url, { method, headers: init.headers, body: init.body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (err) {
    throw new RecallError('STORE_UNREACHABLE', `cannot reach the object store for ${location.uri} (${networkReason(err)})`, { cause: err });
  }
  if (response.status === 401 || response.status === 403) {
    const code = s3ErrorCode(await response.text());
    throw new RecallError(
      'STORE_DENIED',
      `the object store refused recall's credentials for ${location.uri} (HTTP ${response.status}${code ? ` ${code}` : ''}); check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or store.s3.*)`,
    );
  }
  return response;
}

/**
 * Checks that the bucket answers and the credentials are accepted before LanceDB is pointed at it,
 * so an unreachable store, a missing bucket or a bad key is one clear error, not a retry storm.
 */
export async function checkObjectStore(location: S3Location): Promise<void> {
  const query = `?list-type=2&max-keys=1&prefix=${encodeURIComponent(keyUnder(location, ''))}`;
  const response = await s3Request(location, 'GET', `${objectUrl(location, '')}${query}`);
  if (response.ok) return;
  const code = s3ErrorCode(await response.text());
  if (code === 'NoSuchBucket') throw new RecallError('STORE_FAILED', `the bucket "${location.bucket}" of ${location.uri} does not exist; create it first`);
  throw new RecallError('STORE_FAILED', `the object store answered HTTP ${response.status}${code ? ` ${code}` : ''} for ${location.uri}`);
}

/** The `<Code>` of an S3 XML error body, if there is one. */
export function s3ErrorCode(xml: string): string | null {
  return /<Code>([^<]{1,100})<\/Code>/.exec(xml)?.[1] ?? null;
}

function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: string } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (cause instanceof Error) return cause.message;
  if ((err as Error | null)?.name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  return (err as Error | null)?.message ?? String(err);
}
