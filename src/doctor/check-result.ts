/** What one doctor check reports. */
/** `info`: nothing to check or fix (the hooks of an agent that is not on this machine); never a warning. */
export type CheckStatus = 'ok' | 'info' | 'warn' | 'fail';

export interface CheckResult {
  id: string;
  title: string;
  status: CheckStatus;
  detail: string;
  /** What to do about a warning or failure: a command where there is one. */
  fix?: string;
}

/** Doctor passes when no check failed; warnings are allowed. */
export function doctorPassed(results: readonly CheckResult[]): boolean {
  return results.every((r) => r.status !== 'fail');
}
