/**
 * The PostToolUse hook payload: snake_case or camelCase fields, unknown fields ignored. Claude Code sends
 * a `tool_use_id` and a structured `tool_response`; droid sends no id and a plain string response, so the
 * id is derived (see derive-tool-use-id.ts) from the call and where the transcript stood, which the
 * caller reads (`transcriptPosition`). Pure apart from that callback.
 */
import { parseStdinObject, pickString } from '../core/read-json-object.js';
import { deriveToolUseId } from './derive-tool-use-id.js';

export interface PostToolUsePayload {
  sessionId: string;
  toolUseId: string;
  toolName: string;
  toolInput: unknown;
  toolResponse: unknown;
  /** True when the agent sent no tool_use_id (droid), which also sends every response as a plain string. */
  idDerived?: boolean;
}

export type PayloadResult = { ok: true; payload: PostToolUsePayload } | { ok: false; problem: string };

export function parsePostToolUsePayload(text: string, transcriptPosition: (transcriptPath: string) => number | null = () => null): PayloadResult {
  const parsed = parseStdinObject(text);
  if (!parsed.ok) return parsed;
  const record = parsed.record;
  const pick = (...keys: string[]): string | null => pickString(record, ...keys);
  const toolName = pick('tool_name', 'toolName');
  if (toolName === null) return { ok: false, problem: 'no tool_name' };
  const response = 'tool_response' in record ? record.tool_response : 'toolResponse' in record ? record.toolResponse : copilotResult(record);
  if (response === undefined || response === null) return { ok: false, problem: `no tool_response for ${toolName}` };
  const sessionId = pick('session_id', 'sessionId') ?? 'unknown-session';
  const toolInput = record.tool_input ?? record.toolInput ?? null;
  const transcriptPath = pick('transcript_path', 'transcriptPath');
  const sentId = pick('tool_use_id', 'toolUseId');
  if (sentId !== null) return { ok: true, payload: { sessionId, toolUseId: sentId, toolName, toolInput, toolResponse: response } };
  const position = transcriptPath === null ? null : transcriptPosition(transcriptPath);
  const toolUseId = deriveToolUseId({ sessionId, toolName, toolInput, transcriptPosition: position });
  return { ok: true, payload: { sessionId, toolUseId, toolName, toolInput, toolResponse: response, idDerived: true } };
}

/**
 * GitHub Copilot CLI sends `tool_result: {result_type, text_result_for_llm}` (camelCase under camelCase event
 * names): the text the model would get, read as a plain string response.
 */
function copilotResult(record: Record<string, unknown>): string | null {
  const result = record.tool_result ?? record.toolResult;
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return null;
  const text = pickString(result as Record<string, unknown>, 'text_result_for_llm', 'textResultForLlm');
  return text;
}
