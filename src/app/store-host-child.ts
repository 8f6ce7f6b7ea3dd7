/**
 * The store host: a child process of `recall serve` that opens the LanceDB store and runs the store
 * calls the daemon hands it over IPC (hosted-store.ts). LanceDB's threads live here, not in the daemon,
 * so the daemon can replace this process when they pile up. Nothing here reads the environment; the
 * store's location (credentials included) comes over the IPC channel, never on the command line.
 */
import { fileURLToPath } from 'node:url';
import { describeError, RecallError } from '../core/errors.js';
import type { StoreLocation } from '../core/store-location.js';
import type { LanceStore } from '../adapters/lance-store-port.js';
import type { StoredMemory } from '../core/ports.js';
import { openLanceStore } from '../adapters/lance-store.js';

export const STORE_HOST_ENTRY = fileURLToPath(import.meta.url);

/** Daemon to host. */
export type HostRequest =
  | { kind: 'open'; location: StoreLocation }
  | { kind: 'call'; id: number; method: string; args: unknown[] }
  | { kind: 'close' };

/** Host to daemon. */
export type HostReply =
  | { kind: 'ready' }
  | { kind: 'open-failed'; error: HostError }
  | { kind: 'reply'; id: number; ok: true; value: unknown; warnings: string[]; cacheBytes: number }
  | { kind: 'reply'; id: number; ok: false; error: HostError };

export interface HostError {
  code: string | null;
  message: string;
}

/** The calls that drive a scan, beside the store's own methods. */
export const SCAN_NEXT = '__scanNext';
export const SCAN_END = '__scanEnd';

export function toHostError(err: unknown): HostError {
  if (err instanceof RecallError) return { code: err.code, message: err.message };
  return { code: null, message: describeError(err) };
}

function send(reply: HostReply): void {
  process.send?.(reply);
}

function runHost(): void {
  let store: Promise<LanceStore> | null = null;
  const scans = new Map<number, AsyncIterator<StoredMemory[]>>();

  async function call(method: string, args: unknown[]): Promise<unknown> {
    if (store === null) throw new RecallError('STORE_FAILED', 'the store host was not told which store to open');
    const opened = await store;
    if (method === 'scan') {
      const id = Number(args[1]);
      scans.set(id, opened.scan(args[0] as Parameters<LanceStore['scan']>[0])[Symbol.asyncIterator]());
      return id;
    }
    if (method === SCAN_NEXT || method === SCAN_END) {
      const iterator = scans.get(Number(args[0]));
      if (iterator === undefined) return { done: true, value: undefined };
      const step = method === SCAN_NEXT ? await iterator.next() : await (iterator.return?.() ?? Promise.resolve({ done: true as const, value: undefined }));
      if (step.done === true) scans.delete(Number(args[0]));
      return step;
    }
    const fn = (opened as unknown as Record<string, unknown>)[method];
    if (typeof fn !== 'function') throw new RecallError('STORE_FAILED', `the store has no ${method}`);
    return (fn as (...a: unknown[]) => unknown).apply(opened, args);
  }

  process.on('message', (message: HostRequest) => {
    if (message.kind === 'open') {
      store = openLanceStore(message.location, { longLived: true });
      store.then(
        () => send({ kind: 'ready' }),
        (err: unknown) => send({ kind: 'open-failed', error: toHostError(err) }),
      );
      return;
    }
    if (message.kind === 'close') {
      void (async () => {
        await (await store?.catch(() => null))?.close();
        process.disconnect?.();
        process.exit(0);
      })();
      return;
    }
    void call(message.method, message.args).then(
      async (value) => {
        const opened = await store;
        send({ kind: 'reply', id: message.id, ok: true, value, warnings: opened?.takeWriteWarnings() ?? [], cacheBytes: opened?.cacheBytes() ?? 0 });
      },
      (err: unknown) => send({ kind: 'reply', id: message.id, ok: false, error: toHostError(err) }),
    );
  });
  // The daemon went away: nothing is left to answer.
  process.on('disconnect', () => process.exit(0));
}

if (process.argv[1] === STORE_HOST_ENTRY && typeof process.send === 'function') runHost();
