/**
 * Reads a hook's stdin to its end, with a size cap, so a hook can never hang or balloon, and never
 * loses a payload to a clock. A regular file (a shell's or an agent's `< file`) is read at once, to its
 * recorded size: it always ends, so no timer applies. A pipe or a socket is read until it closes, or
 * until what came holds a whole JSON object (an agent may keep stdin open after writing); only a stdin
 * that stays open and silent for `idleMs` is ended by the timer. Node built-ins only.
 *
 * A regular file is read from its descriptor without making `process.stdin` (making that stream loads
 * node's stream modules). A pipe or socket is read through the stream: a read of the descriptor on
 * node's thread pool would be cheaper to start, but one still waiting when the timer ends the input
 * cannot be abandoned (the process then hangs at exit, joining that thread), and a blocking read
 * could wait forever.
 */
import { fstatSync, readSync } from 'node:fs';

export interface StdinResult {
  text: string;
  /** True when the input was cut at the cap or ended by the idle timer or an error. */
  truncated: boolean;
  /** Why the input was cut, when it was: the size cap, a stdin that stayed open and silent, or a read error. */
  cut?: 'cap' | 'idle' | 'error';
}

export interface ReadStdinOptions {
  maxBytes?: number;
  /** How long an open stdin may stay silent before what came so far is taken as the whole input. */
  idleMs?: number;
  /** The descriptor to read (0, stdin, unless told). */
  fd?: number;
  /** The stream over `fd`, made only when it is no regular file (process.stdin unless told). */
  stream?: () => NodeJS.ReadStream;
}

export const DEFAULT_IDLE_MS = 2_000;

export function readStdin({ maxBytes = 1024 * 1024, idleMs = DEFAULT_IDLE_MS, fd = 0, stream = () => process.stdin }: ReadStdinOptions = {}): Promise<StdinResult> {
  const size = regularFileSize(fd);
  if (size !== null) return Promise.resolve(readRegularFile(fd, size, maxBytes));
  const made = stream();
  if (made.isTTY) return Promise.resolve({ text: '', truncated: false });
  return readStream(made, idleMs, new Collected(maxBytes));
}

/** The recorded size of the regular file behind `fd`; null when it is none (a pipe, a socket, a terminal, no descriptor). */
function regularFileSize(fd: number): number | null {
  try {
    const info = fstatSync(fd);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}

/** The whole of the regular file behind `fd`, up to its recorded `size` and the cap. */
function readRegularFile(fd: number, size: number, maxBytes: number): StdinResult {
  // The recorded size, not "until end of file": a file under /proc reads as size 0 and may never end.
  const want = Math.min(size, maxBytes + 1);
  const buffer = Buffer.alloc(want);
  let got = 0;
  try {
    while (got < want) {
      const n = readSync(fd, buffer, got, want - got, null);
      if (n === 0) break;
      got += n;
    }
  } catch {
    return { text: buffer.subarray(0, got).toString('utf8'), truncated: true, cut: 'error' };
  }
  if (got > maxBytes) return { text: buffer.subarray(0, maxBytes).toString('utf8'), truncated: true, cut: 'cap' };
  return { text: buffer.subarray(0, got).toString('utf8'), truncated: false };
}

/** What came so far, kept under the cap. */
class Collected {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** Adds a chunk: 'cap' when it reached the cap (cut there), 'whole' when what came is a whole JSON object, else null. */
  add(chunk: Buffer): 'cap' | 'whole' | null {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      this.chunks.push(chunk.subarray(0, chunk.length - (this.size - this.maxBytes)));
      return 'cap';
    }
    this.chunks.push(chunk);
    return endsWholeObject(chunk) && isWholeJson(this.chunks) ? 'whole' : null;
  }

  result(cut: StdinResult['cut'] | null): StdinResult {
    const text = Buffer.concat(this.chunks).toString('utf8');
    return cut === null ? { text, truncated: false } : { text, truncated: true, cut };
  }
}

/** How an open stdin is ended by silence: see `arm` below. */
function idleTimer(idleMs: number, onIdle: () => void): { arm: () => void; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  return {
    // On time-out, let one poll phase run first: on a starved machine the timer can fire before the
    // loop has read input that was already waiting in the pipe.
    arm: () => {
      clearTimeout(timer);
      timer = setTimeout(() => setImmediate(onIdle), idleMs);
    },
    stop: () => clearTimeout(timer),
  };
}

/** Reads through the stream until it ends, holds a whole JSON object, reaches the cap or stays silent for `idleMs`. */
function readStream(stream: NodeJS.ReadStream, idleMs: number, collected: Collected): Promise<StdinResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (cut: StdinResult['cut'] | null): void => {
      if (settled) return;
      settled = true;
      timer.stop();
      stream.removeAllListeners('data');
      stream.pause();
      // Stop holding the event loop open on a writer that keeps going, or on a stdin left open.
      if (cut !== null || !stream.readableEnded) stream.destroy();
      resolve(collected.result(cut));
    };
    const timer = idleTimer(idleMs, () => finish('idle'));
    timer.arm();
    stream.on('data', (chunk: Buffer) => {
      const state = collected.add(chunk);
      if (state === 'cap') finish('cap');
      else if (state === 'whole') finish(null);
      else timer.arm();
    });
    stream.on('end', () => finish(null));
    stream.on('error', () => finish('error'));
  });
}

/** A cheap first look: only a chunk ending in `}` (and white space) can end a JSON object. */
function endsWholeObject(chunk: Buffer): boolean {
  for (let i = chunk.length - 1; i >= 0; i -= 1) {
    const byte = chunk[i];
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    return byte === 0x7d;
  }
  return false;
}

function isWholeJson(chunks: readonly Buffer[]): boolean {
  try {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return true;
  } catch {
    return false;
  }
}
