/**
 * Qwen Code's session files (`~/.qwen/projects/<sanitized cwd>/chats/<session id>.jsonl`): one record a line,
 * `{uuid, parentUuid, sessionId, timestamp, type: "user"|"assistant"|"tool_result"|"system", provenance, cwd,
 * version, message?: {role, parts}}`, the message in Gemini's `parts` shape (Qwen Code is a fork of Gemini CLI).
 * This turns a record into the Claude Code shape the parser reads. Pure; never throws.
 *
 * - `user`: the user's words, when its provenance is the user's (`real_user`; Goal runtime prompts are not);
 *   `mid_turn_user_message` (typed while tools ran) is read too.
 * - `assistant`: text parts (thoughts left out) and `functionCall` parts (`id`, `name`, `args`).
 * - `tool_result`: `functionResponse` parts (`response.output`, or `response.error`, which is also where a
 *   PostToolUse hook's `stopReason` lands).
 * - `system` `chat_compression`: the summary that starts the compressed history, as a compaction summary.
 * - every other system record (telemetry, attribution, slash commands, titles) yields nothing.
 */
import { isObject } from '../core/is-object.js';
import { geminiUserParts } from './gemini-session-record.js';

type JsonObject = Record<string, unknown>;

const TYPES = new Set(['user', 'assistant', 'tool_result', 'system']);

/** Whether a record is a Qwen Code session line (Claude Code's lines carry `message.content`, never `parts`). */
export function isQwenRecord(record: JsonObject): boolean {
  if (typeof record['uuid'] !== 'string' || typeof record['sessionId'] !== 'string' || !TYPES.has(record['type'] as string)) return false;
  const message = record['message'];
  if (isObject(message)) return Array.isArray(message['parts']);
  return record['type'] === 'system' && typeof record['subtype'] === 'string';
}

export function qwenRecordAsClaude(record: JsonObject): JsonObject | null {
  const parts = partsOf(record);
  switch (record['type']) {
    case 'user':
      return isUsersOwn(record) && parts !== null ? geminiUserParts(parts) : null;
    case 'tool_result':
      return parts === null ? null : toolResults(parts);
    case 'assistant':
      return parts === null || record['subtype'] !== undefined ? null : modelTurn(record, parts);
    default:
      return record['subtype'] === 'chat_compression' ? compaction(record['systemPayload']) : null;
  }
}

function partsOf(record: JsonObject): unknown[] | null {
  const message = record['message'];
  return isObject(message) && Array.isArray(message['parts']) ? message['parts'] : null;
}

function isUsersOwn(record: JsonObject): boolean {
  const provenance = record['provenance'];
  const subtype = record['subtype'];
  return (provenance === undefined || provenance === 'real_user') && (subtype === undefined || subtype === 'mid_turn_user_message');
}

/** Only the `functionResponse` parts: a tool result record carries no words of the user. */
function toolResults(parts: unknown[]): JsonObject | null {
  return geminiUserParts(parts.filter((part) => isObject(part) && isObject(part['functionResponse'])));
}

function modelTurn(record: JsonObject, parts: unknown[]): JsonObject | null {
  const blocks: JsonObject[] = [];
  for (const part of parts) {
    if (!isObject(part)) continue;
    if (typeof part['text'] === 'string' && part['thought'] !== true && part['text'].trim() !== '') blocks.push({ type: 'text', text: part['text'] });
    const call = part['functionCall'];
    if (isObject(call) && typeof call['name'] === 'string') {
      blocks.push({ type: 'tool_use', ...(typeof call['id'] === 'string' ? { id: call['id'] } : {}), name: call['name'], input: isObject(call['args']) ? call['args'] : {} });
    }
  }
  if (blocks.length === 0) return null;
  return { type: 'assistant', message: { id: record['uuid'], role: 'assistant', content: blocks } };
}

/** The compressed history starts with the summary, as a user turn's text. */
function compaction(payload: unknown): JsonObject | null {
  if (!isObject(payload) || !Array.isArray(payload['compressedHistory'])) return null;
  const first: unknown = payload['compressedHistory'][0];
  if (!isObject(first) || !Array.isArray(first['parts'])) return null;
  const text = first['parts']
    .flatMap((part: unknown) => (isObject(part) && typeof part['text'] === 'string' ? [part['text']] : []))
    .join('\n\n');
  return text.trim() === '' ? null : { type: 'user', isCompactSummary: true, message: { role: 'user', content: text } };
}
