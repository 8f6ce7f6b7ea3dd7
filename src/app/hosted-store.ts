/**
 * The store of `recall serve`, run in a child process (store-host-child.ts) that the daemon replaces
 * when its threads pile up. LanceDB's node binding reads every local file on a thread of its tokio
 * blocking pool; the pool starts a thread whenever a read finds none idle and ends one only after 10 s
 * without work, and under steady searching every thread is woken again well within that, so the pool
 * keeps the most reads ever in flight at once (up to 512; no setting reaches it). A process is the one
 * thing that bounds it: past `threadCap` threads a replacement host is started and warmed while the
 * old one goes on answering, then new calls go to the new host and the old one is closed once its
 * calls (and open scans) are done. No call waits for the swap and none is cut short by it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { RecallError, type RecallErrorCode } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { StoredMemory } from '../core/ports.js';
import type { StoreLocation } from '../core/store-location.js';
import type { LanceStore } from '../adapters/lance-store-port.js';
import { SCAN_END, SCAN_NEXT, STORE_HOST_ENTRY, type HostError, type HostReply, type HostRequest } from './store-host-child.js';

/** A host past this many threads is replaced (node's own are about 11, LanceDB's start near 10). */
export const DEFAULT_HOST_THREAD_CAP = 96;
/** Calls between two looks at the host's thread count (a read of /proc/<pid>/status). */
const CHECK_EVERY_CALLS = 16;

export interface HostedStoreOptions {
  threadCap?: number;
  logger?: Logger;
  /** Run on a new host before it takes over (the daemon loads the text index and vectors there). */
  warm?: (store: LanceStore) => Promise<unknown>;
  /** Told each time a new host has taken over (tests, the bench). */
  onSwap?: (pid: number, retiredPid: number) => void;
}

export interface HostedStore extends LanceStore {
  /** The pid of the host answering new calls now. */
  hostPid(): number | null;
  /** How many times a host was replaced. */
  swaps(): number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

interface Host {
  child: ChildProcess;
  pending: Map<number, Pending>;
  openScans: number;
  retiring: boolean;
  exited: boolean;
  /** Opening the store, not yet ready. */
  starting: boolean;
}

/** Opens the store at `location` in a host process, and replaces that host whenever it passes the thread cap. */
export async function openHostedStore(location: StoreLocation, options: HostedStoreOptions = {}): Promise<HostedStore> {
  const cap = options.threadCap ?? DEFAULT_HOST_THREAD_CAP;
  let nextId = 1;
  let current: Host = await startHost(location);
  let replacing: Promise<void> | null = null;
  let restarting: Promise<Host> | null = null;
  let callsSinceCheck = 0;
  let swaps = 0;
  let closed = false;
  let cacheBytes = 0;
  const warnings: string[] = [];

  function startHost(at: StoreLocation): Promise<Host> {
    const child = fork(STORE_HOST_ENTRY, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [] });
    const host: Host = { child, pending: new Map(), openScans: 0, retiring: false, exited: false, starting: true };
    // The host never keeps the daemon alive by itself: its channel holds the daemon only while a call waits.
    child.unref();
    holdWhileBusy(host);
    return new Promise<Host>((resolve, reject) => {
      const failStart = (error: HostError): void => {
        child.kill();
        reject(fromHostError(error));
      };
      child.on('message', (reply: HostReply) => {
        if (reply.kind !== 'reply') {
          host.starting = false;
          holdWhileBusy(host);
        }
        if (reply.kind === 'ready') resolve(host);
        else if (reply.kind === 'open-failed') failStart(reply.error);
        else settle(host, reply);
      });
      // Before it is ready: it could not start. After: a call that could not be sent, answered by the exit below.
      child.on('error', (err) => failStart({ code: 'STORE_FAILED', message: `could not start the store host: ${err.message}` }));
      child.once('exit', (code, signal) => {
        host.exited = true;
        const gone = new RecallError('STORE_FAILED', `the store host stopped (${signal ?? `exit ${code}`})`);
        for (const call of host.pending.values()) call.reject(gone);
        host.pending.clear();
        reject(gone);
      });
      child.send({ kind: 'open', location: at } satisfies HostRequest);
    });
  }

  function settle(host: Host, reply: Extract<HostReply, { kind: 'reply' }>): void {
    const call = host.pending.get(reply.id);
    if (call === undefined) return;
    host.pending.delete(reply.id);
    holdWhileBusy(host);
    if (reply.ok) {
      warnings.push(...reply.warnings);
      cacheBytes = reply.cacheBytes;
      call.resolve(reply.value);
    } else {
      call.reject(fromHostError(reply.error));
    }
    if (host.retiring) closeWhenIdle(host);
  }

  /** A call on a given host (a scan stays on the host it started on). */
  function callOn(host: Host, method: string, args: unknown[]): Promise<unknown> {
    if (host.exited) return Promise.reject(new RecallError('STORE_FAILED', 'the store host stopped'));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      host.pending.set(id, { resolve, reject });
      holdWhileBusy(host);
      host.child.send({ kind: 'call', id, method, args } satisfies HostRequest);
    });
  }

  async function hostForCall(): Promise<Host> {
    if (closed) throw new RecallError('STORE_FAILED', 'the memory store is closed');
    // A host that died is started again (once for the calls waiting on it); a call never goes to a dead one.
    if (current.exited) {
      restarting ??= startHost(location).finally(() => (restarting = null));
      current = await restarting;
    }
    return current;
  }

  async function call(method: string, args: unknown[]): Promise<unknown> {
    const host = await hostForCall();
    try {
      return await callOn(host, method, args);
    } finally {
      if (++callsSinceCheck >= CHECK_EVERY_CALLS) {
        callsSinceCheck = 0;
        checkThreads(host);
      }
    }
  }

  function checkThreads(host: Host): void {
    if (replacing !== null || closed || host !== current || host.child.pid === undefined) return;
    const threads = threadsOf(host.child.pid);
    if (threads === null || threads <= cap) return;
    options.logger?.log('info', 'serve: replacing the store host', { pid: host.child.pid, threads, cap });
    replacing = replaceHost(host).finally(() => (replacing = null));
  }

  async function replaceHost(old: Host): Promise<void> {
    try {
      const next = await startHost(location);
      if (options.warm !== undefined) await options.warm(storeOn(next));
      if (closed) {
        retire(next);
        return;
      }
      current = next;
      swaps += 1;
      retire(old);
      options.onSwap?.(next.child.pid ?? 0, old.child.pid ?? 0);
    } catch (err) {
      // The old host goes on answering; the next check tries again.
      options.logger?.log('warn', `serve: could not start a new store host: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  function retire(host: Host): void {
    host.retiring = true;
    closeWhenIdle(host);
  }

  function closeWhenIdle(host: Host): void {
    if (host.pending.size > 0 || host.openScans > 0 || host.exited) return;
    host.child.send({ kind: 'close' } satisfies HostRequest);
  }

  /** The store's calls on one host: `storeOn(current)` for a new host's warm-up. */
  function storeOn(host: Host): LanceStore {
    return makeStore((method, args) => callOn(host, method, args), () => host);
  }

  function makeStore(run: (method: string, args: unknown[]) => Promise<unknown>, hostOfScan: () => Promise<Host> | Host): LanceStore {
    const proxied = new Proxy({} as Record<string, unknown>, {
      get(_target, name) {
        if (typeof name !== 'string') return undefined;
        if (name === 'then') return undefined;
        if (name === 'takeWriteWarnings') return () => warnings.splice(0);
        if (name === 'cacheBytes') return () => cacheBytes;
        if (name === 'scan') return (scanOptions: unknown) => scanOn(hostOfScan, scanOptions);
        return (...args: unknown[]) => run(name, args);
      },
    });
    return proxied as unknown as LanceStore;
  }

  async function* scanOn(hostOfScan: () => Promise<Host> | Host, scanOptions: unknown): AsyncGenerator<StoredMemory[]> {
    const host = await hostOfScan();
    host.openScans += 1;
    const cursor = nextId++;
    let finished = false;
    try {
      await callOn(host, 'scan', [scanOptions, cursor]);
      for (;;) {
        const step = (await callOn(host, SCAN_NEXT, [cursor])) as IteratorResult<StoredMemory[]>;
        if (step.done === true) {
          finished = true;
          return;
        }
        yield step.value;
      }
    } finally {
      if (!finished) await callOn(host, SCAN_END, [cursor]).catch(() => undefined);
      host.openScans -= 1;
      if (host.retiring) closeWhenIdle(host);
    }
  }

  const store = makeStore(call, hostForCall) as unknown as Record<string, unknown>;
  const extra: Record<string, unknown> = {
    hostPid: () => (current.exited ? null : current.child.pid ?? null),
    swaps: () => swaps,
    close: async () => {
      closed = true;
      await replacing;
      const exited = new Promise<void>((resolve) => (current.exited ? resolve() : current.child.once('exit', () => resolve())));
      retire(current);
      await exited;
    },
  };
  return new Proxy(store, { get: (target, name) => (typeof name === 'string' && name in extra ? extra[name] : target[name as string]) }) as unknown as HostedStore;
}

/** The IPC channel keeps the daemon's event loop alive while the host owes it an answer (or while it starts), never otherwise. */
function holdWhileBusy(host: { child: ChildProcess; pending: Map<number, unknown>; starting: boolean }): void {
  const channel = host.child.channel;
  if (channel === undefined || channel === null) return;
  if (host.starting || host.pending.size > 0) channel.ref();
  else channel.unref();
}

/** The host's thread count (Linux's /proc); null where it cannot be read, and then the host is never replaced. */
export function threadsOf(pid: number): number | null {
  try {
    const match = /^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? null : Number(match[1]);
  } catch {
    return null;
  }
}

function fromHostError(error: HostError): Error {
  return error.code === null ? new Error(error.message) : new RecallError(error.code as RecallErrorCode, error.message);
}
