/**
 * Characters the model reads when a session is resumed: message text, tool_use inputs and
 * tool_result contents (thinking, progress lines, snapshots and metadata are not sent). Tokens are
 * estimated as characters / 4. Pure.
 */
import { messageContent } from './fork-transcript.js';

type Json = Record<string, unknown>;

export interface ConversationSize {
  chars: number;
  /** Of which tool_result contents. */
  toolResultChars: number;
}

export function measureConversation(records: readonly Json[]): ConversationSize {
  const total = { chars: 0, toolResultChars: 0 };
  for (const record of records) {
    const size = measureRecord(record);
    total.chars += size.chars;
    total.toolResultChars += size.toolResultChars;
  }
  return total;
}

/** One line's share; zero for lines the model does not read. */
export function measureRecord(record: Json): ConversationSize {
  let chars = 0;
  let toolResultChars = 0;
  if (record.type !== 'user' && record.type !== 'assistant') return { chars, toolResultChars };
  const message = record.message;
  if (typeof message === 'object' && message !== null && typeof (message as Json).content === 'string') {
    return { chars: ((message as Json).content as string).length, toolResultChars };
  }
  for (const block of messageContent(record) ?? []) {
    if (typeof block !== 'object' || block === null) continue;
    const b = block as Json;
    if (b.type === 'text' && typeof b.text === 'string') chars += b.text.length;
    else if (b.type === 'tool_use') chars += JSON.stringify(b.input ?? {}).length;
    else if (b.type === 'tool_result') {
      const n = resultLength(b.content);
      chars += n;
      toolResultChars += n;
    }
  }
  return { chars, toolResultChars };
}

export function estimateTokens(chars: number): number {
  return Math.round(chars / 4);
}

function resultLength(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const block of content) {
    if (typeof block === 'string') n += block.length;
    else if (typeof block === 'object' && block !== null && typeof (block as Json).text === 'string') n += ((block as Json).text as string).length;
  }
  return n;
}
