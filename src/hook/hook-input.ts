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

/** Parses hook stdin into a JSON object, or says why it is not one. */
export function parseHookObject(text: string): { ok: true; record: Record<string, unknown> } | { ok: false; problem: string } {
  if (text.trim() === '') return { ok: false, problem: 'empty stdin' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'stdin is not JSON (or was cut at the size cap)' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'stdin JSON is not an object' };
  }
  return { ok: true, record: value as Record<string, unknown> };
}

/** The first of `keys` holding a non-blank string. */
export function pickString(record: Record<string, unknown>, ...keys: string[]): string | null {
  for (const key of keys) {
    const field = record[key];
    if (typeof field === 'string' && field.trim() !== '') return field;
  }
  return null;
}

export function parseHookInput(text: string): HookInputResult {
  const parsed = parseHookObject(text);
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
