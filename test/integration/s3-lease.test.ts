/** The writer lease of a shared store against an S3-protocol server on 127.0.0.1. */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/cli.js';
import { acquireS3Lease, leaseKey } from '../../src/adapters/s3-lease.js';
import type { StoreLocation } from '../../src/core/store-location.js';
import { S3Double } from '../support/s3-double.js';

let s3: S3Double;
let location: Extract<StoreLocation, { kind: 's3' }>;

beforeEach(async () => {
  s3 = new S3Double();
  const { url } = await s3.start();
  location = {
    kind: 's3', uri: 's3://recall/team', bucket: 'recall', prefix: 'team', endpoint: url, region: 'us-east-1',
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, sessionToken: null },
  };
});

afterEach(() => s3.close());

function leaseState(): { state: string; owner: string } {
  const object = s3.buckets.get('recall')?.get(leaseKey(location));
  return JSON.parse(object?.body.toString('utf8') ?? 'null') as { state: string; owner: string };
}

describe('the S3 writer lease', () => {
  it('is held by one writer at a time; the next one gets it once it is released', async () => {
    const first = await acquireS3Lease(location, { waitMs: 0, staleMs: 5_000 });
    expect(first).not.toBeNull();
    expect(leaseState().state).toBe('held');
    expect(await acquireS3Lease(location, { waitMs: 500, staleMs: 5_000 })).toBeNull();

    const waiting = acquireS3Lease(location, { waitMs: 5_000, staleMs: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first?.();
    const second = await waiting;
    expect(second).not.toBeNull();
    expect(leaseState().state).toBe('held');
    await second?.();
    expect(leaseState().state).toBe('free');
  });

  it('takes over a lease left by a dead machine once it has stayed unchanged for staleMs', async () => {
    putLease({ state: 'held', owner: 'dead-host:4242', nonce: 'n1', at: '2026-01-01T00:00:00.000Z' });
    const started = Date.now();
    const taken = await acquireS3Lease(location, { waitMs: 10_000, staleMs: 2_000 });
    expect(taken).not.toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(leaseState()).toMatchObject({ state: 'held', owner: expect.not.stringMatching(/^dead-host/) });
    await taken?.();
  });

  it('tells a holder that stalled past staleMs it lost the lease, and its release leaves the new holder alone', async () => {
    const lost: Error[] = [];
    const holder = await acquireS3Lease(location, { waitMs: 0, staleMs: 3_000, onCompromised: (err) => lost.push(err) });
    expect(holder).not.toBeNull();
    // Another machine took it over meanwhile (as it does after the holder stalled for staleMs).
    putLease({ state: 'held', owner: 'other-host:7', nonce: 'n2', at: new Date().toISOString() });
    await waitFor(() => (lost.length > 0 ? true : undefined));
    expect(lost.map((e) => e.message)).toEqual(['the writer lease of s3://recall/team was taken over by another machine']);
    await holder?.();
    expect(leaseState()).toMatchObject({ state: 'held', owner: 'other-host:7' });
  });

  it('refuses a store that ignores conditional writes', async () => {
    await s3.close();
    s3 = new S3Double({ ignoreConditions: true });
    location = { ...location, endpoint: (await s3.start()).url };
    await expect(acquireS3Lease(location, { waitMs: 0, staleMs: 5_000 })).rejects.toMatchObject({ code: 'STORE_FAILED', message: expect.stringMatching(/ignores conditional writes/) });
    expect(s3.keys('recall', 'team/.recall/')).not.toContain(leaseKey(location));
  });
});

/** Writes the lease object straight into the server, as another machine would have. */
function putLease(body: object): void {
  const text = Buffer.from(JSON.stringify(body));
  s3.buckets.get('recall')?.set(leaseKey(location), { body: text, etag: `"${createHash('md5').update(text).digest('hex')}"`, lastModified: new Date() });
}
