/** The PostToolUse hook payload: snake_case or camelCase fields, unknown fields ignored. Pure. */

export interface PostToolUsePayload {
  sessionId: string;
  toolUseId: string;
  toolName: string;
  toolInput: unknown;
  toolResponse: unknown;
}

export type PayloadResult = { ok: true; payload: PostToolUsePayload } | { ok: false; problem: string };

export function parsePostToolUsePayload(text: string): PayloadResult {
  if (text.trim() === '') return { ok: false, problem: 'empty stdin' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'stdin is not JSON (or was cut at the size cap)' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, problem: 'stdin JSON is not an object' };
  const record = value as Record<string, unknown>;
  const pick = (...keys: string[]): string | null => {
    for (const key of keys) {
      const field = record[key];
      if (typeof field === 'string' && field.trim() !== '') return field;
    }
    return null;
  };
  const toolName = pick('tool_name', 'toolName');
  if (toolName === null) return { ok: false, problem: 'no tool_name' };
  const toolUseId = pick('tool_use_id', 'toolUseId');
  if (toolUseId === null) return { ok: false, problem: `no tool_use_id for ${toolName}` };
  const response = 'tool_response' in record ? record.tool_response : record.toolResponse;
  if (response === undefined || response === null) return { ok: false, problem: `no tool_response for ${toolName}` };
  return {
    ok: true,
    payload: {
      sessionId: pick('session_id', 'sessionId') ?? 'unknown-session',
      toolUseId,
      toolName,
      toolInput: record.tool_input ?? record.toolInput ?? null,
      toolResponse: response,
    },
  };
}
