/** A progress bar on stderr for long work (re-embedding, importing), shown only on a terminal. */

export interface Progress {
  update(done: number, total: number, step?: string): void;
  stop(): void;
}

/** null when nothing would show it (`--json`, or stderr is not a terminal). cli-progress loads only when a bar will show. */
export async function progressBar(label: string, show: boolean): Promise<Progress | null> {
  if (!show || !process.stderr.isTTY) return null;
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: '{step} [{bar}] {percentage}% | {value}/{total} | eta {eta_formatted}', hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total, step = label) {
      if (!started) {
        bar.start(total, done, { step });
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done, { step });
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
