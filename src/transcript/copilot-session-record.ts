/**
 * GitHub Copilot CLI's session files (`$COPILOT_HOME/session-state/<session id>/events.jsonl`, default
 * `~/.copilot`) hold one `{type, data, id, timestamp, parentId}` event a line. This turns the events worth
 * reading into the Claude Code shape the transcript parser already reads, so cleaning, redaction, cuts and
 * outcomes are shared. Pure; never throws.
 *
 * - `user.message`: the user's words (`content`; `transformedContent` is what Copilot sent, with its own
 *   `<current_datetime>` and the like around them, and is not read).
 * - `assistant.message`: the assistant's text and its `toolRequests` (`toolCallId`, `name`, `arguments`).
 * - `tool.execution_complete`: a tool's result (`result.content`, `success`); a failure's `error.message`.
 * - `session.compaction_complete` with a `summaryContent`: the summary Copilot wrote when it compacted.
 * - every other event (`session.start`, `system.message`, `hook.*`, `assistant.turn_*`, usage records,
 *   `tool.execution_start`, deltas...) yields nothing. A subagent's events (`parentToolCallId` /
 *   `agentId` set) are kept out like Claude Code's sidechain lines.
 */
import { isObject } from '../core/is-object.js';

type JsonObject = Record<string, unknown>;

const COPILOT_TYPES = /^(?:session|user|assistant|tool|hook|system|model|subagent|skill|permission|mcp|command|agent)\.[a-z_.]+$/;

/** Whether a record is one of Copilot CLI's events (`{type: "<area>.<event>", data: {...}}`). */
export function isCopilotRecord(record: JsonObject): boolean {
  return typeof record['type'] === 'string' && COPILOT_TYPES.test(record['type']) && isObject(record['data']);
}

/** The record in Claude Code's transcript shape, or null when it holds nothing to read. */
export function copilotRecordAsClaude(record: JsonObject): JsonObject | null {
  const data = record['data'] as JsonObject;
  const sidechain = typeof data['parentToolCallId'] === 'string' || typeof data['agentId'] === 'string' ? { isSidechain: true } : {};
  switch (record['type']) {
    case 'user.message':
      return typeof data['content'] === 'string' && data['content'].trim() !== ''
        ? { type: 'user', ...sidechain, message: { role: 'user', content: [{ type: 'text', text: data['content'] }] } }
        : null;
    case 'assistant.message':
      return assistantAsClaude(data, sidechain);
    case 'tool.execution_complete':
      return toolResultAsClaude(data, sidechain);
    case 'session.compaction_complete':
      return typeof data['summaryContent'] === 'string' && data['summaryContent'].trim() !== ''
        ? { type: 'user', isCompactSummary: true, message: { role: 'user', content: data['summaryContent'] } }
        : null;
    default:
      return null;
  }
}

function assistantAsClaude(data: JsonObject, sidechain: JsonObject): JsonObject | null {
  const content: JsonObject[] = [];
  if (typeof data['content'] === 'string' && data['content'].trim() !== '') content.push({ type: 'text', text: data['content'] });
  const requests = Array.isArray(data['toolRequests']) ? data['toolRequests'] : [];
  for (const request of requests) {
    if (!isObject(request) || typeof request['name'] !== 'string') continue;
    const id = typeof request['toolCallId'] === 'string' ? { id: request['toolCallId'] } : {};
    content.push({ type: 'tool_use', ...id, name: request['name'], input: isObject(request['arguments']) ? request['arguments'] : {} });
  }
  if (content.length === 0) return null;
  const id = typeof data['messageId'] === 'string' ? { id: data['messageId'] } : {};
  return { type: 'assistant', ...sidechain, message: { ...id, role: 'assistant', content } };
}

/** The line Copilot's shell tool puts after a command's output. */
const SHELL_TRAILER = /\n?<shellId: [^>\n]* completed with exit code (-?\d+)>\s*$/;

function toolResultAsClaude(data: JsonObject, sidechain: JsonObject): JsonObject | null {
  const result = isObject(data['result']) ? data['result'] : {};
  const error = isObject(data['error']) ? data['error'] : {};
  let text = typeof result['content'] === 'string' ? result['content'] : typeof error['message'] === 'string' ? error['message'] : '';
  const shell = isObject(data['shellExecution']) ? data['shellExecution'] : {};
  const trailer = SHELL_TRAILER.exec(text);
  if (trailer !== null) text = text.slice(0, trailer.index);
  const code = typeof shell['exitCode'] === 'number' ? String(shell['exitCode']) : trailer?.[1];
  // A shell command that failed is still a tool call that succeeded (`success: true`): its exit code says it failed.
  const failed = data['success'] === false || (code !== undefined && code !== '0');
  if (code !== undefined && code !== '0') text = `Exit code ${code}\n${text}`;
  const id = typeof data['toolCallId'] === 'string' ? { tool_use_id: data['toolCallId'] } : {};
  return { type: 'user', ...sidechain, message: { role: 'user', content: [{ type: 'tool_result', ...id, content: text, is_error: failed }] } };
}
