/** Reads a hook's stdin with a size cap and a time limit, so a hook can never hang or balloon. */

export interface StdinResult {
  text: string;
  /** True when the input was cut at the cap or the time limit. */
  truncated: boolean;
}

export function readStdin(
  stream: NodeJS.ReadStream = process.stdin,
  { maxBytes = 1024 * 1024, timeoutMs = 800 }: { maxBytes?: number; timeoutMs?: number } = {},
): Promise<StdinResult> {
  if (stream.isTTY) return Promise.resolve({ text: '', truncated: false });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (truncated: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.removeAllListeners('data');
      stream.pause();
      // Stop holding the event loop open on a writer that keeps going.
      if (truncated) stream.destroy();
      resolve({ text: Buffer.concat(chunks).toString('utf8'), truncated });
    };
    // On time-out, let one poll phase run first: on a starved machine the timer can fire before the
    // loop has read input that was already waiting in the pipe, which would drop a whole session.
    const timer = setTimeout(() => setImmediate(() => finish(true)), timeoutMs);
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        finish(true);
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => finish(false));
    stream.on('error', () => finish(true));
  });
}
