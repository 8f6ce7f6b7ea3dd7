/** Every failure recall reports on purpose carries one of these codes. */
export type RecallErrorCode =
  | 'CONFIG_INVALID'
  | 'INPUT_INVALID'
  | 'NOT_FOUND'
  | 'TRANSCRIPT_UNREADABLE'
  | 'TRANSCRIPT_MISSING'
  | 'LLM_NOT_CONFIGURED'
  | 'LLM_UNAVAILABLE'
  | 'LLM_TIMEOUT'
  | 'LLM_MODEL_MISSING'
  | 'LLM_BAD_OUTPUT'
  | 'EMBEDDER_UNAVAILABLE'
  | 'EMBEDDER_MISMATCH'
  | 'STORE_FAILED'
  | 'STORE_UNREACHABLE'
  | 'STORE_CORRUPT'
  | 'STORE_DENIED'
  | 'LOCK_HELD'
  | 'STATE_UNWRITABLE'
  /** A state folder that is a symlink, someone else's, or writable by others: refused, not used. */
  | 'STATE_UNSAFE';

/** Codes for conditions that pass on their own: a job failing with one is retried later. */
const TRANSIENT: ReadonlySet<RecallErrorCode> = new Set<RecallErrorCode>([
  'LLM_UNAVAILABLE',
  'LLM_TIMEOUT',
  'LLM_MODEL_MISSING',
  'LLM_BAD_OUTPUT',
  'TRANSCRIPT_MISSING',
  'STORE_FAILED',
  // A shared store that is down or refuses the key: the job waits until it answers (or `recall retry`).
  'STORE_UNREACHABLE',
  'STORE_DENIED',
  // A damaged newest table version: jobs wait for `recall repair` instead of failing.
  'STORE_CORRUPT',
  'LOCK_HELD',
  'EMBEDDER_UNAVAILABLE',
]);

/**
 * Marks recall's errors whichever copy of this module made them: the build folds some entry files
 * (hooks, `endless fork`, the search client) together with the modules they import, so such a
 * process can hold two copies of this class, and an error thrown by a lazily loaded module must
 * still be a RecallError to code that imported the other copy.
 */
const BRAND = Symbol.for('recall.RecallError');

export class RecallError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && BRAND in value;
  }

  override readonly name = 'RecallError';
  constructor(
    readonly code: RecallErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    Object.defineProperty(this, BRAND, { value: true });
  }

  get transient(): boolean {
    return TRANSIENT.has(this.code);
  }
}

export function isRecallError(err: unknown, code?: RecallErrorCode): err is RecallError {
  return err instanceof RecallError && (code === undefined || err.code === code);
}

/** A short, single-line description of any thrown value, for logs and job files. */
export function describeError(err: unknown): string {
  if (err instanceof RecallError) return `${err.code}: ${err.message}`;
  if (err instanceof Error) return err.message.split('\n')[0] ?? err.name;
  return String(err);
}
