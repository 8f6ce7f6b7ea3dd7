/**
 * Ends this process at once, whatever its threads are blocked on. `process.exit` is not enough: at
 * exit, libuv joins its thread pool, and a pool thread stuck in a read that never returns (a transcript
 * path of /proc/kmsg, a hung network mount) holds the exiting process for ever. A kill signal to
 * ourselves is handled by the kernel, not by any of our threads. Output already written is flushed
 * first. Node built-ins only.
 */

/** Flushes stdout and stderr (bounded: a closed or full pipe does not hold us), then kills this process. */
export async function endProcessNow(): Promise<never> {
  await Promise.all([flush(process.stdout), flush(process.stderr)]);
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL is not delivered synchronously on every platform; nothing more runs meanwhile.
  return new Promise<never>(() => undefined);
}

const FLUSH_WAIT_MS = 1_000;

function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FLUSH_WAIT_MS);
    try {
      stream.write('', () => {
        clearTimeout(timer);
        resolve();
      });
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}
