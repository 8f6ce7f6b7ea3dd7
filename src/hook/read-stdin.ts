/**
 * Reads a hook's stdin to its end, with a size cap, so a hook can never hang or balloon, and never
 * loses a payload to a clock. A regular file (a shell's or an agent's `< file`) is read at once, to its
 * recorded size: it always ends, so no timer applies. A pipe or a socket is read until it closes, or
 * until what came holds a whole JSON object (an agent may keep stdin open after writing); only a stdin
 * that stays open and silent for `idleMs` is ended by the timer. Node built-ins only.
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
  /** The descriptor behind `stream` (0 for process.stdin), checked for a regular file. */
  fd?: number | null;
}

export const DEFAULT_IDLE_MS = 2_000;

export function readStdin(stream: NodeJS.ReadStream = process.stdin, { maxBytes = 1024 * 1024, idleMs = DEFAULT_IDLE_MS, fd = 0 }: ReadStdinOptions = {}): Promise<StdinResult> {
  const file = fd === null ? null : readRegularFile(fd, maxBytes);
  if (file !== null) return Promise.resolve(file);
  if (stream.isTTY) return Promise.resolve({ text: '', truncated: false });
  return readStream(stream, maxBytes, idleMs);
}

/** The whole of a regular file behind `fd`, up to its size and the cap; null when `fd` is no regular file. */
function readRegularFile(fd: number, maxBytes: number): StdinResult | null {
  let size: number;
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return null;
    size = info.size;
  } catch {
    return null;
  }
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

function readStream(stream: NodeJS.ReadStream, maxBytes: number, idleMs: number): Promise<StdinResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (cut: StdinResult['cut'] | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.removeAllListeners('data');
      stream.pause();
      // Stop holding the event loop open on a writer that keeps going, or on a stdin left open.
      if (cut !== null || !stream.readableEnded) stream.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(cut === null ? { text, truncated: false } : { text, truncated: true, cut });
    };
    // On time-out, let one poll phase run first: on a starved machine the timer can fire before the
    // loop has read input that was already waiting in the pipe.
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => setImmediate(() => finish('idle')), idleMs);
    };
    arm();
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
        finish('cap');
        return;
      }
      chunks.push(chunk);
      if (endsWholeObject(chunk) && isWholeJson(chunks)) finish(null);
      else arm();
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
