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
 * - a `{"$set": {messages: [...]}}` line that rewrites the history after a compression: the summary, as a
 *   compaction summary (`geminiCompactionAsClaude`). Gemini writes no record of its own for a compression; it
 *   starts the new history with `{role: "user", parts: [{text: <summary>}]}` and the model's fixed answer
 *   `COMPRESSION_ACK`, and the recording service writes the whole new history as one `$set` of `messages`.
 * - every other type (info, error, warning), the header and other `$set` lines yield nothing.
 */
import { isObject } from '../core/is-object.js';

type JsonObject = Record<string, unknown>;

/** Whether a record is a Gemini CLI message line. */
export function isGeminiRecord(record: JsonObject): boolean {
  if (typeof record['id'] !== 'string' || typeof record['timestamp'] !== 'string' || 'message' in record || 'payload' in record) return false;
  return record['type'] === 'gemini' || (record['type'] === 'user' && Array.isArray(record['content']));
}

/** The model's fixed answer to a compression summary in Gemini CLI 0.61's ChatCompressionService. */
export const COMPRESSION_ACK = 'Got it. Thanks for the additional context!';

/** The compression summary message in a `$set` of `messages`: the user message the fixed answer follows. */
function compressionSummary(record: JsonObject): JsonObject | null {
  const update = record['$set'];
  if (!isObject(update) || !Array.isArray(update['messages'])) return null;
  const messages: unknown[] = update['messages'];
  for (let i = 0; i + 1 < messages.length; i += 1) {
    const summary = messages[i];
    const ack = messages[i + 1];
    if (!isObject(summary) || !isObject(ack) || summary['type'] !== 'user' || ack['type'] !== 'gemini') continue;
    if (textParts(ack['content']).trim() === COMPRESSION_ACK && typeof summary['id'] === 'string') return summary;
  }
  return null;
}

/** The id of the compression summary a `$set` line carries, or null when it carries none. */
export function geminiCompactionId(record: JsonObject): string | null {
  const summary = compressionSummary(record);
  return summary === null ? null : (summary['id'] as string);
}

/**
 * A compression's summary in the Claude Code shape: its `<state_snapshot>` when there is one (the model is
 * asked to reason in a `<scratchpad>` first), else its whole text.
 */
export function geminiCompactionAsClaude(record: JsonObject): JsonObject | null {
  const summary = compressionSummary(record);
  if (summary === null) return null;
  const text = textParts(summary['content']);
  const snapshot = /<state_snapshot>[\s\S]*?(?:<\/state_snapshot>|$)/.exec(text);
  const kept = snapshot === null ? text : snapshot[0];
  return kept.trim() === '' ? null : { type: 'user', isCompactSummary: true, message: { role: 'user', content: kept } };
}

function textParts(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((part: unknown) => (isObject(part) && typeof part['text'] === 'string' && part['thought'] !== true ? [part['text']] : [])).join('\n\n');
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
 * A `$set` of `messages` carrying a compression summary is passed on once per summary: Gemini writes the
 * whole history again (summary included) whenever it replaces it later (a rollback, a tool output masked).
 */
export function collapseRewrites(): { push(record: JsonObject): JsonObject[]; flush(): JsonObject[] } {
  let held: JsonObject | null = null;
  const summaries = new Set<string>();
  return {
    push(record) {
      if ('$set' in record) {
        const id = geminiCompactionId(record);
        // Header updates come between two versions of a message: they neither end a run nor say anything.
        if (id === null || summaries.has(id)) return [];
        summaries.add(id);
        const out = held === null ? [record] : [held, record];
        held = null;
        return out;
      }
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
