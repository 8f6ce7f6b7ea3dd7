/**
 * The writer lease of a shared `s3://` store: the cross-machine twin of the local store lock, so a
 * dedupe check and the insert that follows it happen for one writer at a time across every machine
 * (LanceDB's own conditional commits keep each write whole, but not two writers' dedupe decisions).
 *
 * One small object, `<prefix>/.recall/store.lease`, changed only by compare-and-swap: created with
 * `If-None-Match: *`, then rewritten with `If-Match: <etag>` to refresh, release (state "free") or
 * take over. Every write carries a fresh nonce, so no two versions share an ETag. A lease whose ETag
 * has not changed for `staleMs` by the waiting machine's own clock belongs to a dead holder and is
 * taken over: clocks of different machines are never compared.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { RecallError } from '../core/errors.js';
import { keyUnder, objectUrl, s3ErrorCode, s3Request, type S3Location } from './s3-client.js';

export interface LeaseOptions {
  /** How long to keep trying; 0 = one attempt. */
  waitMs: number;
  /** A lease not refreshed for this long is taken over; the holder refreshes every third of it. */
  staleMs: number;
  /** Called when the lease was lost while held (another machine took it over after a stall). */
  onCompromised?: (err: Error) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export type Release = () => Promise<void>;

interface LeaseBody {
  state: 'held' | 'free';
  owner: string;
  nonce: string;
  at: string;
}

const POLL_MS = 200;

export function leaseKey(location: S3Location): string {
  return keyUnder(location, '.recall/store.lease');
}

/** Takes the lease, or answers null when another machine still holds it after `waitMs`. */
export async function acquireS3Lease(location: S3Location, options: LeaseOptions): Promise<Release | null> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const url = objectUrl(location, leaseKey(location));
  const owner = `${hostname()}:${process.pid}`;
  const write = (state: LeaseBody['state'], condition: Record<string, string>) =>
    s3Request(location, 'PUT', url, { headers: { ...condition, 'content-type': 'application/json' }, body: JSON.stringify({ state, owner, nonce: randomUUID(), at: new Date(now()).toISOString() }) });

  await ensureConditionalWrites(location);
  const deadline = now() + options.waitMs;
  /** The holder's ETag as this machine first saw it, and when. */
  let watched = null as { etag: string; since: number } | null;
  for (;;) {
    const created = await write('held', { 'if-none-match': '*' });
    if (created.ok) return hold(location, url, etagOf(created), write, options);
    if (!isConflict(created.status)) throw unexpected(location, created.status, await created.text());
    const current = await readLease(location, url);
    if (current !== null) {
      const stale = watched?.etag === current.etag && now() - watched.since >= options.staleMs;
      if (current.body?.state === 'free' || stale) {
        const taken = await write('held', { 'if-match': current.etag });
        if (taken.ok) return hold(location, url, etagOf(taken), write, options);
        if (!isConflict(taken.status) && taken.status !== 404) throw unexpected(location, taken.status, await taken.text());
        continue; // another machine moved first: look again
      }
      if (watched?.etag !== current.etag) watched = { etag: current.etag, since: now() };
    }
    const left = deadline - now();
    if (left <= 0) return null;
    await sleep(Math.min(POLL_MS, left));
  }
}

/** Holds the lease: refreshes it until released; a failed compare-and-swap means it was lost. */
function hold(
  location: S3Location,
  url: string,
  firstEtag: string,
  write: (state: LeaseBody['state'], condition: Record<string, string>) => Promise<Response>,
  options: LeaseOptions,
): Release {
  let etag = firstEtag;
  let lost = false;
  let refreshing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    refreshing = (async () => {
      try {
        const refreshed = await write('held', { 'if-match': etag });
        if (refreshed.ok) {
          etag = etagOf(refreshed);
          return;
        }
        if (isConflict(refreshed.status) || refreshed.status === 404) {
          lost = true;
          clearInterval(timer);
          options.onCompromised?.(new RecallError('LOCK_HELD', `the writer lease of ${location.uri} was taken over by another machine`));
        }
      } catch {
        // The store did not answer this time; the next refresh tries again before the lease goes stale.
      }
    })();
  }, Math.max(1_000, Math.floor(options.staleMs / 3)));
  timer.unref();
  return async () => {
    clearInterval(timer);
    await refreshing;
    if (lost) return;
    try {
      await write('free', { 'if-match': etag });
    } catch {
      // Unreachable now: the lease goes stale and the next writer takes it over.
    }
  };
}

const checked = new WeakSet<S3Location>();

/**
 * A store that ignores `If-None-Match` would let two machines hold the lease (and lose LanceDB commits):
 * refuse it once per process rather than write unsafely.
 */
async function ensureConditionalWrites(location: S3Location): Promise<void> {
  if (checked.has(location)) return;
  const url = objectUrl(location, keyUnder(location, '.recall/conditional-write-check'));
  const put = () => s3Request(location, 'PUT', url, { headers: { 'if-none-match': '*' }, body: 'recall checks that this store honours If-None-Match' });
  const first = await put();
  if (!first.ok && !isConflict(first.status)) throw unexpected(location, first.status, await first.text());
  const second = await put();
  if (second.ok) {
    throw new RecallError('STORE_FAILED', `the object store of ${location.uri} ignores conditional writes (If-None-Match), so writers on several machines could overwrite each other; use a store that supports them (AWS S3, MinIO, R2)`);
  }
  checked.add(location);
}

async function readLease(location: S3Location, url: string): Promise<{ etag: string; body: LeaseBody | null } | null> {
  const response = await s3Request(location, 'GET', url);
  if (response.status === 404) return null;
  const text = await response.text();
  if (!response.ok) throw unexpected(location, response.status, text);
  let body: LeaseBody | null = null;
  try {
    body = JSON.parse(text) as LeaseBody;
  } catch {
    // Not ours or damaged: it is treated as held, and taken over once it stays unchanged for staleMs.
  }
  return { etag: etagOf(response), body };
}

/** 412 PreconditionFailed; 409 ConditionalRequestConflict is AWS's answer to two conditional writes at once. */
function isConflict(status: number): boolean {
  return status === 412 || status === 409;
}

function etagOf(response: Response): string {
  const etag = response.headers.get('etag');
  if (etag === null) throw new RecallError('STORE_FAILED', 'the object store answered a write without an ETag; it cannot hold a writer lease');
  return etag;
}

function unexpected(location: S3Location, status: number, text: string): RecallError {
  const code = s3ErrorCode(text);
  return new RecallError('STORE_FAILED', `the object store answered HTTP ${status}${code ? ` ${code}` : ''} to the writer lease of ${location.uri}`);
}
