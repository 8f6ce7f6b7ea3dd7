/** Hook stdin payload: snake_case or camelCase fields, unknown fields ignored, wrong types dropped. */

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
  if (text.trim() === '') return { ok: false, problem: 'empty stdin' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'stdin is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'stdin JSON is not an object' };
  }
  const record = value as Record<string, unknown>;
  const pick = (...keys: string[]): string | null => {
    for (const key of keys) {
      const field = record[key];
      if (typeof field === 'string' && field.trim() !== '') return field;
    }
    return null;
  };
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
