/**
 * The job time limit, kept outside the code that does the work: whatever a job waits on (a read
 * that never returns, a model that never answers), the worker gets control back after `limitMs`.
 * The work itself cannot be cancelled from here, so the caller must record the job and exit.
 */
export async function runWithTimeLimit<T>(work: Promise<T>, limitMs: number): Promise<T | 'timed-out'> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'timed-out'>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), limitMs);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}
