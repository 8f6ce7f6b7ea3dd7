/** Hook stdin payload: snake_case or camelCase fields, unknown fields ignored, wrong types dropped. */
import { parseStdinObject, pickString } from '../core/read-json-object.js';

export interface HookInput {
  sessionId: string | null;
  transcriptPath: string | null;
  cwd: string | null;
  event: string | null;
  reason: string | null;
  source: string | null;
}

export type HookInputResult = { ok: true; input: HookInput } | { ok: false; problem: string };

export function parseHookInput(text: string): HookInputResult {
  const parsed = parseStdinObject(text);
  if (!parsed.ok) return parsed;
  const pick = (...keys: string[]): string | null => pickString(parsed.record, ...keys);
  return {
    ok: true,
    input: {
      sessionId: pick('session_id', 'sessionId'),
      transcriptPath: pick('transcript_path', 'transcriptPath'),
      cwd: pick('cwd'),
      event: pick('hook_event_name', 'hookEventName'),
      reason: pick('reason'),
      source: pick('source'),
    },
  };
}
