/**
 * An S3-protocol server on 127.0.0.1 for the shared-storage tests: the object store two "machines"
 * point at. In memory, one bucket map per server, faithful to what LanceDB and recall's lease use:
 * path-style PUT/GET/HEAD/DELETE (ranges, ETags), conditional writes (`If-None-Match: *` and
 * `If-Match: <etag>` answered with 412 PreconditionFailed, as AWS S3 has done since 2024),
 * ListObjectsV2 (prefix, delimiter, start-after, continuation tokens), DeleteObjects, CopyObject,
 * multipart uploads, SigV4 signature checks (403 InvalidAccessKeyId / SignatureDoesNotMatch) and
 * XML error bodies. Each object is replaced whole, so readers never see half an object.
 *
 * Why not s3rver from npm: measured here, it ignores conditional writes (three LanceDB writers lost
 * 28 of 90 appends), lists no common prefix for keys two levels down (LanceDB saw no tables), and
 * serves objects while they are still being written.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3DoubleOptions {
  buckets?: readonly string[];
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Behave like an older S3-compatible server that ignores If-None-Match / If-Match on writes. */
  ignoreConditions?: boolean;
}

export interface StoredObject {
  body: Buffer;
  etag: string;
  lastModified: Date;
}

interface Upload {
  bucket: string;
  key: string;
  parts: Map<number, { body: Buffer; etag: string }>;
}

export class S3Double {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** bucket -> key -> object */
  readonly buckets = new Map<string, Map<string, StoredObject>>();
  /** Every request as `METHOD /path?query`, for tests that check what was asked. */
  readonly requests: string[] = [];
  private readonly uploads = new Map<string, Upload>();
  private readonly ignoreConditions: boolean;
  private server: Server | null = null;

  constructor(options: S3DoubleOptions = {}) {
    this.accessKeyId = options.accessKeyId ?? 'recall-test-key';
    this.secretAccessKey = options.secretAccessKey ?? 'recall-test-secret';
    this.ignoreConditions = options.ignoreConditions ?? false;
    for (const name of options.buckets ?? ['recall']) this.buckets.set(name, new Map());
  }

  async start(port = 0): Promise<{ url: string; port: number }> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    const actual = (server.address() as AddressInfo).port;
    return { url: `http://127.0.0.1:${actual}`, port: actual };
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Keys of a bucket under a prefix, sorted. */
  keys(bucket: string, prefix = ''): string[] {
    return [...(this.buckets.get(bucket)?.keys() ?? [])].filter((k) => k.startsWith(prefix)).sort();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    this.requests.push(`${req.method} ${url.pathname}${url.search}`);
    try {
      this.authenticate(req, url, body);
      const [, bucketName = '', ...rest] = url.pathname.split('/');
      const key = rest.map((s) => decodeURIComponent(s)).join('/');
      const bucket = this.buckets.get(decodeURIComponent(bucketName));
      if (bucket === undefined) throw new S3Failure(404, 'NoSuchBucket', 'The specified bucket does not exist');
      const q = url.searchParams;
      if (key === '') {
        if (req.method === 'GET') return send(res, 200, listObjects(bucketName, bucket, q));
        if (req.method === 'HEAD') return send(res, 200, '');
        if (req.method === 'POST' && q.has('delete')) return send(res, 200, deleteObjects(bucket, body.toString('utf8')));
        throw new S3Failure(405, 'MethodNotAllowed', `${req.method} on a bucket is not supported here`);
      }
      switch (req.method) {
        case 'GET':
        case 'HEAD':
          return getObject(req, res, bucket, key);
        case 'PUT':
          if (q.has('uploadId')) return this.uploadPart(res, q, body);
          return this.putObject(req, res, bucket, key, body);
        case 'DELETE':
          if (q.has('uploadId')) {
            this.uploads.delete(q.get('uploadId') ?? '');
            return send(res, 204, '');
          }
          bucket.delete(key);
          return send(res, 204, '');
        case 'POST':
          if (q.has('uploads')) return this.createUpload(res, bucketName, key);
          if (q.has('uploadId')) return this.completeUpload(req, res, bucket, key, q);
          break;
      }
      throw new S3Failure(405, 'MethodNotAllowed', `${req.method} is not supported here`);
    } catch (err) {
      const failure = err instanceof S3Failure ? err : new S3Failure(500, 'InternalError', String(err));
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${failure.code}</Code><Message>${escapeXml(failure.message)}</Message><Resource>${escapeXml(url.pathname)}</Resource><RequestId>${randomUUID()}</RequestId></Error>`;
      send(res, failure.status, req.method === 'HEAD' ? '' : xml, { 'x-amz-error-code': failure.code });
    }
  }

  /** SigV4 as AWS checks it: the access key must be known and the signature must match. */
  private authenticate(req: IncomingMessage, url: URL, body: Buffer): void {
    const auth = header(req, 'authorization');
    const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
    if (match === null) throw new S3Failure(403, 'AccessDenied', 'Access Denied');
    const [, keyId, day, region, signedHeaders, signature] = match as unknown as [string, string, string, string, string, string];
    if (keyId !== this.accessKeyId) throw new S3Failure(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
    const payloadHash = header(req, 'x-amz-content-sha256') || 'UNSIGNED-PAYLOAD';
    if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) {
      throw new S3Failure(400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 header does not match what was computed.');
    }
    const names = signedHeaders.split(';');
    const canonicalHeaders = names.map((name) => `${name}:${header(req, name).trim().replace(/\s+/g, ' ')}\n`).join('');
    const canonicalQuery = [...url.searchParams.entries()]
      .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
      .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const canonicalRequest = [req.method, url.pathname, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
    const scope = `${day}/${region}/s3/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', header(req, 'x-amz-date'), scope, sha256(canonicalRequest)].join('\n');
    let signingKey: Buffer = hmac(`AWS4${this.secretAccessKey}`, day);
    for (const part of [region, 's3', 'aws4_request']) signingKey = hmac(signingKey, part);
    if (hmac(signingKey, toSign).toString('hex') !== signature) {
      throw new S3Failure(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
    }
  }

  private putObject(req: IncomingMessage, res: ServerResponse, bucket: Map<string, StoredObject>, key: string, body: Buffer): void {
    const source = header(req, 'x-amz-copy-source');
    if (source !== '') {
      const [srcBucket = '', ...srcKey] = decodeURIComponent(source.replace(/^\//, '')).split('/');
      const from = this.buckets.get(srcBucket)?.get(srcKey.join('/'));
      if (from === undefined) throw new S3Failure(404, 'NoSuchKey', 'The specified key does not exist.');
      this.checkConditions(req, bucket.get(key));
      const copy = store(bucket, key, from.body);
      return send(res, 200, `<?xml version="1.0" encoding="UTF-8"?>\n<CopyObjectResult><ETag>${copy.etag}</ETag><LastModified>${copy.lastModified.toISOString()}</LastModified></CopyObjectResult>`);
    }
    this.checkConditions(req, bucket.get(key));
    const stored = store(bucket, key, body);
    send(res, 200, '', { etag: stored.etag });
  }

  private checkConditions(req: IncomingMessage, current: StoredObject | undefined): void {
    if (!this.ignoreConditions) checkConditions(req, current);
  }

  private createUpload(res: ServerResponse, bucket: string, key: string): void {
    const id = randomUUID();
    this.uploads.set(id, { bucket, key, parts: new Map() });
    send(res, 200, `<?xml version="1.0" encoding="UTF-8"?>\n<InitiateMultipartUploadResult><Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
  }

  private uploadPart(res: ServerResponse, q: URLSearchParams, body: Buffer): void {
    const upload = this.uploads.get(q.get('uploadId') ?? '');
    if (upload === undefined) throw new S3Failure(404, 'NoSuchUpload', 'The specified upload does not exist.');
    const etag = `"${createHash('md5').update(body).digest('hex')}"`;
    upload.parts.set(Number(q.get('partNumber')), { body, etag });
    send(res, 200, '', { etag });
  }

  private completeUpload(req: IncomingMessage, res: ServerResponse, bucket: Map<string, StoredObject>, key: string, q: URLSearchParams): void {
    const id = q.get('uploadId') ?? '';
    const upload = this.uploads.get(id);
    if (upload === undefined) throw new S3Failure(404, 'NoSuchUpload', 'The specified upload does not exist.');
    this.checkConditions(req, bucket.get(key));
    const numbers = [...upload.parts.keys()].sort((a, b) => a - b);
    const stored = store(bucket, key, Buffer.concat(numbers.map((n) => upload.parts.get(n)?.body ?? Buffer.alloc(0))));
    this.uploads.delete(id);
    send(res, 200, `<?xml version="1.0" encoding="UTF-8"?>\n<CompleteMultipartUploadResult><Key>${escapeXml(key)}</Key><ETag>${stored.etag}</ETag></CompleteMultipartUploadResult>`);
  }
}

class S3Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** `If-None-Match: *` fails when the key exists; `If-Match` fails unless the current ETag matches. */
function checkConditions(req: IncomingMessage, current: StoredObject | undefined): void {
  const noneMatch = header(req, 'if-none-match');
  const ifMatch = header(req, 'if-match');
  if (noneMatch === '*' && current !== undefined) throw new S3Failure(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
  if (ifMatch !== '') {
    if (current === undefined) throw new S3Failure(404, 'NoSuchKey', 'The specified key does not exist.');
    if (ifMatch !== '*' && ifMatch !== current.etag) throw new S3Failure(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
  }
}

function store(bucket: Map<string, StoredObject>, key: string, body: Buffer): StoredObject {
  const object = { body, etag: `"${createHash('md5').update(body).digest('hex')}"`, lastModified: new Date() };
  bucket.set(key, object);
  return object;
}

function getObject(req: IncomingMessage, res: ServerResponse, bucket: Map<string, StoredObject>, key: string): void {
  const object = bucket.get(key);
  if (object === undefined) throw new S3Failure(404, 'NoSuchKey', 'The specified key does not exist.');
  const headers = { etag: object.etag, 'last-modified': object.lastModified.toUTCString(), 'accept-ranges': 'bytes' };
  const range = /^bytes=(\d*)-(\d*)$/.exec(header(req, 'range'));
  const size = object.body.length;
  if (range === null) return send(res, 200, req.method === 'HEAD' ? '' : object.body, { ...headers, 'content-length': String(size) });
  const [, from = '', to = ''] = range;
  const start = from === '' ? Math.max(0, size - Number(to)) : Number(from);
  const end = from === '' || to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) throw new S3Failure(416, 'InvalidRange', 'The requested range is not satisfiable');
  const part = object.body.subarray(start, end + 1);
  send(res, 206, req.method === 'HEAD' ? '' : part, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': String(part.length) });
}

function listObjects(name: string, bucket: Map<string, StoredObject>, q: URLSearchParams): string {
  const prefix = q.get('prefix') ?? '';
  const delimiter = q.get('delimiter') ?? '';
  const maxKeys = Math.min(1000, Number(q.get('max-keys') ?? 1000));
  const token = q.get('continuation-token');
  const after = token !== null ? Buffer.from(token, 'base64url').toString('utf8') : (q.get('start-after') ?? '');
  const contents: string[] = [];
  const prefixes: string[] = [];
  let last = '';
  let truncated = false;
  for (const key of [...bucket.keys()].filter((k) => k.startsWith(prefix)).sort()) {
    const cut = delimiter === '' ? -1 : key.indexOf(delimiter, prefix.length);
    const entry = cut === -1 ? key : key.slice(0, cut + delimiter.length);
    if (entry <= after || entry === prefixes[prefixes.length - 1]) continue;
    if (contents.length + prefixes.length >= maxKeys) {
      truncated = true;
      break;
    }
    last = entry;
    if (cut === -1) {
      const o = bucket.get(key) as StoredObject;
      contents.push(`<Contents><Key>${escapeXml(key)}</Key><LastModified>${o.lastModified.toISOString()}</LastModified><ETag>${escapeXml(o.etag)}</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`);
    } else {
      prefixes.push(entry);
    }
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${escapeXml(name)}</Name><Prefix>${escapeXml(prefix)}</Prefix>`,
    delimiter === '' ? '' : `<Delimiter>${escapeXml(delimiter)}</Delimiter>`,
    `<MaxKeys>${maxKeys}</MaxKeys><KeyCount>${contents.length + prefixes.length}</KeyCount><IsTruncated>${truncated}</IsTruncated>`,
    truncated ? `<NextContinuationToken>${Buffer.from(last).toString('base64url')}</NextContinuationToken>` : '',
    ...contents,
    ...prefixes.map((p) => `<CommonPrefixes><Prefix>${escapeXml(p)}</Prefix></CommonPrefixes>`),
    '</ListBucketResult>',
  ].join('');
}

function deleteObjects(bucket: Map<string, StoredObject>, xml: string): string {
  const keys = [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => unescapeXml(m[1] ?? ''));
  for (const key of keys) bucket.delete(key);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<DeleteResult>${keys.map((k) => `<Deleted><Key>${escapeXml(k)}</Key></Deleted>`).join('')}</DeleteResult>`;
}

function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'content-type': typeof body === 'string' && body.startsWith('<?xml') ? 'application/xml' : 'application/octet-stream', 'content-length': String(payload.length), ...headers });
  res.end(payload);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** URI encoding as SigV4 canonicalises query strings. */
function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);
}

function unescapeXml(s: string): string {
  return s.replace(/&(lt|gt|amp|apos|quot);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' })[e] ?? '');
}
