/** The PostToolUse hook payload: snake_case or camelCase fields, unknown fields ignored. Pure. */
import { parseHookObject, pickString } from '../hook/hook-input.js';

export interface PostToolUsePayload {
  sessionId: string;
  toolUseId: string;
  toolName: string;
  toolInput: unknown;
  toolResponse: unknown;
}

export type PayloadResult = { ok: true; payload: PostToolUsePayload } | { ok: false; problem: string };

export function parsePostToolUsePayload(text: string): PayloadResult {
  const parsed = parseHookObject(text);
  if (!parsed.ok) return parsed;
  const record = parsed.record;
  const pick = (...keys: string[]): string | null => pickString(record, ...keys);
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
