/**
 * Codex CLI's session files ("rollouts", `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`) hold one
 * `{timestamp, type, payload}` record a line. This turns the records worth reading into the Claude Code shape
 * the transcript parser already reads, so the rest of the stage (cleaning, redaction, cuts, outcomes) is shared.
 * Pure; never throws.
 *
 * - `response_item` with a `message` payload: the user's and the assistant's words (`input_text`/`output_text`
 *   blocks). Developer messages (Codex's instructions, hook context) and the user-role messages Codex injects
 *   itself (`<environment_context>`, AGENTS.md instructions, skills, `<turn_aborted>`...) are nobody's words.
 * - `function_call` / `custom_tool_call` and their `*_output`: tool calls (arguments are JSON text; a custom
 *   tool's input is raw text, e.g. apply_patch's patch) and results. A shell result's header (`Chunk ID`,
 *   `Wall time`, `Process exited with code N`, `Output:`) becomes `Exit code N` for a failure, else goes.
 * - `compacted`: the summary Codex wrote when it compacted the conversation.
 * - `event_msg` repeats the same messages for the UI; it and every other record type (`session_meta`,
 *   `turn_context`, `world_state`, `token_usage_record`, `reasoning`...) yield nothing.
 */
import { isObject } from '../core/is-object.js';

type JsonObject = Record<string, unknown>;

/** Whether a record is one of Codex's (`{type, payload}` with a type Codex writes). */
export function isCodexRecord(record: JsonObject): boolean {
  return isObject(record['payload']) && typeof record['type'] === 'string' && CODEX_TYPES.has(record['type']);
}

const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'world_state', 'token_usage_record', 'compacted']);

/** What Codex puts into the conversation as user messages on its own. */
const INJECTED_USER_TEXT =
  /^\s*(?:<(?:environment_context|user_instructions|INSTRUCTIONS|skill|subagent_notification|collaboration_mode|model_switch|permissions instructions|apps_instructions|realtime_[a-z_]+)>|# AGENTS\.md instructions for )/;
const TURN_ABORTED = /^\s*<turn_aborted>/;
/** The words Codex puts before a compaction summary ("Another language model started to solve this problem..."). */
const COMPACTION_PREAMBLE = /^Another language model started to solve this problem[^\n]*?use the information in this summary to assist with your own analysis:\s*/;

/** The record in Claude Code's transcript shape, or null when it holds nothing to read. */
export function codexRecordAsClaude(record: JsonObject): JsonObject | null {
  const payload = record['payload'] as JsonObject;
  if (record['type'] === 'compacted') {
    const message = typeof payload['message'] === 'string' ? payload['message'].replace(COMPACTION_PREAMBLE, '') : '';
    return message.trim() !== '' ? { type: 'user', isCompactSummary: true, message: { role: 'user', content: message } } : null;
  }
  if (record['type'] !== 'response_item') return null;
  switch (payload['type']) {
    case 'message':
      return messageAsClaude(payload);
    case 'function_call':
      return toolUse(payload, parseArguments(payload['arguments']));
    case 'custom_tool_call':
      return toolUse(payload, typeof payload['input'] === 'string' ? { input: payload['input'] } : {});
    case 'local_shell_call':
      return toolUse({ ...payload, name: 'shell' }, shellAction(payload['action']));
    case 'function_call_output':
    case 'custom_tool_call_output':
      return toolResult(payload);
    default:
      return null;
  }
}

function messageAsClaude(payload: JsonObject): JsonObject | null {
  const role = payload['role'];
  const text = blocksText(payload['content']);
  if (text.trim() === '') return null;
  const id = typeof payload['id'] === 'string' ? payload['id'] : undefined;
  if (role === 'assistant') return { type: 'assistant', message: { ...(id === undefined ? {} : { id }), role: 'assistant', content: [{ type: 'text', text }] } };
  if (role !== 'user') return null;
  if (TURN_ABORTED.test(text)) return { type: 'user', message: { role: 'user', content: '[Request interrupted by user]' } };
  if (INJECTED_USER_TEXT.test(text)) return null;
  return { type: 'user', message: { role: 'user', content: [{ type: 'text', text }] } };
}

/** `input_text` / `output_text` blocks (and plain strings) joined; images as `[image]`. */
function blocksText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isObject(block) && typeof block['text'] === 'string' && (block['type'] === 'input_text' || block['type'] === 'output_text' || block['type'] === 'text')) parts.push(block['text']);
    else if (isObject(block) && (block['type'] === 'input_image' || block['type'] === 'image')) parts.push('[image]');
  }
  return parts.join('\n\n');
}

function toolUse(payload: JsonObject, input: JsonObject): JsonObject {
  const name = typeof payload['name'] === 'string' ? payload['name'] : 'unknown';
  const id = typeof payload['call_id'] === 'string' ? payload['call_id'] : undefined;
  return { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', ...(id === undefined ? {} : { id }), name, input }] } };
}

function parseArguments(value: unknown): JsonObject {
  if (isObject(value)) return value;
  if (typeof value !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : { arguments: value };
  } catch {
    return { arguments: value };
  }
}

function shellAction(action: unknown): JsonObject {
  if (!isObject(action)) return {};
  const command = action['command'];
  return Array.isArray(command) ? { command: command.filter((part) => typeof part === 'string').join(' ') } : {};
}

const SHELL_HEADER = /^(?:Chunk ID: [^\n]*\n)?(?:Wall time: [^\n]*\n)?(?:Process exited with code (-?\d+)\n)?(?:Original token count: [^\n]*\n)?Output:\n/;

function toolResult(payload: JsonObject): JsonObject {
  const id = typeof payload['call_id'] === 'string' ? payload['call_id'] : undefined;
  let text = outputText(payload['output']);
  let isError = false;
  const header = SHELL_HEADER.exec(text);
  if (header !== null) {
    const code = header[1];
    text = text.slice(header[0].length);
    if (code !== undefined && code !== '0') {
      isError = true;
      text = `Exit code ${code}\n${text}`;
    }
  }
  return { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', ...(id === undefined ? {} : { tool_use_id: id }), content: text, is_error: isError }] } };
}

/** A tool output is text, a list of content items, or (older rollouts) `{content, success}`. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return blocksText(output);
  if (isObject(output) && typeof output['content'] === 'string') return output['content'];
  return '';
}
