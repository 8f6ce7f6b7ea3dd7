/** Types for typed-messages.mjs. */
export function typedUserMessages(jsonl: string): string[];
