/**
 * Endless Mode defaults and environment variable names, shared by the zod config schema (CLI) and
 * the built-ins-only settings reader the PostToolUse hook uses, so the two can never disagree.
 * No imports at all: the hook loads this file.
 */

export const ENDLESS_DEFAULTS = Object.freeze({
  enabled: false,
  /** Outputs shorter than this (characters of text) are left alone. */
  minChars: 4_000,
  /** Read results feed later edits with their exact text, so they need far more before they are touched. */
  readMinChars: 16_000,
  /** The hook answers within this, model or not; the installed hook timeout (90 s) sits above it. */
  syncTimeoutMs: 60_000,
  /** Highest deadline allowed: it must stay below the installed hook timeout (90 s) with room to answer. */
  maxSyncTimeoutMs: 85_000,
  /** Tool names (exact, or a prefix ending in `*`) never compressed, on top of the built-in never-list. */
  denylist: Object.freeze([] as string[]),
  /** `recall endless fork` keeps this many of the last tool results, and their calls' inputs, whole. */
  keepRecent: 3,
  /**
   * At resume (`recall endless fork`), results of tools other than Read, and Read or file-echo
   * results a later call superseded, are compressed from this size up (see resume-rules.ts), and
   * so are the inputs of past Write/Edit calls (see resume-inputs.ts).
   */
  forkMinChars: 1_000,
});

export const ENDLESS_ENV = Object.freeze({
  enabled: 'RECALL_ENDLESS_MODE',
  minChars: 'RECALL_ENDLESS_MIN_CHARS',
  readMinChars: 'RECALL_ENDLESS_READ_MIN_CHARS',
  syncTimeoutMs: 'RECALL_SYNC_TIMEOUT_MS',
  keepRecent: 'RECALL_ENDLESS_KEEP_RECENT',
});
