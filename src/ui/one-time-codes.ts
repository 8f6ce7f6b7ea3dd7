/**
 * The codes `recall ui` puts in the URLs it prints and hands to the browser opener. A command line is
 * readable by every local user (`/proc/<pid>/cmdline`), so what travels there is never the session's
 * secret: it is a code that is traded once for the session cookie and then dies. Each code also dies
 * unused after `ttlMs`. Codes are kept by their SHA-256, so a lookup reveals nothing by its timing.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface OneTimeCodes {
  /** A fresh code, good for one exchange within the time to live. */
  issue(): string;
  /** True once for a live code; the code is dead afterwards, whatever the answer. */
  redeem(code: string): boolean;
}

/** Long enough to click a printed link or for a slow browser to start; short enough not to linger. */
export const CODE_TTL_MS = 10 * 60_000;

export function createOneTimeCodes(now: () => number = Date.now, ttlMs = CODE_TTL_MS): OneTimeCodes {
  const live = new Map<string, number>();
  const digest = (code: string): string => createHash('sha256').update(code).digest('hex');
  return {
    issue() {
      const code = randomBytes(24).toString('base64url');
      live.set(digest(code), now() + ttlMs);
      return code;
    },
    redeem(code) {
      const key = digest(code);
      const until = live.get(key);
      live.delete(key);
      return until !== undefined && now() <= until;
    },
  };
}
