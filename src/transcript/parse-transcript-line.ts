/**
 * Turns one transcript JSONL line into the events worth reading: what the user typed (apart from what they
 * pasted), what the assistant said, the tools it called and what they returned, Claude Code's compaction
 * summary, and a subagent's lines. Every text is cleaned of injected context and redacted here, before it is
 * cut to the renderer's limits, so no secret is ever split by a cut. Pure; never throws.
 *
 * Shapes understood:
 * - Claude Code: `{type: "user"|"assistant", message: {id?, role, content: string | blocks}}`, with
 *   `isSidechain`, `isMeta` and `isCompactSummary` flags
 * - Factory droid: `{type: "message", message: {role, content: blocks}}` (`session_start` is skipped)
 * - Codex CLI rollouts: `{type, payload}` records, read through codex-rollout-record.ts
 * - Gemini CLI sessions: `{id, timestamp, type: "user"|"gemini", content}` lines, and the `{"$set": {messages}}`
 *   line a compression writes, read through gemini-session-record.ts
 * - GitHub Copilot CLI events: `{type: "<area>.<event>", data}`, read through copilot-session-record.ts
 * - Qwen Code sessions: `{uuid, sessionId, type, message: {role, parts}}` lines, read through qwen-session-record.ts
 * - simplified: `{role, content}` and `{type: "user"|"assistant", content}` without `message`
 * Everything else (progress, system, summary, file-history-snapshot, queue-operation, unknown types) yields
 * no events.
 */
import { createHash } from 'node:crypto';
import { redactSecrets } from '../redact/redact-secrets.js';
import { cleanTranscriptText } from './clean-transcript-text.js';
import { codexRecordAsClaude, isCodexRecord } from './codex-rollout-record.js';
import { geminiCompactionAsClaude, geminiRecordAsClaude, isGeminiRecord } from './gemini-session-record.js';
import { copilotRecordAsClaude, isCopilotRecord } from './copilot-session-record.js';
import { isQwenRecord, qwenRecordAsClaude } from './qwen-session-record.js';
import { condenseCompaction } from './condense-compaction.js';
import { cutText, detach } from './cut-text.js';
import { formatTestCounts, readTestCounts } from './read-test-counts.js';
import type { EditPrint, SessionEvent } from './session-events.js';
import { splitPasted } from './split-pasted.js';
import { oneLine, summarizeToolUse } from './summarize-tool-use.js';
import { ToolOutput } from './tool-output.js';
import { LIMITS } from './transcript-limits.js';
import { isObject } from '../core/is-object.js';

type JsonObject = Record<string, unknown>;

/** Parses a line as a JSON object; `undefined` for blank, malformed or non-object lines. */
export function parseJsonObjectLine(line: string): JsonObject | undefined {
  const trimmed = line.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function parseTranscriptLine(line: string): SessionEvent[] {
  const record = parseJsonObjectLine(line);
  return record === undefined ? [] : parseTranscriptRecord(record);
}

/** Cleaned and redacted: what every text goes through before anything cuts it. */
function readable(raw: string): string {
  const text = cleanTranscriptText(raw);
  return text === '' ? '' : redactSecrets(text).text;
}

const INTERRUPT = /^\[Request interrupted by user(?: for tool use)?\]$/;
const COMMAND_NAME = /<command-name>\s*([^<]{1,200}?)\s*<\/command-name>/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
/** Claude Code's bash mode (`!cmd`): the command and its output are recorded as user lines in these tags. */
const BASH_INPUT = /<bash-input>([\s\S]*?)<\/bash-input>/;
const BASH_OUTPUT = /<bash-(stdout|stderr)>([\s\S]*?)<\/bash-\1>/g;

/** The events in one already-parsed transcript record. */
export function parseTranscriptRecord(record: unknown): SessionEvent[] {
  if (!isObject(record)) return [];
  if (isCodexRecord(record)) {
    const claude = codexRecordAsClaude(record);
    return claude === null ? [] : parseTranscriptRecord(claude);
  }
  if (isGeminiRecord(record)) {
    const claude = geminiRecordAsClaude(record);
    return claude === null ? [] : parseTranscriptRecord(claude);
  }
  if (isObject(record['$set'])) {
    const claude = geminiCompactionAsClaude(record);
    return claude === null ? [] : parseTranscriptRecord(claude);
  }
  if (isCopilotRecord(record)) {
    const claude = copilotRecordAsClaude(record);
    return claude === null ? [] : parseTranscriptRecord(claude);
  }
  if (isQwenRecord(record)) {
    const claude = qwenRecordAsClaude(record);
    return claude === null ? [] : parseTranscriptRecord(claude);
  }
  // Lines the client injected (caveats, expanded skill prompts) are nobody's words.
  if (record['isMeta'] === true) return [];

  const type = record['type'];
  const message = isObject(record['message']) ? record['message'] : undefined;
  let role: unknown;
  if (type === 'user' || type === 'assistant') role = type;
  else if (type === undefined || type === 'message') role = message?.['role'] ?? record['role'];
  else return [];

  const content = message !== undefined ? message['content'] : record['content'];
  if (record['isCompactSummary'] === true) {
    const text = readable(textOf(content));
    return text === '' ? [] : [{ kind: 'compaction', text: detach(cutText(condenseCompaction(text), LIMITS.compaction)) }];
  }
  if (record['isSidechain'] === true) return sidechainEvents(role, content);

  const id = message?.['id'];
  const messageId = typeof id === 'string' && id !== '' ? id : undefined;
  if (role === 'user') return userEvents(content);
  if (role === 'assistant') return assistantEvents(content, messageId);
  // OpenAI-style simplified lines carry tool output as its own role.
  if (role === 'tool') return toolResultEvents(content, false, undefined);
  return [];
}

/**
 * The text blocks of a message's content, joined by `separator`; a tool result (`images`) also shows
 * each image as `[image]`.
 */
function textOf(content: unknown, { separator = '\n\n', images = false } = {}): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isObject(block) && block['type'] === 'text' && typeof block['text'] === 'string') parts.push(block['text']);
    else if (images && isObject(block) && block['type'] === 'image') parts.push('[image]');
  }
  return parts.join(separator);
}

function userEvents(content: unknown): SessionEvent[] {
  const events: SessionEvent[] = [];
  if (Array.isArray(content)) {
    for (const block of content) {
      if (isObject(block) && block['type'] === 'tool_result') {
        const id = typeof block['tool_use_id'] === 'string' ? block['tool_use_id'] : undefined;
        events.push(...toolResultEvents(block['content'], block['is_error'] === true, id));
      }
    }
  }
  const raw = textOf(content);
  if (raw.trim() === '') return events;
  const trimmed = raw.trim();
  if (trimmed.startsWith('[Request interrupted by user') && INTERRUPT.test(trimmed)) return [...events, { kind: 'interrupt' }];
  if (raw.includes('<bash-')) {
    const shell = shellEvents(raw);
    if (shell !== undefined) return [...events, ...shell];
  }
  const command = COMMAND_NAME.exec(raw)?.[1];
  if (command !== undefined) {
    // A slash command: its arguments are what the user typed; the command alone says little.
    const args = readable(COMMAND_ARGS.exec(raw)?.[1] ?? '');
    if (args === '') return events;
    return [...events, { ...typedEvent(args), command: oneLine(command, 80) }];
  }
  const text = readable(raw);
  return text === '' ? events : [...events, typedEvent(text)];
}

function typedEvent(text: string): SessionEvent & { kind: 'user' } {
  const split = splitPasted(text);
  return { kind: 'user', text: detach(cutText(split.typed, LIMITS.userTextWhole)), pasted: split.pasted.length === 0 ? split.pasted : split.pasted.map((p) => ({ ...p, excerpt: detach(p.excerpt) })) };
}

/**
 * A command the user ran in Claude Code's bash mode, or what it printed: tool output, not the user's words.
 * Words typed around the tags stay the user's. Undefined when the text holds no bash tags after all.
 */
function shellEvents(raw: string): SessionEvent[] | undefined {
  const input = BASH_INPUT.exec(raw);
  const outputs = [...raw.matchAll(BASH_OUTPUT)];
  if (input === null && outputs.length === 0) return undefined;
  const events: SessionEvent[] = [];
  if (input !== null) {
    const command = oneLine(cleanTranscriptText(input[1] ?? ''), 2_000);
    if (command !== '') events.push({ kind: 'tool-call', name: 'bash mode', summary: `[the user ran in the shell: ${oneLine(command, 160)}]`, command, byUser: true });
  }
  if (outputs.length > 0) {
    const stderr = outputs.filter((m) => m[1] === 'stderr').map((m) => m[2] ?? '').join('\n').trim();
    const text = cleanTranscriptText(outputs.map((m) => m[2] ?? '').join('\n')) || '(no output)';
    events.push(...toolResultEvents(text, /\b(?:error|fatal|failed|not found|denied)\b/i.test(stderr), undefined));
  }
  const rest = raw.replace(BASH_INPUT, ' ').replace(BASH_OUTPUT, ' ');
  const typed = readable(rest);
  return typed === '' ? events : [typedEvent(typed), ...events];
}

function assistantEvents(content: unknown, messageId: string | undefined): SessionEvent[] {
  if (typeof content === 'string') return assistantText(content, messageId);
  if (!Array.isArray(content)) return [];
  const events: SessionEvent[] = [];
  let pending: string[] = [];
  const flush = (): void => {
    if (pending.length > 0) events.push(...assistantText(pending.join('\n\n'), messageId));
    pending = [];
  };
  for (const block of content) {
    if (typeof block === 'string') {
      pending.push(block);
      continue;
    }
    if (!isObject(block)) continue;
    if (block['type'] === 'text' && typeof block['text'] === 'string') pending.push(block['text']);
    else if (block['type'] === 'tool_use') {
      flush();
      events.push(...toolCallEvents(block));
    }
    // thinking, redacted_thinking, images, documents and unknown blocks add nothing to read.
  }
  flush();
  return events;
}

function assistantText(raw: string, messageId: string | undefined): SessionEvent[] {
  const text = readable(raw);
  if (text === '') return [];
  const cut = detach(cutText(text, LIMITS.conclusion));
  const event: SessionEvent = { kind: 'assistant', text: cut, fullChars: text.length };
  return [messageId === undefined ? event : { ...event, messageId }];
}

/** A short fingerprint of a text: enough to tell the same text again, without keeping it. */
function print(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 16);
}

/** Fingerprints of what an edit replaced and wrote (Claude Code, Factory droid and apply-patch shapes). */
function editPrint(input: JsonObject): EditPrint | undefined {
  const before = input['old_string'] ?? input['oldString'] ?? input['old_str'];
  const after = input['new_string'] ?? input['newString'] ?? input['new_str'];
  if (typeof before === 'string' && typeof after === 'string') return { before: print(before), after: print(after) };
  const content = input['content'] ?? input['file_text'];
  if (typeof content === 'string') return { after: print(content) };
  return undefined;
}

function toolCallEvents(block: JsonObject): SessionEvent[] {
  // A tool input can quote injected context (an agent echoing it): clean it like any text.
  const summary = cleanTranscriptText(summarizeToolUse(block['name'], block['input']));
  if (summary === '') return [];
  const name = typeof block['name'] === 'string' ? block['name'] : 'unknown';
  const input = isObject(block['input']) ? block['input'] : {};
  const rawCommand = input['command'] ?? input['cmd'];
  const command = typeof rawCommand === 'string' && rawCommand.trim() !== '' ? oneLine(cleanTranscriptText(rawCommand), 2_000) : undefined;
  const rawTarget = input['file_path'] ?? input['filePath'] ?? input['notebook_path'] ?? input['path'];
  const cleanTarget = typeof rawTarget === 'string' ? cleanTranscriptText(rawTarget) : '';
  const target = cleanTarget === '' ? undefined : oneLine(cleanTarget, 300);
  const id = typeof block['id'] === 'string' ? block['id'] : undefined;
  const edit = target === undefined ? undefined : editPrint(input);
  return [
    {
      kind: 'tool-call',
      summary,
      name,
      ...(id === undefined ? {} : { id }),
      ...(command === undefined ? {} : { command }),
      ...(target === undefined ? {} : { target }),
      ...(edit === undefined ? {} : { edit }),
    },
  ];
}

function toolResultEvents(content: unknown, isError: boolean, id: string | undefined): SessionEvent[] {
  const text = cleanTranscriptText(textOf(content, { separator: '\n', images: true })) || (isError ? '(no output)' : '');
  if (text === '') return [];
  // Its snippet is redacted before it is cut (a long result: both ends with a margin), when first read; only what it is made from is kept.
  const counts = readTestCounts(text);
  const event: SessionEvent = { kind: 'tool-result', output: ToolOutput.deferred(text, LIMITS.toolOutput), chars: text.length, isError, ...(counts === undefined ? {} : { tests: formatTestCounts(counts) }) };
  return [id === undefined ? event : { ...event, id }];
}

function sidechainEvents(role: unknown, content: unknown): SessionEvent[] {
  if (role !== 'user' && role !== 'assistant') return [];
  const text = readable(textOf(content));
  return text === '' ? [] : [{ kind: 'sidechain', role, text: detach(cutText(text, LIMITS.subagentText)) }];
}
