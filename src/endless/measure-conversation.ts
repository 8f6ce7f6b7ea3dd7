/**
 * Characters the model is sent for a transcript's messages: message text, tool_use inputs,
 * tool_result contents, and images and documents as they are sent (the base64 payload, or the
 * URL or text that stands for one); thinking, progress lines, snapshots and metadata are not sent.
 * `measureResume` counts only what `claude --resume` loads (see resume-chain.ts). Tokens are
 * estimated as characters / 4 (an image's real token cost depends on its pixels, not its bytes). Pure.
 */
import { isObject } from '../core/is-object.js';
import { messageContent } from './fork-transcript.js';
import { resumeChain } from './resume-chain.js';

type Json = Record<string, unknown>;

export interface ConversationSize {
  chars: number;
  /** Of which tool_result contents. */
  toolResultChars: number;
  /** Of which images and documents (in messages or in tool results). */
  mediaChars: number;
}

export function measureConversation(records: readonly Json[]): ConversationSize {
  return sumSizes(records.map(measureRecord));
}

/** What a resume of the transcript loads: the lines of its resumed chain only. */
export function measureResume(records: readonly Json[]): ConversationSize {
  return measureConversation(resumeChain(records).map((i) => records[i]!));
}

/** One line's share; zero for lines the model does not read. */
export function measureRecord(record: Json): ConversationSize {
  const size = { chars: 0, toolResultChars: 0, mediaChars: 0 };
  if (record.type !== 'user' && record.type !== 'assistant') return size;
  const message = record.message;
  if (isObject(message) && typeof message.content === 'string') {
    return { ...size, chars: message.content.length };
  }
  for (const block of messageContent(record) ?? []) {
    if (!isObject(block)) continue;
    const b = block;
    if (b.type === 'text' && typeof b.text === 'string') size.chars += b.text.length;
    else if (b.type === 'tool_use') size.chars += JSON.stringify(b.input ?? {}).length;
    else if (b.type === 'tool_result') {
      const { chars, mediaChars } = resultLength(b.content);
      size.chars += chars;
      size.toolResultChars += chars;
      size.mediaChars += mediaChars;
    } else {
      const n = mediaLength(b);
      size.chars += n;
      size.mediaChars += n;
    }
  }
  return size;
}

export function sumSizes(sizes: readonly ConversationSize[]): ConversationSize {
  const total = { chars: 0, toolResultChars: 0, mediaChars: 0 };
  for (const size of sizes) {
    total.chars += size.chars;
    total.toolResultChars += size.toolResultChars;
    total.mediaChars += size.mediaChars;
  }
  return total;
}

export function estimateTokens(chars: number): number {
  return Math.round(chars / 4);
}

function resultLength(content: unknown): { chars: number; mediaChars: number } {
  if (typeof content === 'string') return { chars: content.length, mediaChars: 0 };
  if (!Array.isArray(content)) return { chars: 0, mediaChars: 0 };
  let chars = 0;
  let mediaChars = 0;
  for (const block of content) {
    if (typeof block === 'string') chars += block.length;
    else if (isObject(block) && typeof block.text === 'string') chars += block.text.length;
    else if (isObject(block)) {
      const n = mediaLength(block);
      chars += n;
      mediaChars += n;
    }
  }
  return { chars, mediaChars };
}

/** An image or document block as it is sent: its base64 data (or URL, or plain text source); 0 for other blocks. */
function mediaLength(block: Json): number {
  if (block.type !== 'image' && block.type !== 'document') return 0;
  const source = block.source;
  if (!isObject(source)) return 0;
  const { data, url } = source;
  if (typeof data === 'string') return data.length;
  if (typeof url === 'string') return url.length;
  return 0;
}
