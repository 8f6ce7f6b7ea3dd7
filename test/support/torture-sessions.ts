/** Sessions for the torture suite: one rule per session, lexically unlike every other, so dedupe never merges two. */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import type { Harness } from './harness.js';
import type { ExpectedCapture } from './torture-invariants.js';

const CONSONANTS = 'bcdfghjklmnprstvz';
const VOWELS = 'aeiou';

/** A made-up word derived from a seed: no two seeds share the words the hash embedder sees. */
function word(seed: string): string {
  const bytes = createHash('sha256').update(seed).digest();
  let out = '';
  for (let i = 0; i < 8; i += 1) out += i % 2 === 0 ? CONSONANTS[bytes[i]! % CONSONANTS.length] : VOWELS[bytes[i]! % VOWELS.length];
  return out;
}

/** "You MUST keep <four words of its own> enabled." */
export function uniqueRule(sessionId: string): string {
  return `You MUST keep ${[0, 1, 2, 3].map((i) => word(`${sessionId}/${i}`)).join(' ')} enabled.`;
}

export interface TortureSession extends ExpectedCapture {
  payload: { session_id: string; transcript_path: string; cwd: string; hook_event_name: string; reason: string };
}

/** Writes the transcript and returns the SessionEnd payload for it. */
export function tortureSession(h: Harness, sessionId: string, project: string): TortureSession {
  const rule = uniqueRule(sessionId);
  return {
    sessionId,
    rule,
    payload: {
      session_id: sessionId,
      transcript_path: h.session(sessionId, [rule]),
      cwd: h.project(project),
      hook_event_name: 'SessionEnd',
      reason: 'prompt_input_exit',
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A seeded generator, so a failing run can be replayed with TORTURE_SEED. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
}

export function tortureSeed(): number {
  const fromEnv = Number(process.env.TORTURE_SEED);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : Date.now() % 1_000_000_007;
}

/** Makes every lock in the state dir look abandoned, as it would after the stale time. */
export function ageLocks(home: string): number {
  const old = new Date(Date.now() - 120_000);
  let aged = 0;
  for (const name of existsSync(home) ? readdirSync(home) : []) {
    if (!name.endsWith('.lock')) continue;
    try {
      utimesSync(join(home, name), old, old);
      aged += 1;
    } catch {
      // Released meanwhile.
    }
  }
  return aged;
}
