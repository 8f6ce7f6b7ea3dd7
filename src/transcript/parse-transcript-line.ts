/**
 * Turns one transcript JSONL line into the turns worth reading: what the user said, what the
 * assistant said, and one-line traces of the tools it ran. Pure; never throws.
 *
 * Shapes understood:
 * - Claude Code: `{type: "user"|"assistant", message: {id?, role, content: string | blocks}}`
 * - Factory droid: `{type: "message", message: {role, content: blocks}}` (`session_start` is skipped)
 * - simplified: `{role, content}` and `{type: "user"|"assistant", content}` without `message`
 * Everything else (progress, system, summary, file-history-snapshot, queue-operation, unknown
 * types) yields no turns.
 */
import { cleanTranscriptText } from './clean-transcript-text.js';
import { cutToolResult, summarizeToolUse } from './summarize-tool-use.js';

export type TurnRole = 'user' | 'assistant' | 'tool';

export interface Turn {
  role: TurnRole;
  text: string;
  /** API message id shared by the several lines one assistant message is split into. */
  messageId?: string;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

export function parseTranscriptLine(line: string): Turn[] {
  const record = parseJsonObjectLine(line);
  return record === undefined ? [] : parseTranscriptRecord(record);
}

/** The turns in one already-parsed transcript record. */
export function parseTranscriptRecord(record: unknown): Turn[] {
  if (!isObject(record)) return [];
  // Subagent chatter and client-injected lines (caveats, reminders) are not the conversation.
  if (record['isSidechain'] === true || record['isMeta'] === true) return [];
  // Compaction summaries are skipped: the turns they paraphrase are earlier in the same file,
  // and a model's paraphrase would put words in the user's mouth for the memory extractor.
  if (record['isCompactSummary'] === true) return [];

  const type = record['type'];
  const message = isObject(record['message']) ? record['message'] : undefined;
  let role: unknown;
  if (type === 'user' || type === 'assistant') role = type;
  else if (type === undefined || type === 'message') role = message?.['role'] ?? record['role'];
  else return [];

  const content = message !== undefined ? message['content'] : record['content'];
  const id = message?.['id'];
  const messageId = typeof id === 'string' && id !== '' ? id : undefined;
  if (role === 'user' || role === 'assistant') return contentTurns(role, content, messageId);
  // OpenAI-style simplified lines carry tool output as its own role.
  if (role === 'tool') return toolResultTurns(content, false);
  return [];
}

function textTurn(role: 'user' | 'assistant', raw: string, messageId: string | undefined): Turn[] {
  const text = cleanTranscriptText(raw);
  if (text === '') return [];
  return [messageId === undefined ? { role, text } : { role, text, messageId }];
}

function contentTurns(role: 'user' | 'assistant', content: unknown, messageId: string | undefined): Turn[] {
  if (typeof content === 'string') return textTurn(role, content, messageId);
  if (!Array.isArray(content)) return [];
  const turns: Turn[] = [];
  let pendingText: string[] = [];
  const flushText = (): void => {
    if (pendingText.length > 0) turns.push(...textTurn(role, pendingText.join('\n\n'), messageId));
    pendingText = [];
  };
  for (const block of content) {
    if (typeof block === 'string') {
      pendingText.push(block);
      continue;
    }
    if (!isObject(block)) continue;
    switch (block['type']) {
      case 'text':
        if (typeof block['text'] === 'string') pendingText.push(block['text']);
        break;
      case 'tool_use': {
        flushText();
        // A tool input can quote injected context (an agent echoing it): clean it like any text.
        const text = cleanTranscriptText(summarizeToolUse(block['name'], block['input']));
        if (text === '') break;
        const turn: Turn = { role: 'tool', text };
        turns.push(messageId === undefined ? turn : { ...turn, messageId });
        break;
      }
      case 'tool_result':
        flushText();
        turns.push(...toolResultTurns(block['content'], block['is_error'] === true));
        break;
      default:
        // thinking, redacted_thinking, images, documents and unknown blocks add nothing to read.
        break;
    }
  }
  flushText();
  return turns;
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isObject(block) && block['type'] === 'text' && typeof block['text'] === 'string') parts.push(block['text']);
    else if (isObject(block) && block['type'] === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}

function toolResultTurns(content: unknown, isError: boolean): Turn[] {
  const text = cleanTranscriptText(resultText(content));
  if (text === '' && !isError) return [];
  const label = isError ? '[error]' : '[result]';
  return [{ role: 'tool', text: text === '' ? label : `${label} ${cutToolResult(text)}` }];
}
