/**
 * Gemini CLI's session files (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`): a header line
 * (`{sessionId, projectHash, startTime, kind}`), `{"$set": ...}` lines that update it, and one line per message
 * `{id, timestamp, type: "user"|"gemini"|"info"|..., content}`. A message is written again under the same id as
 * it grows (a model turn first without, then with its `toolCalls`): the reader keeps the last line of a run of
 * lines with one id (`collapseRewrites`). This turns a message into the Claude Code shape the parser reads.
 * Pure; never throws.
 *
 * - `user`: text parts are the user's words (Gemini's own `<session_context>` message is not); a
 *   `functionResponse` part is a tool's result (`response.output`, or `response.error`, which is also where
 *   an AfterTool hook's replacement lands).
 * - `gemini`: `content` is the model's text; `toolCalls` its calls (`name`, `args`, `id`).
 * - every other type (info, error, warning) and the header and `$set` lines yield nothing.
 */
import { isObject } from '../core/is-object.js';

type JsonObject = Record<string, unknown>;

/** Whether a record is a Gemini CLI message line. */
export function isGeminiRecord(record: JsonObject): boolean {
  if (typeof record['id'] !== 'string' || typeof record['timestamp'] !== 'string' || 'message' in record || 'payload' in record) return false;
  return record['type'] === 'gemini' || (record['type'] === 'user' && Array.isArray(record['content']));
}

export function geminiRecordAsClaude(record: JsonObject): JsonObject | null {
  return record['type'] === 'gemini' ? modelTurn(record) : geminiUserParts(record['content'] as unknown[]);
}

/**
 * A user turn of Gemini's `parts` (text, `functionResponse`) in the Claude Code shape; also read for Qwen Code,
 * whose session files keep Gemini's parts.
 */
export function geminiUserParts(parts: unknown[]): JsonObject | null {
  const blocks: JsonObject[] = [];
  for (const part of parts) {
    if (!isObject(part)) continue;
    if (typeof part['text'] === 'string') {
      if (!/^\s*<session_context>/.test(part['text'])) blocks.push({ type: 'text', text: part['text'] });
    } else if (isObject(part['functionResponse'])) {
      const call = part['functionResponse'];
      const response = isObject(call['response']) ? call['response'] : {};
      const isError = response['error'] !== undefined;
      const value = isError ? response['error'] : (response['output'] ?? response);
      blocks.push({
        type: 'tool_result',
        ...(typeof call['id'] === 'string' ? { tool_use_id: call['id'] } : {}),
        content: typeof value === 'string' ? value : JSON.stringify(value),
        is_error: isError,
      });
    }
  }
  return blocks.length === 0 ? null : { type: 'user', message: { role: 'user', content: blocks } };
}

function modelTurn(record: JsonObject): JsonObject | null {
  const blocks: JsonObject[] = [];
  const content = record['content'];
  if (typeof content === 'string' && content.trim() !== '') blocks.push({ type: 'text', text: content });
  else if (Array.isArray(content)) {
    for (const part of content) if (isObject(part) && typeof part['text'] === 'string' && part['thought'] !== true) blocks.push({ type: 'text', text: part['text'] });
  }
  const calls = Array.isArray(record['toolCalls']) ? record['toolCalls'] : [];
  for (const call of calls) {
    if (!isObject(call) || typeof call['name'] !== 'string') continue;
    blocks.push({ type: 'tool_use', ...(typeof call['id'] === 'string' ? { id: call['id'] } : {}), name: call['name'], input: isObject(call['args']) ? call['args'] : {} });
  }
  if (blocks.length === 0) return null;
  const id = record['id'] as string;
  return { type: 'assistant', message: { id, role: 'assistant', content: blocks } };
}

/**
 * Feeds records through, holding back a Gemini message until a line with another id comes, so that of a
 * message written several times only its last version is read. `flush` hands over the one held back.
 */
export function collapseRewrites(): { push(record: JsonObject): JsonObject[]; flush(): JsonObject[] } {
  let held: JsonObject | null = null;
  return {
    push(record) {
      // Header updates come between two versions of a message: they neither end a run nor say anything.
      if ('$set' in record) return [];
      if (!isGeminiRecord(record)) {
        const out = held === null ? [record] : [held, record];
        held = null;
        return out;
      }
      const out = held !== null && held['id'] !== record['id'] ? [held] : [];
      held = record;
      return out;
    },
    flush() {
      const out = held === null ? [] : [held];
      held = null;
      return out;
    },
  };
}
