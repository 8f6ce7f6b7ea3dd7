/**
 * A tool call id for agents whose PostToolUse payload carries none (Factory droid): the same call gives
 * the same id, and two calls of one tool with the same input at different points of a session do not,
 * because the transcript has grown between them. Node built-ins only.
 */
import { createHash } from 'node:crypto';

export interface ToolCallFacts {
  sessionId: string;
  toolName: string;
  toolInput: unknown;
  /** Where the session's transcript stood when the hook ran (its size in bytes), or null when unknown. */
  transcriptPosition: number | null;
}

export function deriveToolUseId(facts: ToolCallFacts): string {
  const inputHash = createHash('sha256').update(JSON.stringify(facts.toolInput ?? null)).digest('hex');
  const key = [facts.sessionId, facts.toolName, inputHash, String(facts.transcriptPosition ?? '')].join('\u0000');
  return `derived_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
}
